'use strict'
// The driver side of the harness protocol: runs ONE benchmark file as run,
// compare and scatter do, and streams its messages as they arrive, so that
// results already measured are never lost when a later child fails.
const { fork, spawn } = require('node:child_process')
const path = require('node:path')
const { cpusetPrefix } = require('./cpuset.js')
const { isNodeBenchFile } = require('./node-bench-file.js')

// A node:bench file has no createBenchmark root of its own: this one runs it.
const NODE_BENCH_ROOT = path.join(__dirname, '..', 'node-bench', 'root.js')

/**
 * @typedef {{type: 'report', name: string, conf: object, rate: number, time: number, extra?: object}} Report
 * @typedef {{type: 'error', name: string, conf: object|null, message: string, code?: string}} ErrorReport
 * @typedef {{type: 'config', name: string, queueLength: number}} ConfigMessage
 * @typedef {{type: 'warning', name: string, key: string, nearest?: string, message: string}} WarningMessage
 */

/**
 * Forks a benchmark file's root process with `execPath` and streams its messages.
 * @param {object} opts
 * @param {string} opts.file absolute path of the benchmark file
 * @param {string} [opts.execPath] node binary under test (default: this node)
 * @param {string[]} [opts.args] `key=value` narrowings and --test / --test-all
 * @param {NodeJS.ProcessEnv} [opts.env] environment (default process.env); BENCHRIG_DRIVER_NODE is added
 * @param {string} [opts.cpuset] taskset CPU list for the root and its children
 * @param {string} [opts.cwd] working directory of the root (default this process's)
 * @param {string[]} [opts.execArgv] node options before the file (a compare side's own)
 * @param {import('../record/measures.js').MeasureName} [opts.measure] what the rates count (default wall);
 *   the one way every driver passes it (BENCHRIG_MEASURE to the root)
 * @param {(r: Report) => void} [opts.onReport]
 * @param {(e: ErrorReport) => void} [opts.onError]
 * @param {(c: ConfigMessage) => void} [opts.onConfig]
 * @param {(w: WarningMessage) => void} [opts.onWarning]
 *   an undeclared key=value passed through (see create.js)
 * @param {'old'|'new'} [opts.side] compare's side of this run, and
 * @param {number} [opts.pair] its pair (read by compare --cmd's runFile, lib/runners/run-command.js)
 * @param {NodeJS.WritableStream} [opts.output] where the processes' own stdout goes
 *   (default process.stderr, so that run.js's stdout holds only results)
 * @returns {Promise<{exitCode: number|null, signal: string|null, failures: number, reports: number}>}
 *   failures counts error messages, plus one when the root exited non-zero without any
 */
function runBenchmarkFile (opts) {
  const { file, execPath = process.execPath, args = [], cpuset, cwd, execArgv = [], onReport, onError, onConfig, onWarning } = opts
  const output = opts.output ?? process.stderr
  /** @type {NodeJS.ProcessEnv} */
  // BENCHRIG_DRIVER: this driver prints the errors it receives, so the root
  // does not write them to stderr a second time (bench.js)
  const env = { ...(opts.env ?? process.env), BENCHRIG_DRIVER_NODE: process.execPath, BENCHRIG_DRIVER: '1' }
  if (opts.measure !== undefined) env.BENCHRIG_MEASURE = opts.measure
  delete env.BENCHRIG_CHILD
  /** @type {import('node:child_process').StdioOptions} */
  const stdio = ['ignore', 'pipe', 'inherit', 'ipc']
  const [entry, ...entryArgs] = isNodeBenchFile(file) ? [NODE_BENCH_ROOT, file] : [file]
  return new Promise((resolve, reject) => {
    let child
    try {
      if (cpuset !== undefined) {
        const [cmd, ...prefix] = cpusetPrefix(cpuset)
        child = spawn(cmd, [...prefix, execPath, ...execArgv, entry, ...entryArgs, ...args], { cwd, env, stdio, serialization: 'json' })
      } else {
        child = fork(entry, [...entryArgs, ...args], { cwd, execPath, env, stdio, execArgv })
      }
    } catch (err) {
      reject(err)
      return
    }
    child.stdout.pipe(output, { end: false })
    let failures = 0
    let reports = 0
    let lastName = file
    // the root's messages, told apart by `type` (others are ignored)
    child.on('message', (/** @type {Report|ErrorReport|ConfigMessage|WarningMessage|null} */ msg) => {
      if (!msg || typeof msg !== 'object') return
      if (typeof msg.name === 'string') lastName = msg.name
      if (msg.type === 'report') {
        reports++
        if (onReport) onReport(msg)
      } else if (msg.type === 'error') {
        failures++
        if (onError) onError(msg)
      } else if (msg.type === 'config') {
        if (onConfig) onConfig(msg)
      } else if (msg.type === 'warning') {
        if (onWarning) onWarning(msg)
      }
    })
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if ((code !== 0 || signal) && failures === 0) {
        failures++
        const message = signal ? `the benchmark process was killed by ${signal}` : `the benchmark process exited with code ${code}`
        if (onError) onError({ type: 'error', name: lastName, conf: null, message })
      }
      resolve({ exitCode: code, signal, failures, reports })
    })
  })
}

module.exports = { runBenchmarkFile }
