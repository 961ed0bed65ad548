'use strict'
// The child side of compare --duet: both sides of a pair run the same file
// at once, and each configuration's measured section starts when both
// children have reached bench.start(), so that the sections overlap and what
// disturbs the machine disturbs both. The driver gives each child
// BENCHRIG_DUET = {"dir", "side"}: a child writes DIR/<conf key>.<side> and
// waits (sleeping 1 ms at a time: bench.start() is synchronous) for the
// other side's file. A peer that never arrives (it failed, or it is being
// retried alone) releases the wait after a limit; the row's section times
// show it. Node >= 18 APIs only (this runs on the binary under test).
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')

const WAIT_LIMIT_MS = 10000
const sleeper = new Int32Array(new SharedArrayBuffer(4))

/**
 * @param {string|undefined} raw BENCHRIG_DUET
 * @returns {{dir: string, side: string}|undefined}
 */
function parseDuet (raw) {
  if (!raw) return undefined
  try {
    const d = JSON.parse(raw)
    return d && typeof d.dir === 'string' && (d.side === 'old' || d.side === 'new') ? d : undefined
  } catch {
    return undefined
  }
}

/**
 * Waits for the other side at this configuration's barrier.
 * @param {{dir: string, side: string}} duet
 * @param {object} conf
 * @param {{limitMs?: number, now?: () => number}} [opts]
 * @returns {boolean} false when the other side did not come within the limit
 */
function meetPeer (duet, conf, opts = {}) {
  const now = opts.now ?? Date.now
  const key = crypto.createHash('sha1').update(JSON.stringify(conf)).digest('hex').slice(0, 16)
  const other = duet.side === 'old' ? 'new' : 'old'
  try {
    fs.writeFileSync(path.join(duet.dir, `${key}.${duet.side}`), '')
  } catch {
    return false // the driver removed the folder: nobody to wait for
  }
  const peer = path.join(duet.dir, `${key}.${other}`)
  const until = now() + (opts.limitMs ?? WAIT_LIMIT_MS)
  while (!fs.existsSync(peer)) {
    if (now() > until) return false
    Atomics.wait(sleeper, 0, 0, 1)
  }
  return true
}

/** Wall-clock epoch ms with sub-ms precision, as both sides read it alike. */
function epochMs () {
  return performance.timeOrigin + performance.now()
}

module.exports = { parseDuet, meetPeer, epochMs, WAIT_LIMIT_MS }
