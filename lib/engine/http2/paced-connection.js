'use strict'
// An HTTP/2 connection of a constant-rate or burst run (--h2 with -R, -r,
// --burst): paced-connection.js for streams. It opens only the streams its
// pacer says are due, keeps each stream's planned send time beside its
// actual one, and measures latency from the planned time (coordinated
// omission corrected); the latency from the actual send goes to the
// runner's uncorrected histogram, and each send's lag behind its plan to the
// lag histogram.
//
// "Room" here is a free stream (capacity left under --max-streams and the
// server's SETTINGS_MAX_CONCURRENT_STREAMS): when the server stalls, due
// requests wait for a stream to finish and keep their planned time, so that
// wait is in their latency, as a user would see it. The class is chosen once
// per run (runner.js); H2Connection's closed-loop flush has no rate branch.
const { H2Connection } = require('./connection.js')
const { recordPaced, recordTimedOut } = require('../pacer.js')

class PacedH2Connection extends H2Connection {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   * @param {import('../pacer.js').Pacer} pacer
   */
  constructor (runner, id, pacer) {
    super(runner, id)
    this.pacer = pacer
    this.plannedTimes = new Float64Array(this.slots)
    this.plannedAt = 0 // the planned send of the response being recorded (--reqlog)
    /** on the runner's list of connections waiting for the plan */
    this.waiting = false
    /** inside refill(true): the pace timer woke this idle connection */
    this.woken = false
    this.planFirst = 0
    this.corrected = runner.uncorrected !== null
  }

  /**
   * Called by the runner's pace timer when something is due and this
   * connection was waiting with free streams. The requests it opens now are
   * measured from their actual send: the connection sat idle, so their
   * lateness is the timer's (kept in the lag histogram), not the server's.
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
    const pacer = this.pacer
    k = pacer.take(k, this.runner.clock.now())
    if (k === 0) runner.wait(this) // free streams, nothing due
    else this.planFirst = pacer.first
    return k
  }

  hasWork () {
    return this.active > 0 || this.pacer.issued < this.pacer.limit
  }

  stamp (slot, j, now) {
    const planned = this.pacer.planned(this.planFirst + j)
    this.plannedTimes[slot] = this.woken ? now : planned
    this.runner.lag.record((now - planned) * 1000)
  }

  record (slot, status, mismatch) {
    recordPaced(this, slot, status, mismatch)
  }

  timedOutHead (now) {
    const slot = this.oldest()
    if (slot < 0) return
    recordTimedOut(this, slot, now)
    this.forget(slot)
    this.runner.dropped()
  }
}

module.exports = { PacedH2Connection }
