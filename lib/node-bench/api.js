'use strict'
// benchrig's own implementation of the `node:bench` API (Node 26.9+), for
// binaries that lack the module (Node 18-24). A file written for node:bench
//
//   const { bench } = require('node:bench')
//   bench('name', { params: { len: 64 } }, (b) => { b.start(); ...; b.end(n) })
//
// declares its benchmarks here instead; lib/node-bench/run-declared.js runs
// them and prints the records Node's `--bench-reporter=json` prints, so the
// driver reads both the same way. The surface is what benchmark files use:
// bench, suite/describe (nested), before/after (per suite), beforeEach/
// afterEach (per benchmark), skip/only, and the context's start/end/record/
// done/diagnostic with Node's checks (end(operations) takes an integer >= 1;
// start/end or record, once per sample). Not here: tags, diagnostic
// channels, timeouts and the programmatic run/runFile/createRunner.
// Runs inside the binary under test: Node 18 APIs only.

const DEFAULT_SAMPLES = 30
const DEFAULT_WARMUP = 0

class NodeBenchError extends Error {
  constructor (message, code = 'ERR_INVALID_STATE') {
    super(message)
    this.name = 'NodeBenchError'
    this.code = code
  }
}

/** Node canonicalizes params: sorted keys, finite numbers, strings or booleans. */
function canonicalParams (params) {
  if (params === undefined) return Object.freeze({})
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new NodeBenchError('options.params must be an object', 'ERR_INVALID_ARG_TYPE')
  }
  const out = {}
  for (const key of Object.keys(params).sort()) {
    const v = params[key]
    const ok = typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
    if (!ok) throw new NodeBenchError(`options.params.${key} must be a string, a finite number or a boolean`, 'ERR_INVALID_ARG_TYPE')
    out[key] = v
  }
  return Object.freeze(out)
}

/** bench(fn) | bench(options, fn) | bench(name, fn) | bench(name, options, fn), as Node accepts. */
function normalizeArgs (kind, name, options, fn) {
  if (typeof name === 'function') {
    fn = name
    name = fn.name || '<anonymous>'
    options = {}
  } else if (name !== null && typeof name === 'object') {
    fn = options
    options = name
    name = (fn && fn.name) || '<anonymous>'
  } else if (typeof options === 'function') {
    fn = options
    options = {}
  }
  if (typeof fn !== 'function') throw new NodeBenchError(`the ${kind} function must be a function`, 'ERR_INVALID_ARG_TYPE')
  if (typeof name !== 'string' || name.length === 0) throw new NodeBenchError(`the ${kind} name must be a non-empty string`, 'ERR_INVALID_ARG_VALUE')
  if (options === null || typeof options !== 'object') throw new NodeBenchError('options must be an object', 'ERR_INVALID_ARG_TYPE')
  return { name, options: options || {}, fn }
}

function checkCount (value, what, min, max = 0xffffffff) {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new NodeBenchError(`The value of "${what}" is out of range. It must be an integer >= ${min} && <= ${max}. Received ${value}`, 'ERR_OUT_OF_RANGE')
  }
}

/**
 * The context a benchmark function receives for one sample.
 * Node's rule: start() then end(operations), or record(sample), once each.
 */
class BenchContext {
  #phase
  #index
  #startTime = null
  #sample = null
  #recorded = false
  #ended = false
  #closed = false
  #done = false

  constructor (benchmark, phase, index, signal) {
    this.name = benchmark.name
    this.params = benchmark.params
    this.signal = signal
    this.#phase = phase
    this.#index = index
  }

  get phase () { return this.#phase }
  get index () { return this.#index }

  #active () {
    if (this.#closed) throw new NodeBenchError('benchmark sample is no longer active')
  }

  start () {
    this.#active()
    if (this.#recorded) throw new NodeBenchError('start() cannot be combined with record()')
    if (this.#startTime !== null) throw new NodeBenchError('start() must be called exactly once per benchmark sample')
    this.#startTime = process.hrtime.bigint()
  }

  end (operations, options = {}) {
    const endTime = process.hrtime.bigint()
    this.#active()
    if (this.#recorded) throw new NodeBenchError('end() cannot be combined with record()')
    if (this.#ended) throw new NodeBenchError('end() must be called exactly once per benchmark sample')
    this.#ended = true
    if (this.#startTime === null) throw new NodeBenchError('end() cannot be called before start()')
    checkCount(operations, 'operations', 1, Number.MAX_SAFE_INTEGER)
    const duration = endTime - this.#startTime
    if (duration === 0n) throw new NodeBenchError('insufficient clock precision for benchmark sample')
    this.#sample = makeSample(operations, duration, options && options.detail)
    return { ...this.#sample }
  }

  record (sample) {
    this.#active()
    if (this.#recorded) throw new NodeBenchError('record() must be called exactly once per benchmark sample')
    if (this.#startTime !== null || this.#ended) throw new NodeBenchError('record() cannot be combined with start() or end()')
    this.#recorded = true
    if (sample === null || typeof sample !== 'object') throw new NodeBenchError('sample must be an object', 'ERR_INVALID_ARG_TYPE')
    checkCount(sample.operations, 'sample.operations', 1, Number.MAX_SAFE_INTEGER)
    if (typeof sample.duration_ns !== 'bigint' || sample.duration_ns <= 0n) {
      throw new NodeBenchError('sample.duration_ns must be a positive bigint', 'ERR_OUT_OF_RANGE')
    }
    this.#sample = makeSample(sample.operations, sample.duration_ns, sample.detail)
    return { ...this.#sample }
  }

  /** Ends the measured samples early (the samples so far count). */
  done () {
    this.#active()
    if (this.#phase !== 'measurement') throw new NodeBenchError('done() can only be called during a measured sample')
    this.#done = true
  }

  /** Node reports these as records; a plain runner has nowhere to show them, so they are kept off the result. */
  diagnostic () {
    this.#active()
  }

  /** @returns {{sample: object, done: boolean}} */
  finish () {
    this.#closed = true
    if (!this.#recorded && this.#startTime === null) throw new NodeBenchError('benchmark callback did not call start() or record()')
    if (!this.#sample) throw new NodeBenchError('benchmark callback did not call end()')
    return { sample: this.#sample, done: this.#done }
  }
}

function makeSample (operations, durationNs, detail) {
  const sample = { operations, duration_ns: durationNs, rate: operations / (Number(durationNs) / 1e9) }
  if (detail !== undefined) sample.detail = detail
  return sample
}

/**
 * A fresh declaration tree with the functions a file calls. The root suite
 * collects benchmarks and suites in declaration order.
 */
function createHarness () {
  const root = { kind: 'suite', name: '', parent: null, children: [], hooks: { before: [], after: [], beforeEach: [], afterEach: [] }, skip: false, only: false, namePath: [] }
  let current = root
  const pending = []

  function declareBench (name, options, fn, overrides) {
    const a = normalizeArgs('benchmark', name, options, fn)
    const opts = { ...a.options, ...overrides }
    const samples = opts.samples === undefined ? DEFAULT_SAMPLES : opts.samples
    const warmup = opts.warmup === undefined ? DEFAULT_WARMUP : opts.warmup
    checkCount(samples, 'options.samples', 1)
    checkCount(warmup, 'options.warmup', 0)
    const namePath = [...current.namePath, a.name]
    current.children.push({
      kind: 'bench',
      name: a.name,
      fullName: namePath.join(' '),
      namePath,
      parent: current,
      fn: a.fn,
      params: canonicalParams(opts.params),
      samples,
      warmup,
      skip: opts.skip,
      only: Boolean(opts.only)
    })
  }

  function declareSuite (name, options, fn, overrides) {
    const a = normalizeArgs('suite', name, options, fn)
    const opts = { ...a.options, ...overrides }
    const suite = {
      kind: 'suite',
      name: a.name,
      parent: current,
      children: [],
      hooks: { before: [], after: [], beforeEach: [], afterEach: [] },
      skip: opts.skip,
      only: Boolean(opts.only),
      namePath: [...current.namePath, a.name]
    }
    current.children.push(suite)
    const outer = current
    current = suite
    try {
      const r = a.fn()
      // An async suite body declares its children before its first await
      // resolves; wait for it so that late declarations are not lost.
      if (r && typeof r.then === 'function') pending.push(r)
    } finally {
      current = outer
    }
  }

  function hook (kind) {
    return (fn) => {
      if (typeof fn !== 'function') throw new NodeBenchError(`${kind}(fn): fn must be a function`, 'ERR_INVALID_ARG_TYPE')
      current.hooks[kind].push(fn)
    }
  }

  const bench = (name, options, fn) => declareBench(name, options, fn, {})
  bench.skip = (name, options, fn) => declareBench(name, options, fn, { skip: true })
  bench.only = (name, options, fn) => declareBench(name, options, fn, { only: true })
  const suite = (name, options, fn) => declareSuite(name, options, fn, {})
  suite.skip = (name, options, fn) => declareSuite(name, options, fn, { skip: true })
  suite.only = (name, options, fn) => declareSuite(name, options, fn, { only: true })

  const api = bench
  Object.assign(api, {
    bench,
    suite,
    describe: suite,
    before: hook('before'),
    after: hook('after'),
    beforeEach: hook('beforeEach'),
    afterEach: hook('afterEach')
  })
  return { api, root, settled: () => Promise.all(pending) }
}

module.exports = { createHarness, BenchContext, NodeBenchError, canonicalParams }
