'use strict'
const t = require('tap')
const { decide, starsFor, morePairsNeeded } = require('../../lib/stats/verdict.js')
const { warningsFor } = require('../../lib/stats/warnings.js')
const { createRng } = require('../../lib/prng.js')

t.test('verdicts', (t) => {
  t.same(decide({ change: 0.2, ci: [-0.5, 0.8], q: 0.6, n: 30 }), { verdict: 'no change' })
  t.same(decide({ change: 0.3, ci: [0.1, 0.5], q: 0.01, n: 30 }), { verdict: 'no change' }, 'inside ±1% wins over a tiny significant change')
  t.same(decide({ change: 3, ci: [2, 4], q: 0.001, n: 30 }), { verdict: 'faster' })
  t.same(decide({ change: -3, ci: [-4, -2], q: 0.001, n: 30 }), { verdict: 'slower' })
  t.equal(decide({ change: 3, ci: [2, 4], q: 0.2, n: 30 }).verdict, 'inconclusive', 'not significant after adjustment')
  const inc = decide({ change: 1.5, ci: [-0.5, 3.5], q: 0.2, n: 10, scale: 0.03 })
  t.equal(inc.verdict, 'inconclusive')
  t.equal(inc.blocker, 'width')
  t.equal(inc.morePairs, morePairsNeeded({ scale: 0.03, n: 10, threshold: 1 }))
  // CI half-width (log) = t(.975, n-1) * sqrt(pi/3) * 0.03 / sqrt(n) <= log(1.01) / 2
  // first at n = 149 (normal: 1.96^2 * 1.047 * 0.03^2 / 0.004975^2 = 146.2, t's quantile pushes it up)
  t.equal(inc.morePairs, 139)
  t.same(decide({ change: -2, ci: [-3.5, -0.5], q: 0.2, n: 10, scale: 0.03 }), { verdict: 'inconclusive', blocker: 'multiplicity' }, 'the CI excludes 0, only the correction blocks: no pair count')
  const few = decide({ change: 10, ci: [5, 15], q: 0.06, n: 4, scale: 0.03 })
  t.equal(few.blocker, 'too-few-pairs', 'below 6 pairs the signed-rank test cannot reach p < .05')
  t.ok(few.morePairs >= 2)
  t.equal(decide({ change: 0.2, ci: [-0.5, 0.8], q: 0.6, n: 30, threshold: 0.5 }).verdict, 'inconclusive', '--threshold narrows "no change"')
  t.same([0.0004, 0.004, 0.04, 0.4, NaN].map(starsFor), ['***', '**', '*', '', ''])
  t.end()
})

t.test('warnings', (t) => {
  const rng = createRng(8)
  const quiet = Array.from({ length: 30 }, () => 1e6 * Math.exp(0.01 * rng.normal()))
  const kinds = (g) => warningsFor({ filename: 'f.js', configuration: 'c', ...g }).map((w) => w.kind)
  t.same(kinds({ oldRates: quiet, newRates: quiet, logRatios: quiet.map(() => 0.01 * rng.normal()) }), [], 'quiet paired data: no warning')
  t.same(kinds({ oldRates: quiet.slice(0, 4), newRates: quiet.slice(0, 4), logRatios: [0.01, 0, -0.01, 0.02] }), ['too-few-runs'])
  t.match(warningsFor({ filename: 'f', configuration: '', oldRates: quiet.slice(0, 5), newRates: quiet.slice(0, 5), logRatios: [0, 0, 0, 0, 0.1] })[0].message, /cannot reach p < \.05 below 6/)
  t.ok(kinds({ oldRates: quiet, newRates: quiet, logRatios: quiet.map(() => 0.2 * rng.normal()) }).includes('high-variance'), 'noisy ratios')
  const noisy = quiet.map((r) => r * Math.exp(0.3 * rng.normal()))
  t.ok(kinds({ oldRates: noisy, newRates: quiet }).includes('high-variance'), 'unpaired: noisy rates')
  t.ok(kinds({ oldRates: quiet, newRates: quiet, logRatios: quiet.map((_, i) => i * 0.002 + 0.001 * rng.normal()) }).includes('drift'), 'ratio trending with pair order')
  const twoModes = quiet.map((r, i) => (i % 2 ? r : r * 1.5))
  t.ok(kinds({ oldRates: twoModes, newRates: quiet }).includes('bimodal'), 'two modes')
  t.ok(kinds({ oldRates: quiet, newRates: quiet, logRatios: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], droppedRows: 3 }).includes('incomplete-pairs'))
  t.end()
})

t.test('generator-bound: bench.http() runs whose generator was the limit are warned about under wall, not server-cpu', (t) => {
  const { analyze } = require('../../lib/stats/analyze.js')
  const rng = createRng(3)
  // rows as read from compare's CSV: every value a string
  const rows = (measure, boundPairs, configuration = 'c=1') => Array.from({ length: 10 }, (_, i) => ['old', 'new'].map((binary) => ({
    binary,
    filename: 'http/simple.js',
    configuration,
    rate: String(1e4 * Math.exp(0.01 * rng.normal())),
    time: '1',
    pair: String(i + 1),
    seed: '1',
    measure,
    generator_bound: String(binary === 'new' && i < boundPairs)
  }))).flat()
  const bound = (r) => r.warnings.filter((w) => w.kind === 'generator-bound')
  const wall = bound(analyze([...rows('', 3), ...rows('', 0, 'c=2')]))
  t.equal(wall.length, 1, 'one configuration had such runs')
  t.match(wall[0], { filename: 'http/simple.js', configuration: 'c=1' })
  t.match(wall[0].message, /^in 3 of 20 runs the load generator used its CPUs to the full .*--measure server-cpu/)
  t.same(bound(analyze(rows('server-cpu', 3))), [], 'server-cpu divides by the server\'s cost: no warning')
  const noColumn = rows('', 0).map(({ generator_bound: _g, ...r }) => r)
  t.same(bound(analyze(noColumn)), [], 'rows without the column (not bench.http()): no warning')
  t.end()
})
