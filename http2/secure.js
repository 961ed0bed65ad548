'use strict'
// HTTP/2 over TLS (ALPN h2) with the committed self-signed test certificate,
// in the shape of Node core's http2 files: scheme 'https', no protocol.
const common = require('../common.js')
const { testCert } = require('../http/_serve.js')

const bench = common.createBenchmark(main, {
  length: [1024],
  requests: [10000],
  streams: [1, 16],
  clients: [4],
  benchmarker: ['h2load'],
  duration: 5
}, { test: { length: 1024, requests: 100, streams: 16, clients: 2 }, flags: ['--no-warnings'] })

function main ({ length, requests, streams, clients, duration }) {
  const http2 = require('node:http2')
  const body = Buffer.alloc(length, 't')
  const server = http2.createSecureServer(testCert())
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-length': length })
    stream.end(body)
  })
  server.listen(0, '127.0.0.1', () => {
    bench.http({
      scheme: 'https',
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
