'use strict'
// The statistics of analyze and compare --analyze, pure: rows in, data out;
// lib/cli/analyze.js is the command around it (flags, files, shards, printing).
// The analysis of a compare run: per configuration, the change of the rate
// (positive = new is faster) with a CI at its real level from a rank method on log rates
// (Wilcoxon signed-rank / Hodges-Lehmann on pairs, Mann-Whitney when rows
// are not paired), p, q adjusted across configurations, stars, a verdict,
// compare.R's Welch columns, a geomean, and warnings. Pure: rows in, data out.
const { signedRankTest, rankSumTest } = require('./wilcoxon.js')
const { welchColumns } = require('./welch.js')
const { adjust } = require('./adjust.js')
const { mean, median } = require('./descriptive.js')
const { normQuantile } = require('./distributions.js')
const { starsFor, decide } = require('./verdict.js')
const { warningsFor, cpuSpeedWarnings } = require('./warnings.js')
const { groupRows, pairsOf, fallbackMessage } = require('./pairing.js')
const { precisionOf } = require('./precision.js')
const { pairedTestFor, measureOfRows, effectFloor, applyFloor, warningsForMethod } = require('./near-deterministic.js')
const { seqOfRows, seqAnalysis } = require('./sequential.js')
const { crossoverRows, cpuEffectWarnings } = require('./crossover.js')

const SCHEMA = 'benchrig-analysis/1'

/**
 * @typedef {{binary: string, filename: string, configuration: string,
 *   rate: number|string, time?: number|string, pair?: number|string,
 *   seed?: number|string, order?: number|string, measure?: string,
 *   starved?: string, generator_bound?: boolean|string, executor?: string, cpu_block?: string, cpuset?: string}} Row rows pair by (seed, pair);
 *   measure: what the rates count (near-deterministic.js), empty or absent for wall;
 *   starved: a duet pair's starved side; generator_bound: a bench.http() run's (compare's CSV)
 * @typedef {object} Result
 * @property {string} filename
 * @property {string} configuration
 * @property {number} n_old
 * @property {number} n_new
 * @property {number} n_pairs 0 when the analysis is unpaired
 * @property {'wilcoxon-signed-rank'|'mann-whitney'|'paired-t-log'} method
 * @property {number} change % (positive = new is faster)
 * @property {[number, number]} ci % at conf_level
 * @property {number} conf_level the level the CI really has: the one asked,
 *   or lower when the data cannot give it (tiny samples, ties, zeroes)
 * @property {number} p
 * @property {number} q Benjamini-Hochberg across configurations
 * @property {number} q_holm Holm across configurations of p
 * @property {number} [p_regression] with maxRegression: one-sided p of "slower than -maxRegression%"
 * @property {number} [q_regression] p_regression Holm-adjusted (the gate fires below alpha / 2)
 * @property {string} stars from q
 * @property {'faster'|'slower'|'no change'|'inconclusive'} verdict
 * @property {number} [more_pairs] inconclusive: pairs more for a CI of ±threshold/2,
 *   predicted from the spread of the ratios (never from the change)
 * @property {'width'|'too-few-pairs'|'multiplicity'} [blocker] inconclusive: what stops a call
 * @property {{rule: string, pairs: number, reason: string, evalue?: number, needed?: number}} [stop] --runs seq:
 *   where and why the rule stopped the configuration
 * @property {{improvement: number, p: number, accuracy: [number, number, number]}} welch
 * @property {number} ci_log_width width of the CI of log(new/old)
 * @property {{mean: number, median: number}} old rates of the old binary
 * @property {{mean: number, median: number}} new rates of the new binary
 */

const toPct = (logv) => (Math.exp(logv) - 1) * 100

// Below this median time per run, timer resolution, JIT tiers and
// scheduling dominate: such configurations swing by large factors.
const SHORT_TIME_S = 0.05

function analyzeGroup (g, opts) {
  const oldRates = g.rows.filter((r) => r.binary === 'old').map((r) => r.rate)
  const newRates = g.rows.filter((r) => r.binary === 'new').map((r) => r.rate)
  let paired
  let fallback
  if (opts.paired !== false) {
    const p = pairsOf(g)
    if (p.pairs && p.pairs.length >= 2) paired = p
    else fallback = p.pairs ? { unpaired: 'too-few-pairs' } : p
  }
  let test
  let logRatios
  /** @type {Result['method']} */
  let method
  let precision
  const measureTest = pairedTestFor(opts.measure)
  if (paired) {
    logRatios = paired.pairs.map((p) => Math.log(p.new / p.old))
    if (measureTest) {
      test = measureTest.test(logRatios, { confLevel: opts.confLevel })
      method = measureTest.method
    } else {
      test = signedRankTest(logRatios, { confLevel: opts.confLevel })
      method = 'wilcoxon-signed-rank'
    }
    precision = precisionOf({ logRatios }, opts.confLevel)
  } else {
    const logNew = newRates.map(Math.log)
    const logOld = oldRates.map(Math.log)
    test = rankSumTest(logNew, logOld, { confLevel: opts.confLevel })
    method = 'mann-whitney'
    precision = precisionOf({ logOld, logNew }, opts.confLevel)
  }
  const gate = opts.maxRegression === undefined ? undefined : regressionP(opts.maxRegression, logRatios, oldRates, newRates)
  const result = {
    filename: g.filename,
    configuration: g.configuration,
    n_old: oldRates.length,
    n_new: newRates.length,
    n_pairs: logRatios ? logRatios.length : 0,
    method,
    change: toPct(test.estimate),
    ci: /** @type {[number, number]} */ ([toPct(test.ci[0]), toPct(test.ci[1])]),
    conf_level: test.confLevel,
    ci_log_width: test.ci[1] - test.ci[0],
    scale: precision.scale,
    p: test.p,
    ...(gate === undefined ? {} : { p_regression: gate }),
    welch: welchColumns(oldRates, newRates),
    old: { mean: mean(oldRates), median: median(oldRates) },
    new: { mean: mean(newRates), median: median(newRates) }
  }
  const times = g.rows.map((r) => r.time).filter((t) => t > 0)
  const warnings = warningsForMethod(warningsFor({
    filename: g.filename,
    configuration: g.configuration,
    oldRates,
    newRates,
    logRatios,
    droppedRows: paired ? paired.dropped : 0,
    medianTime: times.length > 0 ? median(times) : undefined,
    // Under instructions `time` is a count (10^9 instructions), and a short
    // section is counted as exactly as a long one: no timer to outrun.
    // Under heap it is MB allocated: no timer either.
    shortTime: opts.measure === 'instructions' || opts.measure === 'heap' ? undefined : SHORT_TIME_S,
    fallback: fallback && fallback.unpaired !== 'no-pairs' ? fallbackMessage(fallback) : undefined,
    executor: g.executor
  }), method)
  return { result, warnings, pairs: paired ? paired.pairs : undefined, fallback }
}

// One-sided p of "the change is below -pct%": the signed-rank (or rank-sum)
// test of the log ratios against log(1 - pct/100), alternative "less".
function regressionP (pct, logRatios, oldRates, newRates) {
  const bound = Math.log1p(-Math.abs(pct) / 100)
  if (logRatios) return signedRankTest(logRatios.map((d) => d - bound), { alternative: 'less' }).p
  return rankSumTest(newRates.map((r) => Math.log(r) - bound), oldRates.map(Math.log), { alternative: 'less' }).p
}

/**
 * Geometric mean of the change over configurations. Configurations of one
 * file share a process per run, so their errors are correlated and cannot
 * be combined as independent: the log ratios are first averaged over the
 * configurations within each pair (the pairs present in every
 * configuration), and the interval is the signed-rank one over those
 * per-pair means. Without common pairs (unpaired rows) the old way is the
 * only one left, and it says so (method "independent"; the text output
 * adds that it is too narrow when configurations share processes).
 */
function geomeanOf (analysed, results, confLevel) {
  const ok = results.filter((r) => Number.isFinite(r.change))
  if (ok.length === 0) return null
  const allPaired = analysed.every((a) => a.pairs)
  if (allPaired) {
    const maps = analysed.map((a) => new Map(a.pairs.map((p) => [p.key, Math.log(p.new / p.old)])))
    const common = [...maps[0].keys()].filter((k) => maps.every((m) => m.has(k)))
    if (common.length >= 2) {
      const means = common.map((k) => maps.reduce((s, m) => s + m.get(k), 0) / maps.length)
      const t = signedRankTest(means, { confLevel })
      return { configurations: results.length, change: toPct(t.estimate), ci: [toPct(t.ci[0]), toPct(t.ci[1])], method: 'per-pair', pairs: common.length, conf_level: t.confLevel }
    }
  }
  const z = normQuantile(1 - (1 - confLevel) / 2)
  const fin = ok.filter((r) => Number.isFinite(r.ci[0]) && Number.isFinite(r.ci[1]))
  if (fin.length === 0) return null
  let sum = 0
  let varSum = 0
  for (const r of fin) {
    sum += Math.log1p(r.change / 100)
    const se = (Math.log1p(r.ci[1] / 100) - Math.log1p(r.ci[0] / 100)) / (2 * z)
    varSum += se * se
  }
  const m = sum / fin.length
  const se = Math.sqrt(varSum) / fin.length
  return { configurations: fin.length, change: toPct(m), ci: [toPct(m - z * se), toPct(m + z * se)], method: 'independent', pairs: 0, conf_level: confLevel }
}

/**
 * Analyses compare rows.
 * @param {Row[]} rows
 * @param {{threshold?: number, alpha?: number, confLevel?: number,
 *   maxRegression?: number, minEffect?: number, paired?: boolean, meta?: object}} [opts]
 *   threshold: ±% inside which a CI means "no change" (default 1);
 *   maxRegression: % slowdown that counts as a regression (one-sided test
 *   against -maxRegression%, Holm-adjusted);
 *   minEffect: % below which a change is never faster/slower (default: the
 *   measure's resolution; the rows' "measure" column names the measure)
 * @returns {{schema: string, results: Result[], geomean: object|null,
 *   warnings: object[], meta: object, regressions: Result[]}}
 */
function analyze (rows, opts = {}) {
  /** @type {{threshold: number, alpha: number, confLevel: number, maxRegression?: number,
   *   minEffect?: number, paired?: boolean, meta?: object, measure?: string}} */
  const o = { threshold: 1, alpha: 0.05, confLevel: 0.95, ...opts }
  // What the rates count decides the paired test and the smallest change
  // that may be called faster or slower (lib/stats/near-deterministic.js).
  o.measure = measureOfRows(rows)
  o.minEffect = effectFloor(o.measure, opts.minEffect)
  // A duet crossover (crossover.js): its CPU effect, then each block of two
  // pairs as one pair with the effect removed, for every analysis below.
  const cpuEffect = [...cpuSpeedWarnings(rows), ...cpuEffectWarnings(rows)]
  const executors = new Map(rows.map((r) => [`${r.filename}\u0000${r.configuration}`, r.executor]))
  const perPair = rows
  rows = crossoverRows(rows)
  // Rows of --runs seq: every pair measured is analysed; the verdict is the
  // rule's, the interval its confidence sequence over every pair, and the
  // result says at which pair the rule stopped (seqAnalysis: compare's
  // summary reads the same).
  const seq = seqOfRows(rows)
  const stops = seq ? new Map(seqAnalysis(rows, seq).map((s) => [`${s.filename}\u0000${s.configuration}`, s])) : undefined
  const analysed = groupRows(rows).map((g) => analyzeGroup({ ...g, executor: executors.get(`${g.filename}\u0000${g.configuration}`) }, o))
  const partial = analysed.map((a) => a.result)
  const warnings = analysed.flatMap((a) => a.warnings)
  // starved pairs are counted per pair, before the blocks
  warnings.push(...starvedWarnings(rows === perPair ? rows : perPair), ...generatorBoundWarnings(rows), ...cpuEffect)
  if (analysed.some((a) => a.fallback && a.fallback.unpaired === 'no-pairs')) {
    warnings.unshift({ filename: '', configuration: '', kind: 'unpaired', message: fallbackMessage({ unpaired: 'no-pairs' }) })
  }
  const qs = adjust(partial.map((r) => r.p), 'BH')
  const holm = adjust(partial.map((r) => r.p), 'holm')
  const holmRegression = o.maxRegression === undefined ? [] : adjust(partial.map((r) => r.p_regression), 'holm')
  // The documented shape first, in its order (filename ... welch), then the
  // fields that go beyond it; JSON output and the API share this object.
  const results = partial.map((r, i) => {
    const n = r.n_pairs || Math.min(r.n_old, r.n_new)
    const decided = decide({ change: r.change, ci: r.ci, q: qs[i], n, threshold: o.threshold, alpha: o.alpha, scale: r.scale, paired: r.n_pairs > 0, confLevel: o.confLevel })
    const verdict = applyFloor(decided.verdict, r.change, o.minEffect)
    const { morePairs, blocker } = decided
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
      ...(blocker === undefined ? {} : { blocker }),
      conf_level: r.conf_level,
      ci_log_width: r.ci_log_width,
      ...(r.p_regression === undefined ? {} : { p_regression: r.p_regression, q_regression: holmRegression[i] }),
      old: r.old,
      new: r.new
    }
  })
  if (stops) for (const r of results) Object.assign(r, seqResult(r, stops.get(`${r.filename}\u0000${r.configuration}`), o.minEffect))
  fitWarnings(warnings, stops, rows)
  // The gate is a one-sided test against -PCT at alpha / 2, Holm-adjusted:
  // it fires when the upper end of the (1 - alpha) CI lies below -PCT, so a
  // true change of exactly -PCT fires in at most alpha / 2 of runs. Under
  // --runs seq a fixed-sample test on pairs the rule chose to stop at is not
  // valid; the gate is the rule's own: called slower, with the upper end of
  // its interval (anytime-valid at its stated level) below -PCT.
  const regressions = o.maxRegression === undefined
    ? []
    : stops
      ? results.filter((r) => r.verdict === 'slower' && r.ci[1] < -o.maxRegression)
      : results.filter((r) => r.q_regression < o.alpha / 2)
  return {
    schema: SCHEMA,
    results,
    geomean: geomeanOf(analysed, results, o.confLevel),
    warnings,
    meta: { threshold: o.threshold, alpha: o.alpha, confLevel: o.confLevel, maxRegression: o.maxRegression, measure: o.measure, minEffect: o.minEffect, ...(seq ? { rule: seq.label } : {}), ...(o.meta || {}) },
    regressions
  }
}

/**
 * Warnings that fit the design: no "too few runs" where the seq rule chose to
 * stop (its interval holds at any pair); no --cpuset advice for duet rows
 * (duet pins each side itself and refuses --cpuset). Changed in place.
 * @param {{filename: string, configuration: string, kind: string, message: string}[]} warnings
 * @param {Map<string, {reason: string}>|undefined} stops
 * @param {Row[]} rows
 */
function fitWarnings (warnings, stops, rows) {
  const duet = rows.length > 0 && rows.every((r) => /** @type {any} */ (r).executor === 'duet')
  for (let i = warnings.length - 1; i >= 0; i--) {
    const w = warnings[i]
    const s = stops && stops.get(`${w.filename}\u0000${w.configuration}`)
    if (w.kind === 'too-few-runs' && s && s.reason !== 'running') warnings.splice(i, 1)
    else if (duet && w.kind === 'high-variance') w.message = w.message.replace(', pin with --cpuset', '')
  }
}

// --duet pairs where one side got less CPU in its section than the other
// (lib/compare/duet.js): a load that hit one side only. Counted per
// configuration; the verdict keeps them (docs/compare.md says what they do).
function starvedWarnings (rows) {
  return tallyPerConfiguration(rows, (r) => r.binary === 'old', (r) => Boolean(r.starved))
    .map((c) => ({ filename: c.filename, configuration: c.configuration, kind: 'starved', message: `${c.hits} duet pair(s) where one side got too little CPU in its measured section (the "starved" column): something else ran on that side's CPUs; such a pair measures the load, not the binaries` }))
}

/**
 * Per configuration, its rows that `counted` keeps (runs) and how many of
 * them `hit`; only configurations with a hit.
 * @param {Row[]} rows
 * @param {(r: Row) => boolean} counted
 * @param {(r: Row) => boolean} hit
 * @returns {{filename: string, configuration: string, runs: number, hits: number}[]}
 */
function tallyPerConfiguration (rows, counted, hit) {
  const counts = new Map()
  for (const r of rows) {
    if (!counted(r)) continue
    const key = `${r.filename}\u0000${r.configuration}`
    const c = counts.get(key) ?? { filename: r.filename, configuration: r.configuration, runs: 0, hits: 0 }
    c.runs++
    if (hit(r)) c.hits++
    counts.set(key, c)
  }
  return [...counts.values()].filter((c) => c.hits > 0)
}

// bench.http() runs in which the load generator used nearly all of its CPUs
// (the generator_bound column): under the wall measure their requests per
// second are the client's limit, so a verdict on them says little about the
// server. The server-cpu and heap measures divide by the server's own cost
// and stay meaningful, so they are not warned about.
function generatorBoundWarnings (rows) {
  const counted = (r) => r.measure !== 'server-cpu' && r.measure !== 'heap' &&
    r.generator_bound !== undefined && r.generator_bound !== null && r.generator_bound !== ''
  return tallyPerConfiguration(rows, counted, (r) => r.generator_bound === true || r.generator_bound === 'true').map((c) => ({
    filename: c.filename,
    configuration: c.configuration,
    kind: 'generator-bound',
    message: `in ${c.hits} of ${c.runs} runs the load generator used its CPUs to the full (the "generator_bound" column): requests per second then measure the client, not the server; compare with --measure server-cpu (requests per server CPU-second), or give the generator more threads or CPUs of its own`
  }))
}

/**
 * The fields the seq rule decides: its interval at its level over every
 * pair, its verdict, at which pair it stopped and why, its e-value there, and
 * the pairs it predicts a decision needs (lib/stats/sequential.js seqAnalysis).
 * @param {Result} r
 * @param {import('./sequential.js').SeqVerdict} s
 * @param {number} minEffect
 */
function seqResult (r, s, minEffect) {
  return {
    ci: /** @type {[number, number]} */ ([toPct(s.lo), toPct(s.hi)]),
    conf_level: s.level,
    ci_log_width: s.hi - s.lo,
    verdict: applyFloor(s.verdict, r.change, minEffect),
    blocker: undefined,
    stop: { rule: 'seq', pairs: s.stopAt, reason: s.reason, ...(s.evalue === undefined ? {} : { evalue: s.evalue }), ...(s.needed === undefined ? {} : { needed: s.needed }) },
    ...(s.needed !== undefined && Number.isFinite(s.needed) ? { more_pairs: Math.max(0, s.needed - s.pairs) } : {})
  }
}

module.exports = { analyze, SCHEMA }
