'use strict'
// Node core's kind: StringDecoder#write over chunks of a UTF-8 text.
const common = require('../common.js')
const { StringDecoder } = require('node:string_decoder')
const bench = common.createBenchmark(main, { chunkLen: [16, 256], n: [5e3] })

function main ({ chunkLen, n }) {
  const text = Buffer.from('€uro ünïcödé '.repeat(64))
  const chunks = []
  for (let i = 0; i < text.length; i += chunkLen) chunks.push(text.subarray(i, i + chunkLen))
  let s = 0
  bench.start()
  for (let i = 0; i < n; i++) {
    const d = new StringDecoder('utf8')
    for (const c of chunks) s += d.write(c).length
  }
  bench.end(n)
  if (s === 0) throw new Error('empty')
}
