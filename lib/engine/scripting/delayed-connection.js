'use strict'
// A closed-loop HTTP/1.1 connection whose script has wrk's delay(): before
// each write of new requests it asks delay() for a pause, in ms (a number),
// or waits for the Promise it returns. The send time of a request is taken
// when it is written, after the pause, so a planned pause never counts as
// latency (wrk's rule). One delay() per write: with pipelining, the requests
// of one refill go out together after one pause, as wrk's pipelined batch.
// runner.js chooses this class once, only for runs whose script has delay().
const { Connection } = require('../http1/connection.js')
const { isThenable } = require('./dynamic-source.js')

class DelayedConnection extends Connection {
  constructor (runner, id) {
    super(runner, id)
    /** @type {() => unknown} set by hooks.js */
    this.delayHook = null
    /** @type {(name: string, err: unknown, verb?: string) => void} set by hooks.js */
    this.hookFailed = null
    this.pausing = false
    this.pauseTimer = null
  }

  refill () {
    if (this.pausing || this.inflight > this.lowWater) return
    const runner = this.runner
    if (runner.stopping || runner.budget <= 0 || this.allowance <= 0) return
    let ms
    try {
      ms = this.delayHook()
    } catch (err) {
      this.hookFailed('delay', err)
      return
    }
    if (isThenable(ms)) {
      this.pausing = true
      ms.then(() => resume(this), (err) => this.hookFailed('delay', err, 'rejected'))
      return
    }
    ms = Number(ms)
    if (!(ms > 0)) {
      super.refill()
      return
    }
    this.pausing = true
    this.pauseTimer = setTimeout(resume, ms, this)
  }

  close () {
    if (this.pauseTimer !== null) clearTimeout(this.pauseTimer)
    this.pauseTimer = null
    super.close()
  }
}

/** The pause is over: write, unless the socket is gone (ready() refills then). */
function resume (conn) {
  conn.pausing = false
  conn.pauseTimer = null
  if (conn.runner.stopping || conn.socket === null || !conn.connected) return
  Connection.prototype.refill.call(conn)
}

module.exports = { DelayedConnection }
