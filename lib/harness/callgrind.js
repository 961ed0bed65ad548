'use strict'
// --measure instructions: each configuration's child runs under
// `valgrind --tool=callgrind`, and the count covers bench.start() .. bench.end(n)
// only. Node has no valgrind client requests, so the child marks the section
// with two libc calls that node and V8 never make on their own, and callgrind
// acts on entry to them:
//   bench.start(): process.getgroups()  -> getgroups(),   --zero-before: counters to 0
//   bench.end(n):  os.getPriority()     -> getpriority(), --dump-before: counters to a file
// The child then reads the newest dump of its pid. Measured against the other
// way (two runs, at n and at a small n0, subtracted): one valgrind start-up
// per configuration instead of two, and node's start-up (+-0.5% of ~770M
// instructions without the flags below) never enters the figure
// (docs/compare.md, "Measures").
// Root side (command line) and child side (reading the dump): Node 18 APIs only.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { UsageError } = require('../errors.js')

const START_MARK = 'getgroups'
const END_MARK = 'getpriority'

/**
 * V8 flags that make the JIT's and the GC's work the same in every run. The
 * smallest set, by measurement (2e5 Buffer#toString, the section only, three
 * runs each; docs/compare.md "Measures"): none 0.54% spread; --single-threaded
 * 0.044%; --predictable 0.0012%; both 0.0011%. --predictable keeps
 * compilation and GC on the main thread, in a fixed order, where they are
 * counted with the benchmark's own work (as they are paid for in wall time).
 */
const DETERMINISTIC_FLAGS = ['--predictable']

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

/** Child side: marks the start of the measured section (callgrind zeroes its counters). */
function markStart () {
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
  const notUnder = 'the child is not running under valgrind: --measure instructions is set by run.js/compare.js/scatter.js (BENCHRIG_MEASURE), which start each configuration under callgrind'
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

module.exports = { callgrindCommand, makeDumpDir, removeDumpDir, markStart, markEnd, readCount, DETERMINISTIC_FLAGS, START_MARK, END_MARK }
