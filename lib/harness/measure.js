'use strict'
// The check every driver runs on --measure before any work: the name, and that
// the machine can take it (valgrind for instructions, v8.GCProfiler for heap).
const { spawnSync } = require('node:child_process')
const { UsageError, ToolMissingError } = require('../errors.js')
const { MEASURES, MEASURE_NAMES, measureName } = require('../record/measures.js')

/**
 * Checks a --measure value (and, for instructions, that valgrind runs), so a
 * bad value stops a driver before any benchmark runs.
 * @param {string|undefined} raw
 * @param {{flag?: string, probe?: () => boolean, heapProbe?: () => boolean}} [opts]
 * @returns {import('../record/measures.js').MeasureName}
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
  return /** @type {import('../record/measures.js').MeasureName} */ (name)
}

function hasGcProfiler () {
  return typeof require('node:v8').GCProfiler === 'function' // lazy: only the gc measure asks for it
}

let valgrindPresent
function hasValgrind () {
  if (valgrindPresent === undefined) {
    valgrindPresent = !spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).error
  }
  return valgrindPresent
}

module.exports = { checkMeasure, hasValgrind }
