'use strict'
// Options of `benchrig serve`: the parsers shared by the flags, the
// programmatic API and the per-request query string. A parser returns the
// value or throws a plain Error whose message says what a good value looks
// like; the caller wraps it (UsageError naming the flag, or a 400 naming the
// query key), so the same rule gives the same words everywhere.
const { UsageError } = require('../errors.js')

/** Largest body `/bytes/SIZE` or `--size` may ask for (1 GiB). */
const MAX_SIZE = 2 ** 30
/** Longest delay a request may ask for (10 minutes). */
const MAX_DELAY_MS = 600_000
/** Longest synchronous block one request may cause (`?block=MS`). */
const MAX_BLOCK_MS = 10_000
/** Body of `/` when no size is set: small, fixed, built once. */
const DEFAULT_BODY = Buffer.from('hello from benchrig serve\n')
/** Piece size of a chunked body when none is set. */
const DEFAULT_CHUNK_SIZE = 16_384
/** Largest piece written at once; also the length of the shared fill buffer. */
const MAX_PIECE = 65_536

const DEFAULTS = Object.freeze({
  host: '127.0.0.1',
  port: 0,
  h2c: false,
  cluster: 1,
  size: undefined, // undefined: DEFAULT_BODY
  status: /** @type {number} */ (200), // frozen literals would type it as 200 alone
  delay: Object.freeze({ min: 0, max: 0 }),
  chunked: false,
  chunkSize: DEFAULT_CHUNK_SIZE,
  close: false,
  freeze: undefined, // or { ms, everyMs }
  maxStreams: undefined // h2c SETTINGS_MAX_CONCURRENT_STREAMS; undefined: node's default (unlimited)
})

const UNITS = { '': 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2 }

/**
 * A byte count: whole number with an optional k or m suffix (KiB, MiB).
 * @param {string|number} value
 * @param {number} [max]
 */
function parseSize (value, max = MAX_SIZE) {
  const m = /^(\d+)\s*([a-z]*)$/i.exec(String(value).trim())
  const unit = m && UNITS[m[2].toLowerCase()]
  const n = unit && Number(m[1]) * unit
  if (!unit || !(n <= max)) throw new Error(`give a whole number of bytes from 0 to ${max} (k and m suffixes allowed, e.g. 16k)`)
  return n
}

/** @param {string|number} value */
function parseStatus (value) {
  const s = String(value).trim()
  const n = Number(s)
  if (!/^\d{3}$/.test(s) || n < 200 || n > 599) throw new Error('give a status code from 200 to 599')
  return n
}

/**
 * A fixed delay `MS` or a random one `MIN-MAX`, in whole milliseconds.
 * @param {string|number} value
 * @returns {{min: number, max: number}}
 */
function parseDelay (value) {
  const m = /^(\d+)(?:-(\d+))?$/.exec(String(value).trim())
  const min = m && Number(m[1])
  const max = m && (m[2] === undefined ? min : Number(m[2]))
  if (!m || max < min || max > MAX_DELAY_MS) {
    throw new Error(`give whole milliseconds (e.g. 10) or a range MIN-MAX (e.g. 5-50), at most ${MAX_DELAY_MS}`)
  }
  return { min, max }
}

/**
 * `S/T`: block the event loop for S ms every T seconds.
 * @param {string} value
 * @returns {{ms: number, everyMs: number}}
 */
function parseFreeze (value) {
  const m = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(String(value).trim())
  const ms = m && Number(m[1])
  const everyMs = m && Math.round(Number(m[2]) * 1000)
  if (!m || ms < 1 || everyMs <= ms) {
    throw new Error('give S/T: freeze for S milliseconds every T seconds, with S >= 1 and S shorter than T (e.g. 500/2)')
  }
  return { ms, everyMs }
}

/** A query-string or option switch: 1/true/yes/empty on, 0/false/no off. */
function parseSwitch (value) {
  if (value === true || value === false) return value
  const s = String(value).trim().toLowerCase()
  if (s === '' || s === '1' || s === 'true' || s === 'yes') return true
  if (s === '0' || s === 'false' || s === 'no') return false
  throw new Error('give 1 or 0')
}

function parseChunkSize (value) {
  const n = parseSize(value, MAX_PIECE)
  if (n < 1) throw new Error(`give a piece size from 1 to ${MAX_PIECE} bytes`)
  return n
}

function parseWhole (value, min, max) {
  const s = String(value).trim()
  const n = Number(s)
  if (!/^\d+$/.test(s) || n < min || n > max) throw new Error(`give a whole number from ${min} to ${max}`)
  return n
}

// name in the API -> [flag shown in messages, parser]
const OPTION_PARSERS = {
  host: ['--host', (v) => { if (typeof v !== 'string' || v === '') throw new Error('give a host name or IP address'); return v }],
  port: ['--port', (v) => parseWhole(v, 0, 65535)],
  h2c: ['--h2c', parseSwitch],
  cluster: ['--cluster', (v) => parseWhole(v, 1, 256)],
  size: ['--size', (v) => parseSize(v)],
  status: ['--status', parseStatus],
  delay: ['--delay', (v) => (typeof v === 'object' && v !== null ? parseDelay(`${v.min}-${v.max}`) : parseDelay(v))],
  chunked: ['--chunked', parseSwitch],
  chunkSize: ['--chunk-size', parseChunkSize],
  close: ['--close', parseSwitch],
  freeze: ['--freeze', (v) => (typeof v === 'object' && v !== null ? parseFreeze(`${v.ms}/${v.everyMs / 1000}`) : parseFreeze(v))],
  maxStreams: ['--max-streams', (v) => parseWhole(v, 1, 2 ** 31 - 1)]
}

/**
 * Validates serve options (from the flags or the API) and fills defaults.
 * Unset (undefined) values keep their defaults.
 * @param {object} [opts]
 * @returns {typeof DEFAULTS}
 * @throws {UsageError} naming the flag and what to give
 */
function normalizeOptions (opts = {}) {
  const out = { ...DEFAULTS }
  for (const [key, value] of Object.entries(opts)) {
    if (value === undefined) continue
    const entry = OPTION_PARSERS[key]
    if (!entry) throw new UsageError(`unknown serve option "${key}": use one of ${Object.keys(OPTION_PARSERS).join(', ')}`)
    const [flag, parse] = entry
    try {
      out[key] = parse(value)
    } catch (err) {
      throw new UsageError(`${flag} ${typeof value === 'object' ? JSON.stringify(value) : value}: ${err.message}`)
    }
  }
  if (out.maxStreams !== undefined && !out.h2c) {
    throw new UsageError(`--max-streams ${out.maxStreams}: it limits HTTP/2 streams per connection; add --h2c or drop it`)
  }
  return Object.freeze(out)
}

// query key -> [plan field, parser]
const QUERY_PARSERS = {
  size: ['size', (v) => parseSize(v)],
  status: ['status', parseStatus],
  delay: ['delay', parseDelay],
  chunked: ['chunked', parseSwitch],
  chunk: ['chunkSize', parseChunkSize],
  close: ['close', parseSwitch],
  reset: ['reset', parseSwitch],
  block: ['block', (v) => parseWhole(v, 0, MAX_BLOCK_MS)]
}

/**
 * Applies a request's query string to the route defaults.
 * Unknown keys are ignored, so load generators may add cache busters.
 * @param {object} defaults the per-route behaviour from the options
 * @param {string} query the part after `?`
 * @returns {object} a new plan
 * @throws {Error} with a message naming the query key (answered with 400)
 */
function applyQuery (defaults, query) {
  const plan = { ...defaults }
  for (const [key, value] of new URLSearchParams(query)) {
    const entry = QUERY_PARSERS[key]
    if (!entry) continue
    try {
      plan[entry[0]] = entry[1](value)
    } catch (err) {
      throw new Error(`?${key}=${value}: ${err.message}`)
    }
  }
  return plan
}

module.exports = {
  normalizeOptions,
  applyQuery,
  parseSize,
  parseStatus,
  parseDelay,
  parseFreeze,
  parseSwitch,
  DEFAULTS,
  DEFAULT_BODY,
  DEFAULT_CHUNK_SIZE,
  MAX_PIECE,
  MAX_SIZE
}
