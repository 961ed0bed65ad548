'use strict'
// The root process of a node:bench file, run on the binary under test in
// place of the file itself (lib/harness/run-file.js picks it):
//
//   node lib/node-bench/root.js FILE [key=value ...] [--test]
//
// It runs the file once, in one child, through the binary's own runner when
// the binary has node:bench (`--experimental-bench --bench --bench-reporter=
// json --bench-samples=1 --bench-warmup=W`), and through ours (shim-cli.js)
// when it has not, then turns each `bench:complete` record into the report a
// createBenchmark file sends: {name: 'category/file.js', conf, rate, time}.
// One measured sample per benchmark and process, as everywhere in benchrig.
// Runs inside the binary under test: Node 18 APIs only.
const { spawn } = require('node:child_process')
const path = require('node:path')
const readline = require('node:readline')
const { parseBenchArgs } = require('../harness/args.js')
const { childFlags } = require('../harness/root.js')
const { sendResult, isHarnessError } = require('../harness/bench.js')
const { benchmarkName } = require('../harness/create.js')
const { UsageError } = require('../errors.js')
const { recordToReport, confOf, matches } = require('./records.js')

const SHIM = path.join(__dirname, 'shim-cli.js')
// Unreported samples before the measured one: one lets the JIT see the code
// once, as Node core's node:bench workflow passes --bench-warmup. BENCHRIG_
// BENCH_WARMUP changes it; --test runs none.
const DEFAULT_WARMUP = 1

/** Does this binary have node:bench? (The flag exists exactly when the module does.) */
function hasNativeBench (flags = process.allowedNodeEnvironmentFlags) {
  return Boolean(flags && flags.has('--experimental-bench'))
}

/**
 * Which runner: BENCHRIG_NODE_BENCH=native|ours|auto (default auto).
 * @returns {'native'|'ours'}
 */
function chooseRunner (env = process.env, native = hasNativeBench()) {
  const want = env.BENCHRIG_NODE_BENCH || 'auto'
  if (want === 'ours') return 'ours'
  if (want === 'native') {
    if (!native) throw new UsageError(`BENCHRIG_NODE_BENCH=native: node ${process.version} has no node:bench (Node 26.9+ has it); unset it to use benchrig's implementation`)
    return 'native'
  }
  if (want !== 'auto') throw new UsageError(`BENCHRIG_NODE_BENCH=${want}: use native, ours or auto`)
  return native ? 'native' : 'ours'
}

/** The argv of the child that runs the file. */
function runnerArgs (runner, file, warmup, flags) {
  if (runner === 'native') {
    // Isolation none: the file runs in this one child, as with ours, so a
    // --timeout kill ends it (with Node's default the file runs in a
    // grandchild that outlived the kill), and its stderr is not swallowed.
    return [...flags, '--experimental-bench', '--no-warnings', '--bench', '--bench-isolation=none',
      '--bench-reporter=json', '--bench-samples=1', `--bench-warmup=${warmup}`, '--', file]
  }
  return [...flags, SHIM, '--samples=1', `--warmup=${warmup}`, file]
}

/**
 * @param {object} msg
 * @returns {Promise<void>} once the message is handed to the parent
 */
function send (msg) {
  return new Promise((resolve) => sendResult(msg, resolve))
}

/**
 * @param {string[]} argv FILE then the benchmark arguments
 * @returns {Promise<number>} how many benchmarks failed
 */
async function runNodeBenchRoot (argv) {
  const file = path.resolve(argv[0] || '')
  const name = benchmarkName(file)
  const { pairs, mode } = parseBenchArgs(argv.slice(1))
  const runner = chooseRunner()
  const warmup = mode ? 0 : Number(process.env.BENCHRIG_BENCH_WARMUP ?? DEFAULT_WARMUP)
  if (!Number.isInteger(warmup) || warmup < 0) throw new UsageError(`BENCHRIG_BENCH_WARMUP=${process.env.BENCHRIG_BENCH_WARMUP}: give a whole number >= 0`)

  const child = spawn(process.execPath, runnerArgs(runner, file, warmup, childFlags(undefined)), {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  // BENCHRIG_TIMEOUT (seconds, run.js --timeout): the whole file's run, as
  // node:bench runs every benchmark of a file in one process.
  const limit = Number(process.env.BENCHRIG_TIMEOUT)
  let timedOut = false
  const timer = limit > 0
    ? setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, limit * 1000)
    : undefined
  const plans = []
  // Does the file declare more than one name? Known once the plans are in.
  let several = false
  let configSent = false
  let failures = 0
  let reports = 0
  const sendConfig = async () => {
    if (configSent) return
    configSent = true
    several = new Set(plans.map((p) => (p.namePath || [p.name]).join(' '))).size > 1
    const queueLength = plans.filter((p) => p.selected !== false && matches(confOf(p, several), pairs)).length
    if (typeof process.send === 'function') await send({ type: 'config', name, queueLength })
  }
  const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity })
  const closed = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })))
  const spawnFailed = new Promise((resolve) => child.on('error', resolve))

  for await (const line of lines) {
    let record
    try { record = line.startsWith('{"type":"bench:') ? JSON.parse(line) : undefined } catch { record = undefined }
    // The file's own console output is not ours to parse: pass it on.
    if (!record) { process.stderr.write(line + '\n'); continue }
    if (record.type === 'bench:plan') { plans.push(record.data); continue }
    if (record.type !== 'bench:complete') continue
    await sendConfig()
    const out = recordToReport(record.data, { name, several, pairs })
    if (!out) continue
    if (out.type === 'error') failures++
    else reports++
    await send(out)
  }
  const err = await Promise.race([closed.then(() => undefined), spawnFailed])
  await sendConfig()
  const { code, signal } = await closed
  clearTimeout(timer)
  if (err || ((code !== 0 || signal) && failures === 0) || (reports === 0 && failures === 0 && code === 0 && plans.length === 0)) {
    failures++
    let message
    if (err) message = `could not start ${process.execPath}: ${err.message}`
    else if (timedOut) message = `the node:bench run took longer than BENCHRIG_TIMEOUT=${limit} s (--timeout) and was killed`
    else if (signal) message = `the node:bench run was killed by ${signal}`
    else if (code !== 0) message = `the node:bench run exited with code ${code} (${runner === 'native' ? 'node --bench' : 'benchrig\'s node:bench'}); see its output above`
    else message = 'the file declared no benchmark: call bench(name, { params }, (b) => { b.start(); ...; b.end(n) })'
    await send({ type: 'error', name, conf: null, message })
  }
  return failures
}

module.exports = { runNodeBenchRoot, chooseRunner, hasNativeBench, runnerArgs, DEFAULT_WARMUP }

if (require.main === module) {
  runNodeBenchRoot(process.argv.slice(2)).then((failures) => {
    if (failures > 0) process.exitCode = 1
  }, (err) => {
    process.exitCode = isHarnessError(err) ? 2 : 1
    return send({ type: 'error', name: benchmarkName(path.resolve(process.argv[2] || '')), conf: null, message: isHarnessError(err) ? err.message : String((err && err.stack) || err), code: err && err.code })
  })
}
