'use strict'
// One load run of a single workload: plans the runners (this thread or worker_threads),
// starts them, relays their ticks and responses, checks thresholds and merges the result.
// index.js's load() builds it; scenarios/run.js runs several of them side by side.
const { RunEmitter } = require('./run-emitter.js')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { Runner } = require('./runner.js')
const { mergeStats, buildResult } = require('./result/result.js')
const { RunError } = require('../errors.js')
const { forwardErrors, requestError, clientOf, withResponses } = require('./scripting/hooks.js')
const C = require('./counters.js')
const { split } = require('./split.js')
const { waitUntil } = require('./start-at.js')
const { scaleStages, describeStages } = require('./stages.js')
const { evaluate, watchThresholds, TickWatch, needsLatency } = require('./thresholds.js')
const { totals, secondLatency } = require('./measure/live.js')

/**
 * The options of each runner: connections, the request budget (-a or -O)
 * and the send plan split over the workers, remainders spread, and within
 * each worker's share over the origins (one runner per origin and worker:
 * endpoint-options.js). `share` is the worker a runner runs in.
 */
function planRunners (opts) {
  const shares = opts.workers <= 1 ? 1 : opts.workers
  const origins = opts.origins ?? [{ target: opts.target, requests: opts.requests, endpointBase: 0 }]
  const budget = opts.amount > 0 ? opts.amount : opts.maxOverallRequests
  const bySplit = (n) => split(n, shares).flatMap((s) => split(s, origins.length))
  const conns = bySplit(opts.connections)
  const amounts = budget > 0 ? bySplit(budget) : conns.map(() => 0)
  const bursts = opts.rate?.mode === 'burst' ? bySplit(opts.rate.burst) : null
  // an arrival-rate scenario's preAllocatedVUs, split as its maxVUs (the
  // connections) are; a runner with connections opens at least one
  const pres = opts.vus ? bySplit(opts.vus.pre) : null
  let idOffset = 0
  // --threshold-abort over several runners is checked on the combined tick,
  // whose latency counts come from each runner's per-second snapshots
  const tickWatch = opts.thresholdAbort && conns.length > 1 && needsLatency(opts.thresholds)
  return conns.map((c, i) => {
    const origin = origins[i % origins.length]
    let rate = opts.rate
    if (rate?.mode === 'overall') rate = { ...rate, rate: rate.rate * c / opts.connections }
    if (rate?.mode === 'stages') rate = { ...rate, rate: rate.rate * c / opts.connections, stages: scaleStages(rate.stages, c / opts.connections) }
    if (bursts !== null) rate = { ...rate, burst: bursts[i] }
    const ro = {
      share: Math.floor(i / origins.length),
      requests: origin.requests,
      target: origin.target,
      endpointBase: origin.endpointBase,
      endpointCount: origin.requests.length,
      connections: c,
      pipelining: opts.pipelining,
      refill: opts.refill,
      durationMs: opts.durationMs,
      amount: amounts[i],
      timeoutMs: opts.timeoutMs,
      bailout: opts.bailout,
      expectBody: opts.expectBody,
      maxHeaderSize: opts.maxHeaderSize,
      rate: rate ?? null,
      ignoreCoordinatedOmission: opts.ignoreCoordinatedOmission,
      maxConnectionRequests: opts.maxConnectionRequests,
      reconnectRate: opts.reconnectRate,
      breakout: opts.breakout,
      localAddresses: opts.localAddresses,
      h2: opts.h2,
      ws: opts.ws, // a WebSocket run (options/ws-options.js; null: HTTP)
      grpc: opts.grpc !== undefined, // gRPC calls: count grpc-status by code (grpc/stats.js)
      hooks: opts.hooks, // issue 7: sequences, hooks, body capture (undefined: the static path)
      intervalMs: opts.intervalMs,
      sampleIntMs: opts.sampleIntMs,
      liveLatency: opts.liveLatency || tickWatch,
      // a paced run of the API with an amount: it ends at the end of its last sample (runner.js holdToSample)
      endAtSample: opts.endAtSample === true && rate != null && amounts[i] > 0,
      reqlog: opts.reqlog !== undefined,
      connectionStages: opts.connectionStages,
      // a --scenarios scenario's gracefulStop and gracefulRampDown (graceful-stop.js,
      // connection-stages.js; 0: what is in flight at the end is cut), and its VU pool (vu-pool.js)
      gracefulStopMs: opts.gracefulStopMs ?? 0,
      gracefulRampDownMs: opts.gracefulRampDownMs ?? 0,
      vus: pres === null ? null : { pre: Math.max(1, pres[i]) },
      // the whole ramp, and which part of its connections this runner opens (connection-stages.js)
      // (connectionShard: this generator's part of the ramp, a --scenarios run with --shard: scenarios/plan.js)
      connectionPart: opts.connectionStages === null ? null : { index: i, shares, origins: origins.length, shard: opts.connectionShard ?? null },
      t0: 0, // set when the run starts
      idOffset
    }
    idOffset += c
    return ro
  })
}

/**
 * The result of one run: buildResult's fields, and those the run adds when
 * its options ask for them.
 * @typedef {ReturnType<typeof buildResult> & {
 *   warmup?: ReturnType<typeof buildResult>, title?: string, intervals?: object[],
 *   stages?: object[], stagesOf?: 'connections' | 'rate', thresholds?: object[],
 *   thresholdAbort?: object, reqlog?: {file: string, rows: number},
 *   done?: string | object}} LoadResult (done: what a wrk script's done() printed or returned)
 */

/** @extends {RunEmitter<LoadResult>} */
class LoadRun extends RunEmitter {
  #runners = []
  #workers = []
  #stopped = false
  #ticks = new Map() // second -> ticks summed so far over workers
  #intervals = new Map() // interval start -> rows of the runners so far
  #timeline = [] // combined interval rows, in order
  #reqlog = null // the --reqlog writer of the measured run
  #sources = 1 // runners whose ticks and interval rows make one combined row
  #watchThresholds = false // --threshold-abort, during the measured run only
  #tickWatch = null // --threshold-abort over several runners: checked on the combined tick
  #thresholdAbort = null // the threshold that stopped the run

  /** @param {ReturnType<typeof import('./options/options.js').normalizeOptions>} opts */
  constructor (opts) {
    super()
    this.opts = opts
    this.begin(() => this.#run())
  }

  /** Ends the run early; the result covers what happened so far. */
  stop () {
    this.#stopped = true
    for (const r of this.#runners) r.stop('stopped')
    for (const w of this.#workers) w.postMessage({ type: 'stop' })
  }

  async #run () {
    const opts = this.opts
    let warmupResult
    if (opts.warmup !== null) {
      // a run of its own before the measured one, its counts kept apart (result.warmup)
      const w = { ...opts, connections: opts.warmup.connections, durationMs: opts.warmup.durationMs, amount: 0, maxOverallRequests: 0, intervalMs: 0, reqlog: undefined, connectionStages: null }
      this.emit('warmup', { connections: w.connections, duration: w.durationMs / 1000 })
      const warm = await this.#runShares(planRunners(w))
      if (this.#stopped) throw new RunError('the run was stopped during its warmup')
      // autocannon's `warmup` sub-result: the warmup's own result, outside the measured one
      const wm = mergeStats(warm)
      warmupResult = buildResult(wm, w, { cpuUs: 0, wallMs: wm.elapsedMs })
      delete warmupResult.saturation
      this.#runners = []
      this.#workers = []
      this.#ticks.clear()
    }
    const runnerOpts = planRunners(opts)
    // wrk's setup(thread), once per share, before any starts (and before files are opened)
    // lazy: only a wrk-style --script has setup and done
    const threads = opts.hooks?.wrk !== undefined ? await require('./scripting/wrk-script.js').setupThreads(opts, runnerOpts) : null
    // lazy: only --reqlog writes the request log
    if (opts.reqlog !== undefined) this.#reqlog = require('./measure/reqlog.js').openRequestLog(opts.reqlog, opts.reqlogFormat)
    const cpu0 = process.cpuUsage()
    this.#watchThresholds = opts.thresholdAbort
    if (opts.thresholdAbort && runnerOpts.length > 1) {
      this.#tickWatch = new TickWatch(opts.thresholds, (failed) => {
        this.#thresholdAbort = { expr: failed.expr, value: failed.value, at: failed.atMs / 1000 }
        this.#stopShares('threshold')
      })
    }
    this.emit('start')
    let stats
    let reqlogRows = 0
    try {
      stats = await this.#runShares(runnerOpts)
    } finally {
      this.#flushIntervals()
      if (this.#reqlog !== null) reqlogRows = await this.#reqlog.end()
    }
    const usage = process.cpuUsage(cpu0)
    const merged = mergeStats(stats)
    // a hook that failed before any connection (init) is the reason, not the target
    if (merged.errorDetails.hook !== undefined && !merged.everConnected) throw new RunError(`the run stopped: ${merged.errorDetails.hook}`, 'BENCHRIG_ERR_HOOK')
    // with several origins, one that could not be reached fails the run as one origin would
    const lost = (opts.origins?.length ?? 1) > 1 ? stats.findIndex((s) => s.reason === 'unreachable' && !s.everConnected) : -1
    if ((!merged.everConnected && merged.counters[C.COMPLETED] === 0) || lost >= 0) {
      const target = lost >= 0 ? runnerOpts[lost].target : opts.target
      const where = target.socketPath ?? `${target.hostname}:${target.port}`
      const d = lost >= 0 ? stats[lost].errorDetails : merged.errorDetails
      const why = d.connect ?? d.read ?? d.parse ?? d.goaway ?? 'no connection succeeded'
      // lazy: only a run where no connection succeeded needs the hint
      const hint = require('./connect-hint.js').connectHint(why, { ...opts, target })
      const err = new RunError(`cannot connect to ${where} (${why}): ${hint}`, 'BENCHRIG_ERR_UNREACHABLE')
      // what was counted (the errors): autocannon's API calls back with it
      Object.defineProperty(err, 'result', { value: buildResult(merged, opts, { cpuUs: usage.user + usage.system, wallMs: merged.elapsedMs }) })
      throw err
    }
    if (merged.errorDetails.hook !== undefined) throw new RunError(`the run stopped: ${merged.errorDetails.hook}`, 'BENCHRIG_ERR_HOOK')
    /** @type {LoadResult} */
    const result = buildResult(merged, opts, { cpuUs: usage.user + usage.system, wallMs: merged.elapsedMs })
    if (this.#stopped) result.stoppedBy = 'stopped'
    if (warmupResult !== undefined) result.warmup = warmupResult
    if (opts.title !== undefined) result.title = opts.title
    if (opts.intervalMs > 0) result.intervals = this.#timeline
    if (opts.rate?.mode === 'stages') result.stages = describeStages(opts.rate.stages)
    if (opts.connectionStages !== null) result.stages = describeStages(opts.connectionStages)
    if (result.stages !== undefined) result.stagesOf = opts.connectionStages !== null ? 'connections' : 'rate'
    if (opts.thresholds.length > 0) {
      result.thresholds = evaluate(opts.thresholds, { counters: merged.counters, histogram: merged.histogram, elapsedMs: merged.elapsedMs })
    }
    if (this.#thresholdAbort !== null) {
      result.stoppedBy = 'threshold'
      result.thresholdAbort = this.#thresholdAbort
    }
    if (opts.reqlog !== undefined) result.reqlog = { file: opts.reqlog, rows: reqlogRows }
    if (threads !== null) {
      // what each worker's thread.set() left, for done() (this thread's share shares the object)
      stats.forEach((st, i) => { if (st.scriptVars !== undefined) threads[i].vars = st.scriptVars })
      // lazy: only a wrk-style --script has setup and done
      if (opts.hooks.wrk.done) Object.assign(result, await require('./scripting/wrk-script.js').runDone(opts.hooks.script, merged, result))
    }
    this.emit('done', result)
    return result
  }

  /** Runs the runners here (one per origin), or in one worker thread per share; resolves to their stats. */
  async #runShares (runnerOpts) {
    this.#sources = runnerOpts.length
    if (runnerOpts.every((ro) => ro.share === 0)) {
      const t0 = await this.#startInstant()
      for (const ro of runnerOpts) ro.t0 = t0
      return Promise.all(runnerOpts.map((ro) => this.#runHere(ro)))
    }
    const byShare = []
    for (const ro of runnerOpts) (byShare[ro.share] ??= []).push(ro)
    return (await this.#runWorkers(byShare)).flat()
  }

  /**
   * The run's t0 (epoch ms), once it is set up: now; or after --start-at's
   * instant; or, for a scenario of a --scenarios run, what its `startGate`
   * gives once every scenario is set up (scenarios/run.js: the shared t0
   * plus the scenario's startTime, so its seconds fall on the run's).
   */
  async #startInstant () {
    if (this.opts.startGate !== undefined) return this.opts.startGate()
    if (this.opts.startAt !== undefined) await waitUntil(this.opts.startAt)
    return Date.now()
  }

  #runHere (ro) {
    // a 'response' listener from the start gets autocannon's (client, status, resBytes, ms): the run takes the dynamic path
    // (so does a 'reqMismatch' listener, which gets the refused body)
    if ((this.listenerCount('response') > 0 || this.listenerCount('reqMismatch') > 0) && !ro.ws) ro = withResponses(ro)
    const runner = new Runner(ro)
    this.#runners.push(runner)
    if (ro.intervalMs > 0) runner.onInterval = (row) => this.#interval(row, this.#sources)
    if (ro.reqlog) runner.onReqlog = (chunk, rows, offsetMs) => this.#reqlog.write(chunk, rows, offsetMs)
    runner.onTick = this.#sources === 1
      ? (t) => this.emit('tick', liveTick({ second: t.second, requests: t.requests, bytes: t.bytes, counter: t.requests }, totals(t.counters), t.latencyCounts))
      // a copy of the second's latency counts: #tick adds the other runners' into the first it gets
      : (t) => this.#tick(this.#ticks, { second: t.second, requests: t.requests, bytes: t.bytes, totals: totals(t.counters), counters: t.counters, latencyCounts: t.latencyCounts?.slice() })
    forwardErrors(runner, (kind, detail) => { if (this.listenerCount('reqError') > 0) this.emit('reqError', requestError(kind, detail)) })
    // `response` costs nothing until someone listens
    const hook = (status, latencyMs, id) => {
      const conn = runner.connections[id - ro.idOffset]
      // only the capturing scanners (a hook reads bodies) count a response's bytes
      this.emit('response', clientOf(conn), status, /** @type {{resBytes?: number}|undefined} */ (conn.scanner)?.resBytes ?? 0, latencyMs)
    }
    // `reqMismatch` (autocannon's): the body of a response -E/verifyBody refused
    let mismatches = 0
    const mismatch = (id) => {
      if (runner.counters[C.MISMATCHES] === mismatches) return
      mismatches = runner.counters[C.MISMATCHES]
      const body = /** @type {{body?: Buffer}|undefined} */ (runner.connections[id - ro.idOffset]?.scanner)?.body
      this.emit('reqMismatch', body === undefined ? '' : body.toString())
    }
    const both = (status, latencyMs, id) => { hook(status, latencyMs, id); mismatch(id) }
    const onlyMismatch = (status, latencyMs, id) => mismatch(id)
    /** @param {string} [adding] an event a listener is being added to */
    const listen = (adding) => {
      const r = adding === 'response' || this.listenerCount('response') > 0
      const m = adding === 'reqMismatch' || this.listenerCount('reqMismatch') > 0
      runner.onResponse = r && m ? both : r ? hook : m ? onlyMismatch : null
    }
    listen()
    this.on('newListener', (name) => { if (name === 'response' || name === 'reqMismatch') listen(name) })
    this.on('removeListener', (name) => { if (name === 'response' || name === 'reqMismatch') listen() })
    // a script's stop() in this share ends the run like stop(), keeping its reason
    runner.onScriptStop = () => this.#stopShares()
    // a script's init() is awaited before the share starts
    return Promise.resolve(runner.prepared).then(() => {
      if (this.#stopped) runner.stop('stopped')
      const done = runner.start()
      if (this.#watchThresholds && this.#tickWatch === null) {
        const unwatch = watchThresholds(runner, this.opts.thresholds, (failed) => {
          this.#thresholdAbort = { expr: failed.expr, value: failed.value, at: failed.atMs / 1000 }
          runner.stop('threshold')
        })
        done.finally(unwatch)
      }
      return done
    })
  }

  /**
   * Every share ends, the result kept: a script's thread.stop() ('script'),
   * or a threshold that can no longer pass ('threshold').
   */
  #stopShares (reason = 'script') {
    for (const r of this.#runners) setImmediate(() => r.stop(reason))
    for (const w of this.#workers) w.postMessage({ type: 'stop', reason })
  }

  /**
   * Starts every worker (each with the runners of its share: one per
   * origin), then all of them at once with one t0.
   * @param {object[][]} list runner options by worker
   */
  async #runWorkers (list) {
    let readyCount = 0
    let release
    const allReady = new Promise((resolve) => { release = resolve })
    const runs = list.map((runners) => new Promise((resolve, reject) => {
      // execArgv: []: workers need none of the parent's flags or loaders (a test
      // runner's loaders made each worker take seconds to start)
      const data = { runners, reportErrors: this.listenerCount('reqError') > 0 }
      const worker = new Worker(path.join(__dirname, 'worker-entry.js'), { workerData: data, execArgv: [] })
      this.#workers.push(worker)
      let done = false
      const pending = this.#ticks
      worker.on('message', (msg) => {
        if (msg.type === 'done') {
          done = true
          resolve(msg.stats)
        } else if (msg.type === 'tick') {
          this.#tick(pending, msg)
        } else if (msg.type === 'interval') {
          this.#interval(msg.row, this.#sources)
        } else if (msg.type === 'reqlog') {
          this.#reqlog.write(msg.chunk, msg.rows, msg.offsetMs)
        } else if (msg.type === 'scriptStop') {
          this.#stopShares()
        } else if (msg.type === 'reqError') {
          this.emit('reqError', requestError(msg.kind, msg.detail))
        } else if (msg.type === 'ready' && ++readyCount === list.length) {
          release()
        }
      })
      worker.on('error', reject)
      worker.on('exit', (code) => {
        if (!done) reject(new RunError(`a load worker exited early (code ${code})`))
      })
    }))
    const failed = Promise.all(runs) // rejects early if a worker dies before 'ready'
    await Promise.race([allReady, failed])
    const t0 = await this.#startInstant()
    for (const w of this.#workers) w.postMessage({ type: 'start', t0 })
    if (this.#stopped) for (const w of this.#workers) w.postMessage({ type: 'stop' })
    return failed
  }

  /** Combines an interval once every runner has closed it; emits 'interval'. */
  #interval (row, runners) {
    const rows = this.#intervals.get(row.start) ?? []
    rows.push(row)
    this.#intervals.set(row.start, rows)
    if (rows.length === runners) this.#emitInterval(row.start)
  }

  #emitInterval (start) {
    // lazy: only --interval combines rows
    const combined = require('./measure/timeline.js').combineRows(this.#intervals.get(start))
    this.#intervals.delete(start)
    this.#timeline.push(combined)
    this.emit('interval', combined)
  }

  /** At the end: intervals some runner did not close (it stopped exactly at a boundary). */
  #flushIntervals () {
    for (const start of [...this.#intervals.keys()].sort((a, b) => a - b)) this.#emitInterval(start)
    this.#timeline.sort((a, b) => a.start - b.start)
  }

  /** Emits one tick per second once every worker has reported that second. */
  #tick (pending, msg) {
    const agg = pending.get(msg.second) ?? { n: 0, requests: 0, bytes: 0, totals: { total: 0, errors: 0, non2xx: 0 }, counters: undefined, latencyCounts: undefined }
    agg.n++
    agg.requests += msg.requests
    agg.bytes += msg.bytes
    for (const k of ['total', 'errors', 'non2xx']) agg.totals[k] += msg.totals[k]
    if (this.#tickWatch !== null) {
      // added now: a runner in this thread passes its live counters
      if (agg.counters === undefined) agg.counters = new Float64Array(msg.counters.length)
      for (let i = 0; i < msg.counters.length; i++) agg.counters[i] += msg.counters[i]
    }
    if (msg.latencyCounts !== undefined) {
      if (agg.latencyCounts === undefined) agg.latencyCounts = msg.latencyCounts
      else for (let i = 0; i < msg.latencyCounts.length; i++) agg.latencyCounts[i] += msg.latencyCounts[i]
    }
    pending.set(msg.second, agg)
    if (agg.n === this.#sources) {
      pending.delete(msg.second)
      // before the tick is emitted: liveTick does not change the counts, but a listener might
      this.#tickWatch?.feed(agg.counters, agg.latencyCounts, msg.second * this.opts.sampleIntMs)
      this.emit('tick', liveTick({ second: msg.second, requests: agg.requests, bytes: agg.bytes, counter: agg.requests }, agg.totals, agg.latencyCounts))
    }
  }
}

/**
 * A tick with the live view's figures: running totals (completed requests,
 * errors, non-2xx) and, with the liveLatency option, p50/p99 of the second.
 */
function liveTick (tick, sums, latencyCounts) {
  tick.total = sums.total
  tick.errors = sums.errors
  tick.non2xx = sums.non2xx
  if (latencyCounts !== undefined) tick.latency = secondLatency(latencyCounts)
  return tick
}

module.exports = { LoadRun, planRunners }
