'use strict'
// A node:http2 server answering every stream with the same body, in the
// shape of Node core's http2 files: bench.http gets no protocol (h2load is
// HTTP/2, and so is the built-in engine for a file in http2/), `requests`
// streams in all (h2load -n) over `clients` sessions, at most `streams` in
// flight on each (-m), one generator thread per client (-t).
// --set benchmarker=builtin loads it with benchrig's own HTTP/2 client.
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  requests: [10000],
  streams: [1, 32],
  clients: [2],
  length: [64, 16384],
  benchmarker: ['h2load'],
  duration: 5
}, { test: { requests: 100, streams: 8, clients: 2, length: 64 }, flags: ['--no-warnings'] })

function main ({ requests, streams, clients, length, duration }) {
  const http2 = require('node:http2')
  const body = Buffer.alloc(length, 'h')
  const server = http2.createServer()
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-length': length, 'content-type': 'text/plain' })
    stream.end(body)
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
