'use strict'
// Node core's kind: WHATWG URL parsing.
const common = require('../common.js')
const bench = common.createBenchmark(main, { input: ['http://example.com/a/b?c=d#e', 'https://user:pw@host.example:8080/p'], n: [5e4] })

function main ({ input, n }) {
  let s = 0
  bench.start()
  for (let i = 0; i < n; i++) s += new URL(input).href.length
  bench.end(n)
  if (s === 0) throw new Error('empty')
}
