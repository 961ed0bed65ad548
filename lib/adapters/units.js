'use strict'
// Number parsing shared by the adapters' text parsers. Every function returns
// a finite number or undefined: parsers never guess, they leave a gap.

const TIME_TO_MS = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 }

/**
 * '1.23ms' | '850us' | '2.00s' | '1.5m' -> milliseconds.
 * @param {string|undefined} text
 * @returns {number|undefined}
 */
function toMs (text) {
  if (typeof text !== 'string') return undefined
  const m = /^\s*(-?[\d.]+)\s*(ns|us|µs|ms|s|m|h)\s*$/.exec(text)
  if (!m) return undefined
  return finite(Number(m[1]) * TIME_TO_MS[m[2]])
}

/** Number(x) when finite, else undefined. */
function finite (x) {
  if (x === null || x === undefined || x === '') return undefined
  const n = Number(x)
  return Number.isFinite(n) ? n : undefined
}

/** Rounds a millisecond value to µs precision, keeping undefined. */
function roundMs (x) {
  return x === undefined ? undefined : Math.round(x * 1000) / 1000
}

module.exports = { toMs, finite, roundMs }
