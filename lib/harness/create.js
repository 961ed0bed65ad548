'use strict'
// createBenchmark's decision: is this process a benchmark child (run main
// once with the conf from BENCHRIG_CONF) or a root (build the matrix from
// argv and fork a child per combination)? Validation errors of the root
// are reported like a failed child: file and message, no stack, exit 1.
// Runs inside the binary under test: Node 18 APIs only.
const path = require('node:path')
const { sendResult, markChild, isHarnessError } = require('./bench.js')
const { UsageError } = require('../errors.js')
const { decodeConf } = require('./args.js')
// The root's modules (argv, matrix, forking) load only in the root: every
// child pays for what it requires, once per configuration.

/**
 * The name a benchmark file reports: its path inside the benchmark
 * directory, "category/file.js" (forward slashes on every OS).
 * @param {string} file
 */
function benchmarkName (file) {
  return path.relative(path.dirname(path.dirname(file)), file).split(path.sep).join('/')
}

function mainFile () {
  return (require.main && require.main.filename) || path.resolve(process.argv[1] || 'benchmark.js')
}

/**
 * @param {typeof import('./bench.js').BenchmarkCore} BenchmarkClass
 * @param {(conf: object, bench?: object) => unknown} main
 * @param {object} configs
 * @param {object} [options]
 */
function createBenchmarkWith (BenchmarkClass, main, configs, options = {}) {
  const file = mainFile()
  const name = benchmarkName(file)

  if (process.env.BENCHRIG_CHILD === '1') {
    // Not inherited by processes the benchmark itself starts: they are roots.
    delete process.env.BENCHRIG_CHILD
    markChild()
    const conf = decodeConf(process.env.BENCHRIG_CONF || '{}')
    const extra = JSON.parse(process.env.BENCHRIG_EXTRA || '{}')
    // The measure of this child (--measure of the driver); not inherited by
    // the processes the benchmark starts (servers, generators).
    const measure = process.env.BENCHRIG_MEASURE || 'wall'
    const callgrindOut = process.env.BENCHRIG_CALLGRIND_OUT
    delete process.env.BENCHRIG_MEASURE
    delete process.env.BENCHRIG_CALLGRIND_OUT
    // the barrier (and node:crypto) only in a duet child: 3 ms of a child's start otherwise
    // lazy: only a duet child meets its peer (node:crypto otherwise not loaded)
    const duet = process.env.BENCHRIG_DUET ? require('./duet-barrier.js').parseDuet(process.env.BENCHRIG_DUET) : undefined
    delete process.env.BENCHRIG_DUET
    const bench = new BenchmarkClass({ name, conf, extra, measure, callgrindOut, duet })
    // --test / --test-all: bench.http shortens fixed load durations when it sees this.
    bench.testMode = process.env.BENCHRIG_MODE === 'test' || process.env.BENCHRIG_MODE === 'test-all'
    delete process.env.BENCHRIG_MODE
    process.nextTick(() => bench._runMain(main))
    return bench
  }

  const bench = new BenchmarkClass({ name, conf: {}, extra: {} })
  let plan
  let args
  try {
    if (typeof main !== 'function') throw new UsageError('createBenchmark(main, configs): main must be a function', 'BENCHRIG_ERR_BENCHMARK')
    if (options === null || typeof options !== 'object') throw new UsageError('createBenchmark(main, configs, options): options must be an object', 'BENCHRIG_ERR_BENCHMARK')
    // lazy: the parent and the child load different halves (a child's start-up)
    args = require('./args.js').parseBenchArgs(process.argv.slice(2))
    const groups = (process.env.NODE_RUN_BENCHMARK_GROUPS || '').split(',').map((g) => g.trim()).filter(Boolean)
    // lazy: only the parent builds the queue (a child's start-up)
    plan = require('./matrix.js').buildQueue({ configs, options, args, strict: process.env.BENCHRIG_STRICT === '1', groups })
  } catch (err) {
    if (!isHarnessError(err)) throw err
    process.exitCode = 1
    if (typeof process.send === 'function') {
      sendResult({ type: 'config', name, queueLength: 0 })
    }
    sendResult({ type: 'error', name, conf: null, message: err.message, code: err.code })
    return bench
  }
  /** @type {import('./bench.js').BenchmarkCore & {queue?: object[]}} */ (bench).queue = plan.queue
  for (const key of plan.unknown) warnUnknownKey(name, key, plan)
  if (plan.queue.length === 0) {
    // options.combinationFilter (with the key=value arguments) leaves nothing
    // to run: as under Node core's harness that is no failure, and the file
    // prints nothing; a driver hears of it as a queue of 0. By hand, one
    // note on stderr says why nothing ran.
    if (typeof process.send === 'function') sendResult({ type: 'config', name, queueLength: 0 })
    else process.stderr.write(`${name}: nothing to run: options.combinationFilter${args.pairs.length > 0 ? ' with the key=value arguments' : ''} leaves no configuration\n`)
    return bench
  }
  process.nextTick(() => {
    // lazy: only the parent runs the queue (a child's start-up)
    require('./root.js').runRoot({ file, name, queue: plan.queue, extra: plan.extra, flags: options.flags, setup: options.setup, mode: args.mode })
      .then((failures) => { if (failures > 0) process.exitCode = 1 })
  })
  return bench
}

/**
 * An undeclared key=value is passed through (Node core's extra_options) with
 * a warning naming the nearest declared key: to the driver over IPC (which
 * prints one per run), or on stderr when the file runs by hand.
 */
function warnUnknownKey (name, key, plan) {
  // lazy: the parent and the child load different halves (a child's start-up)
  const nearest = require('./args.js').nearestKey(key, plan.keys)
  const message = `${name} has no configuration key "${key}"${nearest ? ` (did you mean "${nearest}"?)` : ''}: ${key}=${plan.extra[key]} is passed through to the benchmark as Node core does (extra_options); --strict makes this an error`
  if (typeof process.send === 'function') sendResult({ type: 'warning', name, key, nearest, message })
  else process.stderr.write(`warning: ${message}\n`)
}

module.exports = { createBenchmarkWith, benchmarkName }
