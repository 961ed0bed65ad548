'use strict'
// An HTTP/2 connection of a constant-rate or burst run (--h2 with -R, -r,
// --burst): http1/paced-connection.js for streams, with the same fields
// (pacer.js `pace()`). "Room" here is a free stream (capacity left under
// --max-streams and the server's SETTINGS_MAX_CONCURRENT_STREAMS): when the
// server stalls, due requests wait for a stream to finish and keep their
// planned time, so that wait is in their latency, as a user would see it.
// Send, planned and response times are all on the runner's clock (injected
// in tests). The class is chosen once per run (runner.js); H2Connection's
// closed-loop flush has no rate branch.
const { H2Connection } = require('./connection.js')
const { pace, PACED_METHODS } = require('../pacer.js')

class PacedH2Connection extends H2Connection {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   * @param {import('../pacer.js').Pacer} pacer
   */
  constructor (runner, id, pacer) {
    super(runner, id)
    pace(this, pacer, this.table.slots)
    // the fields pace() set, declared for the type checker
    /** @type {import('../pacer.js').Pacer} */
    this.pacer // eslint-disable-line no-unused-expressions
    /** @type {Float64Array} planned send time of each slot */
    this.plannedTimes // eslint-disable-line no-unused-expressions
    /** inside refill(true): the pace timer woke this idle connection */
    this.woken = false
    this.planFirst = 0
  }

  /**
   * Called by the runner's pace timer when something is due and this
   * connection was waiting with free streams (see pacer.js `pace()`).
   * @param {boolean} [woken]
   */
  refill (woken) {
    if (!this.connected || this.socket === null) return
    this.woken = woken === true
    this.flush()
    this.woken = false
  }

  /** Up to k of the requests the plan has due; none due: wait on the runner. */
  take (k) {
    const runner = this.runner
    if (runner.stopping) return 0
    const room = k
    k = this.pacer.take(k, runner.clock.now())
    // free streams left and nothing more due: the pace timer wakes this
    // connection when the plan has more (else it would wait for a response)
    if (k < room) runner.wait(this)
    if (k > 0) this.planFirst = this.pacer.first
    return k
  }

  stamp (slot, j, now) {
    const planned = this.pacer.planned(this.planFirst + j)
    this.plannedTimes[slot] = this.woken ? now : planned
    this.runner.lag.record((now - planned) * 1000)
  }
}

// the overrides every paced connection shares (latency from the planned send)
Object.assign(PacedH2Connection.prototype, PACED_METHODS)

module.exports = { PacedH2Connection }
