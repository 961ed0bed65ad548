'use strict'
// buf.equals and Buffer.compare on equal buffers and on buffers that differ
// in the last byte: both read the whole length.
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  method: ['equals', 'Buffer.compare'],
  len: [16, 4096],
  diff: ['none', 'last'],
  n: [6e6]
})

function main ({ method, len, diff, n }) {
  const a = Buffer.alloc(len, 'a')
  const b = Buffer.alloc(len, 'a')
  if (diff === 'last') b[len - 1] = 98
  let sink = 0
  bench.start()
  if (method === 'equals') {
    for (let i = 0; i < n; i++) sink += a.equals(b) ? 1 : 0
  } else {
    for (let i = 0; i < n; i++) sink += Buffer.compare(a, b)
  }
  bench.end(n)
  if (sink === 0.5) console.log(sink)
}
