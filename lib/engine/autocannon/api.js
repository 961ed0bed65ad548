'use strict'
// The public `load` of the package, shaped like autocannon's default export so
// that code written for autocannon runs with only the import changed:
//   load(opts)            -> a LoadRun (EventEmitter + thenable)
//   load(opts, cb)        -> the same, and cb(err, result) once it ends
//   load({forever: true}) -> runs again after every 'done' until stop()
//   load.track, load.printResult, load.aggregateResult, load.parseArguments, load.start
// Invalid options are reported as autocannon reports them (cb, a rejected
// promise, or 'error' on a forever instance), never thrown; startRun() is
// the throwing form the CLI uses.
// The engine itself (lib/engine/index.js) knows nothing of callbacks or
// rounds; they live here so the engine's run stays one run.
const { EventEmitter } = require('node:events')
const engine = require('../index.js')
const { UsageError } = require('../../errors.js')
const { inAutocannonWords } = require('./words.js')
// loaded when called: `benchrig load` itself needs none of them
// lazy: benchrig load itself needs none of them
const track = (/** @type {Parameters<typeof import('./track.js').track>} */ ...args) => require('./track.js').track(...args)
// lazy: benchrig load itself needs none of them
const printResult = (/** @type {Parameters<typeof import('./print-result.js').printResult>} */ ...args) => require('./print-result.js').printResult(...args)
// lazy: benchrig load itself needs none of them
const aggregateResult = (/** @type {Parameters<typeof import('./aggregate-result.js').aggregateResult>} */ ...args) => require('./aggregate-result.js').aggregateResult(...args)

const EVENTS = ['start', 'tick', 'response', 'reqError']

/**
 * A run that starts a new LoadRun each time the last one is done, re-emitting
 * their events, until stop(). Awaiting it gives the last round's result.
 */
class ForeverRun extends EventEmitter {
  #current = null
  #stopped = false
  #promise

  /** @param {object} options @param {{endAtSample?: boolean}} [how] engine/index.js's load */
  constructor (options, how) {
    super()
    this.options = options
    this.how = how
    const first = this.#round()
    this.opts = first.opts
    this.#promise = new Promise((resolve, reject) => { this.resolve = resolve; this.reject = reject })
    this.#promise.catch(() => {})
    this.rounds = 0
  }

  #round () {
    const run = engine.load(this.options, this.how)
    this.#current = run
    for (const name of EVENTS) {
      // forward only events someone listens to: 'response' has a cost
      if (this.listenerCount(name) > 0) run.on(name, (...a) => this.emit(name, ...a))
    }
    const forward = (name) => { if (EVENTS.includes(name) && run.listenerCount(name) === 0) run.on(name, (...a) => this.emit(name, ...a)) }
    this.on('newListener', forward)
    run.then((result) => {
      this.removeListener('newListener', forward)
      this.rounds++
      this.emit('done', result)
      if (this.#stopped) this.resolve(result)
      else setImmediate(() => { if (this.#stopped) this.resolve(result); else this.#round() })
    }, (err) => {
      this.removeListener('newListener', forward)
      if (this.listenerCount('error') > 0) this.emit('error', err)
      this.reject(err)
    })
    return run
  }

  stop () {
    this.#stopped = true
    this.#current.stop()
  }

  then (onFulfilled, onRejected) { return this.#promise.then(onFulfilled, onRejected) }
  catch (onRejected) { return this.#promise.catch(onRejected) }
  finally (onFinally) { return this.#promise.finally(onFinally) }
}

/**
 * The instance of a run whose options were refused: an EventEmitter that
 * sends nothing. Without a callback it is also a promise that rejects with
 * the error (autocannon's), except with `forever` (autocannon's forever
 * instance is no promise). It emits 'error' on the next turn when someone
 * listens, as a LoadRun does for a failed run (autocannon emits it for a
 * forever instance only, and crashes the process when nobody listens).
 */
class RefusedRun extends EventEmitter {
  #promise

  /** @param {Error} err @param {{promise: boolean}} how */
  constructor (err, { promise }) {
    super()
    this.opts = undefined
    this.error = err
    if (promise) {
      this.#promise = Promise.reject(err)
      // as a LoadRun: awaiting is optional when the events are used
      this.#promise.catch(() => {})
    }
    setImmediate(() => { if (this.listenerCount('error') > 0) this.emit('error', err) })
  }

  stop () {}

  then (onFulfilled, onRejected) { return this.#promise === undefined ? undefined : this.#promise.then(onFulfilled, onRejected) }
  catch (onRejected) { return this.#promise === undefined ? undefined : this.#promise.catch(onRejected) }
  finally (onFinally) { return this.#promise === undefined ? undefined : this.#promise.finally(onFinally) }
}

/**
 * A run, or a ForeverRun with `forever`; invalid options throw (the CLI
 * turns them into a usage error before any work).
 * @param {object} options
 * @param {{endAtSample?: boolean}} [how] engine/index.js's load (load() below sets it; the CLI does not)
 */
function startRun (options, how) {
  return options?.forever ? new ForeverRun(options, how) : engine.load(options, how)
}

// autocannon's end, for code written for it: a paced run (overallRate,
// connectionRate) with an amount ends at the end of the sample in which its
// last request was due, so that N requests at R/s take N/R s, in whole
// samples of R requests (autocannon ends every run on a sample; `benchrig
// load` ends at the last response)
const API_RUN = Object.freeze({ endAtSample: true })

/**
 * autocannon throws when there are more connections than requests (each
 * connection sends at least one): so does this API, in autocannon's words,
 * when both are given (`benchrig load -c 10 -a 5` runs, the spare
 * connections sending nothing; autocannon also throws for its default 10
 * connections and amount < 10, which this does not).
 * @param {any} options
 */
function checkAmount (options) {
  if (options === null || typeof options !== 'object') return
  const { connections, amount } = options
  if (typeof connections === 'number' && typeof amount === 'number' && amount > 0 && connections > amount) {
    throw inAutocannonWords(new UsageError(`connections (${connections}) cannot be greater than amount (${amount}): each connection sends at least one request; lower connections or raise amount`))
  }
}

/**
 * Starts a load run (options: docs/load.md), as autocannon(opts[, cb]) does.
 * Invalid options are never thrown: with a callback they reach cb(err);
 * without one the returned instance is a promise that rejects with them (or,
 * with `forever`, an instance that emits 'error'). Their message is
 * autocannon's where it has one (words.js; `code` stays benchrig's). With
 * `forever`, a callback is itself an error (autocannon's rule: listen for
 * 'done', which fires after every round) and nothing is sent.
 * Three cases are autocannon's own, for code written for it:
 * - connections > amount (both given) is thrown, as autocannon's run throws it;
 * - a paced run with an amount ends at the end of its last sample
 *   (API_RUN: `overallRate: 10, amount: 40` lasts 4 s, four samples of 10);
 * - a target nothing answers calls back cb(null, result), the errors
 *   counted in the result (autocannon's callback); the instance, awaited,
 *   still rejects with BENCHRIG_ERR_UNREACHABLE, as `require('benchrig').load()`
 *   always has.
 * @param {object} options
 * @param {(err: Error|null, result?: object) => void} [cb]
 */
function load (options, cb) {
  const withCb = typeof cb === 'function'
  checkAmount(options)
  let run
  try {
    if (withCb && options?.forever === true) {
      throw new UsageError('load(options, cb): a callback cannot be used with forever: true, which never ends; listen for the \'done\' event, which fires after every round')
    }
    run = startRun(options, API_RUN)
  } catch (err) {
    inAutocannonWords(err)
    const refused = new RefusedRun(err, { promise: !withCb && options?.forever !== true })
    if (withCb) process.nextTick(cb, err)
    return refused
  }
  // autocannon's `debug`: every request error on the console
  if (options?.debug === true) run.on('reqError', (err) => console.error(err))
  if (withCb) {
    run.then((result) => cb(null, result), (err) => {
      // nothing answered: autocannon calls back with the result, its errors counted
      if (err?.code === 'BENCHRIG_ERR_UNREACHABLE' && err.result !== undefined) cb(null, err.result)
      else cb(inAutocannonWords(err), err?.result)
    })
  }
  return run
}

load.track = track
load.printResult = printResult
load.aggregateResult = aggregateResult
// autocannon's CLI entry points (load.parseArguments, load.start) are the CLI's:
// the package's index.js attaches them, as autocannon's root file does

module.exports = { load, startRun, ForeverRun, RefusedRun, track, printResult, aggregateResult }
