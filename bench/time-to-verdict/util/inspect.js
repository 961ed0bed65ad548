'use strict'
// Node core's kind: util.inspect of an object and an array.
const common = require('../common.js')
const util = require('node:util')
const bench = common.createBenchmark(main, { kind: ['object', 'array'], n: [2e4] })

function main ({ kind, n }) {
  const value = kind === 'object' ? { a: 1, b: 'two', c: [3, 4], d: { e: null } } : Array.from({ length: 20 }, (_, i) => i)
  let s = 0
  bench.start()
  for (let i = 0; i < n; i++) s += util.inspect(value).length
  bench.end(n)
  if (s === 0) throw new Error('empty')
}
