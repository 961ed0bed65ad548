'use strict'
// Node core's kind: querystring.unescape with and without escapes.
const common = require('../common.js')
const qs = require('node:querystring')
const bench = common.createBenchmark(main, { input: ['there is nothing to unescape here', 'there%20are%20several%20spaces'], n: [2e5] })

function main ({ input, n }) {
  let s = 0
  bench.start()
  for (let i = 0; i < n; i++) s += qs.unescape(input).length
  bench.end(n)
  if (s === 0) throw new Error('empty')
}
