'use strict'
// Welch's two-sample t-test, as R's t.test(rate ~ binary) computes it, and
// the columns Node core's compare.R prints from it (improvement, accuracy).
const { mean, variance } = require('./descriptive.js')
const { tTail, tQuantile } = require('./distributions.js')

/**
 * Welch test of mean(x) - mean(y).
 * @param {number[]} x
 * @param {number[]} y
 * @param {number} [confLevel]
 * @returns {{t: number, df: number, p: number, estimate: number, se: number, ci: [number, number]}}
 */
function welchTest (x, y, confLevel = 0.95) {
  const nx = x.length
  const ny = y.length
  const mx = mean(x)
  const my = mean(y)
  if (nx < 2 || ny < 2) {
    return { t: NaN, df: NaN, p: NaN, estimate: mx - my, se: NaN, ci: [NaN, NaN] }
  }
  const vx = variance(x) / nx
  const vy = variance(y) / ny
  const se = Math.sqrt(vx + vy)
  const df = (vx + vy) ** 2 / (vx * vx / (nx - 1) + vy * vy / (ny - 1))
  const estimate = mx - my
  if (!(se > 0)) return { t: NaN, df: NaN, p: NaN, estimate, se, ci: [NaN, NaN] }
  const t = estimate / se
  const p = Math.min(1, 2 * tTail(t, df))
  const half = tQuantile(1 - (1 - confLevel) / 2, df) * se
  return { t, df, p, estimate, se, ci: [estimate - half, estimate + half] }
}

/**
 * compare.R's columns for one configuration: improvement in % of the old
 * mean, Welch p, and the ±% half-widths at 95, 99 and 99.9% confidence.
 * @param {number[]} oldRates
 * @param {number[]} newRates
 * @returns {{improvement: number, p: number, accuracy: [number, number, number]}}
 */
function welchColumns (oldRates, newRates) {
  const w = welchTest(newRates, oldRates)
  const oldMean = mean(oldRates)
  const improvement = (mean(newRates) - oldMean) / oldMean * 100
  const accuracy = /** @type {[number, number, number]} */ ([0.05, 0.01, 0.001].map((risk) => {
    if (Number.isNaN(w.df)) return NaN
    return tQuantile(1 - risk / 2, w.df) * w.se / oldMean * 100
  }))
  return { improvement, p: w.p, accuracy }
}

module.exports = { welchTest, welchColumns }
