'use strict'
// The short form of bench/stats-sim: the same experiments under the noise
// model (drift, slow spells starting mid-pair, a per-process effect shared
// by a run's configurations, heavy tails, outliers, an order effect), with
// few simulations so the suite stays fast. The seeds are fixed, so the
// figures are the same every run; the bounds allow for the simulation error
// of so few runs (about 2.5 binomial standard errors). The long form
// (node bench/stats-sim/run.js, 10,000 simulations) gives the figures in
// docs/compare.md.
const t = require('tap')
const e = require('../../bench/stats-sim/experiments.js')

const margin = (p, n) => 2.5 * Math.sqrt(p * (1 - p) / n)

t.test('geomean CI coverage with configurations sharing processes', (t) => {
  const r = e.geomeanCoverage({ sims: 150, seed: 13 })
  t.ok(Math.abs(r.coverage - 0.95) <= margin(0.95, r.sims), `coverage ${(r.coverage * 100).toFixed(1)}% of ${r.sims}`)
  t.ok(r.formerCoverage < 0.9, `the former independent CI covered ${(r.formerCoverage * 100).toFixed(1)}%`)
  t.ok(r.meanRatioCorrelation > 0.2, `configurations' ratios correlate (${r.meanRatioCorrelation.toFixed(2)}) through the shared process`)
  t.end()
})

t.test('--runs auto: A/A p < .05 near 5%, never past --max-runs', async (t) => {
  const r = await e.autoAA({ sims: 60, seed: 13, maxPairs: 40, former: false })
  t.ok(r.aaRate <= 0.05 + margin(0.05, r.tests), `A/A p < .05 in ${(r.aaRate * 100).toFixed(1)}% of ${r.tests}`)
  t.ok(r.maxPairsSeen <= 40, `at most ${r.maxPairsSeen} pairs with a cap of 40`)
  t.ok(Object.keys(r.stopsAt).length > 3, 'the rule stops at many different pair counts (it is exercised)')
})

t.test('following the hint in A/A does not call changes', (t) => {
  const r = e.hintAA({ sims: 200, seed: 13 })
  t.ok(r.followed >= 30, `${r.followed} runs followed a hint`)
  t.ok(r.callRate <= 0.055 + margin(0.055, r.followed), `faster/slower after following in ${(r.callRate * 100).toFixed(1)}%`)
  t.end()
})

t.test('--max-regression 5 at a true -5%: fires at most 5%; at -10% it fires', (t) => {
  const r = e.gateAtThreshold({ sims: 300, seed: 13 })
  t.ok(r.fireRate <= 0.05 + margin(0.05, r.sims), `fires in ${(r.fireRate * 100).toFixed(1)}%`)
  t.ok(r.formerFireRate > 0.3, `the former gate fired in ${(r.formerFireRate * 100).toFixed(1)}%`)
  const power = e.gatePower({ sims: 100, seed: 13 })
  t.ok(power.fireRate > 0.8, `a true -10% fails the 5% gate in ${(power.fireRate * 100).toFixed(0)}%`)
  t.end()
})

t.test('concatenated CSVs of two runs keep their pairs', (t) => {
  const a = e.concatenated({ seed: 13 })
  t.same(a.results.map((r) => [r.method, r.n_pairs]), [['wilcoxon-signed-rank', 20], ['wilcoxon-signed-rank', 20]])
  t.end()
})
