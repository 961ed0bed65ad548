'use strict'
// --runs seq version 1 (rows labelled "seq alpha=... threshold=... max=..."),
// kept so that CSVs it wrote replay with the rule that stopped them; new runs
// use version 2 (sequential.js). Version 1: an anytime-valid confidence sequence (CS) for the median of a
// configuration's paired log ratios log(new/old), and the stopping rule on it.
//
// The CS (a sign/quantile CS in the manner of Howard and Ramdas, "Sequential
// estimation of quantiles", Bernoulli 2022, with the normal-mixture boundary
// of Howard, Ramdas, McAuliffe and Sekhon, Annals of Statistics 2021):
// let m be the median of the ratios, so that P(x < m) <= 1/2 <= P(x <= m).
// A_n = sum(1{x_i < m} - 1/2) is at most the martingale sum(1{x_i < m} - p<),
// whose steps lie in an interval of length 1, so (Hoeffding) for every
// lambda exp(lambda M_n - lambda^2 n / 8) is a nonnegative supermartingale,
// and so is its mixture over lambda ~ N(0, 1/rho):
//   sqrt(rho / (V + rho)) exp(M^2 / (2 (V + rho))),  V = n / 4.
// By Ville's inequality it ever reaches 2/a with probability <= a/2, that is
// M_n^2 >= (V + rho) log((V + rho) / (rho (a/2)^2)) =: u_n^2 for some n. So
// P(some n: #(x_i < m) >= n/2 + u_n) <= a/2, the same for #(x_i <= m) <= n/2 - u_n,
// and the order statistics [x_(d+1), x_(c)], d = floor(n/2 - u_n),
// c = ceil(n/2 + u_n), hold m at every n at once with probability >= 1 - a.
// Their running intersection does too. Nothing is assumed of the ratios but
// that each pair's conditional median is m (independent pairs of one
// distribution; under A/A, the random order of old and new within a pair
// makes log(new/old) symmetric about 0 whatever the drift or the noise).
//
// Multiplicity: each of the k configurations gets a = alpha / k (Bonferroni
// over CSs): every CS holds at every time with probability >= 1 - alpha in
// all, so the error rate holds at whatever pair each configuration stops.
//
// Decisions at every pair: interval above 0: faster; below 0: slower; inside
// ±threshold: no change; at --max-runs: inconclusive; futility: when the pairs
// the interval is predicted to need (from the spread so far, 1.4826 MAD, as
// for normal ratios) exceed --max-runs, inconclusive at once with that
// number. A futility stop calls nothing, so it cannot add an error.
const { normQuantile } = require('./distributions.js')
const { median } = require('./descriptive.js')

// The mixture's rho (in units of V = n/4): a first call possible from 17
// pairs of one sign at 12 configurations and alpha 0.05, and the narrowest
// intervals around 30-100 pairs (bench/stats-sim seq-rho).
const RHO = 0.5
// Futility is judged from this many pairs on (the MAD of fewer is too rough).
const FUTILITY_FROM = 8

/**
 * The boundary u_n for one side at level a/2 (so both sides at a).
 * @param {number} n pairs
 * @param {number} a the configuration's level (alpha / configurations)
 */
function boundary (n, a) {
  const v = n / 4 + RHO
  return Math.sqrt(v * Math.log(v / (RHO * (a / 2) ** 2)))
}

/**
 * The CS at n from the sorted ratios (log), before intersection.
 * @param {number[]} sorted ascending
 * @param {number} a
 * @returns {[number, number]}
 */
function csAt (sorted, a) {
  const n = sorted.length
  const u = boundary(n, a)
  const d = Math.floor(n / 2 - u)
  const c = Math.ceil(n / 2 + u)
  return [d >= 0 ? sorted[d] : -Infinity, c <= n ? sorted[c - 1] : Infinity]
}

/**
 * Half-width of the CS at N pairs predicted for normal ratios of spread sd.
 * @param {number} N
 * @param {number} sd
 * @param {number} a
 */
function predictedHalfWidth (N, sd, a) {
  const f = boundary(N, a) / N
  if (f >= 0.5) return Infinity
  return sd * normQuantile(0.5 + f)
}

/**
 * The least N >= from whose predicted half-width is <= want (Infinity past limit).
 * @param {number} from
 * @param {number} sd
 * @param {number} want
 * @param {number} a
 * @param {number} limit
 */
function pairsForHalfWidth (from, sd, want, a, limit) {
  if (!(want > 0)) return Infinity
  if (predictedHalfWidth(from, sd, a) <= want) return from
  let hi = Math.max(from + 1, 2 * from)
  while (predictedHalfWidth(hi, sd, a) > want) {
    if (hi > limit) return Infinity
    hi *= 2
  }
  let lo = hi / 2 >= from ? Math.floor(hi / 2) : from
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (predictedHalfWidth(mid, sd, a) <= want) hi = mid
    else lo = mid
  }
  return hi
}

/**
 * @typedef {{alpha: number, configurations: number, threshold: number, maxPairs: number, futility?: boolean}} SeqParams
 *   threshold in %; alpha over all configurations; futility: false only in simulations that
 *   check the interval's coverage when every pair is looked at up to maxPairs
 * @typedef {{n: number, verdict: 'faster'|'slower'|'no change'|'inconclusive'|'running',
 *   reason: 'above 0'|'below 0'|'inside threshold'|'max-runs'|'futility'|'running',
 *   lo: number, hi: number, center: number, needed?: number, level: number}} SeqState
 *   lo, hi, center: log ratios; needed: pairs predicted for a decision; level: 1 - alpha/configurations
 */

/**
 * Runs the rule over a configuration's ratios in pair order and returns its
 * state where it stopped (or after the last pair, still running).
 * @param {number[]} logRatios in the order the rule saw them
 * @param {SeqParams} p
 * @returns {SeqState}
 */
function runRule (logRatios, p) {
  const a = p.alpha / Math.max(1, p.configurations)
  const t = Math.log1p(p.threshold / 100)
  const sorted = []
  let lo = -Infinity
  let hi = Infinity
  /** @type {SeqState} */
  let state = { n: 0, verdict: 'running', reason: 'running', lo, hi, center: NaN, level: 1 - a }
  for (let i = 0; i < logRatios.length; i++) {
    const x = logRatios[i]
    let j = sorted.length
    sorted.push(x)
    while (j > 0 && sorted[j - 1] > x) { sorted[j] = sorted[j - 1]; j-- }
    sorted[j] = x
    const [l, h] = csAt(sorted, a)
    lo = Math.max(lo, l)
    hi = Math.min(hi, h)
    const n = i + 1
    const center = median(sorted)
    state = { n, verdict: 'running', reason: 'running', lo, hi, center, level: 1 - a }
    if (lo > 0) return { ...state, verdict: 'faster', reason: 'above 0' }
    if (hi < 0) return { ...state, verdict: 'slower', reason: 'below 0' }
    if (lo > -t && hi < t) return { ...state, verdict: 'no change', reason: 'inside threshold' }
    if (n >= p.maxPairs) return { ...state, verdict: 'inconclusive', reason: 'max-runs', needed: neededPairs(sorted, center, t, a, p.maxPairs) }
    if (n >= FUTILITY_FROM && p.futility !== false) {
      const needed = neededPairs(sorted, center, t, a, p.maxPairs)
      if (needed > p.maxPairs) return { ...state, verdict: 'inconclusive', reason: 'futility', needed }
    }
  }
  return state
}

// Pairs the CS is predicted to need for a decision: a half-width of
// max(t - |center|, |center|) (inside ±t, or clear of 0, whichever is nearer).
function neededPairs (sorted, center, t, a, maxPairs) {
  const mad = median(sorted.map((x) => Math.abs(x - center)))
  const sd = 1.4826 * mad
  const want = Math.max(t - Math.abs(center), Math.abs(center))
  if (sd === 0) return sorted.length + 1
  return pairsForHalfWidth(sorted.length, sd, want, a, 100 * maxPairs)
}

/**
 * The rule's label, as the "rule" column carries it, and its parse.
 * @param {{alpha: number, threshold: number, maxPairs: number, futility?: boolean}} p
 */
function seqLabel (p) {
  return `seq alpha=${p.alpha} threshold=${p.threshold} max=${p.maxPairs}${p.futility === false ? ' futility=off' : ''}`
}

/**
 * @param {unknown} label
 * @returns {{alpha: number, threshold: number, maxPairs: number, futility?: boolean}|undefined}
 */
function parseSeqLabel (label) {
  const m = /^seq alpha=([\d.e-]+) threshold=([\d.e-]+) max=(\d+)( futility=off)?$/.exec(String(label ?? ''))
  if (!m) return undefined
  return { alpha: Number(m[1]), threshold: Number(m[2]), maxPairs: Number(m[3]), ...(m[4] ? { futility: false } : {}) }
}

module.exports = { runRule, boundary, csAt, pairsForHalfWidth, seqLabel, parseSeqLabel, FUTILITY_FROM, RHO }
