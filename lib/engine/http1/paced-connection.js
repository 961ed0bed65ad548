'use strict'
// A connection of a constant-rate or burst run. It sends only what its pacer
// says is due, remembers each request's planned send time beside its actual
// one, and measures latency from the planned time (coordinated omission
// corrected: pacer.js `pace()` describes the fields HTTP/1.1 and HTTP/2
// share). The class is chosen once per run (runner.js), so the closed-loop
// Connection's hot path has no rate branch.
const { Connection } = require('./connection.js')
const C = require('../counters.js')
const { pace, PACED_METHODS } = require('../pacer.js')

class PacedConnection extends Connection {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   * @param {import('../pacer.js').Pacer} pacer
   */
  constructor (runner, id, pacer) {
    super(runner, id)
    pace(this, pacer, this.depth)
    // the fields pace() set, declared for the type checker
    /** @type {import('../pacer.js').Pacer} */
    this.pacer // eslint-disable-line no-unused-expressions
    /** @type {Float64Array} planned send time of each slot */
    this.plannedTimes // eslint-disable-line no-unused-expressions
  }

  /**
   * Sends what the plan has due, as far as the window allows, in one write().
   * @param {boolean} [woken] called by the pace timer while this connection
   *   sat idle waiting for the plan (see pacer.js `pace()`)
   */
  refill (woken) {
    if (!this.connected || this.socket === null) return
    let k = this.depth - this.inflight
    if (k > this.allowance) k = this.allowance
    if (k === 0) return
    const runner = this.runner
    const now = runner.clock.now()
    if (runner.stopping) return
    const room = k
    k = this.pacer.take(k, now)
    // room left and nothing more due: the pace timer wakes this connection
    // when the plan has more (else it would wait for a response)
    if (k < room) runner.wait(this)
    if (k === 0) return
    this.allowance -= k
    const pacer = this.pacer
    const planFirst = pacer.first
    const first = this.cursor
    const lag = runner.lag
    let slot = (this.head + this.inflight) % this.depth
    for (let j = 0; j < k; j++) {
      const planned = pacer.planned(planFirst + j)
      this.sendTimes[slot] = now
      this.plannedTimes[slot] = woken === true ? now : planned
      this.requestIds[slot] = (first + j) % this.source.count
      lag.record((now - planned) * 1000)
      if (++slot === this.depth) slot = 0
    }
    this.inflight += k
    this.cursor = this.source.advance(first, k)
    runner.counters[C.SENT] += k
    this.socket.write(this.source.slice(first, k))
  }
}

// the overrides every paced connection shares (latency from the planned send)
Object.assign(PacedConnection.prototype, PACED_METHODS)

module.exports = { PacedConnection }
