'use strict'
// A server answering every request with the same body: by body type,
// size, number of writes and chunked or Content-Length framing.
const http = require('node:http')
const common = require('../common.js')
const { loadServer } = require('./_serve.js')

const bench = common.createBenchmark(main, {
  type: ['bytes', 'buffer'],
  len: [4, 1024, 102400],
  chunks: [1, 4],
  chunkedEnc: [1, 0],
  connections: [50, 500],
  duration: 5
}, { test: { len: 1024, connections: 4 } })

function main ({ type, len, chunks, chunkedEnc, connections, duration }) {
  const whole = Buffer.alloc(len, 'x')
  const size = Math.ceil(len / chunks)
  const parts = []
  for (let at = 0; at < len; at += size) {
    const slice = whole.subarray(at, Math.min(len, at + size))
    parts.push(type === 'bytes' ? slice.toString('latin1') : slice)
  }
  const server = http.createServer((req, res) => {
    const headers = { 'content-type': 'text/plain' }
    if (!chunkedEnc) headers['content-length'] = len
    res.writeHead(200, headers)
    for (let i = 0; i < parts.length - 1; i++) res.write(parts[i])
    res.end(parts[parts.length - 1])
  })
  loadServer(bench, server, { path: '/', connections, duration })
}
