'use strict'
// Change points of one series, as Apache Otava (ex-Hunter) finds them
// (Matteson & James 2014, E-Divisive means; Fleming et al., ICPE 2023):
//  1. candidates: in overlapping windows of the series, the split that
//     maximises the E-Divisive divergence Q (alpha = 1) is kept when a
//     Student t-test of the two sides gives p < weakP, and both sides are
//     split again (hierarchically). The t-test replaces the permutation test
//     of the paper: deterministic and cheap.
//  2. pruning: with all candidates in place, each is re-tested against its
//     neighbours (the points between it and the candidates either side, at
//     most `window` on each side); the one with the largest p goes while that
//     p is above the threshold, and its neighbours are re-tested. Pruned at
//     weakP: the weak candidates; the survivors pruned again at maxP: the
//     change points.
// Each change gets its size as a ratio (after/before - 1) with a
// Hodges–Lehmann estimate and interval of the shift of the log values
// between the segments either side (rank-sum inversion, lib/stats).
// Pure functions over arrays; the store calls `detectChanges` per series.
const { tTail, tQuantile, normQuantile, incompleteBeta } = require('../stats/distributions.js')
const { rankSumPmf, lowerQuantile } = require('../stats/rank-distributions.js')

const DEFAULTS = { maxP: 0.0001, weakP: 0.05, window: 50, minSize: 3, minMagnitude: 0, confLevel: 0.95 }

/**
 * The split of x[s..e) with the largest E-Divisive Q, in O((e - s)^2):
 * within-side distance sums are kept as the split moves right.
 * @param {ArrayLike<number>} x
 * @param {number} s
 * @param {number} e
 * @param {number} minSize smallest side
 * @returns {{tau: number, q: number}|undefined}
 */
function bestSplit (x, s, e, minSize) {
  if (e - s < 2 * minSize) return undefined
  // right(τ) = Σ_{τ<=i<j<e} |xi - xj| starts as the whole segment's sum
  let whole = 0
  for (let i = s; i < e; i++) for (let j = i + 1; j < e; j++) whole += Math.abs(x[i] - x[j])
  let left = 0
  let right = whole
  let best
  for (let tau = s + 1; tau <= e - minSize; tau++) {
    // move x[tau - 1] from the right side to the left side
    const v = x[tau - 1]
    for (let i = s; i < tau - 1; i++) left += Math.abs(x[i] - v)
    for (let j = tau; j < e; j++) right -= Math.abs(v - x[j])
    const m = tau - s
    if (m < minSize) continue
    const k = e - tau
    const between = whole - left - right
    const within = (sum, n) => (n > 1 ? sum / (n * (n - 1) / 2) : 0)
    const q = (m * k / (m + k)) * (2 * between / (m * k) - within(left, m) - within(right, k))
    if (best === undefined || q > best.q) best = { tau, q }
  }
  return best
}

/** Mean and sample variance of x[a..b). */
function moments (x, a, b) {
  const n = b - a
  let sum = 0
  for (let i = a; i < b; i++) sum += x[i]
  const mean = sum / n
  let ss = 0
  for (let i = a; i < b; i++) ss += (x[i] - mean) * (x[i] - mean)
  return { n, mean, variance: n > 1 ? ss / (n - 1) : 0 }
}

/**
 * Two-sided Student t-test (pooled variance, as Hunter) of x[a..t) against x[t..b).
 * @returns {{p: number, before: number, after: number}}
 */
function tTest (x, a, t, b) {
  const l = moments(x, a, t)
  const r = moments(x, t, b)
  const df = l.n + r.n - 2
  if (df < 1) return { p: 1, before: l.mean, after: r.mean }
  const pooled = ((l.n - 1) * l.variance + (r.n - 1) * r.variance) / df
  const diff = r.mean - l.mean
  let p
  if (pooled === 0) p = diff === 0 ? 1 : 0
  else p = Math.min(1, 2 * tTail(Math.abs(diff) / Math.sqrt(pooled * (1 / l.n + 1 / r.n)), df))
  return { p, before: l.mean, after: r.mean }
}

/** Candidates of one window [s, e), split hierarchically. */
function splitWindow (x, s, e, o, out) {
  const best = bestSplit(x, s, e, o.minSize)
  if (!best) return
  const { p } = tTest(x, s, best.tau, e)
  if (!(p < o.weakP)) return
  out.add(best.tau)
  splitWindow(x, s, best.tau, o, out)
  splitWindow(x, best.tau, e, o, out)
}

/** The test of candidate i against its neighbours (at most `window` points each side). */
function testAt (x, cps, i, o) {
  const tau = cps[i]
  const a = Math.max(i > 0 ? cps[i - 1] : 0, tau - o.window)
  const b = Math.min(i < cps.length - 1 ? cps[i + 1] : x.length, tau + o.window)
  const t = tTest(x, a, tau, b)
  const magnitude = t.before !== 0 ? Math.abs(t.after / t.before - 1) : Infinity
  return { tau, a, b, ...t, p: magnitude < o.minMagnitude ? 1 : t.p }
}

/** Removes the least significant candidate while one is above `threshold`. */
function prune (x, cps, threshold, o) {
  const kept = [...cps]
  for (;;) {
    let worst = -1
    let worstP = -1
    for (let i = 0; i < kept.length; i++) {
      const { p } = testAt(x, kept, i, o)
      if (p > threshold && p > worstP) { worst = i; worstP = p }
    }
    if (worst < 0) return kept
    kept.splice(worst, 1)
  }
}

/** Rank-sum quantiles by (m, n, level): the exact ones cost a pmf each. */
const quantiles = new Map()

/**
 * How many of the m*n sorted differences lie below the interval: the exact
 * rank-sum quantile for small sides, the normal one for larger.
 */
function hlCut (m, n, confLevel) {
  const key = `${m},${n},${confLevel}`
  let k = quantiles.get(key)
  if (k === undefined) {
    const alpha = 1 - confLevel
    if (m < 50 && n < 50) k = lowerQuantile(rankSumPmf(m, n), alpha / 2)
    else k = Math.floor(m * n / 2 - normQuantile(1 - alpha / 2) * Math.sqrt(m * n * (m + n + 1) / 12))
    k = Math.max(1, k)
    quantiles.set(key, k)
  }
  return k
}

/**
 * Hodges–Lehmann shift of y - x (median of all differences) and its
 * interval from the rank-sum distribution (ties: as if there were none).
 * @param {number[]} y
 * @param {number[]} x
 * @param {number} confLevel
 */
function hodgesLehmann (y, x, confLevel) {
  const d = new Float64Array(y.length * x.length)
  let k = 0
  for (const a of y) for (const b of x) d[k++] = a - b
  d.sort()
  const mid = d.length >> 1
  const estimate = d.length % 2 ? d[mid] : (d[mid - 1] + d[mid]) / 2
  const cut = Math.min(hlCut(y.length, x.length, confLevel), mid)
  return { estimate, ci: [d[cut - 1], d[d.length - cut]] }
}

/**
 * Size of the step at a change: the Hodges–Lehmann shift of log values
 * (after - before) with its interval, as a ratio - 1. Values <= 0 cannot be
 * logged: then the shift of the values over the median before.
 */
function stepSize (x, a, tau, b, confLevel) {
  const before = Array.from(x).slice(a, tau)
  const after = Array.from(x).slice(tau, b)
  const positive = before.every((v) => v > 0) && after.every((v) => v > 0)
  if (positive) {
    const r = hodgesLehmann(after.map(Math.log), before.map(Math.log), confLevel)
    return { size: Math.expm1(r.estimate), ci: [Math.expm1(r.ci[0]), Math.expm1(r.ci[1])] }
  }
  const r = hodgesLehmann(after, before, confLevel)
  const scale = Math.abs(before.slice().sort((p, q) => p - q)[before.length >> 1]) || 1
  return { size: r.estimate / scale, ci: [r.ci[0] / scale, r.ci[1] / scale] }
}

/**
 * @typedef {{index: number, p: number, before: number, after: number, size: number,
 *   ci: number[], nBefore: number, nAfter: number}} Change
 */

/**
 * @param {ArrayLike<number>} x one value per label, in label order
 * @param {Partial<typeof DEFAULTS>} [opts]
 * @returns {{changes: Change[], weak: Change[]}} index: the first point after the step
 */
function detectChanges (x, opts = {}) {
  const n = x.length
  // a handful of labels (node releases): sides of 2 may be tested (df >= 2)
  const o = { ...DEFAULTS, ...(n < 12 ? { minSize: 2 } : {}), ...opts }
  const found = new Set()
  if (n >= 2 * o.minSize) {
    const step = Math.max(1, Math.floor(o.window / 2))
    for (let s = 0; ; s += step) {
      const e = Math.min(n, s + o.window)
      splitWindow(x, s, e, o, found)
      if (e >= n) break
    }
  }
  const candidates = [...found].sort((a, b) => a - b)
  const weakSet = prune(x, candidates, o.weakP, o)
  const strong = prune(x, weakSet, o.maxP, o)
  const describe = (cps, i) => {
    const t = testAt(x, cps, i, o)
    const s = stepSize(x, t.a, t.tau, t.b, o.confLevel)
    return { index: t.tau, p: t.p, before: t.before, after: t.after, ...s, nBefore: t.tau - t.a, nAfter: t.b - t.tau }
  }
  const changes = strong.map((_, i) => describe(strong, i))
  const strongSet = new Set(strong)
  // a weak candidate is described against the change points and the other weak ones around it
  const weak = weakSet.map((tau, i) => (strongSet.has(tau) ? undefined : describe(weakSet, i))).filter((c) => c !== undefined)
  return { changes, weak }
}

// ---------------------------------------------------------------------------
// Labels with many runs each (a release measured 30 times): a segment is all
// its labels' runs. The split is searched at label boundaries only, with
// E-Divisive's Q over the runs (log values where all are positive: steps are
// ratios). The t-test at a split is of a two-level model: a label's mean
// varies around its segment's by label-to-label noise (sigmaB^2: a rerun on
// another day, a rebuilt binary) on top of the runs' own (sigmaW^2). sigmaW^2
// comes from the runs inside labels, sigmaB^2 from how far the label means
// of each segment spread beyond what sigmaW^2 explains (method of moments,
// taken in when an F-test at 0.25 says they spread more than the runs do). A 50% step after the first of six releases is then tested
// against the spread of the other five's means (4 df), not against one
// median per label with too few labels for any test; a day-to-day shift of
// one label is not mistaken for a step when the labels' means spread as much.
// The step's size and interval come from the same model: the difference of
// the segments' mean logs, +- t(df) standard errors, as a ratio - 1.

/** P(F > f) for F(d1, d2). */
function fTail (f, d1, d2) {
  return incompleteBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2)
}

/**
 * Side rules for labels with runs: at least 1 label and minRuns runs a side,
 * minLabels in the tested stretch; poolP: the p of the F-test under which the
 * labels' spread counts as label-to-label noise.
 */
const GROUP_DEFAULTS = { minRuns: 3, minLabels: 3, poolP: 0.25 }

/**
 * @param {number[][]} groups values per label, in label order
 */
function groupStats (groups, logs) {
  return groups.map((g) => {
    const v = logs ? g.map(Math.log) : g
    const m = moments(v, 0, v.length)
    return { n: m.n, mean: m.mean, ss: m.variance * (m.n - 1) }
  })
}

/**
 * The two-level t-test of labels [a, t) against [t, b).
 * @param {{n: number, mean: number, ss: number}[]} st
 * @returns {{p: number, diff: number, se: number, df: number, before: number, after: number, sigmaB: number}}
 */
function groupTest (st, a, t, b, poolP = GROUP_DEFAULTS.poolP) {
  const seg = (lo, hi) => {
    let n = 0
    let sum = 0
    for (let i = lo; i < hi; i++) { n += st[i].n; sum += st[i].n * st[i].mean }
    const mean = sum / n
    let between = 0
    let sq = 0
    for (let i = lo; i < hi; i++) { between += st[i].n * (st[i].mean - mean) ** 2; sq += st[i].n * st[i].n }
    return { n, mean, between, sq, k: hi - lo }
  }
  const A = seg(a, t)
  const B = seg(t, b)
  let ssw = 0
  let dfw = 0
  for (let i = a; i < b; i++) { ssw += st[i].ss; dfw += st[i].n - 1 }
  const k = A.k + B.k
  const dfb = k - 2
  const msb = dfb > 0 ? (A.between + B.between) / dfb : 0
  let sigmaW2
  let sigmaB2 = 0
  let df
  if (dfw === 0) {
    // one run per label: label means are the values; their spread is all the noise
    sigmaW2 = msb
    df = dfb
  } else {
    sigmaW2 = ssw / dfw
    const nbar = (A.n + B.n) / k
    // label-to-label noise is taken in when the labels' means spread more
    // than the runs explain by an F-test at poolP (Bancroft's "sometimes
    // pool" rule): else the runs are the replicates (pooling at any sign of
    // spread would drop the test to the labels' few df half the time when
    // there is none)
    if (dfb > 0 && msb > sigmaW2 && fTail(msb / sigmaW2, dfb, dfw) < poolP) sigmaB2 = (msb - sigmaW2) / nbar
    df = sigmaB2 > 0 ? dfb : dfw + dfb
  }
  const varOf = (S) => sigmaW2 / S.n + sigmaB2 * S.sq / (S.n * S.n)
  const se = Math.sqrt(varOf(A) + varOf(B))
  const diff = B.mean - A.mean
  let p
  if (df < 1) p = 1
  else if (se === 0) p = diff === 0 ? 1 : 0
  else p = Math.min(1, 2 * tTail(Math.abs(diff) / se, df))
  return { p, diff, se, df, before: A.mean, after: B.mean, sigmaB: Math.sqrt(sigmaB2) }
}

/**
 * E-Divisive's best split of labels [s, e) at a label boundary, over the runs.
 * @param {number[][]} groups (log) values per label
 */
function bestGroupSplit (groups, s, e, o) {
  const x = []
  const starts = []
  for (let i = s; i < e; i++) { starts.push(x.length); x.push(...groups[i]) }
  const n = x.length
  const ok = new Set()
  for (let j = 1; j < e - s; j++) if (starts[j] >= o.minRuns && n - starts[j] >= o.minRuns) ok.add(starts[j])
  if (ok.size === 0) return undefined
  let whole = 0
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) whole += Math.abs(x[i] - x[j])
  let left = 0
  let right = whole
  let best
  for (let tau = 1; tau < n; tau++) {
    const v = x[tau - 1]
    for (let i = 0; i < tau - 1; i++) left += Math.abs(x[i] - v)
    for (let j = tau; j < n; j++) right -= Math.abs(v - x[j])
    if (!ok.has(tau)) continue
    const m = tau
    const k = n - tau
    const within = (sum, c) => (c > 1 ? sum / (c * (c - 1) / 2) : 0)
    const q = (m * k / n) * (2 * (whole - left - right) / (m * k) - within(left, m) - within(right, k))
    if (best === undefined || q > best.q) best = { tau: s + starts.indexOf(tau), q }
  }
  return best
}

/**
 * Whether labels with runs can be tested at all, and what would be enough.
 * @param {number[][]} groups
 * @returns {string|undefined} why not, with what would be enough
 */
function untestable (groups, opts = {}) {
  const o = { ...DEFAULTS, ...GROUP_DEFAULTS, ...opts }
  const k = groups.length
  const runs = groups.reduce((a, g) => a + g.length, 0)
  if (groups.every((g) => g.length <= 1)) {
    if (k < 4) return `${k} label${k === 1 ? '' : 's'} of one run each: too few to test; 4 labels are the least (2 a side), 12 or more find steps of a few % (bench/changepoint-sim.js), or measure each label ${o.minRuns}+ times`
    return undefined
  }
  if (k < o.minLabels) return `${k} label${k === 1 ? '' : 's'} (${runs} runs): too few to test a step against the labels' own spread; ${o.minLabels} labels are the least, with ${o.minRuns}+ runs either side of a step`
  return undefined
}

/**
 * Change points of a series of labels that each hold one or more runs.
 * One run per label: detectChanges on the values (as before); else the
 * grouped search above. Indexes are label indexes.
 * @param {number[][]} groups values per label, in label order
 * @param {Partial<typeof DEFAULTS & typeof GROUP_DEFAULTS>} [opts]
 * @returns {{changes: Change[], weak: Change[], untestable?: string}}
 */
function detectGroupChanges (groups, opts = {}) {
  const why = untestable(groups, opts)
  if (why) return { changes: [], weak: [], untestable: why }
  if (groups.every((g) => g.length === 1)) return detectChanges(groups.map((g) => g[0]), opts)
  const o = { ...DEFAULTS, ...GROUP_DEFAULTS, ...opts }
  const logs = groups.every((g) => g.every((v) => v > 0))
  const lg = logs ? groups.map((g) => g.map(Math.log)) : groups
  const st = groupStats(groups, logs)
  const k = groups.length
  const found = new Set()
  const split = (s, e) => {
    if (e - s < o.minLabels) return
    const best = bestGroupSplit(lg, s, e, o)
    if (!best) return
    if (!(groupTest(st, s, best.tau, e, o.poolP).p < o.weakP)) return
    found.add(best.tau)
    split(s, best.tau)
    split(best.tau, e)
  }
  const step = Math.max(1, Math.floor(o.window / 2))
  for (let s = 0; ; s += step) {
    const e = Math.min(k, s + o.window)
    split(s, e)
    if (e >= k) break
  }
  const at = (cps, i) => {
    const tau = cps[i]
    const a = Math.max(i > 0 ? cps[i - 1] : 0, tau - o.window)
    const b = Math.min(i < cps.length - 1 ? cps[i + 1] : k, tau + o.window)
    return { tau, a, b, ...groupTest(st, a, tau, b, o.poolP) }
  }
  const pruneGroups = (cps, threshold) => {
    const kept = [...cps]
    for (;;) {
      let worst = -1
      let worstP = -1
      for (let i = 0; i < kept.length; i++) {
        const t = at(kept, i)
        const magnitude = logs ? Math.abs(Math.expm1(t.diff)) : Math.abs(t.before !== 0 ? t.after / t.before - 1 : Infinity)
        const p = magnitude < o.minMagnitude ? 1 : t.p
        if (p > threshold && p > worstP) { worst = i; worstP = p }
      }
      if (worst < 0) return kept
      kept.splice(worst, 1)
    }
  }
  const weakSet = pruneGroups([...found].sort((a, b) => a - b), o.weakP)
  const strong = pruneGroups(weakSet, o.maxP)
  const runsIn = (a, b) => groups.slice(a, b).reduce((n, g) => n + g.length, 0)
  const describe = (cps, i) => {
    const t = at(cps, i)
    const q = t.df >= 1 ? tQuantile(1 - (1 - o.confLevel) / 2, t.df) : Infinity
    const lo = t.diff - q * t.se
    const hi = t.diff + q * t.se
    const scale = Math.abs(t.before) || 1
    const ratio = (d) => (logs ? Math.expm1(d) : d / scale)
    return {
      index: t.tau,
      p: t.p,
      before: logs ? Math.exp(t.before) : t.before,
      after: logs ? Math.exp(t.after) : t.after,
      size: ratio(t.diff),
      ci: [ratio(lo), ratio(hi)],
      nBefore: t.tau - t.a,
      nAfter: t.b - t.tau,
      runsBefore: runsIn(t.a, t.tau),
      runsAfter: runsIn(t.tau, t.b),
      df: t.df,
      labelNoise: logs ? Math.expm1(t.sigmaB) : t.sigmaB / scale
    }
  }
  const changes = strong.map((_, i) => describe(strong, i))
  const strongSet = new Set(strong)
  const weak = weakSet.map((tau, i) => (strongSet.has(tau) ? undefined : describe(weakSet, i))).filter((c) => c !== undefined)
  return { changes, weak }
}

module.exports = { detectChanges, detectGroupChanges, untestable, groupTest, bestSplit, tTest, stepSize, hodgesLehmann, DEFAULTS, GROUP_DEFAULTS }
