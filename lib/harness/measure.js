'use strict'
// What a benchmark's rate counts: the measures, their units and labels, and
// the check every driver runs on --measure before any work. Shared by the
// drivers (run, compare, scatter), the root and the child of a benchmark
// file, and the analysis: Node 18 APIs only.
const { spawnSync } = require('node:child_process')
const { UsageError, ToolMissingError } = require('../errors.js')

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
 * Checks a --measure value (and, for instructions, that valgrind runs), so a
 * bad value stops a driver before any benchmark runs.
 * @param {string|undefined} raw
 * @param {{flag?: string, probe?: () => boolean, heapProbe?: () => boolean}} [opts]
 * @returns {MeasureName}
 */
function checkMeasure (raw, opts = {}) {
  const flag = opts.flag ?? '--measure'
  const name = measureName(raw)
  if (!Object.hasOwn(MEASURES, name)) {
    throw new UsageError(`${flag} ${raw}: use one of ${MEASURE_NAMES.join(', ')}`, 'BENCHRIG_ERR_MEASURE')
  }
  if (name === 'instructions' && !(opts.probe ?? hasValgrind)()) {
    throw new ToolMissingError('valgrind', `${flag} instructions runs each configuration under valgrind; install the Debian package "valgrind" (scripts/install-tools.sh) or use ${flag} cpu`)
  }
  if (name === 'heap' && !(opts.heapProbe ?? hasGcProfiler)()) {
    throw new UsageError(`${flag} heap counts allocations with v8.GCProfiler, which this node (${process.version}) lacks: use node >= 18.15`, 'BENCHRIG_ERR_MEASURE')
  }
  return /** @type {MeasureName} */ (name)
}

function hasGcProfiler () {
  return typeof require('node:v8').GCProfiler === 'function'
}

let valgrindPresent
function hasValgrind () {
  if (valgrindPresent === undefined) {
    valgrindPresent = !spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).error
  }
  return valgrindPresent
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

module.exports = { MEASURES, MEASURE_NAMES, measureName, checkMeasure, measureNote, hasValgrind }
