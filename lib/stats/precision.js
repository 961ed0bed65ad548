'use strict'
// The measure of precision, pure over ratios; lib/compare/auto.js is the --runs auto
// driver that plans pairs from it, and the "needs ~N more pairs" hint reads it too.
// Precision of a configuration measured blind to the sign and the location
// of its ratios: the spread of the log ratios around their own median. Both
// `--runs auto` (when to stop) and the "needs ~N more pairs" hint read it.
//
// Why not the width of the rank interval itself: that width is a range of
// Walsh averages, and for given magnitudes |log ratio| it is narrowest when
// all ratios fall on one side of 0, which is exactly when the test is
// significant. A rule that stops (or says "enough") when that width is small
// peeks at the result. The median absolute deviation around the median does
// not change when every ratio is shifted or mirrored, so a stop based on it
// says nothing about where the ratios lie.
const { median } = require('./descriptive.js')
const { tQuantile, normQuantile } = require('./distributions.js')

// MAD -> SD of a normal distribution.
const MAD_TO_SD = 1.4826
// Efficiency of the Hodges-Lehmann interval relative to the mean's at the
// normal: its half-width is sqrt(pi/3) times the t interval's.
const HL_FACTOR = Math.sqrt(Math.PI / 3)

// t quantiles by (level, df): the searches below ask for the same ones often.
const tCache = new Map()
function tq (confLevel, df) {
  const key = `${confLevel}:${df}`
  let v = tCache.get(key)
  if (v === undefined) {
    v = tQuantile(1 - (1 - confLevel) / 2, df)
    if (tCache.size < 10000) tCache.set(key, v)
  }
  return v
}

/** Robust scale of xs around their own median (SD units); NaN below 2 values. @param {number[]} xs */
function robustScale (xs) {
  if (xs.length < 2) return NaN
  const m = median(xs)
  return MAD_TO_SD * median(xs.map((x) => Math.abs(x - m)))
}

/**
 * The predicted half-width, on the log scale, of the rank interval of a
 * location from n values of scale s, at a two-sided level.
 * @param {number} s
 * @param {number} n
 * @param {number} [confLevel]
 */
function predictedHalfWidth (s, n, confLevel = 0.95) {
  if (!(n >= 2)) return Infinity
  return tq(confLevel, n - 1) * HL_FACTOR * s / Math.sqrt(n)
}

/**
 * Scale per pair and predicted half-width of one configuration: paired
 * (log ratios) or not (log rates of each binary; the scale is then that of
 * a difference of one old and one new run).
 * @param {{logRatios?: number[], logOld?: number[], logNew?: number[]}} g
 * @param {number} [confLevel]
 * @returns {{n: number, scale: number, halfWidth: number}}
 */
function precisionOf (g, confLevel = 0.95) {
  if (g.logRatios) {
    const n = g.logRatios.length
    const scale = robustScale(g.logRatios)
    return { n, scale, halfWidth: predictedHalfWidth(scale, n, confLevel) }
  }
  const n = Math.min(g.logOld.length, g.logNew.length)
  const scale = Math.hypot(robustScale(g.logOld), robustScale(g.logNew))
  return { n, scale, halfWidth: predictedHalfWidth(scale, n, confLevel) }
}

/**
 * The smallest n whose predicted half-width is at most `target` (log
 * scale), searched up to `limit`; Infinity when even `limit` is not enough,
 * NaN when the scale is unknown. A zero scale needs no more values.
 * @param {number} scale
 * @param {number} target
 * @param {{confLevel?: number, from?: number, limit?: number}} [opts]
 */
function pairsForHalfWidth (scale, target, { confLevel = 0.95, from = 2, limit = 100000 } = {}) {
  if (!Number.isFinite(scale) || !(target > 0)) return NaN
  if (scale === 0) return from
  // Normal start, then a few steps up while t's quantile is still larger.
  let n = Math.max(from, Math.ceil((normQuantile(1 - (1 - confLevel) / 2) * HL_FACTOR * scale / target) ** 2))
  if (n > limit) return Infinity
  while (n <= limit && predictedHalfWidth(scale, n, confLevel) > target) n++
  return n > limit ? Infinity : n
}

module.exports = { robustScale, predictedHalfWidth, precisionOf, pairsForHalfWidth }
