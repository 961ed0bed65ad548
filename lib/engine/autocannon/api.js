'use strict'
// The public `load` of the package, shaped like autocannon's default export so
// that code written for autocannon runs with only the import changed:
//   load(opts)            -> a LoadRun (EventEmitter + thenable)
//   load(opts, cb)        -> the same, and cb(err, result) once it ends
//   load({forever: true}) -> runs again after every 'done' until stop()
//   load.track, load.printResult, load.aggregateResult
// The engine itself (lib/engine/index.js) knows nothing of callbacks or
// rounds; they live here so the engine's run stays one run.
const { EventEmitter } = require('node:events')
const engine = require('../index.js')
// loaded when called: `benchrig load` itself needs none of them
const track = (/** @type {Parameters<typeof import('./track.js').track>} */ ...args) => require('./track.js').track(...args)
const printResult = (/** @type {Parameters<typeof import('./print-result.js').printResult>} */ ...args) => require('./print-result.js').printResult(...args)
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

  constructor (options) {
    super()
    this.options = options
    const first = this.#round()
    this.opts = first.opts
    this.#promise = new Promise((resolve, reject) => { this.resolve = resolve; this.reject = reject })
    this.#promise.catch(() => {})
    this.rounds = 0
  }

  #round () {
    const run = engine.load(this.options)
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
 * Starts a load run (options: docs/load.md). With a callback, cb(err, result)
 * is called when the run ends, and invalid options reach cb instead of being
 * thrown (as autocannon does); without one, invalid options throw a
 * UsageError at once. With `forever`, cb is never called (autocannon's rule):
 * listen for 'done', which fires after every round.
 * @param {object} options
 * @param {(err: Error|null, result?: object) => void} [cb]
 */
function load (options, cb) {
  if (typeof cb !== 'function') return options?.forever ? new ForeverRun(options) : engine.load(options)
  let run
  try {
    run = options?.forever ? new ForeverRun(options) : engine.load(options)
  } catch (err) {
    const failed = new EventEmitter()
    setImmediate(() => cb(err))
    return failed
  }
  if (!options.forever) run.then((result) => cb(null, result), (err) => cb(err))
  return run
}

load.track = track
load.printResult = printResult
load.aggregateResult = aggregateResult

module.exports = { load, ForeverRun, track, printResult, aggregateResult }
