'use strict'
// HPACK at work: n response headers per stream over one h2c connection
// per client, loaded by h2load (or the built-in engine with --set benchmarker=builtin).
const http2 = require('node:http2')
const common = require('../common.js')
const { loadServer } = require('../http/_serve.js')

const bench = common.createBenchmark(main, {
  n: [10, 100],
  clients: [4],
  streams: [16],
  duration: 5
}, { test: { n: 10, clients: 2, streams: 8 } })

function main ({ n, clients, streams, duration }) {
  const headers = { ':status': 200, 'content-length': 2 }
  for (let i = 0; i < n; i++) headers[`x-h2-header-${i}`] = `value-${i}`
  const server = http2.createServer()
  server.on('stream', (stream) => {
    stream.respond(headers)
    stream.end('ok')
  })
  loadServer(bench, server, { protocol: 'h2', path: '/', clients, connections: clients, maxConcurrentStreams: streams, duration })
}
