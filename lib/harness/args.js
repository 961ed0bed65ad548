'use strict'
// The argv of a benchmark file's root process: `key=value` narrowings plus
// the harness options --test / --test-all. Pure functions; Node 18 APIs only
// (this runs inside benchmark processes).
const { UsageError } = require('../errors.js')

const PAIR_RE = /^([^=\s]+)=([\s\S]*)$/

/**
 * Options that pass through argv without being declared configuration keys:
 * `benchmarker` (becomes a conf key, as in Node core), and any key starting
 * with `cpuset_` or `benchrig_` (left for the harness and bench.http).
 * @param {string} key
 */
function isPassThroughKey (key) {
  return key === 'benchmarker' || key.startsWith('cpuset_') || key.startsWith('benchrig_')
}

/**
 * @param {string[]} argv
 * @returns {{pairs: [string, string][], mode: undefined|'test'|'test-all'}}
 */
function parseBenchArgs (argv) {
  /** @type {[string, string][]} */
  const pairs = []
  /** @type {undefined|'test'|'test-all'} */
  let mode
  for (const arg of argv) {
    if (arg === '--test') {
      if (mode !== 'test-all') mode = 'test'
      continue
    }
    if (arg === '--test-all') {
      mode = 'test-all'
      continue
    }
    const m = PAIR_RE.exec(arg)
    if (!m) {
      throw new UsageError(`bad argument "${arg}": a benchmark file takes key=value arguments, --test or --test-all`)
    }
    pairs.push([m[1], m[2]])
  }
  return { pairs, mode }
}

/**
 * Types an argv value like the declared values of its key.
 * @param {string} key
 * @param {string} raw
 * @param {'string'|'number'|'boolean'} type
 */
function coerceValue (key, raw, type) {
  if (type === 'number') {
    // Any number Node core's `+value` reads, Infinity and -Infinity among
    // them; text that is not a number is refused (Node would pass NaN on).
    const n = raw.trim() === '' ? NaN : Number(raw)
    if (Number.isNaN(n) && raw.trim() !== 'NaN') throw new UsageError(`${key}=${raw}: "${key}" takes numbers`)
    return n
  }
  if (type === 'boolean') {
    if (raw === 'true' || raw === '1') return true
    if (raw === 'false' || raw === '0') return false
    throw new UsageError(`${key}=${raw}: "${key}" takes true or false`)
  }
  return raw
}

// JSON has no Infinity, -Infinity or NaN (JSON.stringify writes null): the
// conf a root hands its child (BENCHRIG_CONF) spells them as {"$number": "Infinity"}.
const NUMBER_TAG = '$number'

/**
 * The conf as the text of BENCHRIG_CONF, every number kept exactly.
 * @param {object} conf
 */
function encodeConf (conf) {
  return JSON.stringify(conf, (_, v) => typeof v === 'number' && !Number.isFinite(v) ? { [NUMBER_TAG]: String(v) } : v)
}

/**
 * The inverse of encodeConf.
 * @param {string} text
 * @returns {Record<string, any>}
 */
function decodeConf (text) {
  return JSON.parse(text, (_, v) => v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v[NUMBER_TAG] === 'string' ? Number(v[NUMBER_TAG]) : v)
}

/**
 * The argv a root passes to a child for one combination (for `ps` and for
 * Node-core-style files that read process.argv; the conf itself travels in
 * BENCHRIG_CONF so that its types are exact).
 * @param {object} conf
 * @param {Record<string, string>} extra
 */
function confToArgs (conf, extra = {}) {
  return [...Object.entries(conf), ...Object.entries(extra)].map(([k, v]) => `${k}=${v}`)
}

/**
 * The declared key closest to an undeclared one (Levenshtein distance; ties
 * go to the first declared), for the "did you mean" of the --set warning.
 * @param {string} key
 * @param {string[]} keys
 * @returns {string|undefined}
 */
function nearestKey (key, keys) {
  let best
  let bestDist = Infinity
  for (const k of keys) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase())
    if (d < bestDist) { best = k; bestDist = d }
  }
  return best
}

function editDistance (a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = cur
  }
  return prev[b.length]
}

module.exports = { nearestKey, parseBenchArgs, coerceValue, isPassThroughKey, confToArgs, encodeConf, decodeConf }
