'use strict'
// The JSON result shape shared by autocannon (-j) and `benchrig load -j`
// (whose engine keeps autocannon's keys on purpose): one parser for both.
const { finite, roundMs } = require('./units.js')

/**
 * @param {string} stdout the tool's stdout: one JSON object (surrounding noise allowed)
 * @returns {object|undefined} a normalized result, or undefined when not parseable
 */
function parseAutocannonJson (stdout) {
  const j = lastJsonObject(String(stdout))
  if (!j || typeof j !== 'object' || !j.requests || !j.latency) return undefined
  const total = finite(j.requests.total)
  const seconds = finite(j.duration)
  if (total === undefined) return undefined
  // benchrig's engine adds latencyUs (µs precision; autocannon's latency is
  // in whole ms), so prefer it when present.
  const us = j.latencyUs && typeof j.latencyUs === 'object'
  const lat = us ? j.latencyUs : j.latency
  const ms = (x) => {
    const v = finite(x)
    return v === undefined ? undefined : roundMs(us ? v / 1000 : v)
  }
  return {
    requests: total,
    duration: seconds,
    // total / duration, not requests.average (a mean of per-second samples
    // that ignores the partial last second).
    rate: seconds ? total / seconds : finite(j.requests.average),
    latency: { p50: ms(lat.p50), p90: ms(lat.p90), p99: ms(lat.p99), max: ms(lat.max), mean: ms(lat.mean ?? lat.average) },
    // autocannon's "errors" already includes its timeouts.
    errors: finite(j.errors) ?? 0,
    non2xx: finite(j.non2xx) ?? 0,
    source: 'json'
  }
}

/** The last line-started JSON object in text (tools may print notices first). */
function lastJsonObject (text) {
  const trimmed = text.trim()
  try { return JSON.parse(trimmed) } catch {}
  let at = trimmed.lastIndexOf('\n{')
  while (at >= 0) {
    try { return JSON.parse(trimmed.slice(at + 1)) } catch {}
    at = trimmed.lastIndexOf('\n{', at - 1)
  }
  return undefined
}

module.exports = { parseAutocannonJson }
