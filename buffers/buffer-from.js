'use strict'
// Buffer.from by source type: copying from a string, an array, a typed
// array or a buffer, and wrapping an ArrayBuffer (no copy).
const common = require('../common.js')

const SOURCES = ['string', 'array', 'arraybuffer', 'buffer', 'uint8array']
const bench = common.createBenchmark(main, {
  small: { source: SOURCES, len: [64], n: [6e6] },
  large: { source: SOURCES, len: [1024], n: [1.5e6] }
}, { byGroups: true })

function makeSource (source, len) {
  const bytes = new Uint8Array(len)
  for (let i = 0; i < len; i++) bytes[i] = 32 + (i % 95)
  switch (source) {
    case 'string': return Buffer.from(bytes).toString('latin1')
    case 'array': return Array.from(bytes)
    case 'arraybuffer': return bytes.buffer
    case 'buffer': return Buffer.from(bytes)
    case 'uint8array': return bytes
    default: throw new Error(`unknown source ${source}`)
  }
}

function main ({ source, len, n }) {
  const arg = makeSource(source, len)
  let sink = 0
  bench.start()
  for (let i = 0; i < n; i++) sink += Buffer.from(arg).length
  bench.end(n)
  if (sink < 0) console.log(sink)
}
