'use strict'
// The rule of --runs seq, pure over rows: compare stops on it, analyze replays it on a CSV;
// lib/compare/sequential.js is the driver that runs pairs in rounds until it says stop.
// --runs seq: the stopping rule over a suite's configurations, version 3
// (rows labelled "seq v3 alpha=... threshold=... max=..."; version 2 rows,
// "seq v2 ...", replay with version 2's earlier futility). Rows of version
// 1 ("seq alpha=..."; an order-statistic CS at alpha / K, Bonferroni) replay
// with sequential-quantile.js, so a CSV analysed later gets the answer of the
// rule that stopped it.
//
// Evidence: per configuration, the betting e-processes of betting-cs.js for
// its shift theta of log(new/old): at theta = 0 (faster/slower), -t and +t
// (t = log(1 + threshold): "no change").
//
// Faster/slower, over the K configurations at once, by e-BH (e-bh.js) after
// every pair: e_k = max(W+_k(0), W-_k(0)) / 2, the wealth where configuration
// k stands (frozen where it stopped), lowered to 0 for a configuration that
// stopped as "no change". Each W_k is a martingale under its null with respect
// to everything the rule sees (the pairs of every configuration, in rounds of
// one pair per open file): the coin of pair i (order, or CPU-set draw) is
// independent of all before it. So e_k, stopped at whatever round the rule
// stopped k (a stopping time, even when it depends on the others), is an
// e-value, and e-BH over the stopped e-values keeps the false discovery rate
// at most alpha; under A/A the chance of any faster/slower call in the suite.
// A call is never undone: a called configuration's e-value is frozen at
// e_k >= K / (alpha R_t), those R_t values stay, so every later e-BH (the
// last one included) rejects at least R_t and rejects k again. The last
// e-BH, over every configuration's stopped e-value, is the verdict; it may
// call a configuration that stopped for futility or --max-runs when later
// calls lowered the bar (R grew).
//
// No change: the CS at level 1 - alpha (W+(-t) >= 2/alpha and W-(t) >= 2/alpha:
// every theta outside ±t rejected) inside ±t, per configuration, as the
// fixed designs' 95% interval inside the threshold. A called configuration
// is faster/slower even when also inside ±t (checked first).
//
// Intervals reported: for the R configurations called, the CS at level
// 1 - alpha R / K (e-BY: Xu, Wang and Ramdas, "Post-selection inference for
// e-value based confidence intervals", 2024: intervals at that level over an
// e-BH selection keep the false coverage rate <= alpha; 0 lies outside each by
// construction); for the others the CS at 1 - alpha. Each reported interval
// contains its configuration's CS at 1 - alpha at its stop, which covers the
// true shift with probability >= 1 - alpha whatever the stopping.
//
// Futility: a configuration is given up (inconclusive) only from the pair
// count at which a perfect run of evidence could have decided (wealth 2/alpha,
// the lowest bar of either decision), and no earlier than FUTILITY_MIN pairs,
// and then when the pairs predicted for a decision at the spread seen so far,
// with the centre FUTILITY_Z standard errors nearer that decision, exceed
// --max-runs; it says how many (at the centre itself). Version 2 gave up from
// the first of those counts on the centre itself: under a noisy 2-CPU machine
// it abandoned ~60% of true 7% changes that --max-runs pairs call
// (bench/stats-sim/two-cpus.md). A futility stop calls nothing, so it adds
// no error.
const { Wealth, predictableScales, csAt, leastPairsFor, pairsForWealth, madSorted, medianOf, insertSorted, scaleOf, SCALE_FLOOR } = require('./betting-cs.js')
const { eBH } = require('./e-bh.js')
const v1 = require('./sequential-quantile.js')
const { groupRows, pairsOf } = require('./pairing.js')
const { crossoverRows, isCollapsed } = require('./crossover.js')

// Futility of version 3 (bench/stats-sim/two-cpus.js): not before this many
// pairs (a crossover's blocks), whose spread then holds the CPU and order
// effects, and only when the centre FUTILITY_Z standard errors nearer a
// decision would still need more than --max-runs.
const FUTILITY_MIN = 10
const FUTILITY_Z = 1.645

/**
 * @typedef {{alpha: number, threshold: number, maxPairs: number, futility?: boolean, version?: 1|2|3}} SeqParams
 *   threshold in %; alpha over all configurations; futility: false only in simulations that
 *   check the intervals when every pair is looked at up to maxPairs; version: 3 unless rows say 1 or 2
 *   (2: futility from the first pair count that could decide, on the centre seen)
 * @typedef {{n: number, verdict: 'faster'|'slower'|'no change'|'inconclusive'|'running',
 *   reason: 'above 0'|'below 0'|'inside threshold'|'max-runs'|'futility'|'running',
 *   lo: number, hi: number, center: number, needed?: number, level: number, evalue?: number, bar?: number}} SeqState
 *   lo, hi, center: log ratios; needed: pairs predicted for a decision; level: of [lo, hi];
 *   evalue: for faster/slower, at the stop, and bar: what the next call's e-value must reach (version 2)
 */

/**
 * Runs the rule over the suite's configurations, pair by pair (round i adds
 * every configuration's i-th ratio), and returns each one's state where it
 * stopped, or after its last pair when it is still running.
 * @param {number[][]} series per configuration, its log ratios in the order the rule saw them
 * @param {SeqParams} p
 * @param {{onCall?: (round: number, index: number) => void, intervals?: boolean}} [opts]
 *   onCall: told of every call as it is made (the simulation checks that the last e-BH keeps
 *   each one); intervals: false leaves lo and hi NaN (the rule's loop needs only the verdicts)
 * @returns {SeqState[]}
 */
function runSuite (series, p, { onCall, intervals = true } = {}) {
  const k = series.length
  const t = Math.log1p(p.threshold / 100)
  const bar = 2 / p.alpha
  // version 3: futility waits for FUTILITY_MIN pairs and gives up only when
  // even an optimistic effect (the centre moved FUTILITY_Z standard errors
  // toward a decision) could not be decided within --max-runs
  const late = p.version !== 2
  const futilityFrom = late ? Math.max(leastPairsFor(bar), FUTILITY_MIN) : leastPairsFor(bar)
  const cs = series.map(() => ({ wealth: new Wealth([0, -t, t]), sorted: /** @type {number[]} */ ([]), n: 0, e: 0, running: true, called: false, noChange: false, reason: /** @type {SeqState['reason']} */ ('running'), needed: /** @type {number|undefined} */ (undefined) }))
  const longest = Math.max(0, ...series.map((s) => s.length))
  let calls = 0
  for (let i = 0; i < longest; i++) {
    const fresh = []
    cs.forEach((c, j) => {
      if (!c.running || series[j].length <= i) return
      const scale = scaleOf(c.sorted)
      const x = series[j][i]
      c.wealth.add(x, scale)
      insertSorted(c.sorted, x)
      c.n = i + 1
      const w0 = c.wealth.at(0)
      c.e = Math.max(w0.up, w0.down) / 2
      fresh.push(j)
    })
    const { rejected } = eBH(cs.map((c) => (c.noChange ? 0 : c.e)), p.alpha)
    for (const j of rejected) {
      const c = cs[j]
      if (!c.running) continue
      c.running = false
      c.called = true
      calls++
      if (onCall) onCall(i + 1, j)
    }
    for (const j of fresh) {
      const c = cs[j]
      if (!c.running) continue
      if (c.wealth.at(1).up >= bar && c.wealth.at(2).down >= bar) {
        Object.assign(c, { running: false, noChange: true, reason: 'inside threshold' })
        continue
      }
      const needsCheck = c.n >= p.maxPairs || (p.futility !== false && c.n >= futilityFrom)
      if (!needsCheck) continue
      const callBar = 2 * k / (p.alpha * (calls + 1))
      const needed = neededPairs(c.sorted, t, callBar, bar, p.maxPairs)
      if (c.n >= p.maxPairs) Object.assign(c, { running: false, reason: 'max-runs', needed })
      else if ((late ? neededPairs(c.sorted, t, callBar, bar, p.maxPairs, FUTILITY_Z) : needed) > p.maxPairs) Object.assign(c, { running: false, reason: 'futility', needed })
    }
  }
  // the verdict: e-BH over every configuration's e-value where it stopped
  const { rejected } = eBH(cs.map((c) => (c.noChange ? 0 : c.e)), p.alpha)
  const called = new Set(rejected)
  const r = called.size
  return cs.map((c, j) => {
    const xs = series[j].slice(0, c.n)
    const level = called.has(j) ? 1 - p.alpha * r / k : 1 - p.alpha
    const [lo, hi] = intervals ? csAt(xs, predictableScales(xs), 1 - level) : [NaN, NaN]
    const center = c.n > 0 ? medianOf(c.sorted) : NaN
    const w0 = c.n > 0 ? c.wealth.at(0) : { up: 1, down: 1 }
    /** @type {SeqState} */
    const base = { n: c.n, verdict: 'running', reason: 'running', lo, hi, center, level, evalue: c.noChange ? 0 : c.e, bar: 2 * k / (p.alpha * (r + 1)) }
    if (called.has(j)) {
      const up = w0.up >= w0.down
      return { ...base, verdict: up ? 'faster' : 'slower', reason: up ? 'above 0' : 'below 0' }
    }
    if (c.noChange) return { ...base, verdict: 'no change', reason: 'inside threshold' }
    if (c.reason === 'max-runs' || c.reason === 'futility') return { ...base, verdict: 'inconclusive', reason: c.reason, needed: c.needed }
    return base
  })
}

// Pairs predicted for a decision at the spread seen so far (1.4826 MAD, as
// for normal ratios): a call (the wealth at 0 reaching callBar, e-BH's bar
// with one more call) or "no change" (the wealth at ±t reaching 2 / alpha),
// whichever comes first; Infinity past 100 x --max-runs.
// z > 0: an optimistic prediction, the centre moved z standard errors toward
// each decision (futility of version 3 gives up only on that one).
function neededPairs (sorted, t, callBar, bar, maxPairs, z = 0) {
  const center = medianOf(sorted)
  const sd = Math.max(SCALE_FLOOR, 1.4826 * madSorted(sorted))
  const shift = z * sd / Math.sqrt(Math.max(1, sorted.length))
  const n = Math.min(pairsForWealth(Math.abs(center) + shift, sd, callBar), pairsForWealth(t - Math.max(0, Math.abs(center) - shift), sd, bar))
  return n > 100 * maxPairs ? Infinity : n
}

/**
 * The rule's label, as the "rule" column carries it, and its parse (both versions).
 * @param {SeqParams} p
 */
function seqLabel (p) {
  if (p.version === 1) return v1.seqLabel(p)
  return `seq v${p.version ?? 3} alpha=${p.alpha} threshold=${p.threshold} max=${p.maxPairs}${p.futility === false ? ' futility=off' : ''}`
}

/**
 * @param {unknown} label
 * @returns {SeqParams|undefined}
 */
function parseSeqLabel (label) {
  const m = /^seq v([23]) alpha=([\d.e-]+) threshold=([\d.e-]+) max=(\d+)( futility=off)?$/.exec(String(label ?? ''))
  if (m) return { version: /** @type {2|3} */ (Number(m[1])), alpha: Number(m[2]), threshold: Number(m[3]), maxPairs: Number(m[4]), ...(m[5] ? { futility: false } : {}) }
  const old = v1.parseSeqLabel(label)
  return old && { version: 1, ...old }
}

/**
 * The seq rule of rows: the label every row carries in its "rule" column, or
 * undefined when the rows were not stopped by --runs seq.
 * @param {Record<string, any>[]} rows
 * @returns {(SeqParams & {label: string})|undefined}
 */
function seqOfRows (rows) {
  if (rows.length === 0) return undefined
  const label = rows[0].rule
  const p = parseSeqLabel(label)
  if (!p) return undefined
  for (const r of rows) if (r.rule !== label) return undefined
  return { ...p, label: String(label) }
}

/**
 * The rule's state for every configuration of the rows: the same function
 * decides during the run and in any later analysis of its CSV, so both give
 * the same stops. The configurations counted (K) are those in the rows
 * (every configuration of every file runs in every pair).
 * @param {object[]} rows
 * @param {SeqParams} p
 * @param {{intervals?: boolean}} [opts] intervals: false skips them (version 2; lo and hi NaN)
 * @returns {(SeqState & {filename: string, configuration: string, keys: string[], pairs: number})[]}
 *   keys: the (seed, pair) keys up to the stop, in run order; pairs: complete pairs in the rows
 */
function seqStates (rows, p, opts = {}) {
  // A duet crossover: the rule sees one value per block of two pairs (the
  // CPU effect removed, crossover.js), so --max-runs counts two pairs a block.
  rows = crossoverRows(rows)
  if (isCollapsed(rows)) p = { ...p, maxPairs: Math.max(1, Math.floor(p.maxPairs / 2)) }
  const groups = groupRows(rows)
  const pairs = groups.map((g) => pairsOf(g).pairs ?? [])
  const series = pairs.map((ps) => ps.map((x) => Math.log(x.new / x.old)))
  const states = p.version === 1
    ? series.map((xs) => v1.runRule(xs, { ...p, configurations: groups.length }))
    : runSuite(series, p, opts)
  return groups.map((g, i) => ({ filename: g.filename, configuration: g.configuration, ...states[i], keys: pairs[i].slice(0, states[i].n).map((x) => x.key), pairs: pairs[i].length }))
}

/**
 * @typedef {object} SeqVerdict
 * @property {string} filename
 * @property {string} configuration
 * @property {'faster'|'slower'|'no change'|'inconclusive'} verdict the rule's (a configuration it has
 *   not stopped is inconclusive)
 * @property {SeqState['reason']} reason
 * @property {number} stopAt the pair at which the rule stopped it (its pairs so far when still running)
 * @property {number} pairs every complete pair measured
 * @property {number} lo log ratio: the interval's ends, over every pair measured
 * @property {number} hi
 * @property {number} level of [lo, hi]
 * @property {number} [evalue] the e-value where the rule stopped it (version 2)
 * @property {number} [bar] what e-BH asks of the next call
 * @property {number} [needed] an inconclusive configuration: pairs predicted for a decision, from the
 *   spread of every pair measured (Infinity past 100 x --max-runs)
 */

/**
 * The one analysis of rows of --runs seq: compare's summary, its per-file
 * lines and benchrig analyze all read it, so the same rows give the same
 * verdicts, pairs, intervals and "would need" figures. The verdict is the
 * rule's, made where it stopped each configuration (a call is never undone);
 * the interval uses every pair measured, the later ones too (a file goes on
 * while one of its configurations runs): a confidence sequence covers at
 * every pair at once, so at the stop and at the last pair together.
 *   not called: the CS at 1 - alpha at the stop intersected with the one at
 *     the last pair (both cover on the same event of probability >= 1 - alpha);
 *   called (R of K): the CS at 1 - alpha R / K at the last pair (the end of the
 *     run is a stopping time, so that wealth is an e-value too, and e-BY holds
 *     for any selection; an intersection with the stop's would not be one).
 * Version 1 rows keep that rule's interval at its stop.
 * @param {object[]} rows
 * @param {SeqParams} p
 * @returns {SeqVerdict[]}
 */
function seqAnalysis (rows, p) {
  // a duet crossover's blocks, as seqStates sees them: compare's stop records
  // (raw rows) and analyze (rows it collapsed already) read the same blocks
  rows = crossoverRows(rows)
  const maxPairs = isCollapsed(rows) ? Math.max(1, Math.floor(p.maxPairs / 2)) : p.maxPairs
  const states = seqStates(rows, p)
  const groups = groupRows(rows)
  const t = Math.log1p(p.threshold / 100)
  const k = states.length
  const r = states.filter((s) => s.verdict === 'faster' || s.verdict === 'slower').length
  return states.map((s, i) => {
    const xs = (pairsOf(groups[i]).pairs ?? []).map((x) => Math.log(x.new / x.old))
    const called = s.verdict === 'faster' || s.verdict === 'slower'
    let lo = s.lo
    let hi = s.hi
    if (p.version !== 1 && xs.length > s.n) {
      const [l, h] = csAt(xs, predictableScales(xs), 1 - s.level)
      if (called) {
        lo = l
        hi = h
      } else if (Math.max(lo, l) <= Math.min(hi, h)) {
        lo = Math.max(lo, l)
        hi = Math.min(hi, h)
      } else {
        // disjoint: a miss of the sequence (probability <= alpha); the last pair's stands
        lo = l
        hi = h
      }
    }
    const verdict = s.verdict === 'running' ? 'inconclusive' : s.verdict
    let needed = s.needed
    if (verdict === 'inconclusive' && p.version !== 1 && xs.length > 0) {
      const sorted = xs.slice().sort((a, b) => a - b)
      needed = neededPairs(sorted, t, 2 * k / (p.alpha * (r + 1)), 2 / p.alpha, maxPairs)
    }
    /** @type {SeqVerdict} */
    const out = { filename: s.filename, configuration: s.configuration, verdict, reason: s.reason, stopAt: s.n, pairs: xs.length, lo, hi, level: s.level }
    if (s.evalue !== undefined) out.evalue = s.evalue
    if (s.bar !== undefined) out.bar = s.bar
    if (needed !== undefined) out.needed = needed
    return out
  })
}

module.exports = { runSuite, seqLabel, parseSeqLabel, seqOfRows, seqStates, seqAnalysis, neededPairs }
