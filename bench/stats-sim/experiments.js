'use strict'
// The acceptance experiments of the analysis under the noise model
// (model.js). Each takes {sims, seed, noise} and returns its figures, with
// the figure of the rule it replaced where that reproduces a known failure.
// The test suite runs them short (test/stats/sim-acceptance.test.js);
// run.js runs them long and prints the figures quoted in docs/compare.md.
const { createMachine, suite } = require('./model.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { runAuto } = require('../../lib/compare/auto.js')
const { normQuantile } = require('../../lib/stats/distributions.js')
const { groupRows, pairsOf } = require('../../lib/stats/pairing.js')
const { robustScale, predictedHalfWidth, pairsForHalfWidth } = require('../../lib/stats/precision.js')
const { median } = require('../../lib/stats/descriptive.js')

// Seeds of the simulations of one experiment: distinct per simulation.
const simSeed = (seed, i) => (seed * 1000003 + i * 7919) >>> 0

/** Binomial standard error of a rate, for reporting. */
const se = (rate, n) => Math.sqrt(rate * (1 - rate) / n)

/**
 * Geomean CI coverage: 2 files x 4 configurations whose true changes spread
 * over -4%..+4%, 20 pairs. Also the coverage of the former CI, which
 * combined the configurations' CIs as if independent.
 */
function geomeanCoverage ({ sims, seed, noise = 'realistic', pairs = 20 }) {
  let covered = 0
  let coveredIndependent = 0
  let corrSum = 0
  for (let i = 0; i < sims; i++) {
    const m = createMachine(simSeed(seed, i), noise)
    const files = suite(2, 4, (f, c) => Math.exp((m.rng.uniform() - 0.5) * 0.08))
    const truthLog = files.flatMap((f) => f.configs).reduce((s, c) => s + Math.log(c.effect), 0) / 8
    const truth = (Math.exp(truthLog) - 1) * 100
    const rows = m.runPairs(files, pairs)
    const a = analyze(rows)
    if (a.geomean.ci[0] <= truth && truth <= a.geomean.ci[1]) covered++
    const ind = independentGeomean(a.results)
    if (ind[0] <= truth && truth <= ind[1]) coveredIndependent++
    corrSum += ratioCorrelation(rows, files[0])
  }
  return {
    sims,
    coverage: covered / sims,
    se: se(covered / sims, sims),
    formerCoverage: coveredIndependent / sims,
    meanRatioCorrelation: corrSum / sims
  }
}

// The former geomean CI: per-configuration CIs combined as independent normals.
function independentGeomean (results) {
  const z = normQuantile(0.975)
  let sum = 0
  let v = 0
  for (const r of results) {
    sum += Math.log1p(r.change / 100)
    const s = (Math.log1p(r.ci[1] / 100) - Math.log1p(r.ci[0] / 100)) / (2 * z)
    v += s * s
  }
  const mlog = sum / results.length
  const s = Math.sqrt(v) / results.length
  return [(Math.exp(mlog - z * s) - 1) * 100, (Math.exp(mlog + z * s) - 1) * 100]
}

// Correlation over pairs between the log ratios of configurations 0 and 1
// of one file (what the process they share does to them).
function ratioCorrelation (rows, file) {
  const ratios = file.configs.slice(0, 2).map((c) => {
    const byPair = new Map()
    for (const r of rows) {
      if (r.filename !== file.name || r.configuration !== c.configuration) continue
      const p = byPair.get(r.pair) ?? {}
      p[r.binary] = r.rate
      byPair.set(r.pair, p)
    }
    return [...byPair.keys()].sort((x, y) => x - y).map((k) => Math.log(byPair.get(k).new / byPair.get(k).old))
  })
  const [x, y] = ratios
  const mx = x.reduce((s, v) => s + v, 0) / x.length
  const my = y.reduce((s, v) => s + v, 0) / y.length
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my)
    sxx += (x[i] - mx) ** 2
    syy += (y[i] - my) ** 2
  }
  return sxy / Math.sqrt(sxx * syy)
}

/**
 * A/A under --runs auto: one file of `configs` configurations, no change,
 * pilot 6, cap maxPairs; per configuration, p < .05 at the end. Also, on
 * the same machine seeds, the two rules it replaced: the spread around the
 * median read again after every round (`perRound`), and the rank CI's own
 * half-width (`rankWidth`); and the rule on the spread around 0
 * (`aroundZero`), which is exact under no change (`former: false` leaves
 * these three out). `se` is the standard error over simulations (a suite's
 * configurations share processes, so its tests are not independent and the
 * binomial error would be too small). With `effect` other than 1, the rates
 * are the power at p < .05, and meanPairs what a changed file costs.
 */
function autoAA ({ sims, seed, noise = 'realistic', target = 2, maxPairs = 60, configs = 2, effect = 1, former = true }) {
  return (async () => {
    const rules = { auto: newCounter(), perRound: newCounter(), rankWidth: newCounter(), aroundZero: newCounter() }
    const stops = new Map()
    let maxSeen = 0
    for (let i = 0; i < sims; i++) {
      const files = suite(1, configs, () => effect)
      const fileList = files.map((f) => ({ file: f.name, name: f.name }))
      const m = createMachine(simSeed(seed, i), noise)
      const res = await runAuto({
        files: fileList,
        pilot: 6,
        target,
        maxPairs,
        runBatch: async (fs, pairs, firstPair) => ({ rows: m.runPairs(files.filter((f) => fs.some((x) => x.name === f.name)), pairs, firstPair), stopped: false })
      })
      const a = analyze(res.rows)
      rules.auto.add(a.results)
      for (const r of a.results) {
        maxSeen = Math.max(maxSeen, r.n_pairs)
        stops.set(r.n_pairs, (stops.get(r.n_pairs) ?? 0) + 1)
      }
      if (former) {
        for (const [name, rule] of Object.entries(FORMER_RULES)) {
          rules[name].add(analyze(rule(createMachine(simSeed(seed, i), noise), files, target, maxPairs)).results)
        }
      }
    }
    const out = { sims, configs, effect, tests: rules.auto.tests }
    for (const [name, c] of Object.entries(rules)) if (c.tests > 0) out[name] = c.summary(sims)
    return Object.assign(out, {
      aaRate: out.auto.rate,
      se: out.auto.se,
      maxPairsSeen: maxSeen,
      stopsAt: Object.fromEntries([...stops].sort((x, y) => x[0] - y[0]))
    })
  })()
}

// p < .05 and pairs used, per configuration, with the standard error of the
// rate over simulations.
function newCounter () {
  let tests = 0
  let positives = 0
  let pairs = 0
  let sumSq = 0
  return {
    get tests () { return tests },
    add (results) {
      const k = results.filter((r) => r.p < 0.05).length
      tests += results.length
      positives += k
      pairs += results.reduce((s, r) => s + r.n_pairs, 0)
      sumSq += (k / results.length) ** 2
    },
    summary (sims) {
      const rate = positives / tests
      const perSimVar = Math.max(0, (sumSq / sims - (rate) ** 2)) * sims / (sims - 1)
      return { rate, se: Math.sqrt(perSimVar / sims), meanPairs: pairs / tests }
    }
  }
}

// Runs rounds of pairs of `files` while `more(ratios, n)` asks for more:
// the shape of the rules --runs auto had before, simulated on the model.
function roundsWhile (m, files, maxPairs, more) {
  let rows = m.runPairs(files, 6, 1)
  let n = 6
  for (;;) {
    const k = n >= maxPairs ? 0 : more(rows, n)
    if (!(k > 0)) return rows
    const step = Math.min(maxPairs - n, Math.max(2, Math.min(k, n)))
    rows = rows.concat(m.runPairs(files, step, n + 1))
    n += step
  }
}

// Pairs still needed by the widest configuration for a given scale
// measure of its log ratios.
function neededBy (scaleOf, target) {
  const targetLog = Math.log1p(target / 100)
  return (rows, n) => {
    let more = 0
    for (const g of groupRows(rows)) {
      const scale = scaleOf(pairsOf(g).pairs.map((p) => Math.log(p.new / p.old)))
      if (!(predictedHalfWidth(scale, n) > targetLog)) continue
      const needed = pairsForHalfWidth(scale, targetLog, { from: n + 1, limit: 600 })
      more = Math.max(more, Number.isFinite(needed) ? needed - n : n)
    }
    return more
  }
}

const FORMER_RULES = {
  // Until this rule: the spread around the median, read again after every
  // round, with no least number of pairs.
  perRound: (m, files, target, maxPairs) => roundsWhile(m, files, maxPairs, neededBy(robustScale, target)),
  // Before that: more pairs while the rank CI's half-width is over the target.
  rankWidth: (m, files, target, maxPairs) => roundsWhile(m, files, maxPairs, (rows, n) => {
    let more = 0
    for (const r of analyze(rows).results) {
      const half = r.ci_log_width / 2 * 100
      if (half > target) more = Math.max(more, Math.ceil(n * (half / target) ** 2) - n)
    }
    return more
  }),
  // Exact under no change (the signs are fair coins given the magnitudes),
  // but it sees the change: a clearly changed configuration runs long.
  aroundZero: (m, files, target, maxPairs) => roundsWhile(m, files, maxPairs, neededBy((xs) => 1.4826 * median(xs.map(Math.abs)), target))
}

/**
 * Following the "needs ~N more pairs" hint in A/A: one configuration, 10
 * pairs; when the verdict is inconclusive for lack of width and the hint is
 * at most maxFollow pairs, run that many more and analyse again. Figures:
 * among the runs that followed, the share ending faster/slower and the
 * share with p < .05; also the former hint (from the observed change).
 */
function hintAA ({ sims, seed, noise = 'realistic', threshold = 5, first = 10, maxFollow = 400 }) {
  let followed = 0
  let called = 0
  let significant = 0
  let tooLong = 0
  let formerFollowed = 0
  let formerCalled = 0
  const files = suite(1, 1)
  for (let i = 0; i < sims; i++) {
    const m = createMachine(simSeed(seed, i), noise)
    const rows = m.runPairs(files, first, 1)
    const [r] = analyze(rows, { threshold }).results
    if (r.verdict !== 'inconclusive') continue
    // The former hint, followed on a fresh machine of the same seed.
    const former = formerHint(r, threshold)
    if (r.blocker === 'width' && r.more_pairs !== undefined) {
      if (r.more_pairs > maxFollow) tooLong++
      else {
        const more = m.runPairs(files, r.more_pairs, first + 1)
        const [r2] = analyze(rows.concat(more), { threshold }).results
        followed++
        if (r2.verdict === 'faster' || r2.verdict === 'slower') called++
        if (r2.p < 0.05) significant++
      }
    }
    if (former !== undefined && former <= maxFollow) {
      const m2 = createMachine(simSeed(seed, i), noise)
      const rows2 = m2.runPairs(files, first, 1)
      const [f2] = analyze(rows2.concat(m2.runPairs(files, former, first + 1)), { threshold }).results
      formerFollowed++
      if (f2.verdict === 'faster' || f2.verdict === 'slower') formerCalled++
    }
  }
  return {
    sims,
    followed,
    callRate: called / followed,
    se: se(called / followed, followed),
    pBelow05: significant / followed,
    hintOverMaxFollow: tooLong,
    formerFollowed,
    formerCallRate: formerCalled / formerFollowed
  }
}

// The former hint: pairs until the half-width, shrinking as 1/sqrt(n), is
// 0.9 x max(threshold - |change|, |change|).
function formerHint (r, threshold) {
  const half = (r.ci[1] - r.ci[0]) / 2
  const c = Math.abs(r.change)
  const tgt = 0.9 * Math.max(threshold - c, c)
  if (!(half > 0) || !(tgt > 0)) return undefined
  return Math.max(1, Math.ceil(r.n_pairs * (half / tgt) ** 2) - r.n_pairs)
}

/**
 * --max-regression PCT at a true change of exactly -PCT: one file of 1
 * configuration, 30 pairs. How often the gate fires (a false alarm at the
 * threshold), and how often the former gate (point estimate below -PCT and
 * two-sided Holm q < .05) fired.
 */
function gateAtThreshold ({ sims, seed, noise = 'realistic', pct = 5, pairs = 30 }) {
  let fired = 0
  let formerFired = 0
  const files = suite(1, 1, () => 1 - pct / 100)
  for (let i = 0; i < sims; i++) {
    const m = createMachine(simSeed(seed, i), noise)
    const a = analyze(m.runPairs(files, pairs), { maxRegression: pct })
    if (a.regressions.length > 0) fired++
    const r = a.results[0]
    if (r.q_holm < 0.05 && r.change < -pct) formerFired++
  }
  return { sims, fireRate: fired / sims, se: se(fired / sims, sims), formerFireRate: formerFired / sims }
}

/**
 * Power of the gate: how often it fires at a true change of -2 x PCT.
 */
function gatePower ({ sims, seed, noise = 'realistic', pct = 5, pairs = 30 }) {
  let fired = 0
  const files = suite(1, 1, () => 1 - 2 * pct / 100)
  for (let i = 0; i < sims; i++) {
    const m = createMachine(simSeed(seed, i), noise)
    if (analyze(m.runPairs(files, pairs), { maxRegression: pct }).regressions.length > 0) fired++
  }
  return { sims, fireRate: fired / sims }
}

/**
 * Welch stars in A/A suites: 7 files x 8 configurations, no change, 20
 * pairs. The share of configurations with an unadjusted Welch p < .05 (a
 * star in compare.R's columns), the share of suites with at least one, and
 * the same for the verdicts (faster/slower).
 */
function welchAA ({ sims, seed, noise = 'realistic', pairs = 20 }) {
  let starred = 0
  let suitesStarred = 0
  let called = 0
  let suitesCalled = 0
  let configs = 0
  for (let i = 0; i < sims; i++) {
    const m = createMachine(simSeed(seed, i), noise)
    const a = analyze(m.runPairs(suite(7, 8), pairs))
    const s = a.results.filter((r) => r.welch.p < 0.05).length
    const c = a.results.filter((r) => r.verdict === 'faster' || r.verdict === 'slower').length
    configs += a.results.length
    starred += s
    called += c
    if (s > 0) suitesStarred++
    if (c > 0) suitesCalled++
  }
  return { sims, configurations: configs / sims, starRate: starred / configs, suitesWithStar: suitesStarred / sims, verdictRate: called / configs, suitesWithVerdict: suitesCalled / sims }
}

/**
 * Concatenated CSVs: two runs of the same suite with their own seeds and
 * pair numbers 1..pairs each; the analysis must stay paired.
 */
function concatenated ({ seed, noise = 'realistic', pairs = 10 }) {
  const files = suite(1, 2)
  const a = createMachine(simSeed(seed, 1), noise).runPairs(files, pairs, 1, 11)
  const b = createMachine(simSeed(seed, 2), noise).runPairs(files, pairs, 1, 12)
  return analyze(a.concat(b))
}

module.exports = { geomeanCoverage, autoAA, hintAA, gateAtThreshold, gatePower, welchAA, concatenated }

/**
 * --runs seq beside fixed 30 and --runs auto, on one suite of `files` files
 * with `configs` configurations each (every configuration's true ratio is
 * `effect`). The seq rule looks after every pair (the rule compare runs,
 * lib/compare/sequential.js, driven over the model). Per design: the share
 * of configurations called faster or slower (rate, with the standard error
 * over simulations), the share of suites with any such call (suiteRate and
 * its standard error), the share called in the direction of a true change
 * (power), and the mean pairs per configuration; for seq also the coverage
 * of its reported intervals (true log ratio inside) beside their mean stated
 * level, why it stopped, and whether every call made during the run was kept
 * by the last e-BH (callsUndone: 0). futility: false runs every configuration
 * to maxPairs unless it is decided (the strictest peeking). v1: also the rule
 * of version 1 (order-statistic CS at alpha / K) on the same machines.
 * machine: 'serial' (model.js createMachine) or 'duet' (createDuetMachine,
 * CPU set B faster by setBias).
 */
function seqDesigns ({ sims, seed, noise = 'realistic', files = 3, configs = 4, effect = 1, maxPairs = 100, threshold = 1, alpha = 0.05, futility = true, others = true, v1 = false, machine = 'serial', setBias = 0.03 }) {
  const { seqRule } = require('../../lib/compare/sequential.js')
  const { seqStates, parseSeqLabel } = require('../../lib/stats/sequential.js')
  const { createDuetMachine } = require('./model.js')
  const make = (i) => (machine === 'duet' ? createDuetMachine(simSeed(seed, i), /** @type {any} */ (noise), { setBias }) : createMachine(simSeed(seed, i), noise))
  return (async () => {
    const truth = Math.log(effect)
    const designs = { seq: newVerdictCounter(effect) }
    if (v1) designs.seqV1 = newVerdictCounter(effect)
    if (others) Object.assign(designs, { fixed30: newVerdictCounter(effect), auto: newVerdictCounter(effect) })
    const cover = { seq: newCoverage(truth), seqV1: newCoverage(truth) }
    const reasons = {}
    let online = 0
    let undone = 0
    let filePairs = 0
    for (let i = 0; i < sims; i++) {
      const s = suite(files, configs, () => effect)
      const fileList = s.map((f) => ({ file: f.name, name: f.name }))
      const pick = (fs) => s.filter((f) => fs.some((x) => x.name === f.name))
      for (const version of v1 ? [2, 1] : [2]) {
        const m = make(i)
        const params = { alpha, threshold, maxPairs, futility, ...(version === 1 ? { version } : {}) }
        const rule = futility ? seqRule(params) : seqRuleWith(params)
        const res = await rule.run({
          plan: /** @type {any} */ ({ files: fileList }),
          previous: [],
          runSchedule: async () => ({ rows: [], stopped: false }),
          runBatch: async (fs, pairs, firstPair) => ({ rows: m.runPairs(pick(fs), pairs, firstPair).map((r) => ({ ...r, rule: rule.label })), stopped: false }),
          log: () => {}
        })
        const a = analyze(res.rows, { threshold, alpha })
        designs[version === 1 ? 'seqV1' : 'seq'].add(a.results)
        cover[version === 1 ? 'seqV1' : 'seq'].add(a.results)
        if (version === 2) {
          // what a file costs: its last pair (it runs while one of its configurations is open)
          for (const f of s) filePairs += Math.max(0, ...res.rows.filter((r) => r.filename === f.name).map((r) => r.pair)) / files / sims
          for (const r of a.results) reasons[r.stop.reason] = (reasons[r.stop.reason] ?? 0) + 1
          // every call made during the run must be in the last e-BH's set
          const calls = []
          const { runSuite } = require('../../lib/stats/sequential.js')
          const { groupRows, pairsOf } = require('../../lib/stats/pairing.js')
          const series = groupRows(res.rows).map((g) => (pairsOf(g).pairs ?? []).map((x) => Math.log(x.new / x.old)))
          const final = runSuite(series, /** @type {any} */ (parseSeqLabel(rule.label)), { onCall: (round, j) => calls.push(j) })
          online += calls.length
          undone += calls.filter((j) => final[j].verdict !== 'faster' && final[j].verdict !== 'slower').length
          const replay = seqStates(res.rows, /** @type {any} */ (parseSeqLabel(rule.label)))
          if (replay.some((st, j) => st.verdict !== final[j].verdict)) throw new Error('replay differs')
        }
      }
      if (others) {
        designs.fixed30.add(analyze(make(i).runPairs(s, 30, 1), { threshold, alpha }).results)
        const m2 = make(i)
        const au = await runAuto({ files: fileList, pilot: 6, target: threshold / 2, maxPairs: 60, runBatch: async (fs, pairs, firstPair) => ({ rows: m2.runPairs(pick(fs), pairs, firstPair), stopped: false }) })
        designs.auto.add(analyze(au.rows, { threshold, alpha }).results)
      }
    }
    const out = { sims, machine, files, configs, effect, threshold, alpha, maxPairs, futility, noise }
    for (const [name, c] of Object.entries(designs)) out[name] = c.summary(sims)
    Object.assign(out.seq, cover.seq.summary(), { stops: reasons, callsDuringRun: online, callsUndone: undone, meanFilePairs: filePairs })
    if (v1) Object.assign(out.seqV1, cover.seqV1.summary())
    return out
  })()
}

// Coverage of the reported intervals (the true log ratio inside) and their
// mean stated level.
function newCoverage (truth) {
  let tests = 0
  let covered = 0
  let level = 0
  return {
    add (results) {
      for (const r of results) {
        tests++
        level += r.conf_level
        if (Math.log1p(r.ci[0] / 100) <= truth && truth <= Math.log1p(r.ci[1] / 100)) covered++
      }
    },
    summary () { return { coverage: covered / tests, coverageSe: se(covered / tests, tests), meanLevel: level / tests } }
  }
}

// The seq rule with the simulation-only futility switch (see seqDesigns).
function seqRuleWith (params) {
  const { seqStates, seqLabel } = require('../../lib/stats/sequential.js')
  return {
    name: 'seq',
    label: seqLabel(params),
    async run (ctx) {
      // every pair of every file until each configuration is decided or at maxPairs
      const rows = []
      for (let n = 1; n <= params.maxPairs; n++) {
        const states = seqStates(rows, params, { intervals: false })
        const open = n === 1 ? ctx.plan.files : ctx.plan.files.filter((f) => states.some((s) => s.filename === f.name && s.verdict === 'running'))
        if (open.length === 0) break
        rows.push(...(await ctx.runBatch(open, 1, n)).rows)
      }
      return { rows, stopped: false }
    }
  }
}

// Verdicts per configuration: faster/slower calls (all false under A/A),
// calls in the true direction, pairs; the suite-wide share with any call.
function newVerdictCounter (effect) {
  let tests = 0
  let calls = 0
  let right = 0
  let suites = 0
  let pairs = 0
  let sumSq = 0
  const want = effect > 1 ? 'faster' : effect < 1 ? 'slower' : undefined
  return {
    add (results) {
      const k = results.filter((r) => r.verdict === 'faster' || r.verdict === 'slower').length
      tests += results.length
      calls += k
      right += results.filter((r) => r.verdict === want).length
      if (k > 0) suites++
      pairs += results.reduce((s, r) => s + (r.stop ? r.stop.pairs : r.n_pairs), 0)
      sumSq += (k / results.length) ** 2
    },
    summary (sims) {
      const rate = calls / tests
      const perSimVar = Math.max(0, (sumSq / sims - rate ** 2)) * sims / Math.max(1, sims - 1)
      return { callRate: rate, se: Math.sqrt(perSimVar / sims), suiteRate: suites / sims, suiteSe: se(suites / sims, sims), power: want ? right / tests : undefined, meanPairs: pairs / tests }
    }
  }
}

module.exports.seqDesigns = seqDesigns

/**
 * --duet under A/A (or a true effect): fixed 30 on the duet model (shared
 * interference, independent per-side noise, CPU set B faster by setBias),
 * with the sets drawn per pair, and with old always on set A (what the
 * randomisation prevents). Rates per configuration. (duet + seq:
 * seqDesigns with machine 'duet'.)
 */
function duetDesigns ({ sims, seed, noise = 'realistic', files = 3, configs = 4, effect = 1, setBias = 0.03, threshold = 1, alpha = 0.05 }) {
  const { createDuetMachine } = require('./model.js')
  const designs = { duetFixed30: newVerdictCounter(effect), duetFixed30NotRandomised: newVerdictCounter(effect) }
  for (let i = 0; i < sims; i++) {
    const s = suite(files, configs, () => effect)
    designs.duetFixed30.add(analyze(createDuetMachine(simSeed(seed, i), noise, { setBias }).runPairs(s, 30, 1), { threshold, alpha }).results)
    designs.duetFixed30NotRandomised.add(analyze(createDuetMachine(simSeed(seed, i), noise, { setBias, randomise: false }).runPairs(s, 30, 1), { threshold, alpha }).results)
  }
  const out = { sims, files, configs, effect, setBias, noise }
  for (const [name, c] of Object.entries(designs)) out[name] = c.summary(sims)
  return out
}

module.exports.duetDesigns = duetDesigns
