'use strict'
// k6's executors, as the options of one engine run. Each executor names its
// fields (k6's names and defaults), normalizes them (durations in ms) and
// maps them onto what the engine already has:
//   constant-arrival-rate  -> -R (pacer.js), maxVUs connections, preAllocatedVUs of them opened
//                             at the start and the rest when the plan needs them (vu-pool.js)
//   ramping-arrival-rate   -> --stages from --stages-start (stages.js RampPacer), the same VUs
//   constant-vus           -> a closed loop of `vus` connections, one request in flight each
//   ramping-vus            -> --stages-connections from --stages-start (connection-stages.js)
//   shared-iterations      -> -O over `vus` connections (one budget), maxDuration as -d
//   per-vu-iterations      -> -M per connection (an exhausted connection retires), maxDuration as -d
// An iteration is one request, or one pass of the scenario's `requests`
// (k of them): counts and rates of iterations are multiplied by k.
// With --shard I/N (several generators run one file), `part(n)` is this
// generator's part of a whole count (split.js, as -c is split), and an
// arrival rate follows this generator's part of the VUs, as -R follows -c
// over workers; ramping-vus follows its part of the whole ramp at each step
// (connection-stages.js partOf), so the generators' parts add up exactly.
const { UsageError } = require('../../errors.js')
const { parseCount, parseDuration } = require('../options/units.js')
const { CODE } = require('./file.js')

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * Readers of one scenario's fields, each failing with one UsageError that
 * names the scenario, the field and what it takes.
 * @param {string} name the scenario
 * @param {Record<string, any>} spec its object in the file
 */
function fieldReader (name, spec) {
  const bad = (field, why) => new UsageError(`--scenarios: scenario "${name}": ${field} ${JSON.stringify(spec[field]) ?? ''}: ${why}`.replace(' : ', ': '), CODE)
  const given = (field) => spec[field] !== undefined && spec[field] !== null
  const missing = (field, what) => new UsageError(`--scenarios: scenario "${name}" (${spec.executor}) needs ${field}: ${what}`, CODE)
  return {
    bad,
    given,
    /** A whole number >= min (k6's VUs and iterations). */
    count (field, fallback, min = 1) {
      if (!given(field)) {
        if (fallback === undefined) throw missing(field, `a whole number >= ${min}`)
        return fallback
      }
      try {
        return parseCount(spec[field], field, { min })
      } catch {
        throw bad(field, `give a whole number >= ${min}`)
      }
    },
    /** A number > 0 (k6's rate, per timeUnit), or >= 0 with zero. */
    rate (field, fallback, zero = false) {
      if (!given(field)) {
        if (fallback === undefined) throw missing(field, 'a number of iterations per timeUnit > 0')
        return fallback
      }
      try {
        return parseCount(spec[field], field, { whole: false, min: zero ? 0 : Number.MIN_VALUE })
      } catch {
        throw bad(field, `give a number ${zero ? '>= 0' : '> 0'} of iterations per timeUnit`)
      }
    },
    /** A duration string (k6's, Go's form: 30s, 1m30s, 500ms) in ms. */
    duration (field, fallback, zero = false) {
      if (!given(field)) {
        if (fallback === undefined) throw missing(field, 'a duration such as "30s"')
        return fallback
      }
      return durationMs(spec[field], zero, (why) => bad(field, why))
    },
    /** k6's stages: [{ duration, target }], targets whole with `integer`. */
    stages (field, integer) {
      if (!given(field)) throw missing(field, 'a list of { duration, target }, e.g. [{ "duration": "30s", "target": 10 }]')
      const list = spec[field]
      if (!Array.isArray(list) || list.length === 0) throw bad(field, 'give a non-empty list of { duration, target }')
      return list.map((s, i) => {
        const where = `${field}[${i}]`
        if (!isObject(s)) throw new UsageError(`--scenarios: scenario "${name}": ${where}: give { duration, target }`, CODE)
        const other = Object.keys(s).find((k) => k !== 'duration' && k !== 'target')
        if (other !== undefined) throw new UsageError(`--scenarios: scenario "${name}": ${where}: unknown field "${other}": a stage has duration and target`, CODE)
        const ms = durationMs(s.duration, false, (why) => new UsageError(`--scenarios: scenario "${name}": ${where}.duration ${JSON.stringify(s.duration)}: ${why}`, CODE))
        let target
        try {
          if (typeof s.target !== 'number' && typeof s.target !== 'string') throw new Error('not a number')
          target = parseCount(s.target, 'target', { whole: integer, min: 0 })
        } catch {
          throw new UsageError(`--scenarios: scenario "${name}": ${where}.target ${JSON.stringify(s.target)}: give ${integer ? 'a whole number of VUs' : 'a rate (iterations per timeUnit)'} >= 0`, CODE)
        }
        return { duration: ms, target }
      })
    }
  }
}

/** A k6 duration in ms: a string in Go's form; a bare number is refused (k6 and -d read it differently). */
function durationMs (value, zero, bad) {
  if (typeof value !== 'string') throw bad('give a duration string such as "30s", "1m30s" or "500ms"')
  // "0" and "0s" are a zero duration where one is allowed (startTime)
  if (zero && /^\s*0+(\.0+)?(ns|us|µs|ms|s|m|h)?\s*$/.test(value)) return 0
  try {
    return Math.round(parseDuration(value, 'duration') * 1e6) / 1e3
  } catch {
    throw bad(`give a ${zero ? '' : 'positive '}duration such as "30s", "1m30s" or "500ms"`)
  }
}

/** Sum of the stages' durations (ms). */
const stagesMs = (stages) => stages.reduce((a, s) => a + s.duration, 0)

/** The stages as the engine's options take them (seconds), targets scaled. */
const engineStages = (stages, scale) => stages.map((s) => ({ duration: s.duration / 1000, target: s.target * scale }))

/**
 * @typedef {object} Executor
 * @property {string[]} fields its own fields (beside the common ones)
 * @property {(f: ReturnType<typeof fieldReader>) => Record<string, any>} params the normalized fields
 * @property {(p: Record<string, any>) => number} durationMs the planned duration (iterations: maxDuration, the most it can last)
 * @property {(p: Record<string, any>, k: number, part: (n: number, field: string) => number) => Record<string, any>} options
 *   load() options (k: requests per iteration; part: this generator's part of a count, the count itself without --shard)
 */

/** Arrival-rate VUs: connections = maxVUs, preAllocatedVUs of them opened at the start (plan.js engineExtras). */
function arrivalVUs (f) {
  const pre = f.count('preAllocatedVUs')
  const max = f.count('maxVUs', pre)
  if (max < pre) throw f.bad('maxVUs', `must be at least preAllocatedVUs (${pre})`)
  return { preAllocatedVUs: pre, maxVUs: max }
}

/** A ramp that stays at 0 throughout would send nothing: refused. */
function nonZero (f, p, start) {
  if (p[start] === 0 && p.stages.every((s) => s.target === 0)) throw f.bad('stages', `every target is 0 and ${start} is 0, so nothing would be sent`)
  return p
}

/** @type {Record<string, Executor>} */
const EXECUTORS = {
  'constant-arrival-rate': {
    fields: ['rate', 'timeUnit', 'duration', 'preAllocatedVUs', 'maxVUs'],
    params: (f) => ({ rate: f.rate('rate'), timeUnit: f.duration('timeUnit', 1000), duration: f.duration('duration'), ...arrivalVUs(f) }),
    durationMs: (p) => p.duration,
    options: (p, k, part) => {
      const vus = part(p.maxVUs, 'maxVUs')
      return { connections: vus, overallRate: p.rate * k * 1000 / p.timeUnit * vus / p.maxVUs, duration: p.duration / 1000 }
    }
  },
  'ramping-arrival-rate': {
    fields: ['startRate', 'timeUnit', 'stages', 'preAllocatedVUs', 'maxVUs'],
    params: (f) => nonZero(f, { startRate: f.rate('startRate', 0, true), timeUnit: f.duration('timeUnit', 1000), stages: f.stages('stages', false), ...arrivalVUs(f) }, 'startRate'),
    durationMs: (p) => stagesMs(p.stages),
    options: (p, k, part) => {
      const vus = part(p.maxVUs, 'maxVUs')
      const scale = k * 1000 / p.timeUnit * vus / p.maxVUs
      return { connections: vus, stages: engineStages(p.stages, scale), stagesStart: p.startRate * scale }
    }
  },
  'constant-vus': {
    fields: ['vus', 'duration'],
    params: (f) => ({ vus: f.count('vus', 1), duration: f.duration('duration') }),
    durationMs: (p) => p.duration,
    options: (p, k, part) => ({ connections: part(p.vus, 'vus'), duration: p.duration / 1000 })
  },
  'ramping-vus': {
    fields: ['startVUs', 'stages', 'gracefulRampDown'],
    params: (f) => nonZero(f, { startVUs: f.count('startVUs', 1, 0), stages: f.stages('stages', true), gracefulRampDown: f.duration('gracefulRampDown', 30000, true) }, 'startVUs'),
    durationMs: (p) => stagesMs(p.stages),
    options: (p) => ({ stagesConnections: engineStages(p.stages, 1), stagesStart: p.startVUs })
  },
  'shared-iterations': {
    fields: ['vus', 'iterations', 'maxDuration'],
    params: (f) => ({ vus: f.count('vus', 1), iterations: f.count('iterations', 1), maxDuration: f.duration('maxDuration', 600000) }),
    durationMs: (p) => p.maxDuration,
    options: (p, k, part) => ({ connections: part(p.vus, 'vus'), maxOverallRequests: part(p.iterations, 'iterations') * k, duration: p.maxDuration / 1000 })
  },
  'per-vu-iterations': {
    fields: ['vus', 'iterations', 'maxDuration'],
    params: (f) => ({ vus: f.count('vus', 1), iterations: f.count('iterations', 1), maxDuration: f.duration('maxDuration', 600000) }),
    durationMs: (p) => p.maxDuration,
    options: (p, k, part) => ({ connections: part(p.vus, 'vus'), maxConnectionRequests: p.iterations * k, duration: p.maxDuration / 1000 })
  }
}

module.exports = { EXECUTORS, fieldReader, durationMs }
