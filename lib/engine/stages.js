'use strict'
// --stages: a send plan whose rate moves linearly from one target to the
// next (k6's ramping-arrival-rate), and the parser of the stage strings
// shared with --stages-connections (k6's ramping-vus).
//
// The rate of stage s goes from the previous stage's target (0 before the
// first) to its own over its duration, so the number of requests planned by
// time t is the integral I(t) of a piecewise-linear rate: a quadratic in each
// stage. Request i (0-based) is due when I reaches i + 1, so I(t) requests
// are due by t, whatever the ramp, and the run holds floor(I(end)) in all.
// The send time of request i is the closed-form inverse of I in its stage:
// a few multiplications and a square root, no table and no object per
// request, the same arithmetic-on-a-counter shape as pacer.js.
const { UsageError } = require('../errors.js')
const { parseCount } = require('./options/units.js')

/**
 * A stage; the first may carry `from`, the target before it (k6's startRate
 * and startVUs; 0 when absent), which scaleStages scales with the targets.
 * @typedef {{durationMs: number, target: number, from?: number}} Stage
 */

/**
 * A target: a count >= 0 with SI suffixes (10k) as every count of a load run
 * takes it (units.js); a whole number of connections, any number for a rate.
 */
function parseTarget (text, flag, part, integer) {
  try {
    return parseCount(text, flag, { whole: integer, min: 0 })
  } catch {
    const what = integer ? 'a whole number of connections' : 'a rate'
    throw new UsageError(`invalid ${flag} "${part}": the target after ":" must be ${what} >= 0, optionally with k, M or G, e.g. 30s:1000 or 1m:10k`)
  }
}

/**
 * Parses "30s:1000,1m:1000,10s:0" (or an array of such strings, or of
 * {duration, target} objects from the API) into stages.
 * @param {unknown} value
 * @param {string} flag for the messages, e.g. '--stages'
 * @param {(value: unknown, flag: string) => number} parseDuration seconds
 * @param {{integer?: boolean, from?: number}} [opts] integer targets only (connections);
 *   from: the target before the first stage (--stages-start; default 0)
 * @returns {Stage[]}
 */
function parseStages (value, flag, parseDuration, { integer = false, from = 0 } = {}) {
  const parts = []
  for (const v of [].concat(value)) {
    if (v !== null && typeof v === 'object') parts.push(v)
    else parts.push(...String(v).split(','))
  }
  /** @type {Stage[]} */
  const stages = []
  for (const part of parts) {
    let durationText
    let target
    if (typeof part === 'object') {
      durationText = part.duration
      if (typeof part.target !== 'number' && typeof part.target !== 'string') throw new UsageError(`invalid ${flag} ${JSON.stringify(part)}: give {duration, target} with a number target (or a count such as '10k')`)
      target = parseTarget(part.target, flag, JSON.stringify(part), integer)
    } else {
      const s = part.trim()
      const colon = s.lastIndexOf(':')
      if (colon <= 0) throw new UsageError(`invalid ${flag} "${s}": each stage is DURATION:TARGET, e.g. --stages 30s:1000,1m:1000,10s:0`)
      durationText = s.slice(0, colon)
      target = parseTarget(s.slice(colon + 1), flag, s, integer)
    }
    const shown = typeof part === 'object' ? JSON.stringify(part) : part.trim()
    let seconds
    try {
      seconds = parseDuration(durationText, flag)
    } catch {
      throw new UsageError(`invalid ${flag} "${shown}": the duration before ":" must be positive, like 500ms, 30s, 2m or 1m30s`)
    }
    stages.push({ durationMs: Math.round(seconds * 1000), target })
  }
  if (stages.length === 0) throw new UsageError(`invalid ${flag}: give at least one stage DURATION:TARGET, e.g. 30s:1000`)
  if (from > 0) stages[0].from = from
  if (stages.every((s) => s.target === 0) && !(from > 0)) throw new UsageError(`invalid ${flag} "${[].concat(value).join(',')}": every target is 0, so nothing would be sent`)
  return stages
}

/** The sum of the stages' durations (ms). */
function stagesDurationMs (stages) {
  let ms = 0
  for (const s of stages) ms += s.durationMs
  return ms
}

/** The stages with every target multiplied by `factor` (a worker's share). */
function scaleStages (stages, factor) {
  return stages.map((s) => (s.from === undefined
    ? { durationMs: s.durationMs, target: s.target * factor }
    : { durationMs: s.durationMs, target: s.target * factor, from: s.from * factor }))
}

/**
 * The piecewise-linear target of `stages` (starting from the first stage's
 * `from`, 0 by default): value at a time,
 * its integral and the inverse of the integral. Arrays are built once.
 */
class Ramp {
  /** @param {Stage[]} stages targets per second */
  constructor (stages) {
    const n = stages.length
    this.n = n
    this.t0 = new Float64Array(n + 1) // start of stage s (ms from the plan's start)
    this.i0 = new Float64Array(n + 1) // integral up to the start of stage s (requests)
    this.a = new Float64Array(n) // rate at the start of stage s (per ms)
    this.b = new Float64Array(n) // its slope (per ms²)
    let from = (stages[0]?.from ?? 0) / 1000 // per ms, as `to` below
    for (let s = 0; s < n; s++) {
      const d = stages[s].durationMs
      const to = stages[s].target / 1000
      this.a[s] = from
      this.b[s] = (to - from) / d
      this.t0[s + 1] = this.t0[s] + d
      this.i0[s + 1] = this.i0[s] + (from + to) / 2 * d
      from = to
    }
    this.endMs = this.t0[n]
    this.total = this.i0[n]
  }

  /** The target (per second) at `t` ms from the start. */
  valueAt (t) {
    if (t <= 0) return this.a[0] * 1000
    if (t >= this.endMs) return this.a[this.n - 1] * 1000 + this.b[this.n - 1] * (this.endMs - this.t0[this.n - 1]) * 1000
    const s = this.stageAt(t)
    return (this.a[s] + this.b[s] * (t - this.t0[s])) * 1000
  }

  /**
   * The lowest target (per second) over [from, to] ms: at an end, or at a
   * stage boundary inside (the ramp is linear between boundaries).
   */
  lowestIn (from, to) {
    let low = Math.min(this.valueAt(from), this.valueAt(to))
    for (let s = 1; s < this.n; s++) {
      if (this.t0[s] > from && this.t0[s] < to) low = Math.min(low, this.valueAt(this.t0[s]))
    }
    return low
  }

  /** The stage `t` (ms, inside the plan) falls in. */
  stageAt (t) {
    let s = 0
    while (s < this.n - 1 && t >= this.t0[s + 1]) s++
    return s
  }

  /** The integral of the target from the start to `t` ms. */
  integral (t) {
    if (t <= 0) return 0
    if (t >= this.endMs) return this.total
    const s = this.stageAt(t)
    const u = t - this.t0[s]
    return this.i0[s] + this.a[s] * u + this.b[s] * u * u / 2
  }

  /**
   * When the integral reaches `m` (ms from the start; Infinity past the end).
   * In stage s it solves a·u + b·u²/2 = m - i0[s] for u, written as
   * 2r / (a + sqrt(a² + 2br)): the same root as the textbook form, but with
   * no cancellation when b is tiny or negative (a ramp down).
   */
  timeOf (m) {
    if (m > this.total + 1e-9) return Infinity
    let s = 0
    while (s < this.n - 1 && m > this.i0[s + 1]) s++
    const r = m - this.i0[s]
    if (r <= 0) return this.t0[s]
    const a = this.a[s]
    const disc = a * a + 2 * this.b[s] * r
    const u = 2 * r / (a + Math.sqrt(disc > 0 ? disc : 0))
    const d = this.t0[s + 1] - this.t0[s]
    return this.t0[s] + (u < d ? u : d)
  }
}

/** The plan as the JSON shows it: seconds and targets. */
function describeStages (stages) {
  return stages.map((s) => (s.from === undefined
    ? { duration: s.durationMs / 1000, target: s.target }
    : { duration: s.durationMs / 1000, target: s.target, from: s.from }))
}

module.exports = { parseStages, stagesDurationMs, scaleStages, describeStages, Ramp }
