'use strict'
// HPACK at work: `nheaders` response headers on every stream, in the shape
// of Node core's http2 files (no protocol; requests, clients, streams and
// threads as h2load's -n, -c, -m and -t).
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  nheaders: [0, 10, 100],
  requests: [10000],
  streams: [16],
  clients: [2],
  benchmarker: ['h2load'],
  duration: 5
}, { test: { nheaders: 10, requests: 100, streams: 8, clients: 2 }, flags: ['--no-warnings'] })

function main ({ nheaders, requests, streams, clients, duration }) {
  const http2 = require('node:http2')
  const headers = { ':status': 200, 'content-length': 2 }
  for (let i = 0; i < nheaders; i++) headers[`x-h2-header-${i}`] = `value-${i}`
  const server = http2.createServer()
  server.on('stream', (stream) => {
    stream.respond(headers)
    stream.end('ok')
  })
  server.listen(0, '127.0.0.1', () => {
    bench.http({
      path: '/',
      port: server.address().port,
      requests,
      maxConcurrentStreams: streams,
      clients,
      threads: clients,
      duration
    }, () => { server.close() })
  })
}
