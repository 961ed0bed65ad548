'use strict'
// Buffer#toString by encoding and length: the decode paths of each encoding.
// Two groups so that each size gets an `n` that runs for about a second.
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  small: { encoding: ['utf8', 'latin1', 'base64', 'ucs2'], len: [64], n: [8e6] },
  large: { encoding: ['utf8', 'latin1', 'base64', 'ucs2'], len: [1024], n: [3e6] }
}, { byGroups: true })

function main ({ encoding, len, n }) {
  // Printable ASCII, so that every encoding decodes the same bytes without replacement.
  const buf = Buffer.alloc(len)
  for (let i = 0; i < len; i++) buf[i] = 32 + (i % 95)
  let sink = 0
  bench.start()
  for (let i = 0; i < n; i++) sink += buf.toString(encoding).length
  bench.end(n)
  if (sink < 0) console.log(sink)
}
