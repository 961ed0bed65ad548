'use strict'
// --start-at: generators on several machines begin together. The engine
// waits here after its set-up (options, request bytes, worker threads),
// just before it takes its t0, so that a slow start-up on one machine
// does not shift its measured seconds against the others'.

/**
 * Waits until the wall clock reads `at`. The clock and the timer are passed
 * in so the wait can be tested without time passing. A timer may fire a
 * little early on some systems, so it checks the clock again.
 * @param {number} at epoch ms
 * @param {{now?: () => number, sleep?: (ms: number) => Promise<void>}} [clock]
 * @returns {Promise<number>} how late it started (ms, >= 0); late when `at` had passed
 */
async function waitUntil (at, clock = {}) {
  const now = clock.now ?? Date.now
  const sleep = clock.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  for (let left = at - now(); left > 0; left = at - now()) await sleep(left)
  return now() - at
}

module.exports = { waitUntil }
