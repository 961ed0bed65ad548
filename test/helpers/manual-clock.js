'use strict'
// An injected clock for the send plan (lib/engine/runner.js's Clock): timers
// run only when the test advances it, each at exactly its due time, so a
// schedule is asserted exactly whatever the machine's load. Beside it, a
// paced Runner on stand-in sockets that log every write with the clock's time.
const { Runner } = require('../../lib/engine/runner.js')

class ManualClock {
  constructor () {
    this.t = 0
    this.timers = []
    this.seq = 0
  }

  now () { return this.t }

  setTimeout (fn, ms, ...args) {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, args }
    this.timers.push(timer)
    return timer
  }

  clearTimeout (timer) {
    const i = this.timers.indexOf(timer)
    if (i >= 0) this.timers.splice(i, 1)
  }

  /** Runs every timer due up to `to`, in order, each at its own time; `between` after each. */
  advanceTo (to, between) {
    between?.()
    for (;;) {
      let next = null
      for (const tm of this.timers) if (tm.at <= to && (next === null || tm.at < next.at || (tm.at === next.at && tm.seq < next.seq))) next = tm
      if (next === null) break
      this.timers.splice(this.timers.indexOf(next), 1)
      this.t = next.at
      next.fn(...next.args)
      between?.()
    }
    this.t = to
    between?.()
  }
}

const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', 'latin1')

/**
 * Sockets that log each write carrying requests (`count(buf)` of them) with
 * the clock's time and the connection's id (set as socket.conn by the test).
 */
function standInTransport (count, clock, writes) {
  return {
    readyEvent: 'connect',
    connect: () => {
      const socket = {
        setNoDelay () {},
        once () {},
        on () {},
        destroy () {},
        write (buf) {
          const n = count(buf)
          if (n > 0) writes.push({ at: clock.now(), id: socket.conn.id, n })
          return true
        }
      }
      return socket
    }
  }
}

/** A Runner of a rate run on `clock`, against a port nothing listens on (the tests stand in for sockets). */
function pacedRunner (clock, rate, { connections, amount = 0, durationMs = amount > 0 ? 0 : 1e9, pipelining = 1, h2, ...more }) {
  return new Runner({
    requests: [{ method: 'GET', path: '/', host: '127.0.0.1:1', headers: {}, body: undefined }],
    target: { protocol: 'http:', hostname: '127.0.0.1', port: 1 },
    h2,
    connections,
    pipelining,
    refill: 'window',
    durationMs,
    amount,
    timeoutMs: 60000,
    bailout: 0,
    t0: Date.now(),
    idOffset: 0,
    rate,
    clock,
    ...more // other runner options (sampleIntMs, endAtSample)
  })
}

/**
 * A rate run (HTTP/1.1) on `clock`: every write is logged as {at, id, n} and
 * answered when `answer()` runs.
 */
function pacedRun (clock, rate, shape) {
  const writes = []
  const runner = pacedRunner(clock, rate, shape)
  runner.transport = standInTransport((buf) => buf.toString('latin1').split('GET ').length - 1, clock, writes)
  runner.start()
  for (const conn of runner.connections) conn.socket.conn = conn
  for (const conn of runner.connections) conn.ready()
  /** the server answers every request in flight now */
  const answer = () => {
    for (const conn of runner.connections) {
      const k = conn.inflight
      if (k > 0 && !runner.stopping) conn.read(RESPONSE.length * k, Buffer.concat(Array(k).fill(RESPONSE)))
    }
  }
  return { runner, writes, answer, end: () => { runner.stop('test'); return runner.done } }
}

/**
 * The one scenario of `spec` (a --scenarios scenario) as a Runner on `clock`,
 * its writes logged as {at, id, n}: `ready()` connects the sockets opened so
 * far, `answer(ids?)` answers what is in flight (on those connections).
 */
function scenarioRunner (t, clock, spec) {
  const { planScenarios } = require('../../lib/engine/scenarios/plan.js')
  const { planRunners } = require('../../lib/engine/index.js')
  const plan = planScenarios({ url: 'http://127.0.0.1:1/', scenarios: { s: spec } })
  const ros = planRunners(plan.scenarios[0].opts)
  t.equal(ros.length, 1, 'one runner (no workers)')
  const writes = []
  const runner = new Runner({ ...ros[0], t0: Date.now(), clock })
  runner.transport = standInTransport((buf) => buf.toString('latin1').split('GET ').length - 1, clock, writes)
  const answer = (ids) => {
    for (const conn of runner.connections) {
      const k = conn.inflight
      if (ids !== undefined && !ids.includes(conn.id)) continue
      if (k > 0 && !runner.stopping) conn.read(RESPONSE.length * k, Buffer.concat(Array(k).fill(RESPONSE)))
    }
  }
  const ready = () => {
    for (const conn of runner.connections) {
      if (conn.socket !== null && !conn.connected) {
        conn.socket.conn = conn
        conn.ready()
      }
    }
  }
  return { plan: plan.scenarios[0], runner, writes, answer, ready }
}

module.exports = { ManualClock, pacedRun, pacedRunner, standInTransport, scenarioRunner }
