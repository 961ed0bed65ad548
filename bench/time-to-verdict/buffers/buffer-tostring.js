'use strict'
// Node core's kind: Buffer#toString in two encodings.
const common = require('../common.js')
const bench = common.createBenchmark(main, { encoding: ['utf8', 'hex'], len: [64], n: [2e5] })

function main ({ encoding, len, n }) {
  const buf = Buffer.alloc(len, 'x')
  let s = 0
  bench.start()
  for (let i = 0; i < n; i++) s += buf.toString(encoding).length
  bench.end(n)
  if (s === 0) throw new Error('empty')
}
