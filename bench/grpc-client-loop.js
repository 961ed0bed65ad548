#!/usr/bin/env node
'use strict'
// The plain @grpc/grpc-js client loop of bench/grpc-vs-grpc-js.js: one
// channel, N calls of bench.Echo/Say in flight (each answered call starts
// the next), for D seconds; prints {"requests":{"total":N}}.
//   node bench/grpc-client-loop.js -n 10 -d 5 127.0.0.1:PORT
const grpc = require('@grpc/grpc-js')
const { echoService } = require('./lib/grpc-echo-server.js')

const argv = process.argv.slice(2)
const get = (flag, def) => {
  const i = argv.indexOf(flag)
  return i >= 0 ? argv[i + 1] : def
}
const inflight = Number(get('-n', '10'))
const seconds = Number(get('-d', '5'))
const target = argv.find((a, i) => !a.startsWith('-') && !['-n', '-d'].includes(argv[i - 1]))
if (!(inflight > 0) || !(seconds > 0) || target === undefined) {
  console.error('usage: node bench/grpc-client-loop.js -n IN_FLIGHT -d SECONDS HOST:PORT')
  process.exitCode = 2
} else {
  const Client = grpc.makeGenericClientConstructor(echoService().service, 'Echo')
  const client = new Client(target, grpc.credentials.createInsecure())
  let total = 0
  let stopping = false
  const one = () => client.Say({ text: 'hi' }, (err) => {
    if (err) { console.error(err.message); process.exitCode = 1; return }
    total++
    if (!stopping) one()
  })
  client.waitForReady(Date.now() + 5000, (err) => {
    if (err) throw err
    for (let i = 0; i < inflight; i++) one()
    setTimeout(() => {
      stopping = true
      process.stdout.write(JSON.stringify({ requests: { total } }) + '\n')
      client.close()
      setTimeout(() => process.exit(0), 50).unref()
    }, seconds * 1000)
  })
}
