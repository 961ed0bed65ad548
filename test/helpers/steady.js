'use strict'
// Rate-mode tests make claims about the engine's pacing and latency; on a
// shared 2-core machine another process can stall the generator itself for
// tens of ms. loadUntil runs the load again, visibly, while a run shows the
// machine got in the way; loadSteady is it for stalls of the generator.
const { load } = require('../../lib/engine/index.js')

/**
 * @param {import('tap').Test} t
 * @param {object} opts load() options
 * @param {(r: object) => string} disturbed why a run must be repeated, '' when it is fine
 * @param {{reset?: () => void, attempts?: number}} [o] reset: clear what the
 *   server counted before another run; attempts: runs at most (the last one is
 *   returned and asserted on whatever happened)
 */
async function loadUntil (t, opts, disturbed, { reset, attempts = 2 } = {}) {
  for (let attempt = 1; ; attempt++) {
    const r = await load(opts)
    const why = attempt === attempts ? '' : disturbed(r)
    if (why === '') return r
    t.comment(`${why}; running again`)
    if (reset) reset()
  }
}

/**
 * A rate-mode load, run up to three times while the generator was stalled.
 * @param {import('tap').Test} t
 * @param {object} opts load() options with a rate
 * @param {{reset?: () => void, ms?: number}} [o] reset: as for loadUntil; ms:
 *   the lateness of a send that counts as a stall
 */
function loadSteady (t, opts, { reset, ms = 20 } = {}) {
  // a stall near the end leaves planned requests unsent rather than late
  // (their lag is never recorded), so a backlog over 1 % of the plan counts too
  const stalled = (r) => r.rate.lag.max <= ms && r.rate.unsent <= 0.01 * r.rate.planned
    ? ''
    : `the generator was stalled by this machine (lag max ${r.rate.lag.max} ms, ${r.rate.unsent} of ${r.rate.planned} planned requests unsent)`
  return loadUntil(t, opts, stalled, { reset, attempts: 3 })
}

module.exports = { loadUntil, loadSteady }
