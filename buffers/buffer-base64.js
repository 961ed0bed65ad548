'use strict'
// base64 and base64url encode (toString) and decode (Buffer.from).
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  small: { op: ['encode', 'decode'], encoding: ['base64', 'base64url'], len: [48], n: [5e6] },
  large: { op: ['encode', 'decode'], encoding: ['base64', 'base64url'], len: [16384], n: [2e5] }
}, { byGroups: true })

function main ({ op, encoding, len, n }) {
  const raw = Buffer.alloc(len)
  for (let i = 0; i < len; i++) raw[i] = (i * 31 + 7) & 0xff
  const text = raw.toString(encoding)
  let sink = 0
  bench.start()
  if (op === 'encode') {
    for (let i = 0; i < n; i++) sink += raw.toString(encoding).length
  } else {
    for (let i = 0; i < n; i++) sink += Buffer.from(text, encoding).length
  }
  bench.end(n)
  if (sink < 0) console.log(sink)
}
