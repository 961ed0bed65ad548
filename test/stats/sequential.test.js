'use strict'
// --runs seq, version 2: the betting e-processes and their confidence
// sequence (lib/stats/betting-cs.js), e-BH (lib/stats/e-bh.js), the rule over
// a suite (lib/stats/sequential.js), its replay in analyze, version 1 rows
// replayed by version 1, and a small seeded simulation with a look after
// every pair (the long one: node bench/stats-sim/run.js --only seq,duet).
const t = require('tap')
const b = require('../../lib/stats/betting-cs.js')
const { eBH } = require('../../lib/stats/e-bh.js')
const { runSuite, seqLabel, parseSeqLabel, seqOfRows, seqStates } = require('../../lib/stats/sequential.js')
const v1 = require('../../lib/stats/sequential-quantile.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { createRng } = require('../../lib/prng.js')
const e = require('../../bench/stats-sim/experiments.js')

const P = { alpha: 0.05, threshold: 1, maxPairs: 100 }

t.test('the wealth: exact on small inputs, monotone in theta, predictable scales', async (t) => {
  const mean = (f) => b.LAMBDAS.reduce((s, l) => s + f(l), 0) / b.LAMBDAS.length
  // two ratios far above theta: every g is 1, W+ = mean (1 + lambda)^2, W- = mean (1 - lambda)^2
  t.equal(b.wealthAt([0.1, 0.2], [0.01, 0.01], 0, 1), mean((l) => (1 + l) ** 2))
  t.equal(b.wealthAt([0.1, 0.2], [0.01, 0.01], 0, -1), mean((l) => (1 - l) ** 2))
  // g = (x - theta) / s inside the scale: 0.005 / 0.01 = 0.5
  t.equal(b.wealthAt([0.005], [0.01], 0, 1), mean((l) => 1 + 0.5 * l))
  t.equal(b.perfectWealth(3), mean((l) => (1 + l) ** 3))
  t.equal(b.leastPairsFor(40), 7, 'a perfect run reaches 2 / 0.05 = 40 after 7 pairs')
  t.ok(b.perfectWealth(b.leastPairsFor(640)) >= 640 && b.perfectWealth(b.leastPairsFor(640) - 1) < 640)

  const rng = createRng(11)
  const xs = Array.from({ length: 30 }, () => 0.02 + 0.03 * rng.normal())
  const scales = b.predictableScales(xs)
  t.equal(scales[0], b.SCALE_FLOOR, 'no past: the floor')
  t.equal(scales[1], b.SCALE_FLOOR, 'one past pair: still the floor')
  t.equal(scales[2], Math.max(b.SCALE_FLOOR, 1.4826 * b.madSorted([xs[0], xs[1]].sort((p, q) => p - q))))
  const changed = [...xs]
  changed[9] = 5
  t.same(b.predictableScales(changed).slice(0, 10), scales.slice(0, 10), 's_i reads pairs before i only')
  let up = Infinity
  let down = 0
  for (let th = -0.1; th <= 0.1; th += 0.002) {
    const u = b.wealthAt(xs, scales, th, 1)
    const d = b.wealthAt(xs, scales, th, -1)
    t.ok(u <= up + 1e-12 && d >= down - 1e-12, `W+ falls and W- rises with theta (${th.toFixed(3)})`)
    up = u
    down = d
  }
})

t.test('the CS: where the wealth crosses 2/a, unbounded until it can', async (t) => {
  const rng = createRng(5)
  const xs = Array.from({ length: 40 }, () => -0.05 + 0.02 * rng.normal())
  const scales = b.predictableScales(xs)
  const [lo, hi] = b.csAt(xs, scales, 0.05)
  t.ok(lo < -0.05 && hi > -0.05 && hi < 0, `[${lo}, ${hi}] holds the shift and lies below 0`)
  t.ok(b.wealthAt(xs, scales, lo - 1e-5, 1) >= 40 && b.wealthAt(xs, scales, lo + 1e-5, 1) < 40, 'lower end: W+ = 2/a')
  t.ok(b.wealthAt(xs, scales, hi + 1e-5, -1) >= 40 && b.wealthAt(xs, scales, hi - 1e-5, -1) < 40, 'upper end: W- = 2/a')
  const [lo99, hi99] = b.csAt(xs, scales, 0.01)
  t.ok(lo99 < lo && hi99 > hi, 'a higher level, a wider interval')
  t.same(b.csAt(xs.slice(0, 6), scales, 0.05, 6), [-Infinity, Infinity], 'six pairs cannot reach 40 (a perfect run needs 7)')
  t.same(b.csAt([], [], 0.05), [-Infinity, Infinity])
  t.equal(b.pairsForWealth(0, 0.01, 40), Infinity, 'no distance: never')
  t.ok(b.pairsForWealth(0.005, 0.01, 40) > b.pairsForWealth(0.01, 0.01, 40), 'half the distance needs more pairs')
  const far = b.pairsForWealth(1, 0.01, 40)
  t.ok(far >= 7 && far <= 8, `far beyond the spread: about what a perfect run needs (${far}; the mixture's cost, log 4, rounds it up)`)
  t.ok(b.pairsForWealth(0.01, 0.01, 640) > b.pairsForWealth(0.01, 0.01, 40), 'a higher bar needs more pairs')
})

t.test('e-BH: the R largest with e_(R) >= K / (alpha R)', async (t) => {
  t.same(eBH([100, 30, 25, 1], 0.05), { rejected: [0], threshold: 80 }, '30 < 4 / (0.05 x 2) = 40')
  t.same(eBH([1, 45, 45, 50], 0.05), { rejected: [1, 2, 3], threshold: 4 / (0.05 * 3) }, 'three above 26.7: all three, in input order')
  t.same(eBH([79, 0, NaN, 1], 0.05), { rejected: [], threshold: Infinity })
  t.same(eBH([Infinity], 0.05).rejected, [0])
})

t.test('the rule over a suite: calls, no change, futility, max-runs; calls are kept', async (t) => {
  const rng = createRng(3)
  const series = [
    Array(40).fill(0.1),
    Array(40).fill(-0.1),
    Array.from({ length: 100 }, () => 0.0005 * rng.normal()),
    Array.from({ length: 100 }, () => 0.2 * rng.normal())
  ]
  const calls = []
  const s = runSuite(series, P, { onCall: (round, j) => calls.push([round, j]) })
  // two clean +-10% runs: e-BH at R = 2 of K = 4 needs e >= 40, max(W+, W-) >= 80: 9 pairs
  t.match(s[0], { verdict: 'faster', reason: 'above 0', n: 9, level: 1 - 0.05 * 2 / 4 })
  t.match(s[1], { verdict: 'slower', reason: 'below 0', n: 9 })
  t.ok(s[0].evalue >= 40 && b.perfectWealth(8) / 2 < 40)
  t.ok(s[0].lo > 0 && s[1].hi < 0, 'each call\'s interval (at 1 - alpha R / K) leaves 0 out')
  t.same(calls, [[9, 0], [9, 1]], 'both called during the run, at pair 9')
  t.match(s[2], { verdict: 'no change', reason: 'inside threshold', n: 7, level: 0.95, evalue: 0 })
  t.ok(s[2].lo > -Math.log1p(0.01) && s[2].hi < Math.log1p(0.01))
  t.match(s[3], { verdict: 'inconclusive', reason: 'futility' })
  t.ok(s[3].n >= 10 && s[3].n < 100, `version 3: futility after 10 pairs or more, when even an optimistic centre is out of reach (${s[3].n})`)
  t.ok(s[3].needed > 100, `futility says it would need ~${s[3].needed} pairs`)
  t.match(runSuite([series[3]], { ...P, version: 2 })[0], { verdict: 'inconclusive', reason: 'futility', n: 7 }, 'version 2 (rows that say so) gave up as soon as a perfect run could have decided')
  t.match(runSuite([series[3].slice(0, 9)], P)[0], { verdict: 'running', n: 9 }, 'no futility before 10 pairs')
  // a true +7% under sd 0.15: the centre after 10 pairs says "hopeless", the optimistic one does not
  const seven = Array.from({ length: 100 }, (_, i) => (i < 10 ? 0.0 : 0.068) + 0.15 * rng.normal())
  const v3 = runSuite([seven], P)[0]
  const v2 = runSuite([seven], { ...P, version: 2 })[0]
  t.ok(v3.n > v2.n, `version 3 keeps a slow start going longer (${v3.n} vs ${v2.n} pairs)`)
  t.match(runSuite([series[3].slice(0, 5)], { ...P, maxPairs: 5 })[0], { verdict: 'inconclusive', reason: 'max-runs', n: 5 })
  t.match(runSuite([series[3].slice(0, 6)], P)[0], { verdict: 'running', n: 6 }, 'no futility before a perfect run could have decided')
  t.match(runSuite([series[3]], { ...P, futility: false })[0], { verdict: 'inconclusive', reason: 'max-runs', n: 100 })
  const quick = runSuite(series, P, { intervals: false })
  t.same(quick.map((x) => [x.verdict, x.n]), s.map((x) => [x.verdict, x.n]), 'the loop\'s states without intervals decide alike')
  t.ok(Number.isNaN(quick[0].lo))

  // a configuration given up early is called at the end once other calls lowered the bar:
  // alone, 9 pairs of +10% reach e = 128 < 320 (K = 16, R = 1) ... but with 15 clean
  // calls beside it the bar falls to 16 / (0.05 x 16) = 20
  const late = [[...Array(6).fill(0.1), -0.1, 0.1, 0.1], ...Array.from({ length: 15 }, () => Array(12).fill(-0.2))]
  const lc = []
  const ls = runSuite(late, P, { onCall: (round, j) => lc.push(j) })
  t.equal(ls.filter((x) => x.verdict === 'slower').length, 15)
  t.ok(lc.every((j) => ls[j].verdict === 'slower' || ls[j].verdict === 'faster'), 'every call made during the run stands at the end')
})

t.test('labels: version 3 for new runs, version 2 and 1 rows replay with theirs', async (t) => {
  const label = seqLabel({ alpha: 0.05, threshold: 2, maxPairs: 50 })
  t.equal(label, 'seq v3 alpha=0.05 threshold=2 max=50')
  t.same(parseSeqLabel(label), { version: 3, alpha: 0.05, threshold: 2, maxPairs: 50 })
  t.same(parseSeqLabel(seqLabel({ alpha: 0.01, threshold: 1, maxPairs: 9, futility: false })), { version: 3, alpha: 0.01, threshold: 1, maxPairs: 9, futility: false })
  t.same(parseSeqLabel('seq v2 alpha=0.05 threshold=1 max=100'), { version: 2, alpha: 0.05, threshold: 1, maxPairs: 100 }, 'rows of version 2 replay with its futility')
  t.equal(seqLabel({ version: 1, alpha: 0.05, threshold: 1, maxPairs: 100 }), 'seq alpha=0.05 threshold=1 max=100')
  t.same(parseSeqLabel('seq alpha=0.05 threshold=1 max=100'), { version: 1, alpha: 0.05, threshold: 1, maxPairs: 100 })
  t.equal(parseSeqLabel('fixed 30'), undefined)

  const rowsOf = (rule) => {
    const rows = []
    for (let pair = 1; pair <= 30; pair++) {
      for (const c of ['a=1', 'a=2']) {
        const ratio = c === 'a=1' ? 1.2 : 1 + 0.3 * Math.sin(pair * 7)
        rows.push({ binary: 'old', filename: 'x/f.js', configuration: c, rate: 100, time: 1, pair, seed: 5, rule })
        rows.push({ binary: 'new', filename: 'x/f.js', configuration: c, rate: 100 * ratio, time: 1, pair, seed: 5, rule })
      }
    }
    return rows
  }
  const rows = rowsOf(label)
  t.equal(seqOfRows(rows).label, label)
  t.equal(seqOfRows([...rows, { ...rows[0], rule: 'fixed 30' }]), undefined, 'rows of two rules are not one seq run')
  const states = seqStates(rows, parseSeqLabel(label))
  const a = analyze(rows)
  const fast = a.results.find((r) => r.configuration === 'a=1')
  const st = states.find((s) => s.configuration === 'a=1')
  t.match(fast, { verdict: 'faster', n_pairs: 30, stop: { rule: 'seq', pairs: st.n, reason: 'above 0', evalue: st.evalue } }, 'every pair measured, and the pair the rule called at')
  t.ok(st.n < 30)
  t.equal(fast.conf_level, 1 - 0.05 / 2, 'one call of two: level 1 - alpha R / K')
  t.equal(a.meta.rule, label)
  const slowly = a.results.find((r) => r.configuration === 'a=2')
  t.match(slowly, { verdict: 'inconclusive', stop: { reason: 'futility' }, conf_level: 0.95 })
  t.ok(slowly.more_pairs > 0)

  // the same ratios under version 1's label: its own interval (order statistics at alpha / K)
  const old = analyze(rowsOf('seq alpha=0.05 threshold=2 max=50'))
  const oldFast = old.results.find((r) => r.configuration === 'a=1')
  const want = v1.runRule(Array(30).fill(Math.log(1.2)), { alpha: 0.05, threshold: 2, maxPairs: 50, configurations: 2 })
  t.match(oldFast, { verdict: 'faster', stop: { pairs: want.n, reason: 'above 0' }, conf_level: 1 - 0.05 / 2 })
  t.not(want.n, st.n, 'version 1 stops where version 1 stopped')
})

t.test('version 1 (rows of earlier runs): its boundary and decisions', async (t) => {
  const v = 20 / 4 + 0.5
  t.equal(v1.boundary(20, 0.05), Math.sqrt(v * Math.log(v / (0.5 * 0.025 ** 2))))
  const sorted = Array.from({ length: 20 }, (_, i) => i - 10)
  const u = v1.boundary(20, 0.05)
  t.same(v1.csAt(sorted, 0.05), [sorted[Math.floor(10 - u)], sorted[Math.ceil(10 + u) - 1]])
  t.same(v1.csAt([1, 2, 3], 0.05), [-Infinity, Infinity])
  t.equal(v1.pairsForHalfWidth(10, 0.01, 0, 0.05, 1000), Infinity)
  const p = { alpha: 0.05, configurations: 1, threshold: 1, maxPairs: 100 }
  t.match(v1.runRule(Array(40).fill(-0.1), p), { verdict: 'slower', reason: 'below 0' })
  const rng = createRng(3)
  const tiny = Array.from({ length: 400 }, () => 0.0005 * rng.normal())
  t.match(v1.runRule(tiny, { ...p, maxPairs: 400 }), { verdict: 'no change', reason: 'inside threshold' })
  const noisy = Array.from({ length: 100 }, () => 0.2 * rng.normal())
  t.match(v1.runRule(noisy, p), { verdict: 'inconclusive', reason: 'futility', n: 8 })
  t.match(v1.runRule(noisy.slice(0, 5), { ...p, maxPairs: 5 }), { verdict: 'inconclusive', reason: 'max-runs', n: 5 })
  t.match(v1.runRule(noisy, { ...p, futility: false }), { verdict: 'inconclusive', reason: 'max-runs', n: 100 })
})

t.test('small seeded simulation, a look after every pair: A/A, coverage, power, stable calls', async (t) => {
  const aa = await e.seqDesigns({ sims: 8, seed: 7, files: 2, configs: 2, effect: 1, maxPairs: 30, futility: false, others: false })
  t.equal(aa.seq.callRate, 0, 'A/A: no faster/slower call')
  t.ok(aa.seq.coverage >= 0.93, `coverage ${aa.seq.coverage}`)
  const up = await e.seqDesigns({ sims: 6, seed: 8, files: 2, configs: 2, effect: 1.1, maxPairs: 40, others: false, v1: true })
  t.ok(up.seq.power >= 0.75, `+10% found in ${up.seq.power} after ${up.seq.meanPairs} pairs on average`)
  t.ok(up.seq.meanPairs < up.seqV1.meanPairs, `in fewer pairs than version 1 (${up.seq.meanPairs} < ${up.seqV1.meanPairs})`)
  t.equal(up.seq.callsUndone, 0, `${up.seq.callsDuringRun} calls during the runs, none undone`)
  t.ok(up.seq.coverage >= 0.93)
  const duet = await e.seqDesigns({ sims: 6, seed: 4, files: 2, configs: 2, effect: 1, maxPairs: 30, machine: 'duet', others: false })
  t.equal(duet.seq.callRate, 0, 'duet A/A (CPU set B 3% faster, drawn per pair): no call')
})

t.test('duet model: the random CPU-set assignment cancels a 3% set difference', async (t) => {
  const r = e.duetDesigns({ sims: 6, seed: 4, files: 2, configs: 2, setBias: 0.03 })
  t.ok(r.duetFixed30.callRate <= 0.05, `A/A, sets drawn per pair: ${r.duetFixed30.callRate}`)
  t.ok(r.duetFixed30NotRandomised.callRate >= 0.5, `old always on one set: ${r.duetFixed30NotRandomised.callRate} called`)
})

t.test('--max-regression under seq: the gate is the rule\'s own call and interval, not a fixed-sample test on the stopped pairs', async (t) => {
  const { formatAnalysisText } = require('../../lib/report/analysis-text.js')
  const label = seqLabel({ alpha: 0.05, threshold: 2, maxPairs: 50 })
  const rows = []
  for (let pair = 1; pair <= 30; pair++) {
    for (const c of ['a=1', 'a=2']) {
      // a=1: new 1/1.2 of old (-16.7%) in every pair; a=2: noise about 0
      const ratio = c === 'a=1' ? 1 / 1.2 : 1 + 0.3 * Math.sin(pair * 7)
      rows.push({ binary: 'old', filename: 'x/f.js', configuration: c, rate: 100, time: 1, pair, seed: 5, rule: label })
      rows.push({ binary: 'new', filename: 'x/f.js', configuration: c, rate: 100 * ratio, time: 1, pair, seed: 5, rule: label })
    }
  }
  const gated = analyze(rows, { maxRegression: 5 })
  const slow = gated.results.find((r) => r.configuration === 'a=1')
  t.match(slow, { verdict: 'slower', stop: { rule: 'seq', reason: 'below 0' } })
  t.ok(slow.ci[1] < -5, `the rule's interval ends below -5%: ${slow.ci[1]}`)
  t.same(gated.regressions.map((r) => r.configuration), ['a=1'], 'called slower with the interval below -5%: the gate fires')
  t.match(formatAnalysisText(gated), /FAIL: 1 configuration\(s\) slower than -5% \(called slower by seq v3 alpha=0\.05 threshold=2 max=50 with\s+its interval's upper end below -5%\):\n {2}x\/f\.js a=1: .*called at pair \d+ of 30/)
  // the interval's upper end above -PCT: no regression, though the call is "slower"
  const loose = analyze(rows, { maxRegression: -slow.ci[1] + 1 })
  t.same(loose.regressions, [], 'upper end not below -PCT: the gate holds')
  t.match(formatAnalysisText(loose), /No configuration is shown to be slower than [^]*called slower by seq v3/)
})

t.test('one analysis: every pair measured, the stop pair, the rule\'s evidence in the table, warnings that fit', async (t) => {
  const { seqAnalysis } = require('../../lib/stats/sequential.js')
  const { formatAnalysisText } = require('../../lib/report/analysis-text.js')
  const label = seqLabel({ alpha: 0.05, threshold: 1, maxPairs: 100 })
  // a=1 is 20% faster in every pair and is called early; its file goes on for a=2 (noise), 24 pairs
  const rng = createRng(11)
  const rows = []
  for (let pair = 1; pair <= 24; pair++) {
    for (const c of ['a=1', 'a=2']) {
      const ratio = c === 'a=1' ? 1.2 * Math.exp(0.01 * (rng.uniform() - 0.5)) : Math.exp(0.3 * (rng.uniform() - 0.5))
      rows.push({ binary: 'old', filename: 'x/f.js', configuration: c, rate: 100, time: 1, pair, seed: 5, rule: label })
      rows.push({ binary: 'new', filename: 'x/f.js', configuration: c, rate: 100 * ratio, time: 1, pair, seed: 5, rule: label })
    }
  }
  const p = parseSeqLabel(label)
  const [fast] = seqAnalysis(rows, p)
  const [state] = seqStates(rows, p)
  t.equal(fast.verdict, 'faster')
  t.equal(fast.stopAt, state.n, 'the pair the rule called at')
  t.equal(fast.pairs, 24, 'every pair measured')
  const xs = []
  for (let i = 0; i < rows.length; i += 4) xs.push(Math.log(rows[i + 1].rate / rows[i].rate))
  t.same([fast.lo, fast.hi], b.csAt(xs, b.predictableScales(xs), 1 - fast.level), 'a call: the interval at its level over every pair')
  t.ok(fast.hi - fast.lo < state.hi - state.lo, 'narrower than at the stop')
  const a = analyze(rows)
  t.match(a.results[0], { n_pairs: 24, stop: { pairs: state.n, evalue: state.evalue }, ci: [(Math.exp(fast.lo) - 1) * 100, (Math.exp(fast.hi) - 1) * 100] })
  const text = formatAnalysisText(a)
  t.match(text, /pairs\s+stopped\s+change\s+95% CI\s+e-value\s+verdict/, 'the seq table: the rule\'s evidence')
  t.notMatch(text.split('\n\n')[0], /\bq\b|\*/, 'no q or stars beside its verdicts')
  t.match(text, new RegExp(`x/f\\.js a=1\\s+24\\s+at ${state.n}\\s`))

  // too few runs: not warned where the rule chose to stop; duet rows get no --cpuset advice
  const short = seqLabel({ alpha: 0.05, threshold: 1, maxPairs: 4 })
  const few = rows.filter((r) => r.pair <= 4).map((r) => ({ ...r, rule: short }))
  t.same(analyze(few).warnings.filter((w) => w.kind === 'too-few-runs'), [], 'stopped at --max-runs 4: no too-few-runs')
  t.ok(analyze(few.map((r) => ({ ...r, rule: 'fixed 4' }))).warnings.some((w) => w.kind === 'too-few-runs'), 'the same rows of a fixed rule: warned')
  const duet = analyze(rows.map((r) => ({ ...r, executor: 'duet' }))).warnings.filter((w) => w.kind === 'high-variance')
  t.ok(duet.length > 0 && duet.every((w) => !/--cpuset\b(?!-)/.test(w.message) && /--cpuset-old/.test(w.message)), 'duet: high-variance without --cpuset (duet pins each side: its own --cpuset-old/--cpuset-new)')
})
