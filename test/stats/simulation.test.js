'use strict'
// Seeded simulations of the whole analysis: false-positive rate, CI
// coverage, power, and multiplicity control. The noise model mimics these
// machines: a shared level per pair that moves up to ~2x between pairs
// (slow and fast spells that last longer than one pair), times independent
// per-process noise. Seeds are fixed, so every run gives the same numbers.
const t = require('tap')
const { createRng } = require('../../lib/prng.js')
const { analyze } = require('../../lib/stats/analyze.js')

function simulateRows (rng, { configs = 1, pairs = 30, effect = 1, noise = 0.01, spread = 0.25 }) {
  const rows = []
  for (let c = 0; c < configs; c++) {
    const configuration = `c=${c}`
    for (let p = 1; p <= pairs; p++) {
      const level = 1e6 * Math.exp(spread * rng.normal())
      rows.push({ binary: 'old', filename: 'sim.js', configuration, rate: level * Math.exp(noise * rng.normal()), pair: p })
      rows.push({ binary: 'new', filename: 'sim.js', configuration, rate: level * effect * Math.exp(noise * rng.normal()), pair: p })
    }
  }
  return rows
}

t.test('A/A: the false-positive rate at q < .05 is within [3%, 7%]', (t) => {
  const rng = createRng(101)
  const sims = 2000
  let positives = 0
  for (let i = 0; i < sims; i++) {
    const [r] = analyze(simulateRows(rng, {})).results
    if (r.q < 0.05) positives++
  }
  const rate = positives / sims
  t.ok(rate >= 0.03 && rate <= 0.07, `false-positive rate ${(rate * 100).toFixed(2)}%`)
  t.end()
})

t.test('95% CIs cover the true change in [93%, 97%] of runs', (t) => {
  const rng = createRng(202)
  const sims = 2000
  const truth = 3 // %
  let covered = 0
  for (let i = 0; i < sims; i++) {
    const [r] = analyze(simulateRows(rng, { effect: 1 + truth / 100, noise: 0.02 })).results
    if (r.ci[0] <= truth && truth <= r.ci[1]) covered++
  }
  const coverage = covered / sims
  t.ok(coverage >= 0.93 && coverage <= 0.97, `coverage ${(coverage * 100).toFixed(2)}%`)
  t.end()
})

t.test('power: a 2% change at 1% noise is called with the default 30 pairs in >= 80% of runs', (t) => {
  const rng = createRng(303)
  const sims = 500
  let faster = 0
  let slower = 0
  for (let i = 0; i < sims; i++) {
    faster += analyze(simulateRows(rng, { effect: 1.02, noise: 0.01 })).results[0].verdict === 'faster'
    slower += analyze(simulateRows(rng, { effect: 0.98, noise: 0.01 })).results[0].verdict === 'slower'
  }
  t.ok(faster / sims >= 0.8, `faster called in ${(faster / sims * 100).toFixed(1)}%`)
  t.ok(slower / sims >= 0.8, `slower called in ${(slower / sims * 100).toFixed(1)}%`)
  t.end()
})

t.test('100 A/A configurations: a discovery after BH in about 5% of runs at most', (t) => {
  const rng = createRng(404)
  const runs = 200
  let withDiscovery = 0
  let rawPositives = 0
  for (let i = 0; i < runs; i++) {
    const a = analyze(simulateRows(rng, { configs: 100 }))
    if (a.results.some((r) => r.q < 0.05)) withDiscovery++
    rawPositives += a.results.filter((r) => r.p < 0.05).length
  }
  const rate = withDiscovery / runs
  t.ok(rate <= 0.07, `runs with any discovery: ${(rate * 100).toFixed(1)}%`)
  // Without adjustment about 5 of every 100 configurations would be "significant".
  t.ok(rawPositives / runs > 3, `unadjusted: ${(rawPositives / runs).toFixed(2)} per run`)
  t.end()
})

t.test('A/A with pairs: verdicts are never faster or slower beyond the error rate, and mostly no change', (t) => {
  const rng = createRng(505)
  const counts = { faster: 0, slower: 0, 'no change': 0, inconclusive: 0 }
  for (let i = 0; i < 300; i++) counts[analyze(simulateRows(rng, { noise: 0.003 })).results[0].verdict]++
  t.ok(counts.faster + counts.slower <= 0.07 * 300, `faster ${counts.faster}, slower ${counts.slower}`)
  t.ok(counts['no change'] >= 0.9 * 300, `no change in ${counts['no change']} of 300`)
  t.end()
})

t.test('unpaired rows: Mann-Whitney CIs also cover in about 95%', (t) => {
  const rng = createRng(606)
  let covered = 0
  const methods = new Set()
  const sims = 600
  for (let i = 0; i < sims; i++) {
    const rows = simulateRows(rng, { effect: 1.05, noise: 0.03, spread: 0, pairs: 20 }).map((r) => ({ ...r, pair: '' }))
    const [r] = analyze(rows).results
    methods.add(r.method)
    if (r.ci[0] <= 5 && r.ci[1] >= 5) covered++
  }
  t.same([...methods], ['mann-whitney'], 'rows without pairs use the rank-sum test')
  t.ok(covered / sims >= 0.92 && covered / sims <= 0.98, `coverage ${(covered / sims * 100).toFixed(1)}%`)
  t.end()
})
