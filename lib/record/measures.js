'use strict'
// What a benchmark's rate counts: the measures, their units and labels, and the
// sentence every output prints for a measure other than wall. Node 18 APIs only.

/**
 * unit: what `time` holds (rate = operations / time); rateLabel: what `rate` is.
 * resolution: the smallest relative change (%) the measure can tell from its
 * own spread; below it a difference is never called faster or slower.
 */
const MEASURES = {
  wall: { unit: 'seconds', rateLabel: 'operations per second', shortLabel: 'ops/s', resolution: 0 },
  cpu: { unit: 'CPU seconds', rateLabel: 'operations per CPU-second, user + system', shortLabel: 'ops/CPU-s', resolution: 0 },
  // 0.01%: ten times the largest spread of two runs of one configuration
  // measured on buffers/ under valgrind with the deterministic V8 flags
  // (docs/compare.md, "Measures").
  instructions: { unit: '10^9 instructions', rateLabel: 'operations per 10^9 instructions', shortLabel: 'ops/10^9 instr', resolution: 0.01 },
  // The server's own cost in bench.http() runs: requests per CPU-second of
  // the benchmark's process (the server), user + system, over the load.
  'server-cpu': { unit: 'server CPU seconds', rateLabel: 'requests per server CPU-second, user + system', shortLabel: 'req/server-CPU-s', resolution: 0, http: true },
  // Bytes allocated on V8's heap in the section (bench.http: in the server
  // over the load), in MB of 10^6 bytes.
  heap: { unit: 'MB allocated', rateLabel: 'operations per MB allocated on the V8 heap', shortLabel: 'ops/MB', resolution: 0, http: true }
}

const MEASURE_NAMES = Object.keys(MEASURES)

/** @typedef {'wall'|'cpu'|'instructions'|'server-cpu'|'heap'} MeasureName */

/**
 * The measure a CSV cell or an option names; empty or missing means wall
 * (files written before the column existed).
 * @param {unknown} value
 * @returns {string}
 */
function measureName (value) {
  return value === undefined || value === null || value === '' ? 'wall' : String(value)
}

/**
 * The sentence every output prints above its figures when the measure is
 * not wall time (wall keeps Node core's output byte for byte).
 * @param {string} name
 */
function measureNote (name) {
  const m = MEASURES[measureName(name)]
  return `measure: ${measureName(name)} (rate = ${m.rateLabel})`
}

module.exports = { MEASURES, MEASURE_NAMES, measureName, measureNote }
