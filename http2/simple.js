'use strict'
// A node:http2 server (h2c) answering every stream with the same body,
// loaded by h2load: clients (connections) x streams (max concurrent
// streams per connection). --set benchmarker=builtin runs the built-in
// engine's HTTP/2 client (benchrig load --h2 --max-streams) instead.
const http2 = require('node:http2')
const common = require('../common.js')
const { loadServer } = require('../http/_serve.js')

const bench = common.createBenchmark(main, {
  len: [64, 16384],
  clients: [2, 8],
  streams: [1, 32],
  duration: 5
}, { test: { len: 64, clients: 2, streams: 8 } })

function main ({ len, clients, streams, duration }) {
  const body = Buffer.alloc(len, 'h')
  const server = http2.createServer()
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-length': len, 'content-type': 'text/plain' })
    stream.end(body)
  })
  loadServer(bench, server, {
    protocol: 'h2',
    path: '/',
    clients,
    connections: clients,
    maxConcurrentStreams: streams,
    duration
  })
}
