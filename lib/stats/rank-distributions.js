'use strict'
// Exact null distributions of the Wilcoxon statistics, as probabilities per
// value, built by dynamic programming and cached per sample size. R uses the
// exact distributions below 50 observations; so do we.

const signedRankCache = new Map()
const rankSumCache = new Map()

/**
 * P(V = k) for the signed-rank statistic of n non-zero differences, k = 0..n(n+1)/2.
 * @param {number} n
 * @returns {Float64Array}
 */
function signedRankPmf (n) {
  let pmf = signedRankCache.get(n)
  if (pmf) return pmf
  const max = n * (n + 1) / 2
  const counts = new Float64Array(max + 1) // counts stay below 2^53 for n < 50
  counts[0] = 1
  let top = 0
  for (let r = 1; r <= n; r++) {
    top += r
    for (let k = top; k >= r; k--) counts[k] += counts[k - r]
  }
  const total = 2 ** n
  pmf = counts.map((c) => c / total)
  signedRankCache.set(n, pmf)
  return pmf
}

/**
 * P(W = k) for the Mann-Whitney statistic with sample sizes m and n, k = 0..m*n.
 * Recurrence on probabilities (all terms positive, so no cancellation):
 * f(m, n) = m/(m+n) * f(m-1, n) shifted by n + n/(m+n) * f(m, n-1).
 * @param {number} m
 * @param {number} n
 * @returns {Float64Array}
 */
function rankSumPmf (m, n) {
  const key = `${m},${n}`
  let pmf = rankSumCache.get(key)
  if (pmf) return pmf
  // rows[j] = f(i, j) for the current i, as arrays of length i*j + 1
  let prev = []
  for (let j = 0; j <= n; j++) prev.push(Float64Array.of(1)) // f(0, j): W = 0
  for (let i = 1; i <= m; i++) {
    const cur = [Float64Array.of(1)] // f(i, 0)
    for (let j = 1; j <= n; j++) {
      const f = new Float64Array(i * j + 1)
      const a = prev[j] // f(i-1, j), shifted by j
      const b = cur[j - 1] // f(i, j-1)
      const wa = i / (i + j)
      const wb = j / (i + j)
      for (let k = 0; k < a.length; k++) f[k + j] += wa * a[k]
      for (let k = 0; k < b.length; k++) f[k] += wb * b[k]
      cur.push(f)
    }
    prev = cur
  }
  pmf = prev[n]
  rankSumCache.set(key, pmf)
  return pmf
}

/** P(X <= q) for a pmf over 0..max. */
function cdf (pmf, q) {
  if (q < 0) return 0
  let s = 0
  const top = Math.min(Math.floor(q), pmf.length - 1)
  for (let k = 0; k <= top; k++) s += pmf[k]
  return Math.min(1, s)
}

/** P(X >= q). */
function upper (pmf, q) {
  let s = 0
  for (let k = Math.max(0, Math.ceil(q)); k < pmf.length; k++) s += pmf[k]
  return Math.min(1, s)
}

/**
 * The lower quantile R's qsignrank / qwilcox return for small p: the
 * smallest q with P(X <= q) >= p (with R's small tolerance).
 * @param {Float64Array} pmf
 * @param {number} p
 */
function lowerQuantile (pmf, p) {
  const target = p - 10 * Number.EPSILON
  let s = 0
  for (let q = 0; q < pmf.length; q++) {
    s += pmf[q]
    if (s >= target) return q
  }
  return pmf.length - 1
}

module.exports = { signedRankPmf, rankSumPmf, cdf, upper, lowerQuantile }
