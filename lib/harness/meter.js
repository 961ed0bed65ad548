'use strict'
// The clock of bench.start() .. bench.end(n), chosen once per child from its
// measure: `stop()` returns the amount the section took in the measure's
// unit (seconds, CPU seconds, 10^9 instructions), so that every measure
// reports rate = operations / amount the same way.
// Runs inside the binary under test: Node 18 APIs only.
const callgrind = require('./callgrind.js')
const { UsageError } = require('../errors.js')

/**
 * @typedef {{start: () => void, stop: () => number, tick: number, what: string,
 *   extra?: () => Record<string, number>}} Meter
 *   tick: the amount reported for an empty section when zero is allowed;
 *   extra: fields the report carries beside rate and time (after stop())
 */

/** @returns {Meter} */
function wallMeter () {
  let t0 = 0n
  return {
    tick: 1e-9,
    what: 'no time elapsed since bench.start() (clock too coarse)',
    start () { t0 = process.hrtime.bigint() },
    stop () { return Number(process.hrtime.bigint() - t0) / 1e9 }
  }
}

/** Process CPU time, user + system, in µs steps (process.cpuUsage). @returns {Meter} */
function cpuMeter () {
  let u0
  return {
    tick: 1e-6,
    what: 'no CPU time was used since bench.start() (CPU time is counted in µs steps)',
    start () { u0 = process.cpuUsage() },
    stop () {
      const d = process.cpuUsage(u0)
      return (d.user + d.system) / 1e6
    }
  }
}

/** Instructions counted by callgrind, in units of 10^9. @returns {Meter} */
function instructionsMeter (outPrefix) {
  return {
    tick: 1e-9,
    what: 'no instructions were counted since bench.start()',
    start () { callgrind.markStart(outPrefix) },
    stop () {
      callgrind.markEnd()
      return callgrind.readCount(outPrefix) / 1e9
    }
  }
}

/**
 * Bytes allocated on the V8 heap, in MB (10^6 bytes); the GC time and count
 * and the max RSS go with the report (heap-count.js).
 * @returns {Meter}
 */
function heapMeter () {
  // lazy: only measure=heap counts the heap (a child's start-up)
  const { startHeapCount, heapFields } = require('./heap-count.js')
  let stopCount
  /** @type {Record<string, number>} */
  let fields = {}
  return {
    tick: 1e-6,
    what: 'no bytes were allocated on the V8 heap since bench.start()',
    start () { stopCount = startHeapCount() },
    stop () {
      const c = stopCount()
      fields = heapFields(c)
      return c.bytes / 1e6
    },
    extra () { return fields }
  }
}

/**
 * server-cpu is the cost of a server under bench.http(); a section of a
 * benchmark's own has no server: refused at bench.start(), before the work.
 * @returns {Meter}
 */
function serverOnlyMeter () {
  const refuse = () => {
    throw new UsageError('bench.start(): --measure server-cpu counts the CPU time of the server that bench.http() loads; this benchmark measures its own section: use --measure cpu', 'BENCHRIG_ERR_MEASURE')
  }
  return { tick: 1e-6, what: '', start: refuse, stop: () => 0 }
}

/**
 * @param {string|undefined} measure wall (default) | cpu | instructions | heap | server-cpu
 * @param {{callgrindOut?: string}} [opts] the dump prefix of instructions
 * @returns {Meter}
 */
function createMeter (measure, opts = {}) {
  if (measure === 'cpu') return cpuMeter()
  if (measure === 'instructions') return instructionsMeter(opts.callgrindOut)
  if (measure === 'heap') return heapMeter()
  if (measure === 'server-cpu') return serverOnlyMeter()
  return wallMeter()
}

module.exports = { createMeter }
