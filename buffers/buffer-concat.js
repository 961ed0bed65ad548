'use strict'
// Buffer.concat of `total` bytes in 2 or 16 pieces, with and without the
// total length given (without it, concat sums the lengths first).
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  small: { total: [64], pieces: [2, 16], withTotal: [false, true], n: [1.5e6] },
  large: { total: [16384], pieces: [2, 16], withTotal: [false, true], n: [2e5] }
}, { byGroups: true })

function main ({ total, pieces, withTotal, n }) {
  const len = Math.ceil(total / pieces)
  const list = []
  for (let i = 0; i < pieces; i++) list.push(Buffer.alloc(len, i))
  const size = len * pieces
  let sink = 0
  bench.start()
  if (withTotal) {
    for (let i = 0; i < n; i++) sink += Buffer.concat(list, size).length
  } else {
    for (let i = 0; i < n; i++) sink += Buffer.concat(list).length
  }
  bench.end(n)
  if (sink < 0) console.log(sink)
}
