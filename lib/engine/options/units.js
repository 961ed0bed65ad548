'use strict'
// Numbers with units, as every flag of `benchrig load` (and the API) takes
// them: counts and rates with SI suffixes (-c 1k, -R 10k, -a 1M) and
// durations in Go's compound form (1m30s, 1h, 500ms, 250us). One module so
// that every flag reads "1k" and "1m30s" the same way and names itself in
// the message when it cannot.
//
// k is 1000 (SI), as in wrk's and vegeta's counts: a count of requests or
// connections is decimal. Sizes in bytes (--max-header-size, --h2-window)
// keep their binary k = 1024 and are parsed where they are taken.
const { UsageError } = require('../../errors.js')

const SI = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9 }
const COUNT_RE = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([kKMG]?)\s*$/

// Go's time.ParseDuration units (plus "µs" with the micro sign and "us"), in seconds
const DURATION_UNITS = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }
const DURATION_PART = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y

/**
 * Parses a count or a rate: a number with an optional SI suffix k/K (1000),
 * M (10^6) or G (10^9). "1.5k" is 1500; "1.5" or "0.5k" of a whole-number
 * count is refused (there is no half a request). A lower-case m is refused
 * with a hint: in a count it would read as milli.
 * @param {unknown} value
 * @param {string} flag for the message, e.g. "-c/--connections"
 * @param {{min?: number, max?: number, whole?: boolean}} [opts] whole: false for rates (0.5 per second is a rate)
 * @returns {number}
 */
function parseCount (value, flag, opts = {}) {
  const { whole = true, max = Number.MAX_SAFE_INTEGER } = opts
  // a rate's floor is "above 0" (0.5 per second is a rate), a count's is 1
  const min = opts.min ?? (whole ? 1 : Number.MIN_VALUE)
  const range = (min === Number.MIN_VALUE ? '> 0' : `>= ${min}`) + (max === Number.MAX_SAFE_INTEGER ? '' : ` and <= ${max}`)
  const what = whole ? 'a whole number' : 'a number'
  let n
  if (typeof value === 'number') {
    n = value
  } else {
    const m = COUNT_RE.exec(String(value))
    if (m === null) {
      const hint = /\dm\s*$/.test(String(value)) ? ' (a million is M: m would be milli)' : ''
      throw new UsageError(`invalid ${flag} "${value}": give ${what} ${range}, optionally with k (1000), M (10^6) or G (10^9), e.g. 1k or 1.5M${hint}`)
    }
    n = Number(m[1]) * SI[m[2]]
    // 1.1 * 1000 is 1100.0000000000002 in binary floating point: snap what
    // the suffix made a whole number back to it
    if (m[2] !== '' && Math.abs(n - Math.round(n)) < 1e-9 * n) n = Math.round(n)
  }
  if (!Number.isFinite(n)) throw new UsageError(`invalid ${flag} "${value}": give ${what} ${range}`)
  if (whole && !Number.isInteger(n)) {
    throw new UsageError(`invalid ${flag} "${value}": a count must be a whole number (${n} is not: there is no fraction of a request), e.g. 1500 or 1.5k`)
  }
  if (n < min || n > max) throw new UsageError(`invalid ${flag} "${value}": give ${what} ${range}`)
  return n
}

/**
 * Parses a duration: a bare number (in `bare` units, seconds by default) or
 * Go's form, one or more number+unit parts from h, m, s, ms, us (µs), ns:
 * "500ms", "10s", "2m", "1h", "1m30s", "1h2m3.5s".
 * @param {unknown} value
 * @param {string} flag for the message
 * @param {{bare?: 's'|'ms', allowZero?: boolean}} [opts]
 * @returns {number} seconds
 */
function parseDuration (value, flag, opts = {}) {
  const bare = opts.bare ?? 's'
  const ok = (s) => (opts.allowZero ? s >= 0 : s > 0) && Number.isFinite(s)
  if (typeof value === 'number') {
    const s = value * DURATION_UNITS[bare]
    if (ok(s)) return s
  } else {
    const s = durationSeconds(String(value).trim(), DURATION_UNITS[bare])
    if (ok(s)) return s
  }
  const bareText = bare === 's' ? 'seconds' : 'milliseconds'
  throw new UsageError(`invalid ${flag} "${value}": give a ${opts.allowZero ? 'non-negative' : 'positive'} number of ${bareText} or a duration like 500ms, 10s, 2m, 1m30s, 1h (units h, m, s, ms, us, ns)`)
}

/** NaN unless the text is a bare number or a run of number+unit parts. */
function durationSeconds (text, bareScale) {
  if (/^(\d+(?:\.\d+)?|\.\d+)$/.test(text)) return Number(text) * bareScale
  if (text === '') return NaN
  let total = 0
  DURATION_PART.lastIndex = 0
  while (DURATION_PART.lastIndex < text.length) {
    const m = DURATION_PART.exec(text)
    if (m === null) return NaN
    total += Number(m[1]) * DURATION_UNITS[m[2]]
  }
  return total
}

module.exports = { parseCount, parseDuration, SI }
