'use strict'
// --measure instructions: each configuration's child runs under
// `valgrind --tool=callgrind --instr-atstart=no`, and the count covers
// bench.start() .. bench.end(n) only.
// Start-up: callgrind does not instrument node's start-up at all (measured on
// this machine, `node -e 0`: 10.3 CPU-s with instrumentation from the start,
// 3.1 CPU-s without). Node cannot issue valgrind's client requests, so
// bench.start() switches instrumentation on through valgrind's gdbserver:
// the child starts `vgdb ... instrumentation on` on its own pid and waits,
// checking every millisecond, until vgdb has exited. vgdb is told never to
// use ptrace (--max-invoke-ms=0): the waiting child keeps running basic
// blocks between naps and so reaches valgrind's poll of the gdbserver (every
// 5000 blocks), so no ptrace permission is needed.
// The section: node and V8 never call these two libc functions on their own,
// and callgrind acts on entry to them:
//   bench.start(): process.getgroups()  -> getgroups(),   --zero-before: counters to 0
//   bench.end(n):  os.getPriority()     -> getpriority(), --dump-before: counters to a file
// The child then reads the newest dump of its pid. Instrumentation is left on
// after the dump: what follows (reporting, exit) never enters the figure, and
// a second vgdb round trip would cost more than instrumenting node's exit.
// Measured against the other way (two runs, at n and at a small n0,
// subtracted): one valgrind start-up per configuration instead of two, and
// node's start-up never enters the figure (docs/compare.md, "Measures").
// Root side (command line) and child side (switching on, reading the dump):
// Node 18 APIs only.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { UsageError, RunError } = require('../errors.js')

const NOT_UNDER = 'the child is not running under valgrind: --measure instructions is set by run.js/compare.js/scatter.js (BENCHRIG_MEASURE), which start each configuration under callgrind'
const START_MARK = 'getgroups'
const END_MARK = 'getpriority'

/**
 * V8 flags that make the JIT's and the GC's work the same in every run. The
 * smallest set, by measurement (2e5 Buffer#toString, the section only, three
 * runs each; docs/compare.md "Measures"): none 0.54% spread; --single-threaded
 * 0.044%; --predictable 0.0012%; both 0.0011%. --predictable keeps
 * compilation and GC on the main thread, in a fixed order, where they are
 * counted with the benchmark's own work (as they are paid for in wall time).
 * Measured and left out: fixed seeds (--hash-seed=1 --random-seed=1) and a
 * full collection before the zero mark; each made some configurations
 * bimodal (buffer-tostring ucs2 len=64 n=2000: 272,634 / 280,605 / 272,633
 * ops/10^9 instructions with both, 282,636.3 / .46 / .3 / .46 without).
 */
const DETERMINISTIC_FLAGS = ['--predictable']

/** The gdbserver FIFOs of one dump prefix (valgrind's default, /tmp, is shared by every user). */
function vgdbPrefix (outPrefix) {
  return `${outPrefix}-vgdb`
}

/**
 * The program and arguments that run `node [nodeArgs] file` under callgrind.
 * @param {{nodePath: string, outPrefix: string}} opts outPrefix: dump file prefix
 * @returns {{execPath: string, execArgv: string[]}} for child_process.fork
 */
function callgrindCommand ({ nodePath, outPrefix }) {
  return {
    execPath: 'valgrind',
    execArgv: [
      '--tool=callgrind',
      '-q',
      '--instr-atstart=no',
      '--vgdb=yes',
      `--vgdb-prefix=${vgdbPrefix(outPrefix)}`,
      `--callgrind-out-file=${outPrefix}.%p`,
      `--zero-before=${START_MARK}`,
      `--dump-before=${END_MARK}`,
      nodePath,
      ...DETERMINISTIC_FLAGS
    ]
  }
}

/** A fresh folder for one root's dump files (removed by removeDumpDir). */
function makeDumpDir () {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-callgrind-'))
}

/** @param {string} dir */
function removeDumpDir (dir) {
  fs.rmSync(dir, { recursive: true, force: true })
}

// vgdb's exit status goes to a file written last (rename), so the spinning
// child never reads half of it.
const SWITCH_ON = 'vgdb --vgdb-prefix="$1" --max-invoke-ms=0 --pid="$2" instrumentation on >/dev/null 2>&1; echo $? > "$3.tmp" && mv "$3.tmp" "$3"'

/**
 * Child side: switches callgrind's instrumentation on and waits for it. The
 * wait polls (a child blocked for good would never serve vgdb without ptrace); it ends
 * on vgdb's exit, and after `limitMs` with an error rather than a hang.
 * @param {string|undefined} outPrefix BENCHRIG_CALLGRIND_OUT
 * @param {{limitMs?: number, now?: () => number}} [opts]
 */
function switchOn (outPrefix, { limitMs = 120e3, now = Date.now } = {}) {
  if (!outPrefix) throw new UsageError(`bench.start(): ${NOT_UNDER}`, 'BENCHRIG_ERR_MEASURE')
  const done = `${outPrefix}.${process.pid}.on`
  const helper = spawn('sh', ['-c', SWITCH_ON, 'sh', vgdbPrefix(outPrefix), String(process.pid), done], { stdio: 'ignore' })
  helper.on('error', () => {}) // no sh: the deadline below reports it
  const deadline = now() + limitMs
  // 1 ms naps between checks leave the CPU to vgdb; each wake-up runs a few
  // hundred basic blocks, enough for valgrind to reach its gdbserver poll.
  const nap = new Int32Array(new SharedArrayBuffer(4))
  while (!fs.existsSync(done)) {
    Atomics.wait(nap, 0, 0, 1)
    if (now() > deadline) {
      helper.kill()
      throw new RunError(`bench.start(): callgrind's instrumentation was not switched on within ${limitMs / 1000} s (vgdb --pid=${process.pid} instrumentation on did not finish); is vgdb (Debian package "valgrind") installed?`, 'BENCHRIG_ERR_MEASURE')
    }
  }
  const status = fs.readFileSync(done, 'utf8').trim()
  if (status !== '0') throw new RunError(`bench.start(): vgdb --pid=${process.pid} instrumentation on failed (exit status ${status}): the child is not running under callgrind with --vgdb=yes`, 'BENCHRIG_ERR_MEASURE')
}

/**
 * Child side: switches instrumentation on, then marks the start of the
 * measured section (callgrind zeroes its counters, dropping the wait).
 * @param {string|undefined} outPrefix
 */
function markStart (outPrefix) {
  switchOn(outPrefix)
  process.getgroups()
}

/** Child side: marks the end (callgrind writes a dump before getpriority runs). */
function markEnd () {
  os.getPriority()
}

/**
 * Child side: the instruction count of the newest dump this process wrote.
 * @param {string|undefined} outPrefix BENCHRIG_CALLGRIND_OUT
 * @param {number} [pid]
 * @returns {number}
 */
function readCount (outPrefix, pid = process.pid) {
  const notUnder = NOT_UNDER
  if (!outPrefix) throw new UsageError(`bench.end(): ${notUnder}`, 'BENCHRIG_ERR_MEASURE')
  const dir = path.dirname(outPrefix)
  const base = `${path.basename(outPrefix)}.${pid}.`
  let newest
  let part = -1
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(base)) continue
    const k = Number(name.slice(base.length))
    if (Number.isInteger(k) && k > part) {
      part = k
      newest = name
    }
  }
  if (newest === undefined) throw new UsageError(`bench.end(): no callgrind dump found in ${dir}: ${notUnder}`, 'BENCHRIG_ERR_MEASURE')
  const text = fs.readFileSync(path.join(dir, newest), 'utf8')
  const m = /^summary:\s*(\d+)/m.exec(text)
  if (!m) throw new UsageError(`bench.end(): the callgrind dump ${newest} has no summary line`, 'BENCHRIG_ERR_MEASURE')
  return Number(m[1])
}

module.exports = { callgrindCommand, makeDumpDir, removeDumpDir, switchOn, markStart, markEnd, readCount, DETERMINISTIC_FLAGS, START_MARK, END_MARK }
