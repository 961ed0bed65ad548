'use strict'
// What the HTML report shows, taken from a `benchrig load` JSON result alone
// (so `benchrig report result.json` and `benchrig load --html` agree): the
// percentile curve from the HdrHistogram, the timeline from the interval
// rows (or, without them, requests from the per-second samples), status
// codes, errors and the run's parameters. Every figure printed in the page
// keeps the JSON path it came from (`path`), so the page can be checked
// against the JSON number for number.
const { decode } = require('../../engine/measure/hdr-codec.js')
const { percentileRows } = require('../../engine/measure/hist-text.js')
const { UsageError } = require('../../errors.js')

/** A Date (a live result) or its JSON string, as ISO 8601. */
function isoTime (t) {
  const d = new Date(t)
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString()
}

// the percentile keys of `latency`, with the fraction they stand for
/** @type {[string, number][]} */
const PERCENTILE_KEYS = [['p50', 0.5], ['p75', 0.75], ['p90', 0.9], ['p97_5', 0.975], ['p99', 0.99], ['p99_9', 0.999], ['p99_99', 0.9999], ['p99_999', 0.99999]]

/**
 * @typedef {{label: string, path: string, value: number|string, unit?: string}} Figure
 * @typedef {{t: number, path: number, count: number, rps: number, errors: number, eps: number, mean?: number, p50?: number, p90?: number, p99?: number, max?: number}} TimeRow
 */

/**
 * Throws a UsageError unless `result` has the keys the report reads.
 * @param {any} result
 * @param {string} name the file it came from, for the message
 */
function checkResult (result, name) {
  const missing = ['requests', 'latency', 'histogram', 'statusCodeStats', 'errorsByKind', 'start', 'duration']
    .filter((k) => result === null || typeof result !== 'object' || result[k] === undefined)
  if (missing.length) {
    throw new UsageError(`${name} is not a benchrig load result (no ${missing.join(', ')}): give the output of benchrig load -j or benchrig merge -j`)
  }
}

/**
 * The percentile curve: [fraction, ms] points of the HdrHistogram's
 * percentile distribution below 100 % (1/(1-p) is infinite there).
 * @param {string} encoded
 */
function percentileCurve (encoded) {
  const h = decode(encoded)
  const points = percentileRows(h)
    .filter((r) => r.level < 100)
    .map((r) => [r.level / 100, r.value / 1000])
  return { points, count: h.totalCount }
}

/**
 * The timeline: interval rows when the run recorded them (--interval, or
 * the 1 s rows --html turns on), else the whole-second request counts.
 * @param {any} result
 * @returns {{source: 'intervals'|'perSecond'|'none', rows: TimeRow[]}}
 */
function timeline (result) {
  if (Array.isArray(result.intervals) && result.intervals.length > 0) {
    const t0 = result.intervals[0].start
    return {
      source: 'intervals',
      rows: result.intervals.map((r, i) => {
        const ms = r.elapsedMs ?? r.ms
        return {
          t: (r.start - t0 + ms) / 1000,
          path: i,
          count: r.count,
          rps: ms > 0 ? (r.count * 1000) / ms : 0,
          errors: r.errors,
          eps: ms > 0 ? (r.errors * 1000) / ms : 0,
          mean: r.mean,
          p50: r.p50,
          p90: r.p90,
          p99: r.p99,
          max: r.max
        }
      })
    }
  }
  const per = result.perSecond?.requests
  if (Array.isArray(per) && per.length > 0) {
    return { source: 'perSecond', rows: per.map((count, i) => ({ t: i + 1, path: i, count, rps: count, errors: 0, eps: 0 })) }
  }
  return { source: 'none', rows: [] }
}

/**
 * @param {any} result
 */
function reportModel (result) {
  const urls = [].concat(result.url ?? [])
  /** @type {Figure[]} */
  const summary = [
    { label: 'requests', path: 'requests.total', value: result.requests.total },
    { label: 'requests/s (mean)', path: 'requests.mean', value: result.requests.mean },
    { label: 'latency p50', path: 'latency.p50', value: result.latency.p50, unit: 'ms' },
    { label: 'latency p99', path: 'latency.p99', value: result.latency.p99, unit: 'ms' },
    { label: 'latency max', path: 'latency.max', value: result.latency.max, unit: 'ms' },
    { label: 'errors', path: 'errors', value: result.errors },
    { label: 'non-2xx', path: 'non2xx', value: result.non2xx },
    { label: 'bytes read', path: 'throughput.total', value: result.throughput.total }
  ]
  /** @type {Figure[]} */
  const latency = [
    { label: 'min', path: 'latency.min', value: result.latency.min, unit: 'ms' },
    { label: 'mean', path: 'latency.mean', value: result.latency.mean, unit: 'ms' },
    { label: 'stddev', path: 'latency.stddev', value: result.latency.stddev, unit: 'ms' },
    ...PERCENTILE_KEYS.filter(([k]) => result.latency[k] !== undefined)
      .map(([k, q]) => ({ label: `${Number((q * 100).toFixed(3))}%`, path: `latency.${k}`, value: result.latency[k], unit: 'ms' })),
    { label: 'max', path: 'latency.max', value: result.latency.max, unit: 'ms' }
  ]
  const marks = PERCENTILE_KEYS.filter(([k]) => result.latency[k] !== undefined).map(([k, q]) => ({ q, ms: result.latency[k], path: `latency.${k}` }))
  const statusCodes = Object.entries(result.statusCodeStats).map(([code, s]) => ({ code, count: s.count, path: `statusCodeStats.${code}.count` }))
  const errors = Object.entries(result.errorsByKind)
    .filter(([kind]) => kind !== 'status')
    .map(([kind, count]) => ({ kind, count, path: `errorsByKind.${kind}`, detail: result.errorDetails?.[kind] }))
  /** @type {Figure[]} */
  const params = [
    { label: urls.length > 1 ? 'URLs' : 'URL', path: 'url', value: urls.join('\n') },
    { label: 'connections', path: 'connections', value: result.connections },
    { label: 'pipelining', path: 'pipelining', value: result.pipelining },
    { label: 'workers', path: 'workers', value: result.workers },
    { label: 'duration', path: 'duration', value: result.duration, unit: 's' },
    { label: 'start', path: 'start', value: isoTime(result.start) },
    { label: 'finish', path: 'finish', value: isoTime(result.finish) },
    { label: 'stopped by', path: 'stoppedBy', value: result.stoppedBy },
    ...(result.socketPath ? [{ label: 'unix socket', path: 'socketPath', value: result.socketPath }] : []),
    ...(result.rate
      ? [
          { label: 'target rate', path: 'rate.target', value: result.rate.target, unit: 'req/s' },
          { label: 'achieved rate', path: 'rate.achieved', value: result.rate.achieved, unit: 'req/s' },
          { label: 'latency corrected for coordinated omission', path: 'latencyCorrected', value: String(result.latencyCorrected) }
        ]
      : []),
    { label: 'generator CPU (cores)', path: 'saturation.cpuCores', value: result.saturation?.cpuCores }
  ].filter((f) => f.value !== undefined)
  const thresholds = Array.isArray(result.thresholds) ? result.thresholds.map((th, i) => ({ ...th, path: `thresholds.${i}` })) : []
  return {
    // -T/--title names the run; else the target
    title: typeof result.title === 'string' && result.title !== '' ? result.title : `benchrig load: ${urls.length === 1 ? urls[0] : `${urls.length} URLs`}`,
    summary,
    latency,
    curve: percentileCurve(result.histogram),
    uncorrected: typeof result.uncorrectedHistogram === 'string' ? percentileCurve(result.uncorrectedHistogram) : undefined,
    marks,
    timeline: timeline(result),
    statusCodes,
    errors,
    warning: result.saturation?.warning,
    thresholds,
    params
  }
}

module.exports = { reportModel, checkResult, timeline, percentileCurve, isoTime }
