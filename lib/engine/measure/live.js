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

/**
 * p50 and p99 (ms) of a second's counts, null when it holds no request.
 * @param {Float64Array} counts
 * @returns {{p50: number, p99: number, count: number}|null}
 */
function secondLatency (counts) {
  const h = new Histogram()
  h.counts.set(counts)
  h.recount()
  if (h.totalCount === 0) return null
  return { p50: h.percentile(50) / 1000, p99: h.percentile(99) / 1000, count: h.totalCount }
}

module.exports = { LastSecond, totals, secondLatency }
