'use strict'
// A --scenarios run: one LoadRun per scenario (its options from plan.js),
// all in this process (each with its own -w workers, as any run), started
// on one shared t0: every scenario is set up first (options, request bytes,
// worker threads), then the t0 is taken once, and each scenario starts at
// t0 + its startTime (its own t0, so its seconds and interval rows fall on
// the run's). The results are combined by combine.js. Like a LoadRun it is
// an EventEmitter and awaitable: 'start' (once, at t0), 'tick' (each
// scenario's, with its `scenario`, the second counted from the shared t0, the
// requests and bytes of that second of all scenarios that ticked it so far,
// the running totals of all), 'interval' (rows with `scenario`),
// 'response', 'reqError', 'done' (the combined result).
const { RunEmitter } = require('../run-emitter.js')
const { LoadRun } = require('../load-run.js')
const { waitUntil } = require('../start-at.js')
const { planScenarios } = require('./plan.js')
const { combineResults, emptyResult } = require('./combine.js')

/** @extends {RunEmitter<Record<string, any>>} */
class ScenariosRun extends RunEmitter {
  #runs = []
  #stopped = false
  #wake = new Set() // resolvers of scenarios waiting for their startTime
  #totals = new Map() // scenario -> its last tick's running totals
  #seconds = new Map() // second from the shared t0 -> {requests, bytes} of the scenarios' ticks so far
  // events that cost something per response or error (a worker posts each
  // error only when its run has a listener): forwarded only once someone listens
  #lazy = { response: [], reqError: [] } // [run, forwarder] per scenario

  /** @param {ReturnType<typeof planScenarios>} plan */
  constructor (plan) {
    super()
    this.plan = plan
    // what the CLI's header and live view read of a run; an iteration executor
    // may end long before its maxDuration, so with one the live line shows no bar
    const open = plan.scenarios.some((s) => s.executor.endsWith('-iterations'))
    this.opts = {
      scenarios: plan.scenarios.map((s) => s.name),
      duration: open ? 0 : plan.durationMs / 1000,
      amount: 0,
      sampleIntMs: plan.sampleIntMs,
      workers: plan.scenarios[0].opts.workers
    }
    this.begin(() => this.#run())
    this.on('newListener', (name) => {
      for (const [run, forward] of this.#lazy[name] ?? []) if (run.listenerCount(name) === 0) run.on(name, forward)
    })
  }

  /** Ends every scenario now; one that has not started yet reports nothing sent. */
  stop () {
    this.#stopped = true
    for (const wake of this.#wake) wake()
    for (const run of this.#runs) run.stop()
  }

  async #run () {
    const plan = this.plan
    let arrived = 0
    let release
    /** @type {Promise<number>} */
    const shared = new Promise((resolve) => { release = resolve })
    const started = new Set()
    const cpu0 = process.cpuUsage()
    const wall0 = Date.now()
    // each scenario's LoadRun asks for its t0 once it is set up (index.js #startInstant)
    const gate = (s) => async () => {
      if (++arrived === plan.scenarios.length) {
        if (plan.startAt !== undefined) await this.#sleepUntil(plan.startAt)
        const t0 = Date.now()
        this.emit('start')
        release(t0)
      }
      const at = (await shared) + s.startTimeMs
      await this.#sleepUntil(at)
      if (!this.#stopped) started.add(s.name)
      return at
    }
    this.#runs = plan.scenarios.map((s) => {
      const run = new LoadRun({ ...s.opts, startGate: gate(s) })
      this.#forward(run, s)
      return run
    })
    // stopped before its scenarios existed (stop() right after load())
    if (this.#stopped) for (const run of this.#runs) run.stop()
    let failure = null
    const settled = await Promise.all(this.#runs.map((run, i) => run.then((r) => r, (err) => {
      const s = plan.scenarios[i]
      // stopped before its startTime: it sent nothing, and says so
      if (this.#stopped && !started.has(s.name)) return null
      if (failure === null) {
        failure = err
        if (typeof err.message === 'string') err.message = `scenario "${s.name}": ${err.message}`
        // the others must not wait for a t0 this one will never ask for
        if (arrived < plan.scenarios.length) release(Date.now())
        this.stop()
      }
      return null
    })))
    if (failure !== null) throw failure
    const t0 = await shared
    const results = settled.map((r, i) => r ?? emptyResult(plan.scenarios[i].opts, t0 + plan.scenarios[i].startTimeMs))
    const usage = process.cpuUsage(cpu0)
    const result = combineResults(plan, results, { cpuUs: usage.user + usage.system, wallMs: Date.now() - wall0 })
    this.emit('done', result)
    return result
  }

  /** Waits for an epoch ms instant; stop() ends the wait at once. */
  #sleepUntil (at) {
    const sleep = (ms) => new Promise((resolve) => {
      const done = () => { clearTimeout(timer); this.#wake.delete(done); resolve() }
      const timer = setTimeout(done, ms)
      this.#wake.add(done)
    })
    return waitUntil(at, { now: () => (this.#stopped ? Infinity : Date.now()), sleep })
  }

  /** A scenario's events, as the run's. */
  #forward (run, s) {
    const offset = s.startTimeMs / this.plan.sampleIntMs
    run.on('tick', (tick) => {
      this.#totals.set(s.name, { total: tick.total, errors: tick.errors, non2xx: tick.non2xx })
      const sums = { total: 0, errors: 0, non2xx: 0 }
      for (const t of this.#totals.values()) for (const k of Object.keys(sums)) sums[k] += t[k]
      // the second's requests and bytes of every scenario that ticked it so far: the
      // last tick of a second has them all (the live line is redrawn on each)
      const second = tick.second + Math.round(offset)
      const acc = this.#seconds.get(second) ?? { requests: 0, bytes: 0 }
      acc.requests += tick.requests
      acc.bytes += tick.bytes
      this.#seconds.set(second, acc)
      this.#seconds.delete(second - 2)
      this.emit('tick', { ...tick, ...sums, requests: acc.requests, counter: acc.requests, bytes: acc.bytes, second, scenario: s.name, scenarioRequests: tick.requests })
    })
    run.on('interval', (row) => this.emit('interval', { ...row, scenario: s.name }))
    for (const name of ['response', 'reqError']) {
      const forward = (...args) => this.emit(name, ...args)
      this.#lazy[name].push([run, forward])
      if (this.listenerCount(name) > 0) run.on(name, forward)
    }
  }
}

/**
 * load({ scenarios, ... }): the plan checked now (a UsageError before any
 * connection), the run started on the next turn.
 * @param {Record<string, any>} options
 * @returns {ScenariosRun}
 */
function loadScenarios (options) {
  return new ScenariosRun(planScenarios(options))
}

module.exports = { loadScenarios, ScenariosRun }
