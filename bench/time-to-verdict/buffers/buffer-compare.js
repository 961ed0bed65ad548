'use strict'
// Node core's kind: Buffer#compare of equal buffers of a few sizes.
const common = require('../common.js')
const bench = common.createBenchmark(main, { size: [16, 4096], n: [2e5] })

function main ({ size, n }) {
  const a = Buffer.alloc(size, 'a')
  const b = Buffer.alloc(size, 'a')
  let x = 0
  bench.start()
  for (let i = 0; i < n; i++) x += a.compare(b)
  bench.end(n)
  if (x !== 0) throw new Error('unequal')
}
