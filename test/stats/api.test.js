'use strict'
// require('benchrig').analyze is lib/stats/analyze.js.
const t = require('tap')
const path = require('node:path')
const api = require(path.join(__dirname, '..', '..', 'index.js'))

t.test('the package exports analyze', (t) => {
  const rows = []
  for (let p = 1; p <= 8; p++) {
    rows.push({ binary: 'old', filename: 'a.js', configuration: 'n=1', rate: 100 + p, pair: p })
    rows.push({ binary: 'new', filename: 'a.js', configuration: 'n=1', rate: 120 + p, pair: p })
  }
  const a = api.analyze(rows)
  t.equal(a.schema, 'benchrig-analysis/1')
  t.equal(a.results[0].verdict, 'faster')
  t.equal(a.results[0].p, 2 / 256, 'all 8 pairs faster: exact p = 2/2^8')
  t.end()
})
