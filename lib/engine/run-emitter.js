'use strict'
// What a run started by load() is to its caller, whatever runs inside it (a
// LoadRun, a --scenarios run): an EventEmitter that is also awaitable
// (then/catch/finally). The body starts on the next turn, so listeners added
// right after load() hear every event; a failed run emits 'error' to those
// who listen for it and rejects.
const { EventEmitter } = require('node:events')

/**
 * @template [R=any] what the run resolves to
 */
class RunEmitter extends EventEmitter {
  /** @type {Promise<R>} */
  #promise

  /**
   * Starts the run's body on the next turn.
   * @param {() => Promise<R>} body
   */
  begin (body) {
    this.#promise = new Promise((resolve, reject) => {
      process.nextTick(() => body().then(resolve, (err) => {
        // event users hear of a failed run too, if they listen for it
        if (this.listenerCount('error') > 0) this.emit('error', err)
        reject(err)
      }))
    })
    // awaiting is optional: a run used through events must not leave an
    // unhandled rejection behind
    this.#promise.catch(() => {})
  }

  /**
   * @template [T=R]
   * @template [E=never]
   * @param {((result: R) => T | PromiseLike<T>) | null} [onFulfilled]
   * @param {((err: any) => E | PromiseLike<E>) | null} [onRejected]
   * @returns {Promise<T | E>}
   */
  then (onFulfilled, onRejected) { return this.#promise.then(onFulfilled, onRejected) }
  catch (onRejected) { return this.#promise.catch(onRejected) }
  finally (onFinally) { return this.#promise.finally(onFinally) }
}

module.exports = { RunEmitter }
