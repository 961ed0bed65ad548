'use strict'
// The clock of bench.start() .. bench.end(n), chosen once per child from its
// measure: `stop()` returns the amount the section took in the measure's
// unit (seconds, CPU seconds, 10^9 instructions), so that every measure
// reports rate = operations / amount the same way.
// Runs inside the binary under test: Node 18 APIs only.
const callgrind = require('./callgrind.js')

/**
 * @typedef {{start: () => void, stop: () => number, tick: number, what: string}} Meter
 *   tick: the amount reported for an empty section when zero is allowed
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
 * @param {string|undefined} measure wall (default) | cpu | instructions
 * @param {{callgrindOut?: string}} [opts] the dump prefix of instructions
 * @returns {Meter}
 */
function createMeter (measure, opts = {}) {
  if (measure === 'cpu') return cpuMeter()
  if (measure === 'instructions') return instructionsMeter(opts.callgrindOut)
  return wallMeter()
}

module.exports = { createMeter }
