'use strict'
// Output that fits: the rate-mode table of benchrig load (two latencies, and
// the --breakout rows) within 80 columns from a real run, counts formatted one
// way in a table, and scatter's numbers without scientific notation.
const t = require('tap')
const { load } = require('../../lib/engine/index.js')
const { formatResult } = require('../../lib/engine/result/format.js')
const { formatScatterText } = require('../../lib/report/scatter-text.js')
const { startServe } = require('../helpers/serve.js')

const width = (text) => Math.max(...text.split('\n').map((l) => [...l].length))

t.test('rate mode with --breakout fits 80 columns; the latencies are labelled by kind', async (t) => {
  const target = await startServe(t, { delay: '0-2' })
  const result = await load({ url: target.url + '/', overallRate: 200, connections: 4, amount: 100, breakout: true })
  const text = formatResult(result, { statusCodes: true })
  t.ok(width(text) <= 80, `widest line: ${width(text)} columns\n${text}`)
  t.match(text, /│ Latency, ms │ 2\.5% +│ 50% +│ 97\.5% +│ 99% +│ Avg +│ Stdev +│ Max +│/)
  for (const row of ['corrected', 'uncorrected', 'connect', 'first byte', 'last byte']) t.match(text, new RegExp(`│ ${row} +│ [\\d.]+ +│`), row)
  t.match(text, /^rate: target 200 req\/s, achieved \d+ req\/s/m)
  t.match(text, /^sends behind the plan: p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms$/m)
})

t.test('the closed-loop tables keep autocannon\'s layout; counts read one way', async (t) => {
  const target = await startServe(t)
  const result = await load({ url: target.url + '/', connections: 2, amount: 200 })
  const text = formatResult(result)
  t.match(text, /│ Stat +│ 2\.5% +│ 50% +│ 97\.5% +│ 99% +│ Avg +│ Stdev +│ Max +│\n├[─┼]+┤\n│ Latency │ [\d.]+ ms/)
  // counts: raw below 1000, three significant digits with a unit from 1000 on, in every cell
  const fake = { ...result, requests: { ...result.requests, p1: 7516, p2_5: 42031, p50: 999, p97_5: 1250000, average: 12.4, stddev: 7516.2, min: 0 } }
  t.match(formatResult(fake), /│ Req\/Sec +│ 7\.52k +│ 42\.0k +│ 999 +│ 1\.25M +│ 12 +│ 7\.52k +│ 0 +│/)
})

t.test('scatter text: thousands separators, never scientific notation', async (t) => {
  const g = { category: undefined, x: '64', n: 30, mean: 1523456.789, mean_ci: [1500000, 1550000.5], median: 0.000123456, median_ci: [0.0001, 0.0002] }
  const text = formatScatterText({ xaxis: 'len', category: undefined, groups: [g], averagedOver: [], steps: [] })
  t.match(text, /1,523,460/)
  t.match(text, /\[1,500,000, 1,550,000\]/)
  t.match(text, /0\.000123456/)
  t.notMatch(text, /\de[+-]\d/, 'no exponent')
})
