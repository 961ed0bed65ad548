'use strict'
// --stages-connections: the number of open connections of a closed-loop run
// follows a piecewise-linear ramp (k6's ramping-vus), from 0 to each stage's
// target over its duration. The runner holds the peak number of connections;
// every STEP_MS one timer sets how many of them are open: floor(target(t)).
// Ramping up opens the next connections in order; ramping down retires the
// last ones: at once (what they had in flight is counted as interrupted), or,
// with a gracefulRampDown (k6's, a --scenarios ramping-vus scenario's), a
// retired connection sends nothing more and closes once its requests are
// answered (ConnectionBase.exhausted), or is cut at the grace's end (looked
// at on the ramp's steps). A ramp up takes a retiring connection back first.
// A step that comes late (the event loop held up) first retires down to the
// lowest target since the last step: a dip of the plan is gone through late,
// not skipped (a 223 ms stall under load once left 2 of 3 connections open
// through a 100 ms trough to 0).
// The ramp's clock, and the duration, start with the runner, not with
// the first connection, since the ramp starts at 0 connections.
//
// With workers or several origins the run has several runners, each holding
// its part of the peak (split as -c is split). Each follows the whole ramp
// and opens its part of floor(target(t)), split the same way, so the open
// connections of all the runners together are floor(target(t)) at every step
// (scaling the targets per runner would floor each part and lose up to one
// connection per runner).
const { Ramp } = require('./stages.js')
const C = require('./counters.js')

// how often the count follows the ramp: fine against the seconds a stage
// lasts, and one timer per runner whatever the connection count
const STEP_MS = 10

class ConnectionRamp {
  /**
   * @param {import('./runner.js').Runner} runner
   * @param {import('./stages.js').Stage[]} stages targets in connections (of the whole run)
   * @param {{index: number, shares: number, origins: number, shard?: {index: number, count: number}|null}|null} [part] this runner's place
   *   in planRunners' split (share-major, then origin); null: the runner holds every connection
   */
  constructor (runner, stages, part = null) {
    this.runner = runner
    this.ramp = new Ramp(stages)
    this.part = part
    this.active = 0 // connections 0 .. active-1 are in use
    this.timer = null
    this.startMs = 0
    this.lastMs = 0 // the elapsed time of the last step
    this.graceMs = runner.opts.gracefulRampDownMs ?? 0
  }

  start () {
    const runner = this.runner
    this.startMs = runner.clock.now()
    // the first step is at the ramp's start exactly: a ramp down from
    // --stages-start N opens N (read a moment later, floor(target) is N - 1)
    this.step(true)
  }

  /**
   * Opens or retires connections to match the ramp now, then waits STEP_MS.
   * @param {boolean} [first] the step at the start (elapsed 0)
   */
  step (first = false) {
    const runner = this.runner
    this.timer = null
    if (runner.stopping) return
    const elapsed = first ? 0 : runner.clock.now() - this.startMs
    const want = this.target(this.ramp.valueAt(elapsed))
    const low = first ? want : this.target(this.ramp.lowestIn(this.lastMs, elapsed))
    this.lastMs = elapsed
    const now = runner.clock.now()
    while (this.active > low) retire(runner.connections[--this.active], this.graceMs, now)
    // a retired connection whose socket has not closed yet waits a step,
    // unless it is finishing its requests: then it is taken back as it is
    while (this.active < want) {
      const conn = runner.connections[this.active]
      if (conn.retireBy > 0) revive(conn)
      else if (conn.socket === null) openAgain(conn)
      else break
      this.active++
    }
    // (no retiring down to `want` here: low <= want, target() being monotone)
    // retired connections still finishing past their grace are cut
    for (let i = this.active; i < runner.connections.length; i++) {
      const conn = runner.connections[i]
      if (conn.retireBy > 0 && now >= conn.retireBy) cut(conn)
    }
    if (elapsed < this.ramp.endMs) this.timer = runner.clock.setTimeout(stepRamp, STEP_MS, this)
  }

  /** This runner's open connections for a target of the whole run. @param {number} value */
  target (value) {
    let want = Math.floor(value + 1e-9)
    if (this.part !== null) want = partOf(want, this.part)
    return want > this.runner.connections.length ? this.runner.connections.length : want
  }

  stop () {
    this.runner.clock.clearTimeout(this.timer)
    this.timer = null
  }
}

function stepRamp (ramp) { ramp.step() }

/** The n-th of k near-equal parts of total, the first total % k one larger (split.js). */
function nth (total, k, n) {
  return Math.floor(total / k) + (n < total % k ? 1 : 0)
}

/**
 * A runner's part of `total` open connections: split over the shares, then
 * that share's over the origins, as planRunners splits -c, so at the peak
 * each runner opens exactly the connections it holds. A generator of
 * several (a --scenarios run with --shard) first takes its part of the whole.
 * @param {number} total
 * @param {{index: number, shares: number, origins: number, shard?: {index: number, count: number}|null}} part
 */
function partOf (total, part) {
  const share = Math.floor(part.index / part.origins)
  const mine = part.shard ? nth(total, part.shard.count, part.shard.index) : total
  return nth(nth(mine, part.shares, share), part.origins, part.index % part.origins)
}

/**
 * A connection taken (back) into use: a fresh socket, nothing in flight.
 * What its last socket left (HTTP/1.1's ring, HTTP/2's streams kept to be
 * re-sent) is let go through the protocol's own release(), so both
 * protocols reopen the same way.
 */
function openAgain (conn) {
  conn.finished = false
  for (let slot = conn.oldestSlot(); slot >= 0; slot = conn.oldestSlot()) conn.release(slot)
  conn.open()
}

/**
 * A connection the ramp no longer wants (finished, so it is not reopened):
 * with a grace and requests in flight, it sends nothing more (allowance 0)
 * and closes once they are answered, or at `now + graceMs`; else it is cut now.
 * @param {any} conn @param {number} graceMs @param {number} now
 */
function retire (conn, graceMs, now) {
  conn.finished = true
  if (graceMs > 0 && conn.connected && conn.outstanding() > 0) {
    conn.retireBy = now + graceMs
    conn.heldAllowance = conn.allowance
    conn.allowance = 0
    return
  }
  cut(conn)
}

/**
 * Closed now, as one whose run ended (marked resetting, so what was in flight
 * is neither an error nor re-sent): that is counted as interrupted and let go.
 */
function cut (conn) {
  if (conn.retireBy > 0) conn.allowance = conn.heldAllowance
  conn.retireBy = 0
  conn.finished = true
  conn.resetting = true
  conn.runner.counters[C.INTERRUPTED] += conn.outstanding()
  for (let slot = conn.oldestSlot(); slot >= 0; slot = conn.oldestSlot()) conn.release(slot)
  conn.close()
}

/** A retiring connection taken back into use before it closed: it sends again. */
function revive (conn) {
  conn.retireBy = 0
  conn.finished = false
  conn.allowance = conn.heldAllowance
  // HTTP/1.1 and WebSocket connections send with refill(), HTTP/2 with flush()
  const send = conn.refill ?? conn.flush
  send.call(conn)
}

module.exports = { ConnectionRamp, partOf, STEP_MS }
