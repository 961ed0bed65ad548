'use strict'
const t = require('tap')
const { analyzeScatter, medianCi, meanCi, binomHalfCdf } = require('../../lib/stats/scatter-analysis.js')
const { createRng } = require('../../lib/prng.js')

t.test('median CI from order statistics', (t) => {
  t.equal(binomHalfCdf(10, 10), 1)
  t.ok(Math.abs(binomHalfCdf(1, 10) - 11 / 1024) < 1e-15, 'P(Bin(10, .5) <= 1)')
  // n = 10: P(Bin <= 1) = .0107 <= .025 < P(Bin <= 2), so [x(2), x(9)]
  t.same(medianCi([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]), [2, 9])
  t.same(medianCi([3, 1, 2]), [1, 3], 'too few values: the range')
  const [lo, hi] = meanCi([1, 2, 3, 4, 5])
  // R: t.test(1:5)$conf.int = 1.036757 4.963243
  t.ok(Math.abs(lo - 1.036757) < 1e-6 && Math.abs(hi - 4.963243) < 1e-6)
  t.end()
})

t.test('groups per x and category, names what it averaged over, compares successive x', (t) => {
  const rng = createRng(9)
  const rows = []
  for (let run = 0; run < 12; run++) {
    for (const len of [16, 256, 4096]) {
      for (const enc of ['utf8', 'latin1']) {
        for (const n of [1e5, 2e5]) {
          const base = enc === 'utf8' ? 1e6 : 2e6
          rows.push({ filename: 'b/x.js', len, enc, n, rate: base / Math.sqrt(len) * Math.exp(0.02 * rng.normal()), time: 1 })
        }
      }
    }
  }
  const a = analyzeScatter(rows, { xaxis: 'len', category: 'enc', variables: ['len', 'enc', 'n'] })
  t.same(a.averagedOver, ['n'], 'n took two values and was averaged over')
  t.equal(a.groups.length, 6)
  t.same(a.groups.filter((g) => g.category === 'latin1').map((g) => g.x), ['16', '256', '4096'], 'numeric x sorted as numbers')
  for (const g of a.groups) {
    t.equal(g.n, 24)
    t.ok(g.mean_ci[0] < g.mean && g.mean < g.mean_ci[1])
    t.ok(g.median_ci[0] <= g.median && g.median <= g.median_ci[1])
  }
  t.equal(a.steps.length, 4, 'two steps per category')
  for (const s of a.steps) {
    t.ok(s.ci[0] < -70 && s.ci[1] > -80, `${s.category} ${s.from}->${s.to}: ${s.change.toFixed(1)}% (truth -75%)`)
    t.ok(s.q < 0.001)
  }
  t.end()
})
