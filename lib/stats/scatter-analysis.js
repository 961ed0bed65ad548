'use strict'
// The analysis of a scatter run (one benchmark file, one variable swept):
// per x value (and category), mean and median of the rate with 95% CIs, the
// variables averaged over, and the change between successive x values.
const { mean, sd, median } = require('./descriptive.js')
const { tQuantile } = require('./distributions.js')
const { rankSumTest } = require('./wilcoxon.js')
const { adjustBH } = require('./adjust.js')

/** P(Binomial(n, 1/2) <= k). */
function binomHalfCdf (k, n) {
  let p = 0
  let term = 2 ** -n // C(n, 0) / 2^n
  for (let i = 0; i <= k; i++) {
    p += term
    term = term * (n - i) / (i + 1)
  }
  return p
}

/**
 * Distribution-free CI of the median from order statistics: the widest k
 * with P(Bin(n, 1/2) < k) <= alpha/2 gives [x_(k), x_(n-k+1)].
 * @param {number[]} xs
 * @param {number} [confLevel]
 * @returns {[number, number]}
 */
function medianCi (xs, confLevel = 0.95) {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  let k = 0
  while (k + 1 <= n && binomHalfCdf(k, n) <= (1 - confLevel) / 2) k++
  if (k === 0) return [s[0], s[n - 1]] // too few values: the range is all we have
  return [s[k - 1], s[n - k]]
}

function meanCi (xs, confLevel = 0.95) {
  const n = xs.length
  if (n < 2) return [NaN, NaN]
  const half = tQuantile(1 - (1 - confLevel) / 2, n - 1) * sd(xs) / Math.sqrt(n)
  const m = mean(xs)
  return [m - half, m + half]
}

const keyOf = (v) => (v === undefined ? '' : String(v))

// Orders x values numerically when they all are numbers.
function sortValues (values) {
  const allNumeric = values.every((v) => v !== '' && Number.isFinite(Number(v)))
  return values.sort(allNumeric ? (a, b) => Number(a) - Number(b) : undefined)
}

/**
 * @param {object[]} rows scatter rows: variables as columns, plus rate
 * @param {{xaxis: string, category?: string, variables: string[], confLevel?: number}} opts
 */
function analyzeScatter (rows, { xaxis, category, variables, confLevel = 0.95 }) {
  const averagedOver = variables.filter((v) => v !== xaxis && v !== category && new Set(rows.map((r) => keyOf(r[v]))).size > 1)
  const cats = category ? sortValues([...new Set(rows.map((r) => keyOf(r[category])))]) : ['']
  const groups = []
  /** @type {{category: string|undefined, from: number, to: number, change: number, ci: number[], p: number, q?: number}[]} q: set once all steps are known (BH) */
  const steps = []
  for (const c of cats) {
    const inCat = category ? rows.filter((r) => keyOf(r[category]) === c) : rows
    const xs = sortValues([...new Set(inCat.map((r) => keyOf(r[xaxis])))])
    let prev
    for (const x of xs) {
      const rates = inCat.filter((r) => keyOf(r[xaxis]) === x).map((r) => Number(r.rate)).filter((v) => v > 0)
      const g = {
        category: category ? c : undefined,
        x,
        n: rates.length,
        mean: mean(rates),
        mean_ci: meanCi(rates, confLevel),
        median: median(rates),
        median_ci: medianCi(rates, confLevel)
      }
      groups.push(g)
      if (prev && prev.rates.length > 0 && rates.length > 0) {
        const test = rankSumTest(rates.map(Math.log), prev.rates.map(Math.log), { confLevel })
        steps.push({
          category: g.category,
          from: prev.x,
          to: x,
          change: (Math.exp(test.estimate) - 1) * 100,
          ci: [(Math.exp(test.ci[0]) - 1) * 100, (Math.exp(test.ci[1]) - 1) * 100],
          p: test.p
        })
      }
      prev = { x, rates }
    }
  }
  const qs = adjustBH(steps.map((s) => s.p))
  steps.forEach((s, i) => { s.q = qs[i] })
  return { schema: 'benchrig-scatter-analysis/1', xaxis, category, averagedOver, groups, steps }
}

module.exports = { analyzeScatter, medianCi, meanCi, binomHalfCdf }
