'use strict'
// buf.indexOf of a string or a Buffer needle in 64 KiB of text: found near
// the start, found at the very end, or absent (both scan everything).
const common = require('../common.js')

const bench = common.createBenchmark(main, {
  early: { needle: ['early'], type: ['string', 'buffer'], n: [6e6] },
  scan: { needle: ['end', 'absent'], type: ['string', 'buffer'], n: [1e6] }
}, { byGroups: true })

const NEEDLES = { early: 'quick brown', end: 'THE-END-MARKER', absent: 'NOT-IN-THE-TEXT' }

function haystack () {
  const size = 64 * 1024
  const parts = []
  let len = 0
  for (let i = 0; len < size; i++) {
    const s = `the quick brown fox jumps over the lazy dog ${i} `
    parts.push(s)
    len += s.length
  }
  const tail = NEEDLES.end
  return Buffer.from(parts.join('').slice(0, size - tail.length) + tail)
}

function main ({ needle, type, n }) {
  const hay = haystack()
  const text = NEEDLES[needle]
  const what = type === 'buffer' ? Buffer.from(text) : text
  let sink = 0
  bench.start()
  for (let i = 0; i < n; i++) sink += hay.indexOf(what)
  bench.end(n)
  if (sink === 0.5) console.log(sink)
}
