'use strict'
// The child side of a benchmark: the `bench` object a benchmark's main()
// receives, with start/end on the measure's meter (hrtime.bigint for wall
// time, as in Node core) and Node core's checks, report(),
// and the reporting channel (IPC to the root, or a text line by hand).
// Runs inside the binary under test: Node 18 APIs only.
const { UsageError } = require('../errors.js')
const { formatNodeResultLine, formatExtraLine, formatErrorLine } = require('../record/text.js')
const { createMeter } = require('./meter.js')

const BENCH_ERR = 'BENCHRIG_ERR_BENCHMARK'
// How long a child may stay alive after it reported (open sockets, timers)
// before it is ended; the timer is unref'd, so a clean child exits at once.
const GRACE_MS = Number(process.env.BENCHRIG_GRACE_MS) || 1000
// lib/ never ends the process itself: common.js (the child's entry) installs
// the function that does, so the safety exit and the exit after a failure
// are decided in one visible place.
const state = { child: false, exit: (code) => { process.exitCode = code } }
// Set by our drivers (run-file.js), which print the errors they receive. Any
// other parent of a root (Node core's run.js, which reads only reports, or a
// script of the user's) would lose an error's text: the root writes it to
// stderr as well, as Node's own child writes its error there.
const DRIVER_PRINTS_ERRORS = process.env.BENCHRIG_DRIVER === '1'
delete process.env.BENCHRIG_DRIVER

/**
 * True in a root whose parent is not one of our drivers but a driver of Node
 * core's shape (its run.js or compare.js: forked over IPC, reads only reports):
 * there the root's exit code follows Node's common.js.
 */
function underForeignDriver () {
  return typeof process.send === 'function' && !DRIVER_PRINTS_ERRORS && !state.child
}

/** @param {(code: number) => void} fn ends this process with `code` */
function setExitHandler (fn) {
  state.exit = fn
  // a file run by hand whose reader closed stdout early (| head) ends quietly
  require('../closed-stdout.js').endOnClosedStdout(fn) // lazy: only a file run by hand needs it (a child's start-up)
}

/** Marks this process as a benchmark child (arms the safety exit after a report). */
function markChild () {
  state.child = true
}

function zeroAllowed () {
  return Boolean(process.env.BENCHRIG_ZERO_ALLOWED || process.env.NODEJS_BENCHMARK_ZERO_ALLOWED)
}

/**
 * Sends one message to the root over IPC, or prints it when the process runs
 * by hand. After a report, a child that is kept alive by open handles ends
 * itself after a short grace period.
 * @param {object} data a report `{name, conf, rate, time}` (type defaults to 'report') or an error
 * @param {() => void} [done]
 */
function sendResult (data, done) {
  const msg = { type: 'report', ...data }
  if (typeof process.send === 'function' && process.connected) {
    if (!state.child && !DRIVER_PRINTS_ERRORS) {
      if (msg.type === 'error') process.stderr.write(formatErrorLine(msg) + '\n')
      // Node core's common.js sends `time` as text, the nanoseconds as
      // seconds with nine decimals, and its run/compare/scatter.js print it
      // as they get it: the same text here keeps their CSV byte for byte.
      else if (typeof msg.time === 'number' && Number.isFinite(msg.time)) msg.time = msg.time.toFixed(9)
    }
    process.send(msg, () => {
      if (msg.type === 'report' && state.child) {
        setTimeout(() => state.exit(0), GRACE_MS).unref()
      }
      if (done) done()
    })
    return
  }
  if (msg.type === 'error') process.stderr.write(formatErrorLine(msg) + '\n')
  else {
    // Node core's common.js line, then our detail line for load-generator results
    const detail = formatExtraLine(msg)
    process.stdout.write(formatNodeResultLine(msg, 'hand') + '\n' + (detail ? detail + '\n' : ''))
  }
  if (done) process.nextTick(done)
}

/** True for errors raised by the harness's own checks: printed without a stack. */
function isHarnessError (err) {
  return Boolean(err && typeof err.code === 'string' && err.code.startsWith('BENCHRIG_ERR'))
}

/** Drops the harness's own frames: the user's code is what the stack should show. */
function trimStack (stack) {
  return stack.split('\n').filter((line) => !(/^\s+at /.test(line) && line.includes(__dirname))).join('\n')
}

class BenchmarkCore {
  /**
   * @param {{name: string, conf: object, extra?: Record<string,string>,
   *   measure?: string, callgrindOut?: string, duet?: {dir: string, side: string}}} init measure: wall (default) | cpu | instructions;
   *   duet: the barrier of compare --duet
   */
  constructor ({ name, conf, extra = {}, measure = 'wall', callgrindOut, duet }) {
    this.name = name
    this.conf = conf
    this.config = conf // Node core's name for it
    this.extra_options = extra // Node core's name: pass-through argv options
    this._started = false
    this._ended = false
    this._reported = false
    this._failed = false
    this.testMode = false // true in the children of --test / --test-all
    this.measure = measure
    this._meter = createMeter(measure, { callgrindOut })
    this._mainStart = process.hrtime.bigint()
    this._duet = duet // compare --duet: {dir, side} (duet-barrier.js)
  }

  /** Starts the measured section. */
  start () {
    if (this._started) throw new UsageError('bench.start() was called more than once: call it once, right before the measured loop', BENCH_ERR)
    this._started = true
    if (this._duet) {
      // lazy: only a duet child meets its peer (node:crypto otherwise not loaded)
      const { meetPeer, epochMs } = require('./duet-barrier.js')
      this._duetMet = meetPeer(this._duet, this.conf)
      this._sectionStart = epochMs()
      this._sectionCpu = process.cpuUsage()
    }
    this._meter.start() // last: nothing of the harness is measured
  }

  /**
   * Ends the measured section and reports `operations / amount`, the amount
   * in the measure's unit (seconds, CPU seconds or 10^9 instructions).
   * @param {number} operations how many operations ran between start() and end()
   */
  end (operations) {
    // Read the meter first, so the checks below do not count as work.
    let amount = this._meter.stop()
    if (!this._started) throw new UsageError('bench.end() was called without bench.start(): call bench.start() before the measured loop', BENCH_ERR)
    if (this._ended) throw new UsageError('bench.end() was called more than once: a benchmark reports one result per process', BENCH_ERR)
    if (typeof operations !== 'number' || Number.isNaN(operations)) {
      throw new UsageError(`bench.end(n) needs the number of operations, got ${Number.isNaN(operations) ? 'NaN' : operations === null ? 'null' : typeof operations}`, BENCH_ERR)
    }
    const zeroOk = zeroAllowed()
    if (!(operations > 0) && !(zeroOk && operations === 0)) {
      throw new UsageError(`bench.end(n) needs a positive operation count, got ${operations} (set BENCHRIG_ZERO_ALLOWED=1 to allow 0)`, BENCH_ERR)
    }
    this._ended = true
    if (!(amount > 0)) {
      if (!zeroOk) throw new UsageError(`bench.end(): ${this._meter.what}: raise n (or set BENCHRIG_ZERO_ALLOWED=1)`, BENCH_ERR)
      amount = this._meter.tick
    }
    /** @type {Record<string, unknown>|undefined} */
    let extra = this._meter.extra ? this._meter.extra() : undefined
    if (this._duet) extra = { ...extra, ...this._duetSection() }
    this._send(extra ? { rate: operations / amount, time: amount, extra } : { rate: operations / amount, time: amount })
  }

  /**
   * Reports a rate measured by other means (bench.http uses this).
   * @param {number} rate operations per second
   * @param {number|[number, number]|{time?: number, [k: string]: unknown}} [extra]
   *   seconds, a process.hrtime() pair (Node core's form), or extra fields; `extra.time` is the
   *   elapsed seconds of the measurement (default: since main started), `extra.benchmarker`
   *   becomes a conf key, every other field goes to the report's `extra`.
   */
  report (rate, extra) {
    // A caller that measured in this child's measure says so (bench.http
    // under server-cpu or heap: extra.measure); any other rate is wall time.
    const declared = extra && typeof extra === 'object' && !Array.isArray(extra) ? extra.measure : undefined
    if (this.measure !== 'wall' && declared !== this.measure) {
      throw new UsageError(`bench.report()/bench.http(): the rate comes from outside bench.start()/bench.end(n) (for HTTP, from a load generator in another process), so --measure ${this.measure} cannot count it; run this benchmark with --measure wall`, 'BENCHRIG_ERR_MEASURE')
    }
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0) {
      throw new UsageError(`bench.report(rate): rate must be a finite number >= 0, got ${rate}`, BENCH_ERR)
    }
    let time
    let fields = {}
    if (typeof extra === 'number') time = extra
    else if (Array.isArray(extra)) time = extra[0] + extra[1] / 1e9
    else if (extra && typeof extra === 'object') ({ time, ...fields } = extra)
    delete fields.measure
    if (typeof time !== 'number') time = Number(process.hrtime.bigint() - this._mainStart) / 1e9
    if (fields.benchmarker !== undefined) {
      this.conf.benchmarker = fields.benchmarker
    }
    const msg = { rate, time }
    if (Object.keys(fields).length > 0) msg.extra = fields
    this._send(msg)
  }

  // A duet side's measured section: when it ran (epoch ms) and the CPU
  // seconds this process got in it, read right after the meter stopped.
  _duetSection () {
    // lazy: only a duet child meets its peer (node:crypto otherwise not loaded)
    const { epochMs } = require('./duet-barrier.js')
    const end = epochMs()
    const cpu = process.cpuUsage(this._sectionCpu)
    return { section_start: this._sectionStart, section_end: end, section_cpu: (cpu.user + cpu.system) / 1e6, ...(this._duetMet ? {} : { barrier: 'timeout' }) }
  }

  _send (fields) {
    if (this._reported) throw new UsageError('this benchmark already reported a result: a benchmark reports one result per process', BENCH_ERR)
    this._reported = true
    sendResult({ type: 'report', name: this.name, conf: this.conf, ...fields })
  }

  /**
   * Reports a failure of this child and ends it with exit code 1.
   * @param {any} err whatever main threw or rejected with (any value)
   */
  _fail (err) {
    if (this._failed) return
    this._failed = true
    const message = isHarnessError(err)
      ? err.message
      : (err && err.stack) ? trimStack(String(err.stack)) : String(err)
    /** @type {{type: 'error', name: string, conf: object, message: string, code?: string}} */
    const msg = { type: 'error', name: this.name, conf: this.conf, message }
    if (isHarnessError(err)) msg.code = err.code
    sendResult(msg, () => state.exit(1))
  }

  /**
   * Runs main(conf) once, turning synchronous throws, a rejection of the
   * promise main returns and uncaught exceptions into one error report.
   * No 'unhandledRejection' handler: as under Node core's harness, node's
   * --unhandled-rejections mode decides (the default, throw, raises one as
   * an uncaught exception, which is reported here; a file that declares
   * flags: ['--unhandled-rejections=warn'] leaves its rejections unhandled
   * on purpose and must not fail).
   * @param {(conf: object) => unknown} main
   */
  _runMain (main) {
    const fail = (err) => this._fail(err)
    process.on('uncaughtException', fail)
    try {
      // a Promise from an async main: its rejection is this child's failure
      const r = /** @type {{then?: Function}|undefined} */ (main(this.conf))
      if (r && typeof r.then === 'function') r.then(null, fail)
    } catch (err) {
      fail(err)
    }
  }
}

module.exports = { BenchmarkCore, sendResult, markChild, setExitHandler, isHarnessError, zeroAllowed, underForeignDriver, GRACE_MS }
