'use strict'
// The simple server over TLS, with the committed self-signed test
// certificate (load generators do not verify it).
const https = require('node:https')
const common = require('../common.js')
const { loadServer, testCert } = require('./_serve.js')

const bench = common.createBenchmark(main, {
  len: [64, 16384],
  connections: [50],
  duration: 5
}, { test: { len: 64, connections: 4 } })

function main ({ len, connections, duration }) {
  const body = Buffer.alloc(len, 's')
  const server = https.createServer(testCert(), (req, res) => {
    res.writeHead(200, { 'content-length': len })
    res.end(body)
  })
  loadServer(bench, server, { path: '/', scheme: 'https', connections, duration })
}
