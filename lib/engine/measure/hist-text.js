'use strict'
// A histogram as HdrHistogram's "percentile distribution" text (the .hgrm
// format of Java's outputPercentileDistribution, which wrk2 also prints and
// HdrHistogram's plotter and HistogramLogAnalyzer read):
//
//        Value     Percentile TotalCount 1/(1-Percentile)
//
//        0.052 0.000000000000          1           1.00
//        ...
//       12.991 1.000000000000       5000
//   #[Mean    =        1.234, StdDeviation   =        0.567]
//   #[Max     =       12.991, Total count    =         5000]
//   #[Buckets =           22, SubBuckets     =         2048]
//
// Rows walk percentile levels that start at 0 % and halve their distance to
// 100 % every `ticksPerHalfDistance` rows; each row shows the highest value
// equivalent to the first bucket whose cumulative count reaches the level,
// then one last row at 100 %. Our histograms count µs; the text shows ms
// (a value scale of 1000), as wrk2 does.
const fs = require('node:fs')
const { decode } = require('./hdr-codec.js')
const { UsageError } = require('../../errors.js')

const DEFAULT_TICKS = 5
const DEFAULT_SCALE = 1000 // µs -> ms

/**
 * The rows of the percentile distribution, following HdrHistogram's
 * percentile iterator: a level can produce several rows on one bucket when
 * that bucket's count crosses several levels.
 * @param {import('./histogram.js').Histogram} h
 * @param {number} ticksPerHalfDistance
 * @returns {{index: number, value: number, level: number, cumulative: number}[]} level in %
 */
function percentileRows (h, ticksPerHalfDistance = DEFAULT_TICKS) {
  const rows = []
  const total = h.totalCount
  if (total === 0) return rows
  const c = h.counts
  let level = 0
  let cumulative = 0
  let i = 0
  let last = -1
  for (; i < c.length; i++) {
    if (c[i] === 0) continue
    cumulative += c[i]
    last = i
    // the same bucket reports every level its cumulative count reaches
    while ((100 * cumulative) / total >= level) {
      rows.push({ index: i, value: highestEquivalent(h, i), level, cumulative })
      level = nextLevel(level, ticksPerHalfDistance)
      if (cumulative === total) break
    }
    if (cumulative === total) break
  }
  rows.push({ index: last, value: highestEquivalent(h, last), level: 100, cumulative })
  return rows
}

/**
 * x with d decimals, rounding half up on the shortest decimal form of x, as
 * Java's Formatter does: toFixed rounds the exact binary value instead, and
 * prints 0.999780273437 where HdrHistogram prints 0.999780273438.
 */
function fixed (x, d) {
  const s = String(Math.abs(x))
  const dot = s.indexOf('.')
  if (s.includes('e') || dot === -1 || s.length - dot - 1 <= d) return x.toFixed(d)
  const digits = s.slice(0, dot) + s.slice(dot + 1, dot + 1 + d)
  const up = s[dot + 1 + d] >= '5' ? 1n : 0n
  const n = (BigInt(digits) + up).toString().padStart(d + 1, '0')
  const out = d === 0 ? n : `${n.slice(0, n.length - d)}.${n.slice(n.length - d)}`
  return x < 0 && /[1-9]/.test(out) ? `-${out}` : out
}

/** The next reporting level: fixed-size ticks within each half of the remaining distance to 100 %. */
function nextLevel (level, ticks) {
  // Math.log(x) / Math.log(2) truncated, not Math.log2: the same doubles as
  // the reference implementation, so the levels print identically
  const halvings = Math.trunc(Math.log(100 / (100 - level)) / Math.log(2))
  return level + 100 / (ticks * Math.pow(2, halvings + 1))
}

function highestEquivalent (h, i) {
  return h.valueFromIndex(i) + h.rangeAtIndex(i) - 1
}

/**
 * @param {import('./histogram.js').Histogram} h
 * @param {{ticksPerHalfDistance?: number, scale?: number}} [opts] scale divides
 *   recorded values (1000: µs shown as ms)
 * @returns {string}
 */
function percentileDistribution (h, opts = {}) {
  const ticks = opts.ticksPerHalfDistance ?? DEFAULT_TICKS
  const scale = opts.scale ?? DEFAULT_SCALE
  const d = h.digits
  const lines = [
    `${'Value'.padStart(12)} ${'Percentile'.padStart(14)} ${'TotalCount'.padStart(10)} ${'1/(1-Percentile)'.padStart(14)}`,
    ''
  ]
  for (const r of percentileRows(h, ticks)) {
    const p = r.level / 100
    const head = `${fixed(r.value / scale, d).padStart(12)} ${fixed(p, 12)} ${String(r.cumulative).padStart(10)}`
    lines.push(r.level === 100 ? head : `${head} ${fixed(1 / (1 - p), 2).padStart(14)}`)
  }
  const max = h.totalCount === 0 ? 0 : highestEquivalent(h, h.indexOf(h.maxValue))
  const f = (x) => fixed(x / scale, d).padStart(12)
  lines.push(`#[Mean    = ${f(h.mean())}, StdDeviation   = ${f(h.stddev())}]`)
  lines.push(`#[Max     = ${f(max)}, Total count    = ${String(h.totalCount).padStart(12)}]`)
  lines.push(`#[Buckets = ${String(h.bucketCount).padStart(12)}, SubBuckets     = ${String(h.subBucketCount).padStart(12)}]`)
  return lines.join('\n') + '\n'
}

/**
 * Writes a result's histogram (HdrHistogram V2 base64) as percentile text,
 * for --hist-out.
 * @param {string} file
 * @param {string} encoded
 */
function writeHistText (file, encoded) {
  const text = percentileDistribution(decode(encoded))
  try {
    fs.writeFileSync(file, text)
  } catch (err) {
    throw new UsageError(`--hist-out ${file}: cannot write the histogram (${err.code ?? err.message})`)
  }
}

module.exports = { percentileDistribution, percentileRows, writeHistText }
