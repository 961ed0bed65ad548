'use strict'
// Persistent connections against one connection per request: with
// keepalive=false the server answers "Connection: close", so every request
// pays for a TCP handshake (the load generator reconnects).
const http = require('node:http')
const common = require('../common.js')
const { loadServer } = require('./_serve.js')

const bench = common.createBenchmark(main, {
  keepalive: [true, false],
  len: [64],
  connections: [20],
  duration: 5
}, { test: { len: 64, connections: 4 } })

function main ({ keepalive, len, connections, duration }) {
  const body = Buffer.alloc(len, 'k')
  const server = http.createServer((req, res) => {
    if (!keepalive) res.shouldKeepAlive = false
    res.writeHead(200, { 'content-length': len })
    res.end(body)
  })
  loadServer(bench, server, { path: '/', connections, duration })
}
