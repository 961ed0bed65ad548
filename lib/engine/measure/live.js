'use strict'
// The figures of the live view (the progress line of `benchrig load` on a
// TTY), taken once a second on the tick: running totals from the counters,
// and the latency of the last second as the difference between two
// snapshots of the run's cumulative histogram. Nothing is added to the
// per-request path: the snapshot is one pass over the histogram's counts a
// second, and only runs that ask for it (the `liveLatency` option) pay even
// that.
const C = require('../counters.js')
const { Histogram } = require('./histogram.js')

/** The histogram counts of each second, as differences of snapshots. */
class LastSecond {
  /** @param {Histogram} histogram the runner's cumulative latency histogram */
  constructor (histogram) {
    this.histogram = histogram
    this.previous = new Float64Array(histogram.length)
  }

  /**
   * The counts recorded since the last call: a new array each second, so
   * that a worker can transfer it to the main thread.
   * @returns {Float64Array}
   */
  take () {
    const now = this.histogram.counts
    const prev = this.previous
    const diff = new Float64Array(now.length)
    for (let i = 0; i < now.length; i++) diff[i] = now[i] - prev[i]
    prev.set(now)
    return diff
  }
}

/**
 * Running totals from a runner's counters.
 * @param {Float64Array} c
 * @returns {{total: number, errors: number, non2xx: number}}
 */
function totals (c) {
  let errors = 0
  for (let i = 0; i < C.ERROR_KINDS.length; i++) errors += c[C.ERR_CONNECT + i]
  return { total: c[C.COMPLETED], errors, non2xx: c[C.S1XX] + c[C.S3XX] + c[C.S4XX] + c[C.S5XX] }
}

let layout = null // a histogram for its bucket layout only (the values of an index)

/**
 * p50 and p99 (ms) of a second's counts, null when it holds no request: the
 * highest value of the bucket that holds the rank, as HdrHistogram reports
 * a percentile. Two passes over the counts, nothing allocated (1.6 ms a
 * tick through a Histogram's recount and percentile; see
 * bench/live-and-formats.js for this one).
 * @param {Float64Array} counts
 * @returns {{p50: number, p99: number, count: number}|null}
 */
function secondLatency (counts) {
  layout ??= new Histogram()
  let total = 0
  for (let i = 0; i < counts.length; i++) total += counts[i]
  if (total === 0) return null
  const rank50 = Math.max(1, Math.ceil(0.5 * total - 1e-9))
  const rank99 = Math.max(1, Math.ceil(0.99 * total - 1e-9))
  let seen = 0
  let p50 = -1
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] === 0) continue
    seen += counts[i]
    if (p50 < 0 && seen >= rank50) p50 = highest(i)
    if (seen >= rank99) return { p50: p50 / 1000, p99: highest(i) / 1000, count: total }
  }
  return null // not reached: the last bucket holds rank99
}

function highest (i) {
  return layout.valueFromIndex(i) + layout.rangeAtIndex(i) - 1
}

module.exports = { LastSecond, totals, secondLatency }
