'use strict'
// buf.write of a string by encoding: the encode paths (the reverse of toString).
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  small: { encoding: ['utf8', 'latin1', 'hex', 'ucs2'], len: [16], n: [6e6] },
  large: { encoding: ['utf8', 'latin1', 'ucs2'], len: [1024], n: [5e6] }
}, { byGroups: true })

function main ({ encoding, len, n }) {
  const src = Buffer.alloc(len)
  for (let i = 0; i < len; i++) src[i] = 32 + (i % 95)
  const str = src.toString(encoding)
  const dst = Buffer.alloc(len * 4)
  let sink = 0
  bench.start()
  for (let i = 0; i < n; i++) sink += dst.write(str, 0, encoding)
  bench.end(n)
  if (sink < 0) console.log(sink)
}
