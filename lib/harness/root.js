'use strict'
// The root process of a benchmark file: forks one child per combination, one
// after another, forwards their reports (to the driver over IPC, or as text
// lines when run by hand), and keeps going when a child fails.
// Runs inside the binary under test: Node 18 APIs only.
const { fork } = require('node:child_process')
const { confToArgs, encodeConf } = require('./args.js')
const { sendResult, underForeignDriver } = require('./bench.js')
const { checkMeasure } = require('./measure.js')
const callgrind = require('./callgrind.js')

/**
 * Node flags for the children: options.flags, then BENCHRIG_FLAGS and Node
 * core's NODE_BENCHMARK_FLAGS (whitespace-separated), then the root's own execArgv.
 * @param {string[]|string|undefined} flags
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string[]} [execArgv]
 */
function childFlags (flags, env = process.env, execArgv = process.execArgv) {
  const split = (s) => (s || '').split(/\s+/).filter(Boolean)
  return [].concat(flags || [], split(env.BENCHRIG_FLAGS), split(env.NODE_BENCHMARK_FLAGS), execArgv)
}

/** Seconds one configuration may run: BENCHRIG_TIMEOUT, 300 when unset, 0 for no limit. */
const DEFAULT_TIMEOUT_S = 300
function configurationTimeout (value) {
  if (value === undefined || value === '') return DEFAULT_TIMEOUT_S
  const n = Number(value)
  return n > 0 ? n : 0
}

/**
 * @param {object} msg
 * @returns {Promise<void>} once the message is handed to the parent
 */
function sendAsync (msg) {
  return new Promise((resolve) => sendResult(msg, resolve))
}

/**
 * Runs one child for one combination.
 * @returns {Promise<{ok: boolean, signal: string|null}>} ok: the child reported a result;
 *   signal: what killed a child that did not (not our --timeout kill)
 */
function runChild ({ file, name, conf, extra, execArgv, mode, measure, dumpDir }) {
  return new Promise((resolve) => {
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...process.env, BENCHRIG_CHILD: '1', BENCHRIG_CONF: encodeConf(conf), BENCHRIG_EXTRA: JSON.stringify(extra), BENCHRIG_MEASURE: measure }
    if (mode) env.BENCHRIG_MODE = mode
    let program = { execPath: process.execPath, execArgv }
    if (measure === 'instructions') {
      env.BENCHRIG_CALLGRIND_OUT = `${dumpDir}/cg`
      const vg = callgrind.callgrindCommand({ nodePath: process.execPath, outPrefix: env.BENCHRIG_CALLGRIND_OUT })
      program = { execPath: vg.execPath, execArgv: [...vg.execArgv, ...execArgv] }
    }
    let child
    try {
      child = fork(file, confToArgs(conf, extra), { env, ...program, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] })
    } catch (err) {
      sendAsync({ type: 'error', name, conf, message: `could not start the child: ${err.message}` }).then(() => resolve({ ok: false, signal: null }))
      return
    }
    let reported = false
    let errored = false
    const pending = []
    // BENCHRIG_TIMEOUT (seconds; default 300, 0 = none): a child that neither
    // reports nor exits in time is killed and counted as failed, so one hung
    // configuration cannot stall a whole run.
    const limit = configurationTimeout(process.env.BENCHRIG_TIMEOUT)
    let timer
    if (limit > 0) {
      timer = setTimeout(() => {
        if (errored) return
        errored = true
        pending.push(sendAsync({ type: 'error', name, conf, message: `the configuration ran longer than ${limit} s and was killed (raise the limit with --timeout SECONDS, or --timeout 0 for none)` }))
        child.kill('SIGKILL')
      }, limit * 1000)
    }
    child.on('message', (/** @type {{type?: string}|null} */ msg) => {
      if (!msg || typeof msg !== 'object') return
      if (msg.type === 'report') reported = true
      else if (msg.type === 'error') errored = true
      else return
      pending.push(sendAsync(msg))
    })
    child.on('error', (err) => {
      if (errored) return
      errored = true
      pending.push(sendAsync({ type: 'error', name, conf, message: `could not run the child: ${err.message}` }))
    })
    let killedBy = null
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (!errored && (code !== 0 || !reported)) {
        errored = true
        killedBy = signal
        let message
        // Node core's common.js goes on after a child killed by a signal (a V8
        // abort, SIGTRAP, SIGKILL) and its run exits 0: under its drivers ours
        // does the same (runRoot), and says so
        if (signal) message = `the child was killed by ${signal}${underForeignDriver() ? ' (not counted in the exit code, as under Node core\'s common.js)' : ''}`
        else if (code !== 0) message = `the child exited with code ${code}`
        else message = 'the child exited without reporting a result: main() must call bench.start() and bench.end(n) (or bench.http())'
        pending.push(sendAsync({ type: 'error', name, conf, message }))
      }
      Promise.all(pending).then(() => resolve({ ok: reported && !errored, signal: killedBy }))
    })
  })
}

/**
 * Runs the queue of one benchmark file.
 * @param {{file: string, name: string, queue: object[], extra: Record<string,string>,
 *   flags?: string[]|string, setup?: (queue: object[]) => unknown, mode?: 'test'|'test-all'}} opts
 * @returns {Promise<number>} how many combinations failed
 */
async function runRoot ({ file, name, queue, extra, flags, setup, mode }) {
  if (typeof process.send === 'function') {
    await sendAsync({ type: 'config', name, queueLength: queue.length })
  }
  if (typeof setup === 'function') {
    try {
      await setup(queue.map((c) => ({ ...c })))
    } catch (err) {
      await sendAsync({ type: 'error', name, conf: null, message: `options.setup failed: ${err && err.stack ? err.stack : err}` })
      return queue.length || 1
    }
  }
  const execArgv = childFlags(flags)
  // BENCHRIG_MEASURE comes from the driver's --measure; test modes check that
  // a file runs, not what it costs, so they ignore it.
  let measure
  try {
    measure = mode ? 'wall' : checkMeasure(process.env.BENCHRIG_MEASURE, { flag: 'BENCHRIG_MEASURE' })
  } catch (err) {
    await sendAsync({ type: 'error', name, conf: null, message: err.message, code: err.code })
    return queue.length || 1
  }
  const dumpDir = measure === 'instructions' ? callgrind.makeDumpDir() : undefined
  let failures = 0
  try {
    for (const conf of queue) {
      const r = await runChild({ file, name, conf, extra, execArgv, mode, measure, dumpDir })
      // under a driver of Node core's shape, the exit code is its common.js's:
      // a child killed by a signal is not a failure there
      if (!r.ok && !(r.signal && underForeignDriver())) failures++
    }
  } finally {
    if (dumpDir) callgrind.removeDumpDir(dumpDir)
  }
  return failures
}

module.exports = { runRoot, childFlags, configurationTimeout, DEFAULT_TIMEOUT_S }
