'use strict'
// A WebSocket connection of a rate run (-R overall, -r per connection,
// --burst, --stages): it sends what its pacer says is due, up to PACED_DEPTH
// messages in flight, remembers each one's planned send beside its actual
// one, and measures latency from the planned time (coordinated omission
// corrected as HTTP is: pacer.js `pace()`), keeping the uncorrected latency
// too. Chosen once by the runner, so the closed loop has no rate branch.
const { WsConnection } = require('./connection.js')
const { pace, stampPlanned, PACED_METHODS } = require('../pacer.js')

// messages in flight per connection before the plan's next ones wait (and
// count their wait from the planned time): a server that stops answering
// shows as latency, not as an unbounded queue in the generator
const PACED_DEPTH = 256

class PacedWsConnection extends WsConnection {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   * @param {import('../pacer.js').Pacer} pacer
   */
  constructor (runner, id, pacer) {
    super(runner, id, PACED_DEPTH)
    pace(this, pacer, this.depth)
    /** @type {import('../pacer.js').Pacer} */
    this.pacer // eslint-disable-line no-unused-expressions
    /** @type {Float64Array} */
    this.plannedTimes // eslint-disable-line no-unused-expressions
    this.woken = false
  }

  /**
   * Sends what the plan has due, as far as the window allows, in one write.
   * @param {boolean} [woken] by the pace timer after waiting idle (pacer.js `pace()`)
   */
  refill (woken) {
    if (!this.upgraded || this.socket === null) return
    let k = this.depth - (this.nextSeq - this.headSeq)
    if (k > this.allowance) k = this.allowance
    if (k <= 0) return
    const runner = this.runner
    if (runner.stopping) return
    const now = runner.clock.now()
    const room = k
    k = this.pacer.take(k, now)
    if (k < room) runner.wait(this)
    if (k === 0) return
    this.woken = woken === true
    this.send(k, now)
  }

  stamp (slot, j, now) {
    stampPlanned(this, slot, this.pacer.first + j, now)
  }
}
// moreToSend, now, record, givenUp: as every paced connection has them
Object.assign(PacedWsConnection.prototype, PACED_METHODS)

module.exports = { PacedWsConnection, PACED_DEPTH }
