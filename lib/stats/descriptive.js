'use strict'
// Descriptive statistics over plain arrays of numbers, and R-compatible ranks.

/** @param {number[]} xs */
function mean (xs) {
  let s = 0
  for (const x of xs) s += x
  return s / xs.length
}

/** Sample variance (n - 1), as R's var(). @param {number[]} xs */
function variance (xs) {
  const n = xs.length
  if (n < 2) return NaN
  const m = mean(xs)
  let s = 0
  for (const x of xs) s += (x - m) * (x - m)
  return s / (n - 1)
}

/** @param {number[]} xs */
function sd (xs) {
  return Math.sqrt(variance(xs))
}

/** Median of an already sorted array (or typed array). @param {ArrayLike<number>} sorted */
function medianSorted (sorted) {
  const n = sorted.length
  if (n === 0) return NaN
  const h = n >> 1
  return n % 2 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2
}

/** @param {number[]} xs */
function median (xs) {
  return medianSorted([...xs].sort((a, b) => a - b))
}

/**
 * Ranks with ties averaged (R's rank(ties.method = "average")), plus the
 * sizes of the tie groups (for the variance corrections).
 * @param {number[]} xs
 * @returns {{ranks: number[], ties: number[]}}
 */
function rank (xs) {
  const idx = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b])
  const ranks = new Array(xs.length)
  const ties = []
  let i = 0
  while (i < idx.length) {
    let j = i
    while (j + 1 < idx.length && xs[idx[j + 1]] === xs[idx[i]]) j++
    const r = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) ranks[idx[k]] = r
    ties.push(j - i + 1)
    i = j + 1
  }
  return { ranks, ties }
}

/**
 * Spearman rank correlation of two equal-length arrays, with a two-sided p
 * from the t approximation (good enough for a warning).
 * @param {number[]} xs
 * @param {number[]} ys
 * @param {(t: number, df: number) => number} tTail
 */
function spearman (xs, ys, tTail) {
  const n = xs.length
  if (n < 4) return { rho: NaN, p: NaN }
  const rx = rank(xs).ranks
  const ry = rank(ys).ranks
  const mx = mean(rx)
  const my = mean(ry)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my)
    sxx += (rx[i] - mx) ** 2
    syy += (ry[i] - my) ** 2
  }
  const rho = sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy)
  if (Math.abs(rho) >= 1) return { rho, p: 0 }
  const t = rho * Math.sqrt((n - 2) / (1 - rho * rho))
  return { rho, p: Math.min(1, 2 * tTail(t, n - 2)) }
}

/**
 * Sarle's bimodality coefficient from sample skewness and excess kurtosis
 * (bias-corrected). Above 5/9 (a uniform distribution) hints at two modes.
 * @param {number[]} xs
 */
function bimodalityCoefficient (xs) {
  const n = xs.length
  if (n < 4) return NaN
  const m = mean(xs)
  let m2 = 0
  let m3 = 0
  let m4 = 0
  for (const x of xs) {
    const d = x - m
    m2 += d * d
    m3 += d * d * d
    m4 += d * d * d * d
  }
  m2 /= n
  m3 /= n
  m4 /= n
  if (m2 === 0) return NaN
  const g1 = m3 / m2 ** 1.5
  const g2 = m4 / (m2 * m2) - 3
  const skew = g1 * Math.sqrt(n * (n - 1)) / (n - 2)
  const kurt = ((n + 1) * g2 + 6) * (n - 1) / ((n - 2) * (n - 3))
  return (skew * skew + 1) / (kurt + 3 * (n - 1) ** 2 / ((n - 2) * (n - 3)))
}

module.exports = { mean, variance, sd, median, medianSorted, rank, spearman, bimodalityCoefficient }
