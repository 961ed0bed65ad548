'use strict'
// The send plan of a constant-rate or burst run. Request i of a plan is due
// at `start + floor(i / burst) * intervalMs`: an even spacing at the rate
// (burst 1), or `burst` requests at once every interval. The plan is pure
// arithmetic on a counter, so pacing needs no timer and no object per
// request: a connection asks `take(k, now)` for what is due, and the send
// time the plan gave each request is what latency is measured from
// (coordinated omission corrected, as wrk2 does).
//
// One pacer per runner for -R/--overall-rate and --burst (every connection
// of the runner draws from it, so a free connection sends what a blocked one
// cannot), one per connection for -r/--connection-rate.

const { split } = require('./split.js')
const { recordGivenUp } = require('./measure/recorder.js')
const { Ramp } = require('./stages.js')

class Pacer {
  /**
   * @param {object} plan
   * @param {number} plan.intervalMs time between two due points
   * @param {number} [plan.burst] requests due at each point (default 1)
   * @param {number} [plan.phaseMs] offset of the first point from the start
   * @param {number} [plan.limit] at most this many requests (default no limit)
   */
  constructor ({ intervalMs, burst = 1, phaseMs = 0, limit = Infinity }) {
    this.intervalMs = intervalMs
    this.burst = burst
    this.phaseMs = phaseMs
    this.limit = limit
    this.startMs = Infinity // not started: nothing is due
    this.issued = 0
    /** index of the first request of the last take() */
    this.first = 0
    // of `issued`, those never sent: arrivals that found no connection free
    // and none left to open (a --scenarios arrival-rate run: vu-pool.js)
    this.skipped = 0
    // no request past this index is taken (the plan ended and the requests in
    // flight are given their gracefulStop: graceful-stop.js); due() still
    // says what the plan held, for the result and the timeline
    this.cut = Infinity
  }

  /** @param {number} now performance.now() at which the plan starts */
  start (now) {
    if (this.startMs === Infinity) this.startMs = now + this.phaseMs
  }

  /** The planned send time of request i (ms, performance.now clock). */
  planned (i) {
    return this.startMs + Math.floor(i / this.burst) * this.intervalMs
  }

  /** How many requests the plan holds up to `now` (sent or not). */
  due (now) {
    if (now < this.startMs) return 0
    const n = (Math.floor((now - this.startMs) / this.intervalMs) + 1) * this.burst
    return n < this.limit ? n : this.limit
  }

  /**
   * Up to k of the requests due by `now` and not yet taken; `first` is the
   * plan index of the first of them.
   */
  take (k, now) {
    const ready = this.takeable(now) - this.issued
    if (ready <= 0) return 0
    if (k > ready) k = ready
    this.first = this.issued
    this.issued += k
    return k
  }

  /** How many of the plan's requests may be taken by `now`: those due, up to the cut. */
  takeable (now) {
    const due = this.due(now)
    return due > this.cut ? this.cut : due
  }

  /**
   * When the next request not yet taken is due, or the one `ahead` after it
   * (Infinity: none left).
   */
  nextDue (ahead = 0) {
    const i = this.issued + ahead
    return i >= this.limit || i >= this.cut ? Infinity : this.planned(i)
  }

  /** Passes over the next n requests without sending them (counted in `skipped`). */
  skip (n) {
    this.issued += n
    this.skipped += n
  }
}

// I(planned(i)) is i + 1 up to rounding: due() adds this much so that a
// request is due at the very time the plan gives it
const EPSILON = 1e-7

/**
 * The send plan of a --stages run: a Pacer whose due points follow
 * the ramp (only planned and due differ), so the paced
 * connections and the runner use it unchanged.
 */
class RampPacer extends Pacer {
  /**
   * @param {import('./stages.js').Stage[]} stages this runner's share of the targets (req/s)
   * @param {number} [limit] at most this many requests (default no limit)
   */
  constructor (stages, limit = Infinity) {
    const ramp = new Ramp(stages)
    const planTotal = Math.floor(ramp.total + EPSILON)
    // a Pacer whose due points follow the ramp: start, take and nextDue are its own
    super({ intervalMs: 0, limit: planTotal < limit ? planTotal : limit })
    this.ramp = ramp
  }

  /** The planned send time of request i: when the integral reaches i + 1. */
  planned (i) {
    return this.startMs + this.ramp.timeOf(i + 1)
  }

  /** How many requests the plan holds up to `now`. */
  due (now) {
    if (now < this.startMs) return 0
    const n = Math.floor(this.ramp.integral(now - this.startMs) + EPSILON)
    return n < this.limit ? n : this.limit
  }
}

/**
 * Builds the pacers of one runner from the run's rate options.
 * @param {{mode: string, rate: number, burst: number, intervalMs: number, stages?: import('./stages.js').Stage[]}} rate
 *   rate: req/s for this runner (overall) or per connection; burst mode: `burst`
 *   requests every `intervalMs`
 * @param {number} connections this runner's connections
 * @param {number} limit most requests for this runner (Infinity: none)
 * @returns {Pacer[]} one per connection (the same object for shared plans)
 */
function createPacers (rate, connections, limit) {
  if (rate.mode === 'stages') {
    // a RampPacer has the Pacer's interface (start, planned, due, take, nextDue)
    const shared = /** @type {Pacer} */ (/** @type {unknown} */ (new RampPacer(rate.stages, limit)))
    return Array.from({ length: connections }, () => shared)
  }
  if (rate.mode === 'connection') {
    const intervalMs = 1000 / rate.rate
    const share = Number.isFinite(limit) ? split(limit, connections) : null
    // spread the connections' first sends over one interval, so that c
    // connections at r req/s are an even c*r req/s stream, not c-fold bursts
    return Array.from({ length: connections }, (_, i) => new Pacer({
      intervalMs, phaseMs: (i / connections) * intervalMs, limit: share === null ? Infinity : share[i]
    }))
  }
  const shared = rate.mode === 'burst'
    ? new Pacer({ intervalMs: rate.intervalMs, burst: rate.burst, limit })
    : new Pacer({ intervalMs: 1000 / rate.rate, limit })
  return Array.from({ length: connections }, () => shared)
}

/**
 * Gives a connection of a paced run (http1/ and http2/ paced-connection.js)
 * the fields the runner's pace timer and the recording chain read. A
 * connection that sat idle waiting for the plan and is woken by the pace
 * timer (`refill(true)`) measures what it sends then from the actual send:
 * the server held nothing back, so the lateness is the timer's (the
 * millisecond granularity of setTimeout, kept in the lag histogram).
 * Requests that waited for a busy connection keep their planned time: that
 * wait is the coordinated omission being corrected.
 * @param {any} conn
 * @param {Pacer} pacer
 * @param {number} slots the connection's request slots
 */
function pace (conn, pacer, slots) {
  conn.pacer = pacer
  conn.plannedTimes = new Float64Array(slots)
  conn.plannedAt = 0 // the planned send of the response being recorded (--reqlog)
  /** on the runner's list of connections waiting for the plan */
  conn.waiting = false
  conn.corrected = conn.runner.uncorrected !== null
}

/**
 * Records the response to the request in ring slot `slot` of a paced
 * connection through the runner's recording chain (measure/recorder.js):
 * latency from the planned send (or the actual one with -C), the actual-send
 * latency for the uncorrected histogram, and the planned send time for --reqlog.
 */
function recordPaced (conn, slot, status, mismatch) {
  const sent = conn.sendTimes[slot]
  conn.plannedAt = conn.plannedTimes[slot]
  if (conn.corrected) {
    conn.runner.response(status, conn.readAt - conn.plannedAt, mismatch, conn, conn.readAt - sent)
  } else {
    conn.runner.response(status, conn.readAt - sent, mismatch, conn)
  }
}

/**
 * A timed-out paced request still enters the latency histograms, with the
 * time it had waited when it was given up (a lower bound of its latency), so
 * that the slowest requests are not the ones left out (wrk drops them).
 */
function recordTimedOut (conn, slot, now) {
  const sent = conn.sendTimes[slot]
  const id = conn.requestIds[slot]
  if (conn.corrected) recordGivenUp(conn.runner, now - conn.plannedTimes[slot], now - sent, conn, id)
  else recordGivenUp(conn.runner, now - sent, undefined, conn, id)
}

/**
 * Stamps a request sent at `now` as plan index `index`: its planned send
 * (its actual one when the pace timer woke an idle connection: see pace())
 * and how late it went out.
 * @param {any} conn a paced connection @param {number} slot @param {number} index @param {number} now
 */
function stampPlanned (conn, slot, index, now) {
  const planned = conn.pacer.planned(index)
  conn.plannedTimes[slot] = conn.woken ? now : planned
  conn.runner.lag.record((now - planned) * 1000)
}

/**
 * What every paced connection overrides the same way, for a class to take
 * once at load (the HTTP/1.1, HTTP/2 and WebSocket paced connections): more
 * to send while the plan has requests, the runner's clock, latency from the
 * planned send, and a timed-out request entered in the histograms.
 */
const PACED_METHODS = {
  moreToSend () { return this.pacer.issued < this.pacer.limit && this.pacer.issued < this.pacer.cut },
  now () { return this.runner.clock.now() },
  record (slot, status, mismatch) { recordPaced(this, slot, status, mismatch) },
  givenUp (slot, now) { recordTimedOut(this, slot, now) }
}

module.exports = { Pacer, RampPacer, createPacers, pace, recordPaced, recordTimedOut, stampPlanned, PACED_METHODS }
