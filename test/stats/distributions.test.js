'use strict'
// Distribution functions and adjustments against values printed by R 4
// (pt, qt, pnorm, qnorm, psignrank, pwilcox, p.adjust).
const t = require('tap')
const d = require('../../lib/stats/distributions.js')
const { signedRankPmf, rankSumPmf, cdf, lowerQuantile } = require('../../lib/stats/rank-distributions.js')
const { adjustBH, adjustHolm, adjust } = require('../../lib/stats/adjust.js')
const { rank, bimodalityCoefficient, spearman, median } = require('../../lib/stats/descriptive.js')
const { createRng } = require('../../lib/prng.js')

const close = (t, a, b, rel, msg) => t.ok(Math.abs(a - b) <= rel * Math.max(1e-300, Math.abs(b)), `${msg}: ${a} vs ${b}`)

t.test('t and normal distributions', (t) => {
  close(t, d.tCdf(-2.1, 7.3), 0.03612336, 1e-6, 'pt(-2.1, 7.3)')
  close(t, d.tQuantile(0.975, 12.7), 2.165568, 1e-6, 'qt(0.975, 12.7)')
  close(t, d.tQuantile(0.9995, 3.2), 11.64015, 1e-6, 'qt(0.9995, 3.2)')
  close(t, d.tQuantile(0.025, 29), -2.045230, 1e-6, 'qt(0.025, 29)')
  close(t, d.normCdf(-1.96), 0.0249979, 1e-5, 'pnorm(-1.96)')
  close(t, d.normQuantile(0.025), -1.959964, 1e-6, 'qnorm(0.025)')
  close(t, d.normTail(8), 6.220961e-16, 1e-6, 'pnorm(8, lower = FALSE)')
  close(t, d.incompleteBeta(0.3, 2, 5), 0.579825, 1e-6, 'pbeta(0.3, 2, 5)')
  t.equal(d.tCdf(0, 5), 0.5)
  t.ok(Number.isNaN(d.tQuantile(1, 5)))
  t.end()
})

t.test('exact rank distributions', (t) => {
  const sr = signedRankPmf(10)
  t.equal(sr.length, 56)
  close(t, sr.reduce((a, b) => a + b, 0), 1, 1e-12, 'pmf sums to 1')
  close(t, cdf(sr, 8), 0.02441406, 1e-6, 'psignrank(8, 10)')
  t.equal(lowerQuantile(signedRankPmf(30), 0.025), 138, 'qsignrank(0.025, 30)')
  const rs = rankSumPmf(7, 9)
  close(t, cdf(rs, 12), 0.02089161, 1e-6, 'pwilcox(12, 7, 9)')
  t.equal(lowerQuantile(rankSumPmf(12, 9), 0.025), 27, 'qwilcox(0.025, 12, 9)')
  t.end()
})

t.test('p.adjust', (t) => {
  const p = [0.01, 0.04, 0.03, 0.005, NaN, 0.5]
  // p.adjust(c(0.01, 0.04, 0.03, 0.005, NA, 0.5), "BH") and "holm" in R
  t.same(adjustBH(p).map((x) => (Number.isNaN(x) ? 'NA' : +x.toFixed(6))), [0.025, 0.05, 0.05, 0.025, 'NA', 0.5])
  t.same(adjustHolm(p).map((x) => (Number.isNaN(x) ? 'NA' : +x.toFixed(6))), [0.04, 0.09, 0.09, 0.025, 'NA', 0.5])
  t.same(adjust([0.2], 'none'), [0.2])
  t.throws(() => adjust([0.1], 'bonferonni'), /unknown adjustment/)
  t.end()
})

t.test('ranks, correlation, bimodality', (t) => {
  t.same(rank([3, 1, 3, 2]), { ranks: [3.5, 1, 3.5, 2], ties: [1, 1, 2] })
  t.equal(median([5, 1, 3, 2]), 2.5)
  const up = spearman([1, 2, 3, 4, 5, 6], [2, 3, 5, 8, 9, 12], d.tTail)
  t.equal(up.rho, 1)
  const rng = createRng(3)
  const normal = Array.from({ length: 200 }, () => rng.normal())
  const twoModes = Array.from({ length: 200 }, (_, i) => (i % 2 ? 10 : 0) + rng.normal())
  t.ok(bimodalityCoefficient(normal) < 5 / 9, 'a normal sample is not bimodal')
  t.ok(bimodalityCoefficient(twoModes) > 5 / 9, 'two separated modes are')
  t.end()
})

t.test('the PRNG is seeded and uniform', (t) => {
  const a = createRng(42)
  const b = createRng(42)
  const xs = Array.from({ length: 5 }, () => a.next())
  t.same(Array.from({ length: 5 }, () => b.next()), xs, 'same seed, same sequence')
  t.not(createRng(43).next(), xs[0], 'another seed, another sequence')
  const r = createRng(7)
  let sum = 0
  for (let i = 0; i < 10000; i++) sum += r.uniform()
  t.ok(Math.abs(sum / 10000 - 0.5) < 0.02, 'mean of uniforms near 1/2')
  t.same(createRng(1).shuffle([1, 2, 3, 4, 5]).sort(), [1, 2, 3, 4, 5], 'shuffle keeps the elements')
  t.end()
})
