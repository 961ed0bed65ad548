'use strict'
// The histogram against exact answers: percentiles against a sorted list
// within the 3-significant-digit precision, exact merges, and a V2 encoding
// that round-trips and that another HdrHistogram implementation can read.
const t = require('tap')
const { Histogram } = require('../../lib/engine/measure/histogram.js')
const { encode, decode } = require('../../lib/engine/measure/hdr-codec.js')

/** A seeded generator (mulberry32), so failures reproduce. */
function rng (seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/** Latencies spread over 1 µs .. ~1 h on a log scale. */
function sample (n, seed) {
  const r = rng(seed)
  return Array.from({ length: n }, () => Math.floor(Math.exp(r() * Math.log(3.6e9))))
}

const PS = [0, 0.001, 0.1, 1, 2.5, 10, 25, 50, 75, 90, 97.5, 99, 99.9, 99.99, 99.999, 100]

t.test('percentiles match a sorted list within 0.1%', async (t) => {
  const values = sample(50000, 1)
  const h = new Histogram()
  for (const v of values) h.record(v)
  const sorted = values.slice().sort((a, b) => a - b)
  t.equal(h.totalCount, values.length)
  t.equal(h.minValue, sorted[0])
  t.equal(h.maxValue, sorted[sorted.length - 1])
  for (const p of PS) {
    const exact = sorted[Math.max(0, Math.ceil((p / 100) * sorted.length - 1e-9) - 1)]
    const got = h.percentile(p)
    t.ok(got >= exact && got - exact <= Math.max(1, exact * 0.001), `p${p}: ${got} vs exact ${exact}`)
  }
})

t.test('small values are exact; the range reaches one hour', async (t) => {
  const h = new Histogram()
  for (let v = 0; v < 2048; v++) h.record(v)
  for (let v = 0; v < 2048; v += 97) t.equal(h.valueFromIndex(h.indexOf(v)), v, `${v} µs has its own bucket`)
  h.record(3_600_000_000)
  h.record(1e12) // clamped, still counted
  t.equal(h.totalCount, 2050)
  t.equal(h.maxValue, 3_600_000_000)
  t.ok(h.percentile(100) >= 3_600_000_000 * 0.999)
})

t.test('mean and stddev agree with the exact values within the precision', async (t) => {
  const values = sample(20000, 2).map((v) => v % 100000)
  const h = new Histogram()
  for (const v of values) h.record(v)
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length)
  t.ok(Math.abs(h.mean() - mean) / mean < 0.001, `mean ${h.mean()} vs ${mean}`)
  t.ok(Math.abs(h.stddev() - sd) / sd < 0.001, `stddev ${h.stddev()} vs ${sd}`)
})

t.test('merging is exact: the merge of parts equals the whole', async (t) => {
  const values = sample(30000, 3)
  const whole = new Histogram()
  const parts = [new Histogram(), new Histogram(), new Histogram()]
  values.forEach((v, i) => {
    whole.record(v)
    parts[i % 3].record(v)
  })
  const merged = new Histogram()
  for (const p of parts) merged.add(Histogram.fromTransfer(p.toTransfer()))
  t.same(Array.from(merged.counts), Array.from(whole.counts))
  t.equal(merged.totalCount, whole.totalCount)
  t.equal(merged.minValue, whole.minValue)
  t.equal(merged.maxValue, whole.maxValue)
  for (const p of PS) t.equal(merged.percentile(p), whole.percentile(p), `p${p}`)
  t.throws(() => merged.add(new Histogram({ digits: 2 })), RangeError)
})

t.test('V2 compressed base64: decode(encode(h)) == h', async (t) => {
  const h = new Histogram()
  for (const v of sample(10000, 4)) h.record(v)
  for (let i = 0; i < 5000; i++) h.record(250) // a big count in one bucket
  const text = encode(h)
  t.match(text, /^HIST/, 'starts with the compressed V2 cookie (0x1c849314)')
  const back = decode(text)
  t.same(Array.from(back.counts), Array.from(h.counts))
  t.equal(back.totalCount, h.totalCount)
  for (const p of PS.slice(1)) t.equal(back.percentile(p), h.percentile(p) > back.maxValue ? back.maxValue : back.percentile(p))
  const empty = decode(encode(new Histogram()))
  t.equal(empty.totalCount, 0)
  t.throws(() => decode('AAAAAAAAAAA='), RangeError)
})

t.test('another HdrHistogram implementation reads our encoding', async (t) => {
  let hdr
  try {
    hdr = require('hdr-histogram-js')
  } catch {
    t.skip('hdr-histogram-js (installed with autocannon) is not available')
    return
  }
  const h = new Histogram()
  const values = sample(20000, 5).map((v) => v % 10_000_000)
  for (const v of values) h.record(v)
  const theirs = hdr.decodeFromCompressedBase64(encode(h), 32, false)
  t.equal(theirs.totalCount, h.totalCount)
  for (const p of [50, 90, 99, 99.9]) {
    const a = theirs.getValueAtPercentile(p)
    const b = h.percentile(p)
    t.ok(Math.abs(a - b) <= Math.max(1, b * 0.001), `p${p}: theirs ${a}, ours ${b}`)
  }
})

t.test('the summaries, add and fromTransfer scan the span between min and max: the same answers as a scan of every bucket', async (t) => {
  const next = rng(34)
  // brute force over the whole array, as before the span
  const full = (h) => {
    let n = 0
    let sum = 0
    for (let i = 0; i < h.counts.length; i++) {
      n += h.counts[i]
      sum += h.counts[i] * h.midpoint(i)
    }
    return { n, mean: n === 0 ? 0 : sum / n }
  }
  for (let round = 0; round < 20; round++) {
    const a = new Histogram()
    const b = new Histogram()
    const lo = Math.floor(next() * 1e6)
    for (let i = 0; i < 200; i++) a.record(lo + Math.floor(next() * 10 ** (1 + Math.floor(next() * 6))))
    for (let i = 0; i < 50 * (round % 3); i++) b.record(Math.floor(next() * 3e9))
    const copy = Histogram.fromTransfer(a.toTransfer())
    t.same(copy.counts, a.counts, 'fromTransfer copies every count')
    a.add(Histogram.fromTransfer(b.toTransfer()))
    const f = full(a)
    t.equal(a.totalCount, f.n)
    t.ok(Math.abs(a.mean() - f.mean) <= 1e-9 * Math.max(1, f.mean), 'mean')
    let seen = 0
    let last = -1
    for (let i = 0; i < a.counts.length; i++) if (a.counts[i] !== 0) last = i
    t.equal(a.lastIndex(), last, 'lastIndex')
    // the percentile's rank walk from the start agrees
    for (const p of [0.1, 50, 99.9, 100]) {
      const rank = Math.max(1, Math.ceil((p / 100) * a.totalCount - 1e-9))
      let at = 0
      seen = 0
      for (; at < a.counts.length; at++) { seen += a.counts[at]; if (seen >= rank) break }
      const high = a.valueFromIndex(at) + a.rangeAtIndex(at) - 1
      t.equal(a.percentile(p), Math.max(a.minValue, Math.min(high, a.maxValue)), `p${p}`)
    }
  }
  t.equal(new Histogram().mean(), 0)
  t.equal(new Histogram().lastIndex(), -1)
  t.equal(Histogram.fromTransfer(new Histogram().toTransfer()).totalCount, 0)
})
