'use strict'
// --runs seq's confidence sequence and rule (lib/stats/sequential.js), its
// replay in analyze, and a small seeded simulation with a look after every
// pair (the long one: node bench/stats-sim/run.js --only seq).
const t = require('tap')
const { runRule, boundary, csAt, pairsForHalfWidth, seqLabel, parseSeqLabel, seqOfRows, seqStates } = require('../../lib/stats/sequential.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { createRng } = require('../../lib/stats/prng.js')
const e = require('../../bench/stats-sim/experiments.js')

t.test('the boundary and the order statistics of the interval', async (t) => {
  // u_n = sqrt((n/4 + rho) log((n/4 + rho) / (rho (a/2)^2))), rho = 0.5
  const v = 20 / 4 + 0.5
  t.equal(boundary(20, 0.05), Math.sqrt(v * Math.log(v / (0.5 * 0.025 ** 2))))
  const sorted = Array.from({ length: 20 }, (_, i) => i - 10)
  const u = boundary(20, 0.05)
  const [lo, hi] = csAt(sorted, 0.05)
  t.equal(lo, sorted[Math.floor(10 - u)], 'lower end: x_(d+1), d = floor(n/2 - u)')
  t.equal(hi, sorted[Math.ceil(10 + u) - 1], 'upper end: x_(c), c = ceil(n/2 + u)')
  t.same(csAt([1, 2, 3], 0.05), [-Infinity, Infinity], 'three pairs cannot bound the median at 95%')
  t.equal(pairsForHalfWidth(10, 0.01, 0, 0.05, 1000), Infinity, 'a half-width of 0 is never reached')
  t.ok(pairsForHalfWidth(10, 0.01, 0.005, 0.05, 1e6) > pairsForHalfWidth(10, 0.01, 0.01, 0.05, 1e6), 'half the width needs more pairs')
})

t.test('decisions: faster, slower, no change, futility, max-runs', async (t) => {
  const p = { alpha: 0.05, configurations: 1, threshold: 1, maxPairs: 100 }
  const up = runRule(Array(40).fill(0.1), p)
  t.match(up, { verdict: 'faster', reason: 'above 0' })
  t.ok(up.n >= 10 && up.n < 20, `a constant +10% stops after ${up.n} pairs`)
  t.match(runRule(Array(40).fill(-0.1), p), { verdict: 'slower', reason: 'below 0' })
  const rng = createRng(3)
  const tiny = Array.from({ length: 400 }, () => 0.0005 * rng.normal())
  t.match(runRule(tiny, { ...p, maxPairs: 400 }), { verdict: 'no change', reason: 'inside threshold' })
  const noisy = Array.from({ length: 100 }, () => 0.2 * rng.normal())
  const fut = runRule(noisy, p)
  t.match(fut, { verdict: 'inconclusive', reason: 'futility', n: 8 })
  t.ok(fut.needed > 100, `futility says it would need ~${fut.needed} pairs`)
  t.match(runRule(noisy.slice(0, 5), { ...p, maxPairs: 5 }), { verdict: 'inconclusive', reason: 'max-runs', n: 5 })
  t.match(runRule(noisy, { ...p, futility: false }), { verdict: 'inconclusive', reason: 'max-runs', n: 100 })
  t.match(runRule(noisy.slice(0, 4), p), { verdict: 'running', n: 4 })
  const cs = runRule(noisy, { ...p, futility: false, maxPairs: 1000 })
  t.ok(cs.lo <= cs.center && cs.center <= cs.hi, 'the interval holds its median')
})

t.test('the label carries the rule; analyze replays it on the rows', async (t) => {
  const label = seqLabel({ alpha: 0.05, threshold: 2, maxPairs: 50 })
  t.equal(label, 'seq alpha=0.05 threshold=2 max=50')
  t.same(parseSeqLabel(label), { alpha: 0.05, threshold: 2, maxPairs: 50 })
  t.same(parseSeqLabel(seqLabel({ alpha: 0.01, threshold: 1, maxPairs: 9, futility: false })), { alpha: 0.01, threshold: 1, maxPairs: 9, futility: false })
  t.equal(parseSeqLabel('fixed 30'), undefined)
  const rows = []
  for (let pair = 1; pair <= 30; pair++) {
    for (const c of ['a=1', 'a=2']) {
      const ratio = c === 'a=1' ? 1.2 : 1 + 0.3 * Math.sin(pair * 7)
      rows.push({ binary: 'old', filename: 'x/f.js', configuration: c, rate: 100, time: 1, pair, seed: 5, rule: label })
      rows.push({ binary: 'new', filename: 'x/f.js', configuration: c, rate: 100 * ratio, time: 1, pair, seed: 5, rule: label })
    }
  }
  t.equal(seqOfRows(rows).label, label)
  t.equal(seqOfRows([...rows, { ...rows[0], rule: 'fixed 30' }]), undefined, 'rows of two rules are not one seq run')
  const states = seqStates(rows, parseSeqLabel(label))
  const a = analyze(rows)
  const fast = a.results.find((r) => r.configuration === 'a=1')
  const st = states.find((s) => s.configuration === 'a=1')
  t.match(fast, { verdict: 'faster', n_pairs: st.n, stop: { rule: 'seq', pairs: st.n, reason: 'above 0' } })
  t.equal(fast.conf_level, 1 - 0.05 / 2, 'level 1 - alpha / configurations')
  t.equal(a.meta.rule, label)
  const slowly = a.results.find((r) => r.configuration === 'a=2')
  t.match(slowly, { verdict: 'inconclusive', stop: { reason: 'futility' } })
  t.ok(slowly.more_pairs > 0)
})

t.test('small seeded simulation, a look after every pair: A/A, coverage, power', async (t) => {
  const aa = await e.seqDesigns({ sims: 8, seed: 7, files: 2, configs: 2, effect: 1, maxPairs: 30, futility: false, others: false })
  t.ok(aa.seq.callRate <= 0.05, `A/A faster/slower per configuration ${aa.seq.callRate}`)
  t.ok(aa.seq.coverage >= 0.93, `coverage ${aa.seq.coverage}`)
  const up = await e.seqDesigns({ sims: 6, seed: 8, files: 2, configs: 2, effect: 1.1, maxPairs: 40, others: false })
  t.ok(up.seq.power >= 0.75, `+10% found in ${up.seq.power} after ${up.seq.meanPairs} pairs on average`)
  t.ok(up.seq.meanPairs < 40, 'and before the cap')
})

t.test('duet model: the random CPU-set assignment cancels a 3% set difference', async (t) => {
  const r = await e.duetDesigns({ sims: 6, seed: 4, files: 2, configs: 2, setBias: 0.03, maxPairs: 30 })
  t.ok(r.duetFixed30.callRate <= 0.05, `A/A, sets drawn per pair: ${r.duetFixed30.callRate}`)
  t.ok(r.duetSeq.callRate <= 0.05, `A/A, seq: ${r.duetSeq.callRate}`)
  t.ok(r.duetFixed30NotRandomised.callRate >= 0.5, `old always on one set: ${r.duetFixed30NotRandomised.callRate} called`)
})
