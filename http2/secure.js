'use strict'
// HTTP/2 over TLS (ALPN h2) with the committed self-signed test
// certificate, loaded by h2load (or the built-in engine with --set benchmarker=builtin).
const http2 = require('node:http2')
const common = require('../common.js')
const { loadServer, testCert } = require('../http/_serve.js')

const bench = common.createBenchmark(main, {
  len: [1024],
  clients: [4],
  streams: [1, 16],
  duration: 5
}, { test: { len: 1024, clients: 2, streams: 16 } })

function main ({ len, clients, streams, duration }) {
  const body = Buffer.alloc(len, 't')
  const server = http2.createSecureServer(testCert())
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-length': len })
    stream.end(body)
  })
  loadServer(bench, server, { protocol: 'h2', scheme: 'https', path: '/', clients, connections: clients, maxConcurrentStreams: streams, duration })
}
