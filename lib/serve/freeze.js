'use strict'
// `--freeze S/T`: block this process's event loop for S ms every T s, the
// stall a load generator must not hide (coordinated omission). Atomics.wait
// blocks the thread synchronously, like a long GC pause or a sync crypto call,
// but without burning a CPU that the load generator may share.

/**
 * Starts the periodic freeze; the timer is unref'd so it never keeps the
 * process alive on its own.
 * @param {{ms: number, everyMs: number}} freeze
 * @returns {{stop: () => void, count: () => number}}
 */
function startFreeze ({ ms, everyMs }) {
  let count = 0
  const timer = setInterval(() => {
    count++
    blockFor(ms)
  }, everyMs)
  timer.unref()
  return {
    stop: () => clearInterval(timer),
    count: () => count
  }
}

const CELL = new Int32Array(new SharedArrayBuffer(4))

/**
 * Blocks this thread synchronously for `ms` milliseconds (`?block=MS` and
 * each freeze). The cell's value never changes, so the wait always times out.
 * @param {number} ms
 */
function blockFor (ms) {
  Atomics.wait(CELL, 0, 0, ms)
}

module.exports = { startFreeze, blockFor }
