'use strict'
// The VUs of a --scenarios arrival-rate scenario (k6's preAllocatedVUs and
// maxVUs): the runner holds maxVUs connections (its part of them) and opens
// the first `pre` at the start. The runner's pace timer, which with a pool
// looks at every due point of the shared plan, first wakes the free
// connections; what is due after that and taken by none (every connection
// busy) is handed to connections still connecting, then to new connections
// opened for it, up to the last one held; what is left is dropped: passed
// over in the plan (pacer.skip) and reported as dropped_iterations. A
// connection opened for a request sends it once it is connected, with its
// planned time (the connect is in its latency). Connections are opened,
// never closed before the end: `opened` is the peak of VUs in use.
class VuPool {
  /**
   * @param {import('./runner.js').Runner} runner
   * @param {number} pre connections to open at the start
   */
  constructor (runner, pre) {
    this.runner = runner
    this.pre = pre
    this.opened = 0 // connections 0 .. opened-1 are in use
    this.covered = 0 // due requests left to connections still connecting
  }

  start () {
    const conns = this.runner.connections
    const n = Math.min(this.pre, conns.length)
    while (this.opened < n) conns[this.opened++].open()
  }

  /**
   * After the free connections took what was due at `now`: the rest goes to
   * connections connecting, to new ones, or is dropped.
   * @param {number} now the runner's clock
   */
  settle (now) {
    const runner = this.runner
    const pacer = runner.pacers[0]
    this.covered = 0
    let backlog = pacer.takeable(now) - pacer.issued
    if (backlog <= 0) return
    const conns = runner.connections
    // what a connection carries at once: its streams with --h2, else its pipeline
    const depth = runner.opts.h2 ? runner.opts.h2.maxStreams : runner.pipelining
    // a connection connecting (or reconnecting) takes what is due when it is ready
    let pending = 0
    for (let i = 0; i < this.opened; i++) {
      const c = conns[i]
      if (!c.connected && !c.finished) pending += depth
    }
    while (backlog > pending && this.opened < conns.length) {
      conns[this.opened++].open()
      pending += depth
    }
    if (backlog > pending) {
      pacer.skip(backlog - pending)
      backlog = pending
    }
    this.covered = backlog
  }

  /** When the pace timer should look next: the first due request not left to a connection connecting. */
  nextCheck () {
    return this.runner.pacers[0].nextDue(this.covered)
  }
}

module.exports = { VuPool }
