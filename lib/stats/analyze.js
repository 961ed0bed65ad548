'use strict'
// The analysis of a compare run: per configuration, the change of the rate
// (positive = new is faster) with a 95% CI from a rank method on log rates
// (Wilcoxon signed-rank / Hodges-Lehmann on pairs, Mann-Whitney when rows
// are not paired), p, q adjusted across configurations, stars, a verdict,
// compare.R's Welch columns, a geomean, and warnings. Pure: rows in, data out.
const { signedRankTest, rankSumTest } = require('./wilcoxon.js')
const { welchColumns } = require('./welch.js')
const { adjust } = require('./adjust.js')
const { mean, median } = require('./descriptive.js')
const { normQuantile } = require('./distributions.js')
const { starsFor, decide } = require('./verdict.js')
const { warningsFor } = require('./warnings.js')
const { pairedTestFor, measureOfRows, effectFloor, applyFloor, warningsForMethod } = require('./near-deterministic.js')

const SCHEMA = 'benchrig-analysis/1'

/**
 * @typedef {{binary: string, filename: string, configuration: string,
 *   rate: number|string, pair?: number|string, order?: number|string}} Row
 * @typedef {object} Result
 * @property {string} filename
 * @property {string} configuration
 * @property {number} n_old
 * @property {number} n_new
 * @property {number} n_pairs 0 when the analysis is unpaired
 * @property {'wilcoxon-signed-rank'|'mann-whitney'|'paired-t-log'} method
 * @property {number} change % (positive = new is faster)
 * @property {[number, number]} ci % at the confidence level
 * @property {number} p
 * @property {number} q Benjamini-Hochberg across configurations
 * @property {number} q_holm Holm across configurations (used by maxRegression)
 * @property {string} stars from q
 * @property {'faster'|'slower'|'no change'|'inconclusive'} verdict
 * @property {number} [more_pairs] for inconclusive results
 * @property {{improvement: number, p: number, accuracy: [number, number, number]}} welch
 * @property {number} ci_log_width width of the CI of log(new/old) (what --runs auto reads)
 * @property {{mean: number, median: number}} old rates of the old binary
 * @property {{mean: number, median: number}} new rates of the new binary
 */

function num (v) {
  if (typeof v === 'number') return v
  if (v === undefined || v === null || v === '') return NaN
  return Number(v)
}

// Groups rows by filename + configuration, keeping first-seen order.
function groupRows (rows) {
  const groups = new Map()
  for (const row of rows) {
    const rate = num(row.rate)
    if (!(rate > 0) || (row.binary !== 'old' && row.binary !== 'new')) continue
    const key = `${row.filename}\u0000${row.configuration}`
    let g = groups.get(key)
    if (!g) {
      g = { filename: row.filename, configuration: row.configuration, rows: [] }
      groups.set(key, g)
    }
    g.rows.push({ binary: row.binary, rate, pair: num(row.pair) })
  }
  return [...groups.values()]
}

// Complete old/new pairs in pair order, or undefined when rows carry no pairs.
function pairsOf (g) {
  if (!g.rows.every((r) => Number.isFinite(r.pair))) return undefined
  const byPair = new Map()
  for (const r of g.rows) {
    const p = byPair.get(r.pair) ?? {}
    if (p[r.binary] !== undefined) return undefined // duplicate: not a paired design
    p[r.binary] = r.rate
    byPair.set(r.pair, p)
  }
  const pairs = [...byPair.entries()]
    .filter(([, p]) => p.old !== undefined && p.new !== undefined)
    .sort((a, b) => a[0] - b[0])
    .map(([, p]) => p)
  return { pairs, dropped: g.rows.length - 2 * pairs.length }
}

const toPct = (logv) => (Math.exp(logv) - 1) * 100

function analyzeGroup (g, opts) {
  const oldRates = g.rows.filter((r) => r.binary === 'old').map((r) => r.rate)
  const newRates = g.rows.filter((r) => r.binary === 'new').map((r) => r.rate)
  const paired = opts.paired === false ? undefined : pairsOf(g)
  let test
  let logRatios
  let method
  const measureTest = pairedTestFor(opts.measure)
  if (paired && paired.pairs.length >= 2) {
    logRatios = paired.pairs.map((p) => Math.log(p.new / p.old))
    if (measureTest) {
      test = measureTest.test(logRatios, { confLevel: opts.confLevel })
      method = measureTest.method
    } else {
      test = signedRankTest(logRatios, { confLevel: opts.confLevel })
      method = 'wilcoxon-signed-rank'
    }
  } else {
    test = rankSumTest(newRates.map(Math.log), oldRates.map(Math.log), { confLevel: opts.confLevel })
    method = 'mann-whitney'
  }
  const result = {
    filename: g.filename,
    configuration: g.configuration,
    n_old: oldRates.length,
    n_new: newRates.length,
    n_pairs: logRatios ? logRatios.length : 0,
    method,
    change: toPct(test.estimate),
    ci: [toPct(test.ci[0]), toPct(test.ci[1])],
    ci_log_width: test.ci[1] - test.ci[0],
    p: test.p,
    welch: welchColumns(oldRates, newRates),
    old: { mean: mean(oldRates), median: median(oldRates) },
    new: { mean: mean(newRates), median: median(newRates) }
  }
  const warnings = warningsForMethod(warningsFor({
    filename: g.filename,
    configuration: g.configuration,
    oldRates,
    newRates,
    logRatios,
    droppedRows: paired ? paired.dropped : 0
  }), method)
  return { result, warnings }
}

// Geometric mean of the per-configuration ratios; its CI propagates each
// configuration's CI as an independent normal error on the log scale.
function geomeanOf (results, confLevel) {
  const ok = results.filter((r) => Number.isFinite(r.change) && Number.isFinite(r.ci[0]) && Number.isFinite(r.ci[1]))
  if (ok.length === 0) return null
  const z = normQuantile(1 - (1 - confLevel) / 2)
  let sum = 0
  let varSum = 0
  for (const r of ok) {
    sum += Math.log1p(r.change / 100)
    const se = (Math.log1p(r.ci[1] / 100) - Math.log1p(r.ci[0] / 100)) / (2 * z)
    varSum += se * se
  }
  const m = sum / ok.length
  const se = Math.sqrt(varSum) / ok.length
  return { configurations: ok.length, change: toPct(m), ci: [toPct(m - z * se), toPct(m + z * se)] }
}

/**
 * Analyses compare rows.
 * @param {Row[]} rows
 * @param {{threshold?: number, alpha?: number, confLevel?: number,
 *   maxRegression?: number, minEffect?: number, paired?: boolean, meta?: object}} [opts]
 *   threshold: ±% inside which a CI means "no change" (default 1);
 *   maxRegression: % slowdown that counts as a regression (Holm-adjusted);
 *   minEffect: % below which a change is never faster/slower (default: the
 *   measure's resolution; the rows' "measure" column names the measure)
 * @returns {{schema: string, results: Result[], geomean: object|null,
 *   warnings: object[], meta: object, regressions: Result[]}}
 */
function analyze (rows, opts = {}) {
  const o = { threshold: 1, alpha: 0.05, confLevel: 0.95, ...opts }
  // What the rates count decides the paired test and the smallest change
  // that may be called faster or slower (lib/stats/near-deterministic.js).
  o.measure = measureOfRows(rows)
  o.minEffect = effectFloor(o.measure, opts.minEffect)
  const analysed = groupRows(rows).map((g) => analyzeGroup(g, o))
  const partial = analysed.map((a) => a.result)
  const warnings = analysed.flatMap((a) => a.warnings)
  const qs = adjust(partial.map((r) => r.p), 'BH')
  const holm = adjust(partial.map((r) => r.p), 'holm')
  // The documented shape first, in its order (filename ... welch), then the
  // fields that go beyond it; JSON output and the API share this object.
  const results = partial.map((r, i) => {
    const n = r.n_pairs || Math.min(r.n_old, r.n_new)
    const decided = decide({ change: r.change, ci: r.ci, q: qs[i], n, threshold: o.threshold, alpha: o.alpha })
    const verdict = applyFloor(decided.verdict, r.change, o.minEffect)
    const morePairs = decided.morePairs
    return {
      filename: r.filename,
      configuration: r.configuration,
      n_old: r.n_old,
      n_new: r.n_new,
      change: r.change,
      ci: r.ci,
      p: r.p,
      q: qs[i],
      stars: starsFor(qs[i]),
      verdict,
      welch: r.welch,
      n_pairs: r.n_pairs,
      method: r.method,
      q_holm: holm[i],
      ...(morePairs === undefined ? {} : { more_pairs: morePairs }),
      ci_log_width: r.ci_log_width,
      old: r.old,
      new: r.new
    }
  })
  const regressions = o.maxRegression === undefined
    ? []
    : results.filter((r) => r.q_holm < o.alpha && r.change < -Math.abs(o.maxRegression))
  return {
    schema: SCHEMA,
    results,
    geomean: geomeanOf(results, o.confLevel),
    warnings,
    meta: { threshold: o.threshold, alpha: o.alpha, confLevel: o.confLevel, maxRegression: o.maxRegression, measure: o.measure, minEffect: o.minEffect, ...(o.meta || {}) },
    regressions
  }
}

module.exports = { analyze, SCHEMA }
