'use strict'
// The analysis of near-deterministic measures (instruction counts): with a
// spread of 0.001% between runs, a rank test's floor and its ties decide
// everything (a signed-rank test cannot reach p < .05 with fewer than 6
// pairs, whatever the size of the change, and identical counts are ties),
// so such rows get
//   1. a paired t-test on the log ratios log(new/old): a CI of the mean log
//      ratio that shrinks with the spread, not with the number of pairs; with
//      zero spread the CI is the point itself;
//   2. a floor: a change whose size is below the measure's resolution (or
//      --min-effect) is "no change", however significant: identical
//      binaries differ by a few hundred instructions in 10^8 (argv, env).
// Its A/A rate is proven by the seeded simulation in
// test/stats/near-deterministic.test.js. Pure functions.
const { mean, sd } = require('./descriptive.js')
const { tTail, tQuantile } = require('./distributions.js')
const { UsageError } = require('../errors.js')
const { MEASURES, measureName } = require('../record/measures.js')

/**
 * Paired t-test on log ratios.
 * @param {number[]} d log(new/old) per pair, at least 2
 * @param {{confLevel?: number}} [opts]
 * @returns {{estimate: number, ci: [number, number], p: number, confLevel: number}} estimate and ci on the
 *   log scale; confLevel: the level of the t interval (the one asked)
 */
function pairedLogT (d, { confLevel = 0.95 } = {}) {
  const n = d.length
  if (n < 2) return { estimate: NaN, ci: [NaN, NaN], p: NaN, confLevel }
  const m = mean(d)
  const s = sd(d)
  if (!(s > 0)) return { estimate: m, ci: [m, m], p: m === 0 ? 1 : 0, confLevel }
  const se = s / Math.sqrt(n)
  const half = tQuantile(1 - (1 - confLevel) / 2, n - 1) * se
  return { estimate: m, ci: [m - half, m + half], p: Math.min(1, 2 * tTail(Math.abs(m / se), n - 1)), confLevel }
}

/**
 * The paired test for a measure, or undefined for the rank default.
 * @param {string} measure
 * @returns {{method: 'paired-t-log', test: typeof pairedLogT}|undefined}
 */
function pairedTestFor (measure) {
  return measure === 'instructions' ? { method: 'paired-t-log', test: pairedLogT } : undefined
}

/**
 * The one measure of a set of rows ("" counts as wall); rows of different
 * measures are never compared with each other.
 * @param {{measure?: string}[]} rows
 * @returns {string}
 */
function measureOfRows (rows) {
  const seen = new Set(rows.map((r) => measureName(r.measure)))
  if (seen.size > 1) {
    throw new UsageError(`the rows hold more than one measure (${[...seen].join(', ')}): a rate of one cannot be compared with another; analyse each apart (keep the rows of one value of the "measure" column)`, 'BENCHRIG_ERR_MEASURE')
  }
  const name = seen.size === 1 ? [...seen][0] : 'wall'
  if (!Object.hasOwn(MEASURES, name)) {
    throw new UsageError(`unknown measure "${name}" in the "measure" column: expected one of ${Object.keys(MEASURES).join(', ')}`, 'BENCHRIG_ERR_MEASURE')
  }
  return name
}

/**
 * The smallest change (%) that may be called faster or slower.
 * @param {string} measure
 * @param {number} [minEffect] --min-effect
 */
function effectFloor (measure, minEffect) {
  return minEffect ?? MEASURES[measure].resolution
}

/**
 * Applies the floor to a verdict: below it a significant change is "no change".
 * @template {string} V
 * @param {V} verdict
 * @param {number} change %
 * @param {number} floor %
 * @returns {V | 'no change'}
 */
function applyFloor (verdict, change, floor) {
  if ((verdict === 'faster' || verdict === 'slower') && Math.abs(change) < floor) return 'no change'
  return verdict
}

/**
 * Drops the warnings that speak of the rank test's floor when the paired
 * t-test decided: its CI narrows with the spread, not with the pair count.
 * @template {{kind: string}} W
 * @param {W[]} warnings
 * @param {string} method
 * @returns {W[]}
 */
function warningsForMethod (warnings, method) {
  return method === 'paired-t-log' ? warnings.filter((w) => w.kind !== 'too-few-runs') : warnings
}

module.exports = { warningsForMethod, pairedLogT, pairedTestFor, measureOfRows, effectFloor, applyFloor }
