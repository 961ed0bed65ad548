'use strict'
// Change points (lib/history/changepoint.js) on seeded synthetic series:
// a small version of bench/changepoint-sim.js (whose numbers docs/history.md
// quotes), plus the pieces: the E-Divisive split, the t-test's edge cases,
// the Hodges–Lehmann interval against the rank-sum test of lib/stats.
const t = require('tap')
const { detectChanges, bestSplit, tTest, stepSize, hodgesLehmann } = require('../../lib/history/changepoint.js')
const { rankSumTest } = require('../../lib/stats/wilcoxon.js')
const { createRng } = require('../../lib/prng.js')
const { simulate } = require('../../bench/changepoint-sim.js')

t.test('the split of largest divergence is the step', async (t) => {
  const x = [1, 1.1, 0.9, 1, 1.05, 5, 5.1, 4.9, 5, 5.05]
  t.same(bestSplit(x, 0, x.length, 3), { tau: 5, q: bestSplit(x, 0, x.length, 3).q })
  t.equal(bestSplit(x, 0, 5, 3), undefined, 'too short for two sides of 3')
})

t.test('t-test edge cases', async (t) => {
  t.equal(tTest([1, 1, 1, 1], 0, 2, 4).p, 1, 'no variance, no difference')
  t.equal(tTest([1, 1, 2, 2], 0, 2, 4).p, 0, 'no variance, a difference')
  t.equal(tTest([1, 2], 0, 1, 2).p, 1, 'no degrees of freedom')
})

t.test('Hodges–Lehmann: the same estimate and interval as the rank-sum test', async (t) => {
  const rng = createRng(3)
  for (const [m, n] of [[8, 12], [25, 20], [40, 45]]) {
    const x = Array.from({ length: m }, () => rng.normal())
    const y = Array.from({ length: n }, () => 0.5 + rng.normal())
    const ours = hodgesLehmann(y, x, 0.95)
    const ref = rankSumTest(y, x)
    t.equal(ours.estimate, ref.estimate, `${m}x${n} estimate`)
    t.ok(Math.abs(ours.ci[0] - ref.ci[0]) < 1e-6 && Math.abs(ours.ci[1] - ref.ci[1]) < 1e-6, `${m}x${n} interval ${ours.ci} vs ${ref.ci}`)
  }
})

t.test('a step: where, how large, its interval; values <= 0 are not logged', async (t) => {
  const rng = createRng(11)
  const x = Array.from({ length: 80 }, (_, i) => 100 * (i >= 50 ? 1.05 : 1) * Math.exp(0.01 * rng.normal()))
  const { changes } = detectChanges(x)
  t.equal(changes.length, 1)
  t.equal(changes[0].index, 50)
  t.ok(changes[0].ci[0] < 0.05 && changes[0].ci[1] > 0.05, `CI ${changes[0].ci} holds the 5% step`)
  t.ok(Math.abs(changes[0].size - 0.05) < 0.01)
  t.equal(changes[0].nBefore + changes[0].nAfter, 80)
  const shifted = stepSize([-1, 0, 1, -1, 0, 1, 9, 10, 11, 9, 10, 11], 0, 6, 12, 0.95)
  t.equal(shifted.size, 10, 'a shift over |median before| = 1 when values are not all positive')
  t.same(detectChanges([1, 2, 3]), { changes: [], weak: [] }, 'too short to split')
})

t.test('two steps, one up and one down; a weak candidate below the bar', async (t) => {
  const rng = createRng(5)
  const x = Array.from({ length: 150 }, (_, i) => 1000 * (i >= 40 && i < 100 ? 1.08 : 1) * Math.exp(0.01 * rng.normal()))
  const { changes } = detectChanges(x)
  t.same(changes.map((c) => c.index), [40, 100])
  t.same(changes.map((c) => Math.sign(c.size)), [1, -1])
  const y = Array.from({ length: 60 }, (_, i) => 1000 * (i >= 30 ? 1.006 : 1) * Math.exp(0.01 * rng.normal()))
  const r = detectChanges(y, { maxP: 1e-12 })
  t.equal(r.changes.length, 0, 'nothing passes p < 1e-12')
  t.ok(r.weak.length >= 1, 'the small step stays a weak candidate')
})

t.test('seeded simulation: recall of 2% and 5% steps, false alarms without a step', async (t) => {
  // 60 series of 100 labels, 1% noise: bench/changepoint-sim.js runs 500 a cell
  const o = { series: 60, length: 100, noise: 0.01, tolerance: 2, seed: 7 }
  const five = simulate({ ...o, step: 0.05 })
  const two = simulate({ ...o, step: 0.02 })
  const none = simulate({ ...o, step: 0 })
  t.ok(five.recall >= 0.95, `5% step found in ${five.recall}`)
  t.ok(two.recall >= 0.85, `2% step found in ${two.recall}`)
  t.ok(five.ciCovers >= 0.85, `the CI holds a found 5% step in ${five.ciCovers}`)
  t.ok(none.falseAlarmSeries <= 0.1, `step-free series with a false alarm: ${none.falseAlarmSeries}`)
})

t.test('runs per label: a -50% step after the first of six releases of 30 runs', async (t) => {
  // bench/changepoint-sim.js --grid runs 200 a cell; 60 here, seeded
  const o = { series: 60, length: 6, runs: 30, noise: 0.02, tolerance: 0, seed: 11, at: 'first' }
  const half = simulate({ ...o, step: -0.5 })
  t.ok(half.recall >= 0.95, `found at the second label in ${half.recall}`)
  t.ok(half.ciCovers >= 0.85, `its interval holds -50% in ${half.ciCovers}`)
  const none = simulate({ ...o, step: 0 })
  t.ok(none.falseAlarmSeries <= 0.05, `step-free series with a false alarm: ${none.falseAlarmSeries}`)
  // label-to-label noise (1%) on top of the runs' 2%: the spread of the label means is taken in
  const drift = simulate({ ...o, step: 0, labelNoise: 0.01 })
  t.ok(drift.falseAlarmSeries <= 0.1, `with 1% label noise: ${drift.falseAlarmSeries}`)
  // the same releases with one run each: a step after the first label is not told from an outlier
  t.equal(simulate({ ...o, runs: 1, step: -0.5 }).recall, 0)
})

t.test('runs per label: too small a series says so and what would be enough', async (t) => {
  const { detectGroupChanges } = require('../../lib/history/changepoint.js')
  const two = detectGroupChanges([[100, 101, 99], [50, 51, 49]])
  t.same(two.changes, [])
  t.match(two.untestable, /^2 labels \(6 runs\): too few to test a step against the labels' own spread; 3 labels are the least, with 3\+ runs either side of a step$/)
  const three = detectGroupChanges([[100], [101], [50]])
  t.match(three.untestable, /^3 labels of one run each: too few to test; 4 labels are the least/)
  const enough = detectGroupChanges([[100, 101, 99, 100], [50, 51, 49, 50], [50, 49, 51, 50]])
  t.notOk(enough.untestable)
  t.same(enough.changes.map((c) => c.index), [1], 'three labels of four runs: the step after the first is found')
  t.ok(enough.changes[0].ci[0] < -0.49 && enough.changes[0].ci[1] > -0.51, `interval ${enough.changes[0].ci}`)
})
