'use strict'
// A fixed amount of Buffer and string work per operation, measured between
// bench.start() and bench.end(n). A "binary" may ask for more work per
// reported operation through globalThis.__benchrigExtraWork (set by a
// wrapper's preload, extra-work.js): the process then really runs
// round(n * (1 + extra)) operations for the same reported n, so the wrapper
// is slower by exactly that fraction under every measure.
const common = require('../common.js')
const bench = common.createBenchmark(main, { n: [2e5], len: [64] })

function main ({ n, len }) {
  const extra = globalThis.__benchrigExtraWork || 0
  const loops = Math.round(n * (1 + extra))
  const buf = Buffer.alloc(len)
  for (let i = 0; i < len; i++) buf[i] = 32 + (i % 95)
  let sink = 0
  bench.start()
  for (let i = 0; i < loops; i++) sink += buf.toString('latin1').length
  bench.end(n)
  if (sink < 0) console.log(sink)
}
