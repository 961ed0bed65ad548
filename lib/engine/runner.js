'use strict'
// One thread's share of a load run: its connections, counters, histogram
// and timers. There are three timers per runner whatever the connection
// count (the end of the run, the per-second sample on absolute time, and one
// timeout sweep), and none per request.
//
// A constant-rate or burst run (opts.rate) uses PacedConnections, which draw
// from pacers (pacer.js) instead of `take()`. Connections with nothing due
// wait on one list, woken by one pace timer set for the next due request.
const { performance } = require('node:perf_hooks')
const { Histogram } = require('./measure/histogram.js')
const { RequestSource } = require('./http1/request-source.js')
const { chooseTransport } = require('./transport.js')
const { Connection } = require('./http1/connection.js')
// HTTP/2, rate mode, --interval and --reqlog load their modules only when a
// run uses them: every configuration of a suite pays for what `load` requires
// (a plain run's start-up CPU, bench/engine-vs-peers)
const { threadCpuUs } = require('./measure/thread-cpu.js')
const C = require('./counters.js')
const { needsChain, chainFor } = require('./measure/recorder.js')
const { EndpointRecorder, fromTotals } = require('./measure/endpoints.js')

/**
 * @typedef {object} RunnerOptions
 * @property {import('./http1/request-source.js').RequestSpec[]} requests
 * @property {import('./transport.js').Target} target
 * @property {number} connections
 * @property {number} pipelining
 * @property {'window'|'half'|'batch'} refill
 * @property {number} durationMs   0 when running for an amount
 * @property {number} amount       0 when running for a duration
 * @property {number} timeoutMs
 * @property {number} bailout      0 = never
 * @property {Buffer|undefined} expectBody
 * @property {number} [maxHeaderSize] bytes a response's header section may take (response-scanner.js)
 * @property {number} t0           epoch ms every runner counts seconds from
 * @property {number} idOffset     first connection id (spreads URLs across workers)
 * @property {{mode: string, rate: number, burst: number, intervalMs: number}|null} [rate]
 *   constant-rate or burst plan for this runner (null: closed loop)
 * @property {boolean} [ignoreCoordinatedOmission] rate mode: latency from the actual send only
 * @property {number} [maxConnectionRequests] -M (0: no limit)
 * @property {number} [reconnectRate] -D (0: never)
 * @property {boolean} [breakout] record time to first byte
 * @property {import('./stages.js').Stage[]|null} [connectionStages] --stages-connections (null: all connections open)
 * @property {{index: number, shares: number, origins: number, shard?: {index: number, count: number}|null}|null} [connectionPart] this runner's part of the ramp's connections
 * @property {Clock} [clock] the clock of the send plan (tests; default performance.now and node's timers)
 * @property {number} [endpointCount] endpoints of this runner (its requests; per-endpoint results when > 1)
 * @property {number} [endpointBase] index of its first endpoint in the run's list
 * @property {number} [share] the worker it runs in (index.js planRunners)
 * @property {{maxStreams: number, window: number, lastStreamId?: number}|null} [h2] HTTP/2 (options/h2-options.js; null: HTTP/1.1)
 * @property {ReturnType<typeof import('./options/ws-options.js').normalizeWs>} [ws] a WebSocket run (null: HTTP)
 * @property {boolean} [grpc] gRPC calls over --h2: count each call's grpc-status (grpc/stats.js)
 * @property {object} [hooks] sequences, hooks and body capture (scripting/hooks.js; undefined: none)
 * @property {number} [intervalMs] --interval (0: no timeline)
 * @property {string[]} [localAddresses] --local-address: the connections take them in turn
 * @property {number} [sampleIntMs] -L: ms between samples and 'tick's (default 1000)
 * @property {boolean} [liveLatency] keep the last second's latency for the live view (measure/live.js)
 * @property {number} [gracefulStopMs] at the duration's end, what is in flight may finish for this long (graceful-stop.js; 0: cut)
 * @property {number} [gracefulRampDownMs] a connection a ramp down retires may finish its requests for this long (connection-stages.js)
 * @property {{pre: number}|null} [vus] a VU pool: open `pre` connections, more when the plan needs them (vu-pool.js)
 * @property {boolean} [endAtSample] a paced run with an amount (the API's, autocannon/api.js): once the
 *   amount is answered the run ends at the end of the sample, counted from the first connection, in
 *   which the plan's last request was due, as autocannon's runs end (N requests at R/s: N/R s, in
 *   N/R whole samples), or at a last response that comes later (holdToSample)
 */

/**
 * The clock the send plan runs on: the runner's start, the duration, the pace
 * timer, the paced connections' send and planned times and the timeout
 * sweep's "now". Injected by tests so that a schedule is asserted exactly
 * (test/engine/pacing-clock.test.js); a run uses REAL_CLOCK.
 * @typedef {object} Clock
 * @property {() => number} now ms, performance.now()'s origin and scale
 * @property {(fn: (...args: any[]) => void, ms: number, ...args: any[]) => any} setTimeout
 * @property {(timer: any) => void} clearTimeout
 */

/** @type {Clock} */
const REAL_CLOCK = {
  now: () => performance.now(),
  setTimeout: (fn, ms, ...args) => setTimeout(fn, ms, ...args),
  clearTimeout: (timer) => clearTimeout(timer)
}

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
    const rate = opts.rate ?? null
    // rate mode: latency from the actual send, and how late sends were
    this.uncorrected = rate !== null && !opts.ignoreCoordinatedOmission ? new Histogram() : null
    this.lag = rate !== null ? new Histogram() : null
    this.connectTimes = new Histogram()
    this.breakout = opts.breakout === true
    this.firstBytes = this.breakout ? new Histogram() : null
    // --breakout's last byte: first byte -> last byte of a response (wrk-cmm's TTLB)
    this.firstToLast = this.breakout ? new Histogram() : null
    this.openNow = 0
    this.openMax = 0
    this.finishedConnections = 0
    this.waiting = []
    this.pacing = false
    this.paceTimer = null
    this.budget = opts.amount > 0 ? opts.amount : Infinity
    // -a: the run stops once this many requests are finished (a field of its
    // own: opts is a dictionary-mode object, and a load from it in response()
    // was a generic LoadIC call per response)
    this.amountLimit = this.budget
    this.finished = 0
    this.stopping = false
    this.everConnected = false
    this.connectFailures = 0
    this.errorDetails = {}
    this.samplesReq = []
    // one sample (and 'tick') per sampleIntMs, on absolute time from t0 (-L; 1000 by default)
    this.sampleMs = opts.sampleIntMs ?? 1000
    this.samplesBytes = []
    this.lastCompleted = 0
    this.lastBytes = 0
    this.timers = []
    this.clock = opts.clock ?? REAL_CLOCK
    this.durationTimer = null
    // endAtSample: 0 before the amount is answered, 1 while the last sample runs out, 2 at its end
    this.endAtSample = opts.endAtSample === true
    this.sampleEnd = 0
    this.sampleEndTimer = null
    this.planEndedAt = undefined // set by endPlan(): where the send plan was cut
    this.plan = null // what the plan held and sent by then (endPlan())
    this.sendMs = 0 // how long the plan ran (the duration, or until the run stopped)
    // k6's gracefulStop (a --scenarios scenario's): at the duration's end the
    // requests in flight get this long to finish (graceful-stop.js; 0: cut at once)
    this.gracefulStopMs = opts.gracefulStopMs ?? 0
    this.graceTimers = [null, null] // the grace's end, and the poll for the last response
    this.onResponse = null // set by a `response` listener (main thread only)
    // the recording chain's features (measure/recorder.js), set before start()
    this.excludeErrors = false // -x (scripting/hooks.js)
    this.clientResponses = false // the Client's 'response' event (scripting/hooks.js)
    this.onTick = null
    // the live view's latency of the last second (measure/live.js), read on the tick
    // lazy: only the live view reads the last second
    this.lastSecond = opts.liveLatency ? new (require('./measure/live.js').LastSecond)(this.histogram) : null
    // --interval and --reqlog: set up in start(), fed by response()
    this.timeline = null
    this.onInterval = null
    this.reqlog = null
    this.onReqlog = null
    // several endpoints in this runner (URLs of its origin, sequence entries):
    // their own results, through the recording chain (measure/endpoints.js)
    this.endpoints = (opts.endpointCount ?? 1) > 1 ? new EndpointRecorder(opts.endpointCount) : null
    // a WebSocket run: its message template, mask pool and handshake, and what it records (ws/run.js)
    // lazy: only WebSocket runs (the engine's start-up counts in a suite's short runs)
    this.wsRun = opts.ws ? require('./ws/run.js').wsRunOf(opts.ws) : null
    this.ws = this.wsRun === null ? null : this.wsRun.stats
    // gRPC: calls by grpc-status (the HTTP/2 connection counts them at the end of each stream)
    // lazy: only gRPC runs (the engine's start-up counts in a suite's short runs)
    this.grpc = opts.grpc ? new (require('./grpc/stats.js').GrpcStats)() : null
    this.connections = []
    // lazy: only paced runs (-R, --connection-rate, stages)
    this.pacers = rate === null ? [] : require('./pacer.js').createPacers(rate, opts.connections, this.budget)
    // an arrival-rate scenario's VUs: preAllocatedVUs open at the start, more
    // up to maxVUs (the connections held) when the plan finds none free (vu-pool.js)
    // lazy: only --vus runs hold a pool
    this.vuPool = opts.vus ? new (require('./vu-pool.js').VuPool)(this, opts.vus.pre) : null
    const { Closed, Paced } = connectionClasses(opts, rate)
    for (let i = 0; i < opts.connections; i++) {
      this.connections.push(rate === null
        ? new Closed(this, opts.idOffset + i)
        : new Paced(this, opts.idOffset + i, this.pacers[i]))
    }
    // wrk's script surface (scripting/wrk-script.js): the share's thread, and
    // init() to await before start(); a stop() from the script also stops the other shares
    this.scriptThread = null
    this.prepared = undefined
    this.onScriptStop = null
    // --stages-connections: how many of the connections are open follows a ramp
    // lazy: only --stages-connections ramps connections
    this.connectionRamp = opts.connectionStages ? new (require('./connection-stages.js').ConnectionRamp)(this, opts.connectionStages, opts.connectionPart ?? null) : null
    // sequences, hooks, body capture (issue 7): chosen once, the static path untouched
    // lazy: the static path stays untouched: hooks load only for scripts, sequences and captures
    if (opts.hooks !== undefined) require('./scripting/hooks.js').installHooks(this)
    /** @type {Promise<object>} */
    this.done = new Promise((resolve) => { this.resolveDone = resolve })
  }

  start () {
    const opts = this.opts
    // stopped during its set-up (LoadRun.stop(), a scenario stopped before its
    // startTime): its stats are already reported, and no timer may start
    if (this.stopping) return this.done
    this.eluStart = performance.eventLoopUtilization()
    this.cpuStart = threadCpuUs()
    // the saturation figures divide by this span, not by the measured duration
    // (which starts at the first connection): CPU and wall over the same time
    this.cpuWallStart = performance.now()
    this.startWall = Date.now()
    this.startMono = this.clock.now()
    this.scheduleTick(1)
    if (opts.intervalMs > 0) {
      const { Timeline } = require('./measure/timeline.js') // lazy: only --interval records rows
      this.timeline = new Timeline(this, opts.intervalMs, (row) => this.onInterval?.(row))
      this.timeline.start(opts.t0)
    }
    // lazy: only --reqlog records requests
    if (this.onReqlog !== null) this.reqlog = new (require('./measure/reqlog.js').RequestLogBuffer)(opts.t0, this.onReqlog)
    // the one place the recording chain is chosen, after every feature is known
    if (needsChain(this)) this.response = chainFor(this)
    const sweepMs = Math.max(10, Math.min(250, opts.timeoutMs / 4))
    const sweep = setInterval(sweepTimeouts, sweepMs, this)
    this.timers.push(sweep)
    if (opts.connections === 0 || (opts.amount === 0 && opts.durationMs === 0)) {
      setImmediate(stopRunner, this, 'empty')
      return this.done
    }
    if (this.connectionRamp !== null) {
      // the ramp starts at 0 connections: its clock and the duration start now
      this.everConnected = false
      if (opts.durationMs > 0) this.durationTimer = this.clock.setTimeout(durationEnded, opts.durationMs, this)
      this.connectionRamp.start()
      return this.done
    }
    if (this.vuPool !== null) this.vuPool.start()
    else for (const conn of this.connections) conn.open()
    return this.done
  }

  scheduleTick (n) {
    // absolute seconds from t0: drift from late timers does not accumulate
    const due = this.opts.t0 + n * this.sampleMs - Date.now()
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

  /** @param {number} connectMs how long this connection took to establish */
  connected (connectMs) {
    if (!this.everConnected && this.connectionRamp === null) {
      // the duration (and the send plan) count from the first connection, so
      // a short run on a busy machine measures load, not how long connecting took
      this.startWall = Date.now()
      this.startMono = this.clock.now()
      if (this.opts.durationMs > 0) this.durationTimer = this.clock.setTimeout(durationEnded, this.opts.durationMs, this)
      for (const p of this.pacers) p.start(this.startMono)
      // a pool that can grow looks at each due point from the first on
      if (this.vuPool !== null && this.paceTimer === null) this.armPace()
    }
    this.everConnected = true
    this.counters[C.CONNECTS]++
    this.connectTimes.record(connectMs * 1000)
    if (++this.openNow > this.openMax) this.openMax = this.openNow
  }

  disconnected () {
    this.openNow--
  }

  /** A connection sent all that -M allows it. */
  connectionFinished () {
    if (++this.finishedConnections === this.connections.length) this.stop('max-connection-requests')
  }

  /**
   * --breakout: one response's time to first byte (from its send) and from its
   * first byte to its last (wrk-cmm's TTLB; the whole latency is the summary's).
   */
  firstByte (firstMs, lastMs) {
    this.firstBytes.record(firstMs * 1000)
    this.firstToLast.record(lastMs * 1000)
  }

  /** A paced connection with room has nothing due: wake it when something is. */
  wait (conn) {
    if (conn.waiting) return
    conn.waiting = true
    this.waiting.push(conn)
    if (!this.pacing && this.paceTimer === null) this.armPace()
  }

  armPace () {
    // a pool that can grow looks at every due point, free connections or not
    let next = this.vuPool === null ? Infinity : this.vuPool.nextCheck()
    for (const c of this.waiting) {
      const t = c.pacer.nextDue()
      if (t < next) next = t
    }
    if (next === Infinity) return
    this.paceTimer = this.clock.setTimeout(pace, Math.max(0, next - this.clock.now()), this)
  }

  connectFailed () {
    this.connectFailures++
    // (a VU pool opens only its first connections until one connects)
    const tried = this.vuPool === null ? this.connections.length : this.vuPool.opened
    if (!this.everConnected && this.connectFailures >= tried) {
      this.stop('unreachable')
    }
  }

  /**
   * A finished response of a closed-loop run without optional recordings;
   * any other run replaces it in start() with the chain of measure/recorder.js
   * (which does the same and more, in the same order).
   * @param {number} status @param {number} latencyMs @param {boolean} mismatch @param {any} conn
   * @param {number} [uncorrectedMs] rate mode only (the chain)
   */
  response (status, latencyMs, mismatch, conn, uncorrectedMs) {
    const counters = this.counters
    counters[C.COMPLETED]++
    this.histogram.record(latencyMs * 1000)
    this.statusCodes[status]++
    counters[C.S1XX + ((status / 100) | 0) - 1]++
    if (mismatch) this.mismatched()
    if (this.onResponse !== null) this.onResponse(status, latencyMs, conn.id)
    if (++this.finished >= this.amountLimit) this.stop('amount')
  }

  dropped () {
    this.counters[C.DROPPED]++
    if (++this.finished >= this.amountLimit) this.stop('amount')
  }

  /** @param {number} kind C.ERR_* @param {string} detail @param {any} [conn] the connection it happened on (its endpoint) */
  error (kind, detail, conn) {
    this.counters[kind]++
    if (this.endpoints !== null) this.endpoints.error(kind, conn)
    const name = C.ERROR_KINDS[kind - C.ERR_CONNECT]
    if (this.errorDetails[name] === undefined) this.errorDetails[name] = String(detail)
    this.checkBailout()
  }

  mismatched () {
    this.counters[C.MISMATCHES]++
    this.checkBailout()
  }

  checkBailout () {
    if (this.opts.bailout > 0 && this.errorCount() >= this.opts.bailout) this.stop('bailout')
  }

  errorCount () {
    let n = this.counters[C.MISMATCHES] // body mismatches count towards -B, as in autocannon
    for (let k = C.ERR_CONNECT; k < C.ERR_CONNECT + C.ERROR_KINDS.length; k++) n += this.counters[k]
    return n
  }

  stop (reason) {
    if (this.stopping) return
    if (reason === 'amount' && this.endAtSample && this.sampleEnd < 2) {
      if (this.sampleEnd === 0) this.holdToSample()
      return
    }
    this.stopping = true
    this.reason = reason
    for (const t of this.timers) clearTimeout(t)
    clearTimeout(this.tickTimer)
    this.clock.clearTimeout(this.paceTimer)
    this.clock.clearTimeout(this.durationTimer)
    this.clock.clearTimeout(this.sampleEndTimer)
    for (const t of this.graceTimers) this.clock.clearTimeout(t)
    const now = this.clock.now()
    const elapsedMs = now - this.startMono
    // node's timers may fire up to a millisecond early: a run ended by its
    // duration held the plan up to its end (a drained one ended it already)
    const plan = this.plan ?? this.endPlan(reason === 'duration' ? Math.max(now, this.startMono + this.opts.durationMs) : now)
    // what is sent and unanswered now is given up: counted, never timed
    this.counters[C.INTERRUPTED] += this.inFlight()
    for (const conn of this.connections) conn.close()
    if (this.timeline !== null) this.timeline.stop()
    if (this.reqlog !== null) this.reqlog.flush()
    this.finishStats(elapsedMs, plan)
  }

  /**
   * endAtSample: the amount is answered, and nothing more is sent. The run
   * ends at the end of the sample (counted from the first connection) in
   * which the plan's last request was due, as autocannon's runs end: N
   * requests at R/s last N/R s when R divides N. A last response later than
   * that ends the run at once (autocannon waits for the next sample's end).
   * The connections stay open and idle until the end.
   */
  holdToSample () {
    this.sampleEnd = 1
    let lastDue = 0
    for (const p of new Set(this.pacers)) {
      if (p.limit > 0 && p.limit !== Infinity) lastDue = Math.max(lastDue, p.planned(p.limit - 1) - this.startMono)
    }
    const samples = Math.floor(lastDue / this.sampleMs) + 1
    const left = this.startMono + samples * this.sampleMs - this.clock.now()
    if (left > 0) this.sampleEndTimer = this.clock.setTimeout(sampleEnded, left, this, samples)
    else sampleEnded(this, samples)
  }

  /** Requests sent and unanswered, over the connections (also those waiting to be re-sent). */
  inFlight () {
    let n = 0
    for (const conn of this.connections) n += conn.outstanding()
    return n
  }

  /**
   * The send plan ends at `planAt` (the runner's clock): what it held by then
   * and what was sent of it (pacers may be shared) are kept for the result,
   * and nothing more is sent; the requests in flight are not touched (stop()
   * cuts them, a drain lets them finish: graceful-stop.js).
   * @param {number} planAt
   * @returns {{planned: number, issued: number, dropped: number}}
   */
  endPlan (planAt) {
    this.planEndedAt = planAt // the timeline's last row counts the plan to here
    this.sendMs = this.startMono === undefined ? 0 : planAt - this.startMono
    const plan = { planned: 0, issued: 0, dropped: 0 }
    for (const p of new Set(this.pacers)) {
      plan.planned += p.due(planAt)
      plan.issued += p.issued - p.skipped
      plan.dropped += p.skipped
      p.cut = p.issued
    }
    this.plan = plan
    this.budget = 0
    this.clock.clearTimeout(this.paceTimer)
    this.paceTimer = null
    if (this.connectionRamp !== null) this.connectionRamp.stop()
    return plan
  }

  finishStats (elapsedMs, plan) {
    const elu = performance.eventLoopUtilization(this.eluStart)
    const cpuEnd = threadCpuUs()
    const cpuUs = cpuEnd === undefined || this.cpuStart === undefined ? undefined : cpuEnd - this.cpuStart
    // the last, partial second, kept apart with its length
    const partialMs = elapsedMs - this.samplesReq.length * this.sampleMs
    this.counters[C.DROPPED_ITERATIONS] = plan.dropped ?? 0
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
      sampleMs: this.sampleMs, // s above, when -L changes it
      elapsedMs,
      connections: this.connections.length,
      reason: this.reason,
      everConnected: this.everConnected,
      errorDetails: this.errorDetails,
      saturation: { elu: elu.utilization, cpuUs, wallMs: performance.now() - this.cpuWallStart },
      connectTimes: this.connectTimes.toTransfer(),
      firstBytes: this.firstBytes === null ? null : this.firstBytes.toTransfer(),
      firstToLast: this.firstToLast === null ? null : this.firstToLast.toTransfer(),
      openMax: this.openMax,
      // connections a VU pool opened (vu-pool.js; undefined without one)
      vusMax: this.vuPool === null ? undefined : this.vuPool.opened,
      sendMs: this.sendMs,
      ws: this.ws === null ? undefined : this.ws.toTransfer(),
      grpc: this.grpc === null ? undefined : this.grpc.codes,
      // this runner's endpoints, from endpointBase on in the run's list
      endpointBase: this.opts.endpointBase ?? 0,
      endpoints: null,
      rate: this.lag === null
        ? null
        : {
            planned: plan.planned,
            issued: plan.issued,
            dropped: plan.dropped,
            lag: this.lag.toTransfer(),
            uncorrected: this.uncorrected === null ? null : this.uncorrected.toTransfer()
          }
    }
    stats.endpoints = this.endpoints === null ? fromTotals(stats) : this.endpoints.toTransfer()
    // let the sockets' close events run before reporting
    setImmediate(() => this.resolveDone(stats))
  }
}

/**
 * The connection classes of a run, chosen once: the closed loop's and the
 * rate plan's (null without a plan). --h2 and ws:// have the same interface
 * with their own framing; a script's delay() is the one closed-loop
 * connection that pauses before a write.
 * @param {RunnerOptions} opts @param {object|null} rate
 * @returns {{Closed: any, Paced: any}}
 */
function connectionClasses (opts, rate) {
  if (opts.ws) {
    return {
      // lazy: only WebSocket runs (the engine's start-up counts in a suite's short runs)
      Closed: require('./ws/connection.js').WsConnection,
      // lazy: only WebSocket runs (the engine's start-up counts in a suite's short runs)
      Paced: rate === null ? null : require('./ws/paced-connection.js').PacedWsConnection
    }
  }
  if (opts.h2) {
    return {
      // lazy: only --h2 runs (the engine's start-up counts in a suite's short runs)
      Closed: require('./http2/connection.js').H2Connection,
      // lazy: only --h2 runs (the engine's start-up counts in a suite's short runs)
      Paced: rate === null ? null : require('./http2/paced-connection.js').PacedH2Connection
    }
  }
  return {
    // lazy: only a delay hook needs it
    Closed: opts.hooks?.delay !== undefined ? require('./scripting/delayed-connection.js').DelayedConnection : Connection,
    Paced: rate === null ? null : require('./http1/paced-connection.js').PacedConnection // lazy: only paced runs
  }
}

function stopRunner (runner, reason) { runner.stop(reason) }

/** The duration is over: stop now, or first give what is in flight its gracefulStop. */
function durationEnded (runner) {
  // node's timers can fire a few ms early against performance.now() (the
  // loop's cached time lags on a loaded machine): wait out the rest, so that
  // a run lasts its duration (result.duration >= -d)
  const left = runner.startMono + runner.opts.durationMs - runner.clock.now()
  if (left > 0) {
    runner.durationTimer = runner.clock.setTimeout(durationEnded, Math.ceil(left), runner)
    return
  }
  if (runner.gracefulStopMs > 0) require('./graceful-stop.js').drain(runner) // lazy: only --graceful-stop drains
  else runner.stop('duration')
}

function tick (runner, n) {
  if (runner.stopping) return
  takeSample(runner, n)
  runner.scheduleTick(n + 1)
}

/** Records sample n (what was answered since the last one) and reports it as the tick of second n. */
function takeSample (runner, n) {
  const c = runner.counters
  const req = c[C.COMPLETED] - runner.lastCompleted
  const bytes = c[C.BYTES] - runner.lastBytes
  runner.lastCompleted = c[C.COMPLETED]
  runner.lastBytes = c[C.BYTES]
  runner.samplesReq.push(req)
  runner.samplesBytes.push(bytes)
  if (runner.onTick !== null) runner.onTick({ second: n, requests: req, bytes, counters: c, latencyCounts: runner.lastSecond?.take() })
}

/**
 * endAtSample: the run's last sample is over (holdToSample), a whole one or,
 * when the last response came later, one that lasts to it. The ticks count
 * from the run's t0, a few ms before the first connection: when the tick of
 * that sample has not fired yet the sample is taken now, and when it has, the
 * responses since join it (the samples then hold every response: N/R samples
 * of R each).
 * @param {Runner} runner @param {number} samples the run's samples
 */
function sampleEnded (runner, samples) {
  // node's timers may fire a little early against the clock: wait out the rest
  const left = runner.startMono + samples * runner.sampleMs - runner.clock.now()
  if (left > 0) {
    runner.sampleEndTimer = runner.clock.setTimeout(sampleEnded, Math.ceil(left), runner, samples)
    return
  }
  runner.sampleEnd = 2
  const taken = runner.samplesReq.length
  if (taken < samples) {
    takeSample(runner, taken + 1)
  } else { // (samples >= 1: a sample to join)
    const c = runner.counters
    runner.samplesReq[taken - 1] += c[C.COMPLETED] - runner.lastCompleted
    runner.samplesBytes[taken - 1] += c[C.BYTES] - runner.lastBytes
    runner.lastCompleted = c[C.COMPLETED]
    runner.lastBytes = c[C.BYTES]
  }
  runner.stop('amount')
}

/** Wakes the waiting paced connections whose plan has something due. */
function pace (runner) {
  runner.paceTimer = null
  if (runner.stopping) return
  const now = runner.clock.now()
  const list = runner.waiting
  runner.waiting = []
  runner.pacing = true
  for (const c of list) {
    c.waiting = false
    // a shared plan may be used up by the connections before this one
    if (c.pacer.due(now) > c.pacer.issued) c.refill(true)
    else runner.wait(c)
  }
  runner.pacing = false
  // what is due and no free connection took: more connections, or dropped
  if (runner.vuPool !== null) runner.vuPool.settle(now)
  if (runner.waiting.length > 0 || runner.vuPool !== null) runner.armPace()
}

function sweepTimeouts (runner) {
  const now = runner.clock.now()
  const limit = now - runner.opts.timeoutMs
  for (const conn of runner.connections) {
    if (runner.stopping) return
    if (!conn.timedOut(limit)) continue
    if (!conn.connected) {
      runner.error(C.ERR_CONNECT, 'connect timeout', conn)
      conn.socket.destroy()
    } else {
      runner.error(C.ERR_TIMEOUT, 'request timeout', conn)
      conn.timedOutHead(now)
      conn.restart()
    }
  }
}

module.exports = { Runner }
