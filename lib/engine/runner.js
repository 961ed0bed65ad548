'use strict'
// One thread's share of a load run: its connections, counters, histogram
// and timers. There are three timers per runner whatever the connection
// count (the end of the run, the per-second sample on absolute time, and one
// timeout sweep), and none per request.
//
// A constant-rate scheduler (issue 6) would replace `take()` (the budget the
// connections draw from) with tokens released by one per-runner timer, and
// record latency from the planned send time into a second histogram.
const { performance } = require('node:perf_hooks')
const { Histogram } = require('./histogram.js')
const { RequestSource } = require('./request-source.js')
const { chooseTransport } = require('./transport.js')
const { Connection } = require('./connection.js')
const { threadCpuUs } = require('./thread-cpu.js')
const C = require('./counters.js')

/**
 * @typedef {object} RunnerOptions
 * @property {import('./request-source.js').RequestSpec[]} requests
 * @property {import('./transport.js').Target} target
 * @property {number} connections
 * @property {number} pipelining
 * @property {'window'|'half'|'batch'} refill
 * @property {number} durationMs   0 when running for an amount
 * @property {number} amount       0 when running for a duration
 * @property {number} timeoutMs
 * @property {number} bailout      0 = never
 * @property {Buffer|undefined} expectBody
 * @property {number} t0           epoch ms every runner counts seconds from
 * @property {number} idOffset     first connection id (spreads URLs across workers)
 */

class Runner {
  /** @param {RunnerOptions} opts */
  constructor (opts) {
    this.opts = opts
    this.pipelining = opts.pipelining
    this.refill = opts.refill
    this.source = new RequestSource(opts.requests, opts.pipelining)
    this.transport = chooseTransport(opts.target)
    this.expectBody = opts.expectBody
    this.counters = new Float64Array(C.SIZE)
    this.statusCodes = new Float64Array(600)
    this.histogram = new Histogram()
    this.budget = opts.amount > 0 ? opts.amount : Infinity
    this.finished = 0
    this.stopping = false
    this.everConnected = false
    this.connectFailures = 0
    this.errorDetails = {}
    this.samplesReq = []
    this.samplesBytes = []
    this.lastCompleted = 0
    this.lastBytes = 0
    this.timers = []
    this.onResponse = null // set by a `response` listener (main thread only)
    this.onTick = null
    this.connections = []
    for (let i = 0; i < opts.connections; i++) this.connections.push(new Connection(this, opts.idOffset + i))
    // sequences, hooks, body capture (issue 7): chosen once, the static path untouched
    if (opts.hooks !== undefined) require('./hooks.js').installHooks(this)
    /** @type {Promise<object>} */
    this.done = new Promise((resolve) => { this.resolveDone = resolve })
  }

  start () {
    const opts = this.opts
    this.eluStart = performance.eventLoopUtilization()
    this.cpuStart = threadCpuUs()
    this.startWall = Date.now()
    this.startMono = performance.now()
    this.scheduleTick(1)
    const sweepMs = Math.max(10, Math.min(250, opts.timeoutMs / 4))
    const sweep = setInterval(sweepTimeouts, sweepMs, this)
    this.timers.push(sweep)
    if (opts.connections === 0 || (opts.amount === 0 && opts.durationMs === 0)) {
      setImmediate(stopRunner, this, 'empty')
      return this.done
    }
    for (const conn of this.connections) conn.open()
    return this.done
  }

  scheduleTick (n) {
    // absolute seconds from t0: drift from late timers does not accumulate
    const due = this.opts.t0 + n * 1000 - Date.now()
    const timer = setTimeout(tick, Math.max(0, due), this, n)
    this.tickTimer = timer
  }

  /** Up to k new requests from the amount budget. */
  take (k) {
    if (this.stopping) return 0
    if (k > this.budget) k = this.budget
    this.budget -= k
    return k
  }

  connected () {
    if (!this.everConnected && this.opts.amount === 0 && this.opts.durationMs > 0) {
      // the duration counts from the first connection, so a short run on a
      // busy machine measures load, not how long connecting took
      this.startWall = Date.now()
      this.startMono = performance.now()
      this.timers.push(setTimeout(stopRunner, this.opts.durationMs, this, 'duration'))
    }
    this.everConnected = true
    this.counters[C.CONNECTS]++
  }

  connectFailed () {
    this.connectFailures++
    if (!this.everConnected && this.connectFailures >= this.connections.length) {
      this.stop('unreachable')
    }
  }

  response (status, latencyMs, mismatch, conn) {
    const counters = this.counters
    counters[C.COMPLETED]++
    this.histogram.record(latencyMs * 1000)
    this.statusCodes[status]++
    counters[C.S1XX + ((status / 100) | 0) - 1]++
    if (mismatch) this.mismatched()
    if (this.onResponse !== null) this.onResponse(status, latencyMs, conn.id)
    if (++this.finished >= this.opts.amount && this.opts.amount > 0) this.stop('amount')
  }

  dropped () {
    this.counters[C.DROPPED]++
    if (++this.finished >= this.opts.amount && this.opts.amount > 0) this.stop('amount')
  }

  error (kind, detail) {
    this.counters[kind]++
    const name = C.ERROR_KINDS[kind - C.ERR_CONNECT]
    if (this.errorDetails[name] === undefined) this.errorDetails[name] = String(detail)
    if (this.opts.bailout > 0 && this.errorCount() >= this.opts.bailout) this.stop('bailout')
  }

  mismatched () {
    this.counters[C.MISMATCHES]++
    if (this.opts.bailout > 0 && this.errorCount() >= this.opts.bailout) this.stop('bailout')
  }

  errorCount () {
    let n = this.counters[C.MISMATCHES] // body mismatches count towards -B, as in autocannon
    for (let k = C.ERR_CONNECT; k <= C.ERR_PARSE; k++) n += this.counters[k]
    return n
  }

  stop (reason) {
    if (this.stopping) return
    this.stopping = true
    this.reason = reason
    for (const t of this.timers) clearTimeout(t)
    clearTimeout(this.tickTimer)
    const elapsedMs = performance.now() - this.startMono
    for (const conn of this.connections) conn.close()
    this.finishStats(elapsedMs)
  }

  finishStats (elapsedMs) {
    const elu = performance.eventLoopUtilization(this.eluStart)
    const cpuEnd = threadCpuUs()
    const cpuUs = cpuEnd === undefined || this.cpuStart === undefined ? undefined : cpuEnd - this.cpuStart
    // the last, partial second, kept apart with its length
    const partialMs = elapsedMs - this.samplesReq.length * 1000
    const stats = {
      counters: this.counters,
      statusCodes: this.statusCodes,
      histogram: this.histogram.toTransfer(),
      samplesReq: Float64Array.from(this.samplesReq),
      samplesBytes: Float64Array.from(this.samplesBytes),
      partial: {
        ms: partialMs > 0 ? partialMs : 0,
        requests: this.counters[C.COMPLETED] - this.lastCompleted,
        bytes: this.counters[C.BYTES] - this.lastBytes
      },
      start: this.startWall,
      t0: this.opts.t0, // samplesReq[i] covers [t0 + i s, t0 + i s + 1 s): merge aligns runs on it
      elapsedMs,
      connections: this.connections.length,
      reason: this.reason,
      everConnected: this.everConnected,
      errorDetails: this.errorDetails,
      saturation: { elu: elu.utilization, cpuUs, wallMs: elapsedMs }
    }
    // let the sockets' close events run before reporting
    setImmediate(() => this.resolveDone(stats))
  }
}

function stopRunner (runner, reason) { runner.stop(reason) }

function tick (runner, n) {
  if (runner.stopping) return
  const c = runner.counters
  const req = c[C.COMPLETED] - runner.lastCompleted
  const bytes = c[C.BYTES] - runner.lastBytes
  runner.lastCompleted = c[C.COMPLETED]
  runner.lastBytes = c[C.BYTES]
  runner.samplesReq.push(req)
  runner.samplesBytes.push(bytes)
  if (runner.onTick !== null) runner.onTick({ second: n, requests: req, bytes, counters: c })
  runner.scheduleTick(n + 1)
}

function sweepTimeouts (runner) {
  const limit = performance.now() - runner.opts.timeoutMs
  for (const conn of runner.connections) {
    if (runner.stopping) return
    if (!conn.timedOut(limit)) continue
    if (!conn.connected) {
      runner.error(C.ERR_CONNECT, 'connect timeout')
      conn.socket.destroy()
    } else {
      runner.error(C.ERR_TIMEOUT, 'request timeout')
      conn.dropHead()
      conn.restart()
    }
  }
}

module.exports = { Runner }
