'use strict'
// Header handling: n response headers written by the server, and the
// request carrying reqHeaders extra headers that the server reads.
const http = require('node:http')
const common = require('../common.js')
const { loadServer } = require('./_serve.js')

const bench = common.createBenchmark(main, {
  n: [10, 50],
  reqHeaders: [0, 20],
  connections: [50],
  duration: 5
}, { test: { n: 10, reqHeaders: 20, connections: 4 } })

function main ({ n, reqHeaders, connections, duration }) {
  const resHeaders = {}
  for (let i = 0; i < n; i++) resHeaders[`x-bench-header-${i}`] = `value-${i}`
  resHeaders['content-length'] = '2'
  const request = {}
  for (let i = 0; i < reqHeaders; i++) request[`x-request-header-${i}`] = `request-value-${i}`
  const server = http.createServer((req, res) => {
    // Touch every request header, as a real handler would.
    let seen = 0
    for (const key in req.headers) if (key.startsWith('x-request-header-')) seen++
    res.writeHead(seen === reqHeaders ? 200 : 400, resHeaders)
    res.end('ok')
  })
  loadServer(bench, server, { path: '/', connections, duration, headers: request })
}
