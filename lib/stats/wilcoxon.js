'use strict'
// Wilcoxon signed-rank (paired) and Mann-Whitney rank-sum (unpaired) tests
// with Hodges-Lehmann estimates and confidence intervals, following the
// choices of R's wilcox.test(conf.int = TRUE): the exact distribution below
// 50 observations when there are no ties (and, paired, no zero differences);
// otherwise the normal approximation with tie correction and continuity
// correction, with confidence limits found as roots of the standardized
// statistic.
const { rank, medianSorted } = require('./descriptive.js')
const { normTail, normQuantile } = require('./distributions.js')
const { signedRankPmf, rankSumPmf, cdf, upper, lowerQuantile } = require('./rank-distributions.js')
const { bisect } = require('./root-find.js')

function tieSum (ties) {
  let s = 0
  for (const t of ties) s += t * t * t - t
  return s
}

function twoSidedNormalP (z) {
  return Math.min(1, 2 * normTail(z))
}

// p of the normal approximation for an alternative, with R's continuity
// correction (towards the null for two-sided, one half-step otherwise).
function normalP (dz, sigma, alternative) {
  if (!(sigma > 0)) return 1
  if (alternative === 'less') return 1 - normTail((dz + 0.5) / sigma)
  if (alternative === 'greater') return normTail((dz - 0.5) / sigma)
  return twoSidedNormalP((dz - Math.sign(dz) * 0.5) / sigma)
}

// The exact p for an alternative from a null pmf and the statistic.
function exactP (pmf, stat, centre, alternative) {
  if (alternative === 'less') return cdf(pmf, stat)
  if (alternative === 'greater') return upper(pmf, stat)
  return Math.min(1, 2 * (stat > centre ? upper(pmf, stat) : cdf(pmf, stat)))
}

// The level an exact interval from order statistic qu really has. As R's
// wilcox.test: when it falls short of the one asked by more than half of
// alpha (tiny samples), that lower level is the one reported.
function exactLevel (pmf, qu, confLevel) {
  const alpha = 1 - confLevel
  const achieved = 2 * cdf(pmf, qu - 1)
  return achieved - alpha > alpha / 2 ? 1 - signif2(achieved) : confLevel
}

// R's signif(x, 2): two significant digits, an exact half to the even digit
// (R gives signif(0.125, 2) = 0.12).
function signif2 (x) {
  if (!(x > 0)) return x
  const scale = 10 ** (2 - Math.ceil(Math.log10(x)))
  const v = x * scale
  const f = Math.floor(v)
  const r = v - f === 0.5 ? (f % 2 === 0 ? f : f + 1) : Math.round(v)
  return r / scale
}

// Widens alpha like R does when the sample cannot reach the asked confidence
// in the normal approximation; returns the alpha actually usable.
function reachableAlpha (alpha, wAtMin, wAtMax) {
  let a = alpha
  while (a < 1 && (wAtMin - normQuantile(1 - a / 2) < 0 || wAtMax - normQuantile(a / 2) > 0)) a *= 2
  return a
}

/**
 * Paired test on differences d (e.g. log(new/old) per pair).
 * confLevel in the result is the level the interval really has (lower
 * than asked for tiny samples, ties or zero differences). alternative sets
 * p only ('less': d is shifted below 0); the interval is always two-sided.
 * @param {number[]} d
 * @param {{confLevel?: number, exact?: boolean, alternative?: 'two.sided'|'less'|'greater'}} [opts]
 * @returns {{n: number, statistic: number, p: number, estimate: number, ci: [number, number], exact: boolean, confLevel: number}}
 */
function signedRankTest (d, opts = {}) {
  const confLevel = opts.confLevel ?? 0.95
  const alternative = opts.alternative ?? 'two.sided'
  const alpha = 1 - confLevel
  const zeroes = d.some((v) => v === 0)
  const x = d.filter((v) => v !== 0)
  const n = x.length
  if (n === 0) return { n: 0, statistic: 0, p: 1, estimate: 0, ci: [0, 0], exact: false, confLevel: 0 }
  const { ranks, ties } = rank(x.map(Math.abs))
  let V = 0
  for (let i = 0; i < n; i++) if (x[i] > 0) V += ranks[i]
  const hasTies = ties.some((t) => t > 1)
  const exact = (opts.exact ?? n < 50) && !hasTies && !zeroes
  if (exact) {
    const pmf = signedRankPmf(n)
    const walsh = walshAverages(x)
    let qu = lowerQuantile(pmf, alpha / 2)
    if (qu === 0) qu = 1
    const ql = n * (n + 1) / 2 - qu
    return {
      n,
      statistic: V,
      p: exactP(pmf, V, n * (n + 1) / 4, alternative),
      estimate: medianSorted(walsh),
      ci: [walsh[qu - 1], walsh[ql]],
      exact: true,
      confLevel: exactLevel(pmf, qu, confLevel)
    }
  }
  const sigma = Math.sqrt(n * (n + 1) * (2 * n + 1) / 24 - tieSum(ties) / 48)
  const p = normalP(V - n * (n + 1) / 4, sigma, alternative)
  // Standardized statistic of x - shift, the function whose roots are the limits.
  const W = (shift) => {
    const xd = []
    for (const v of x) if (v - shift !== 0) xd.push(v - shift)
    const nx = xd.length
    if (nx === 0) return 0
    const r = rank(xd.map(Math.abs))
    let s = 0
    for (let i = 0; i < nx; i++) if (xd[i] > 0) s += r.ranks[i]
    const zd = s - nx * (nx + 1) / 4
    const sg = Math.sqrt(nx * (nx + 1) * (2 * nx + 1) / 24 - tieSum(r.ties) / 48)
    if (sg === 0) return 0
    return (zd - Math.sign(zd) * 0.5) / sg
  }
  const { ci, level } = limitsFromW(W, Math.min(...x), Math.max(...x), alpha, x)
  // R reports some root of the flat middle of its step function here; the
  // Hodges-Lehmann estimate proper (median of Walsh averages) lies in the
  // same flat region and does not depend on the root finder.
  return { n, statistic: V, p, estimate: medianSorted(walshAverages(x)), ci: /** @type {[number, number]} */ (ci), exact: false, confLevel: level }
}

// Confidence limits as roots of the decreasing function W(shift).
function limitsFromW (W, lo, hi, alpha, x) {
  const wMin = W(lo)
  const wMax = W(hi)
  const a = reachableAlpha(alpha, wMin, wMax)
  const root = (zq) => {
    if (wMin - zq <= 0) return lo
    if (wMax - zq >= 0) return hi
    return bisect((s) => W(s) - zq, lo, hi)
  }
  let ci
  if (a < 1) ci = [root(normQuantile(1 - a / 2)), root(normQuantile(a / 2))]
  else {
    const m = medianSorted([...x].sort((p, q) => p - q))
    ci = [m, m]
  }
  return { ci, level: 1 - Math.min(1, a) }
}

/** Sorted pairwise means x_i/2 + x_j/2 for i <= j. @param {number[]} x */
function walshAverages (x) {
  const n = x.length
  const out = new Float64Array(n * (n + 1) / 2)
  let k = 0
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) out[k++] = (x[i] + x[j]) / 2
  }
  return Array.from(out.sort())
}

/**
 * Unpaired test of a shift between x and y (estimate is x - y).
 * @param {number[]} x
 * @param {number[]} y
 * @param {{confLevel?: number, exact?: boolean, alternative?: 'two.sided'|'less'|'greater'}} [opts]
 */
function rankSumTest (x, y, opts = {}) {
  const confLevel = opts.confLevel ?? 0.95
  const alternative = opts.alternative ?? 'two.sided'
  const alpha = 1 - confLevel
  const nx = x.length
  const ny = y.length
  if (nx === 0 || ny === 0) return { nx, ny, statistic: NaN, p: NaN, estimate: NaN, ci: [NaN, NaN], exact: false, confLevel }
  const { ranks, ties } = rank([...x, ...y])
  let W = 0
  for (let i = 0; i < nx; i++) W += ranks[i]
  W -= nx * (nx + 1) / 2
  const hasTies = ties.some((t) => t > 1)
  const exact = (opts.exact ?? (nx < 50 && ny < 50)) && !hasTies
  if (exact) {
    const pmf = rankSumPmf(nx, ny)
    const diffs = new Float64Array(nx * ny)
    let k = 0
    for (const a of x) for (const b of y) diffs[k++] = a - b
    diffs.sort()
    let qu = lowerQuantile(pmf, alpha / 2)
    if (qu === 0) qu = 1
    const ql = nx * ny - qu
    return {
      nx,
      ny,
      statistic: W,
      p: exactP(pmf, W, nx * ny / 2, alternative),
      estimate: medianSorted(diffs),
      ci: [diffs[qu - 1], diffs[ql]],
      exact: true,
      confLevel: exactLevel(pmf, qu, confLevel)
    }
  }
  const N = nx + ny
  const sigmaOf = (t) => Math.sqrt((nx * ny / 12) * ((N + 1) - tieSum(t) / (N * (N - 1))))
  const p = normalP(W - nx * ny / 2, sigmaOf(ties), alternative)
  const Wd = (shift) => {
    const r = rank([...x.map((v) => v - shift), ...y])
    let s = 0
    for (let i = 0; i < nx; i++) s += r.ranks[i]
    const dz = s - nx * (nx + 1) / 2 - nx * ny / 2
    const sg = sigmaOf(r.ties)
    if (sg === 0) return 0
    return (dz - Math.sign(dz) * 0.5) / sg
  }
  const lo = Math.min(...x) - Math.max(...y)
  const hi = Math.max(...x) - Math.min(...y)
  const diffsForFallback = []
  for (const a of x) for (const b of y) diffsForFallback.push(a - b)
  diffsForFallback.sort((a, b) => a - b)
  const { ci, level } = limitsFromW(Wd, lo, hi, alpha, diffsForFallback)
  return { nx, ny, statistic: W, p, estimate: medianSorted(diffsForFallback), ci, exact: false, confLevel: level }
}

module.exports = { signedRankTest, rankSumTest, walshAverages }
