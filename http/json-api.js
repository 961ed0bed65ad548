'use strict'
// A small JSON API handler: read and parse a POSTed JSON body, validate
// it, and answer with a JSON document of `items` records.
const http = require('node:http')
const common = require('../common.js')
const { loadServer } = require('./_serve.js')

const bench = common.createBenchmark(main, {
  items: [1, 100],
  connections: [50],
  duration: 5
}, { test: { items: 100, connections: 4 } })

function main ({ items, connections, duration }) {
  const catalogue = []
  for (let i = 0; i < items; i++) catalogue.push({ id: i, name: `item-${i}`, price: i * 1.5, tags: ['a', 'b'] })
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/api/search') {
      res.writeHead(404).end()
      return
    }
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => { raw += chunk })
    req.on('end', () => {
      let query
      try {
        query = JSON.parse(raw)
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad json"}')
        return
      }
      if (typeof query.limit !== 'number') {
        res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"limit"}')
        return
      }
      const out = JSON.stringify({ query: query.q, results: catalogue.slice(0, query.limit) })
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) })
      res.end(out)
    })
  })
  loadServer(bench, server, {
    path: '/api/search',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ q: 'item', limit: items }),
    connections,
    duration
  })
}
