'use strict'
// --stages-connections: the number of open connections of a closed-loop run
// follows a piecewise-linear ramp (k6's ramping-vus), from 0 to each stage's
// target over its duration. The runner holds the peak number of connections;
// every STEP_MS one timer sets how many of them are open: floor(target(t)).
// Ramping up opens the next connections in order; ramping down retires the
// last ones at once (what they had in flight is not counted, as at the end of
// a run). The ramp's clock, and the duration, start with the runner, not with
// the first connection, since the ramp starts at 0 connections.
const { Ramp } = require('./stages.js')

// how often the count follows the ramp: fine against the seconds a stage
// lasts, and one timer per runner whatever the connection count
const STEP_MS = 10

class ConnectionRamp {
  /**
   * @param {import('./runner.js').Runner} runner
   * @param {import('./stages.js').Stage[]} stages targets in connections
   */
  constructor (runner, stages) {
    this.runner = runner
    this.ramp = new Ramp(stages)
    this.active = 0 // connections 0 .. active-1 are in use
    this.timer = null
    this.startMs = 0
  }

  start () {
    const runner = this.runner
    this.startMs = runner.clock.now()
    this.step()
  }

  /** Opens or retires connections to match the ramp now, then waits STEP_MS. */
  step () {
    const runner = this.runner
    this.timer = null
    if (runner.stopping) return
    const elapsed = runner.clock.now() - this.startMs
    let want = Math.floor(this.ramp.valueAt(elapsed) + 1e-9)
    if (want > runner.connections.length) want = runner.connections.length
    // a retired connection whose socket has not closed yet waits a step
    while (this.active < want && runner.connections[this.active].socket === null) openAgain(runner.connections[this.active++])
    while (this.active > want) retire(runner.connections[--this.active])
    if (elapsed < this.ramp.endMs) this.timer = runner.clock.setTimeout(stepRamp, STEP_MS, this)
  }

  stop () {
    this.runner.clock.clearTimeout(this.timer)
    this.timer = null
  }
}

function stepRamp (ramp) { ramp.step() }

/** A connection taken (back) into use: a fresh socket, an empty window. */
function openAgain (conn) {
  conn.finished = false
  conn.inflight = 0
  conn.head = 0
  conn.open()
}

/**
 * A connection the ramp no longer wants: closed now, as one whose run ended
 * (marked resetting, so what was in flight is neither an error nor re-sent,
 * and finished, so it is not reopened).
 */
function retire (conn) {
  conn.finished = true
  conn.resetting = true
  conn.close()
}

module.exports = { ConnectionRamp, STEP_MS }
