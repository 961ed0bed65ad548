'use strict'
// --threshold EXPR: pass/fail criteria on a run's figures (k6's thresholds),
// checked on the final result, and with --threshold-abort on the running
// values while the run goes.
//
// Grammar (whitespace allowed between the parts):
//   EXPR   := METRIC OP NUMBER [UNIT]
//   OP     := <  <=  >  >=  ==  !=
//   METRIC := pN (p50, p99, p99.9: a latency percentile) | mean | avg | min | max | stddev
//             latency, ms by default; UNIT us, µs, ms or s
//           | requests | errors | timeouts | non2xx | mismatches | 1xx | 2xx | 3xx | 4xx | 5xx
//             a count; with UNIT % a share: errors and timeouts of the requests that
//             ended (responses + errors), the others of the responses
//           | rps  responses per second over the run (total / duration)
// Every figure is read from the runner's counters and latency histogram, so
// the final check and the running one measure the same thing.
const { UsageError } = require('../errors.js')
const C = require('./counters.js')
const { Histogram } = require('./measure/histogram.js')

const OPS = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b
}

const LATENCY = new Set(['mean', 'avg', 'min', 'max', 'stddev'])
const STATUS = { '1xx': C.S1XX, '2xx': C.S2XX, '3xx': C.S3XX, '4xx': C.S4XX, '5xx': C.S5XX }
// interrupted and dropped_iterations: a --scenarios scenario's (result.js scenarioCounts)
const COUNTS = new Set(['requests', 'errors', 'timeouts', 'non2xx', 'mismatches', 'interrupted', 'dropped_iterations', ...Object.keys(STATUS)])
const TIME_UNITS = { us: 0.001, µs: 0.001, ms: 1, s: 1000 }
const METRIC_LIST = 'p50, p99, p99.9, mean, min, max, stddev, requests, errors, timeouts, non2xx, mismatches, 2xx (or 1xx..5xx), rps, interrupted, dropped_iterations'

/**
 * @typedef {object} Threshold
 * @property {string} expr as given (trimmed)
 * @property {string} metric
 * @property {'latency'|'count'|'share'|'rate'} kind
 * @property {number} [percentile] for pN
 * @property {string} op
 * @property {number} bound in ms (latency), a count, a percentage (share) or req/s (rate)
 */

/**
 * @param {unknown} value one expression
 * @returns {Threshold}
 */
function parseThreshold (value) {
  const expr = String(value).trim()
  const bad = (why) => new UsageError(`invalid --threshold "${expr}": ${why}`)
  const m = /^([a-z0-9._]+)\s*(<=|>=|==|!=|<|>)\s*(\d+(?:\.\d+)?|\.\d+)\s*(us|µs|ms|s|%)?$/i.exec(expr)
  if (!m) throw bad(`give METRIC OP VALUE, e.g. p99<50ms, errors<0.1%, rps>1000 (operators < <= > >= == !=; metrics ${METRIC_LIST})`)
  const metric = m[1].toLowerCase()
  const unit = m[4]
  const number = Number(m[3])
  /** @type {Threshold} */
  const out = { expr, metric, kind: 'count', op: m[2], bound: number }
  const pm = /^p(\d+(?:\.\d+)?)$/.exec(metric)
  if (pm || LATENCY.has(metric)) {
    if (pm) {
      out.percentile = Number(pm[1])
      if (!(out.percentile > 0 && out.percentile <= 100)) throw bad(`the percentile of ${metric} must be above 0 and at most 100`)
    }
    if (unit === '%') throw bad(`${metric} is a latency: give it in ms, us or s, e.g. ${metric}<50ms`)
    out.kind = 'latency'
    out.bound = number * TIME_UNITS[unit ?? 'ms']
  } else if (COUNTS.has(metric)) {
    if (unit !== undefined && unit !== '%') throw bad(`${metric} is a count: give a number, or a share with %, e.g. ${metric}<5 or ${metric}<0.1%`)
    if (unit === '%') {
      if (number > 100) throw bad('a share is at most 100%')
      out.kind = 'share'
    } else if (!Number.isInteger(number)) {
      throw bad(`${metric} is a count: give a whole number, or a share with %`)
    }
  } else if (metric === 'rps') {
    if (unit !== undefined) throw bad('rps is responses per second: give a plain number, e.g. rps>1000')
    out.kind = 'rate'
  } else {
    throw bad(`unknown metric "${metric}"; the metrics are ${METRIC_LIST}`)
  }
  return out
}

/**
 * @param {unknown} value an expression or a list of them (undefined: none)
 * @returns {Threshold[]}
 */
function parseThresholds (value) {
  if (value === undefined || value === null) return []
  return [].concat(value).map(parseThreshold)
}

/** Errors by kind summed, as the result's `errors` (body mismatches are apart). */
function errorCount (c) {
  let n = 0
  for (let k = C.ERR_CONNECT; k < C.ERR_CONNECT + C.ERROR_KINDS.length; k++) n += c[k]
  return n
}

/** What a count's percentage is of. @param {string} metric @param {Float64Array|number[]} c counters */
function shareBase (metric, c) {
  // errors and timeouts end a request without a response: of all that ended
  if (metric === 'errors' || metric === 'timeouts') return c[C.COMPLETED] + errorCount(c)
  if (metric === 'interrupted') return c[C.SENT]
  // dropped arrivals: of all the plan's, sent or dropped
  if (metric === 'dropped_iterations') return c[C.SENT] + c[C.DROPPED_ITERATIONS]
  return c[C.COMPLETED]
}

function countOf (metric, c) {
  if (metric === 'requests') return c[C.COMPLETED]
  if (metric === 'errors') return errorCount(c)
  if (metric === 'timeouts') return c[C.ERR_TIMEOUT]
  if (metric === 'mismatches') return c[C.MISMATCHES]
  if (metric === 'non2xx') return c[C.S1XX] + c[C.S3XX] + c[C.S4XX] + c[C.S5XX]
  if (metric === 'interrupted') return c[C.INTERRUPTED]
  if (metric === 'dropped_iterations') return c[C.DROPPED_ITERATIONS]
  return c[STATUS[metric]]
}

const round3 = (x) => Math.round(x * 1000) / 1000

/**
 * The figure a threshold is about.
 * @param {Threshold} th
 * @param {{counters: Float64Array, histogram: import('./measure/histogram.js').Histogram, elapsedMs: number}} s
 * @returns {number} ms, a count, a percentage or req/s
 */
function measure (th, s) {
  const c = s.counters
  const h = s.histogram
  if (th.kind === 'latency') {
    if (h.totalCount === 0) return 0
    const us = th.percentile !== undefined
      ? h.percentile(th.percentile)
      : (th.metric === 'max' ? h.maxValue : th.metric === 'min' ? h.minValue : th.metric === 'stddev' ? h.stddev() : h.mean())
    return round3(us / 1000)
  }
  if (th.kind === 'rate') return s.elapsedMs > 0 ? Math.round(c[C.COMPLETED] / s.elapsedMs * 1e5) / 100 : 0
  const n = countOf(th.metric, c)
  if (th.kind === 'count') return n
  const of = shareBase(th.metric, c)
  return of > 0 ? round3(n / of * 100) : 0
}

/**
 * Checks every threshold against the final figures.
 * @param {Threshold[]} list
 * @param {Parameters<typeof measure>[1]} s
 * @returns {{expr: string, value: number, ok: boolean}[]}
 */
function evaluate (list, s) {
  return list.map((th) => {
    const value = measure(th, s)
    return { expr: th.expr, value, ok: OPS[th.op](value, th.bound) }
  })
}

/**
 * How a running value moves: a count and the max latency only grow, the min
 * latency only falls; every other figure can go either way.
 * @returns {'grows'|'falls'|'moves'}
 */
function direction (th) {
  if (th.kind === 'count' || (th.kind === 'latency' && th.metric === 'max')) return 'grows'
  if (th.kind === 'latency' && th.metric === 'min') return 'falls'
  return 'moves'
}

/**
 * Whether a running value already means the threshold fails at the end:
 * once a figure that only grows is past an upper bound (or one that only
 * falls is below a lower bound), no later response brings it back, so that
 * is decided at once. A figure that moves either way is judged on its running
 * value after the grace period, as k6's abortOnFail does; a bound a growing
 * count has not reached yet (requests>1000) is left to the end.
 * @param {Threshold} th
 * @param {number} value the running figure
 * @param {number} elapsedMs into the run
 */
function failsEarly (th, value, elapsedMs) {
  const dir = direction(th)
  if (dir === 'grows') return th.op === '<' ? value >= th.bound : (th.op === '<=' || th.op === '==') && value > th.bound
  if (dir === 'falls') return th.op === '>' ? value <= th.bound : (th.op === '>=' || th.op === '==') && value < th.bound
  return elapsedMs >= GRACE_MS && !OPS[th.op](value, th.bound)
}

// rates and percentiles on the running values only after this much of the
// run: its first responses (connections opening, a cold server) say little
const GRACE_MS = 1000
// how often the running values are checked (a settled count fails within this)
const CHECK_MS = 100

/**
 * The first threshold the running figures say can no longer pass, or null:
 * the one rule of --threshold-abort, whatever feeds it the figures.
 * @param {Threshold[]} list
 * @param {Parameters<typeof measure>[1]} s the running figures
 * @returns {{expr: string, value: number, atMs: number}|null}
 */
function firstFailure (list, s) {
  for (const th of list) {
    // a latency figure of no response yet is no figure
    if (th.kind === 'latency' && s.histogram.totalCount === 0) continue
    const value = measure(th, s)
    if (failsEarly(th, value, s.elapsedMs)) return { expr: th.expr, value, atMs: Math.round(s.elapsedMs) }
  }
  return null
}

/**
 * --threshold-abort on a run of one runner in this thread: checks its
 * running values every CHECK_MS and calls onFail once with the first
 * threshold that can no longer pass.
 * @param {import('./runner.js').Runner} runner
 * @param {Threshold[]} list
 * @param {(failed: {expr: string, value: number, atMs: number}) => void} onFail
 * @returns {() => void} stops the checks
 */
function watchThresholds (runner, list, onFail) {
  const timer = setInterval(() => {
    if (!runner.everConnected || runner.stopping) return
    const elapsedMs = runner.clock.now() - runner.startMono
    const failed = firstFailure(list, { counters: runner.counters, histogram: runner.histogram, elapsedMs })
    if (failed !== null) {
      clearInterval(timer)
      onFail(failed)
    }
  }, CHECK_MS)
  return () => clearInterval(timer)
}

/**
 * --threshold-abort on a run of several runners (workers, origins): the main
 * thread sees their combined figures only on the tick, so the check runs on
 * each combined tick: the runners' counters summed, and a running histogram
 * here fed by each second's latency counts (the liveLatency snapshots), so
 * the percentiles are those of every runner together. Same rule as one
 * runner's watch (firstFailure); it decides at most once a tick.
 */
class TickWatch {
  /**
   * @param {Threshold[]} list
   * @param {(failed: {expr: string, value: number, atMs: number}) => void} onFail called once
   */
  constructor (list, onFail) {
    this.list = list
    this.onFail = onFail
    this.histogram = new Histogram()
    this.done = false
  }

  /**
   * @param {Float64Array} counters the runners' cumulative counters, summed
   * @param {Float64Array|undefined} latencyCounts the second's latency counts, summed
   * @param {number} elapsedMs into the run
   */
  feed (counters, latencyCounts, elapsedMs) {
    if (this.done) return
    if (latencyCounts !== undefined) {
      const h = this.histogram.counts
      for (let i = 0; i < h.length; i++) h[i] += latencyCounts[i]
      this.histogram.recount()
    }
    const failed = firstFailure(this.list, { counters, histogram: this.histogram, elapsedMs })
    if (failed === null) return
    this.done = true
    this.onFail(failed)
  }
}

/**
 * The figures of a result as JSON carries them (a merge, a scenarios run's
 * whole): its counts into counters, its histogram decoded with the exact
 * min and max it prints, its duration; what `evaluate` reads.
 * @param {Record<string, any>} r a load result
 * @returns {Parameters<typeof measure>[1]}
 */
function figuresOf (r) {
  const c = new Float64Array(C.SIZE)
  c[C.COMPLETED] = r.requests?.total ?? 0
  c[C.SENT] = r.requests?.sent ?? 0
  c[C.BYTES] = r.throughput?.total ?? 0
  c[C.MISMATCHES] = r.mismatches ?? 0
  c[C.INTERRUPTED] = r.interrupted ?? 0
  c[C.DROPPED_ITERATIONS] = r.dropped_iterations ?? 0
  C.ERROR_KINDS.forEach((k, i) => { c[C.ERR_CONNECT + i] = r.errorsByKind?.[k] ?? 0 })
  for (const [k, i] of Object.entries(STATUS)) c[i] = r[k] ?? 0
  // lazy: only a result read from JSON carries an encoded histogram
  const h = typeof r.histogram === 'string' ? require('./measure/hdr-codec.js').decode(r.histogram) : new Histogram()
  // the V2 encoding keeps buckets: the printed min and max are the exact ones
  if (h.totalCount > 0 && Number.isFinite(r.latencyUs?.min) && Number.isFinite(r.latencyUs?.max)) {
    h.minValue = r.latencyUs.min
    h.maxValue = r.latencyUs.max
  }
  return { counters: c, histogram: h, elapsedMs: (r.duration ?? 0) * 1000 }
}

/** Whether a list needs latency figures (a running histogram) to be checked. */
function needsLatency (list) {
  return list.some((th) => th.kind === 'latency')
}

/** The unit a threshold's value is shown in. */
function unitOf (th) {
  return th.kind === 'latency' ? ' ms' : th.kind === 'share' ? '%' : th.kind === 'rate' ? ' req/s' : ''
}

/**
 * The text lines of the checked thresholds (k6 prints every threshold with
 * its verdict; so do we).
 * @param {{expr: string, value: number, ok: boolean}[]} checked
 * @returns {string[]}
 */
function formatThresholds (checked) {
  const width = Math.max(...checked.map((c) => c.expr.length))
  return checked.map((c) => {
    const th = parseThreshold(c.expr)
    return `  ${c.ok ? 'pass' : 'FAIL'}  ${c.expr.padEnd(width)}  ${th.metric} = ${c.value}${unitOf(th)}`
  })
}

/** One line per failed threshold, naming the expression and the measured value. */
function failureLines (checked) {
  return checked.filter((c) => !c.ok).map((c) => {
    const th = parseThreshold(c.expr)
    return `threshold "${c.expr}" failed: ${th.metric} was ${c.value}${unitOf(th)}`
  })
}

module.exports = { parseThreshold, parseThresholds, measure, evaluate, figuresOf, failsEarly, firstFailure, watchThresholds, TickWatch, needsLatency, formatThresholds, failureLines, GRACE_MS, CHECK_MS }
