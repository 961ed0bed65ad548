#!/usr/bin/env node
'use strict'
// The @grpc/grpc-js server of bench/grpc-vs-grpc-js.js: bench.Echo/Say of
// test/fixtures/grpc/echo.proto, answering with the request's text.
//   node bench/lib/grpc-echo-server.js PORT
const path = require('node:path')
const grpc = require('@grpc/grpc-js')
const protobuf = require('protobufjs')

const port = Number(process.argv[2])
if (require.main !== module) {
  // required for echoService() by bench/grpc-client-loop.js
} else if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error('usage: node bench/lib/grpc-echo-server.js PORT')
  process.exitCode = 2
} else {
  const { service } = echoService()
  const server = new grpc.Server()
  server.addService(service, { Say: (call, cb) => cb(null, { text: call.request.text }) })
  server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) throw err
    console.error(`serving on 127.0.0.1:${port}`)
  })
}

/** The Say method's definition for grpc-js (server and client), from the fixture .proto. */
function echoService () {
  const root = protobuf.loadSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'grpc', 'echo.proto'))
  const Req = root.lookupType('bench.Request')
  const Rep = root.lookupType('bench.Reply')
  const ser = (T) => (o) => Buffer.from(T.encode(T.fromObject(o)).finish())
  const de = (T) => (b) => T.toObject(T.decode(b))
  return { service: { Say: { path: '/bench.Echo/Say', requestStream: false, responseStream: false, requestSerialize: ser(Req), requestDeserialize: de(Req), responseSerialize: ser(Rep), responseDeserialize: de(Rep) } } }
}

module.exports = { echoService }
