'use strict'
// scatter.js end to end on a tiny benchmark file.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { BENCH, ROOT } = require('./fixtures/helpers.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const SPIN = path.join(BENCH, 'cpu', 'spin.js')

function scatter (args) {
  return spawnOutput(process.execPath, [path.join(ROOT, 'scatter.js'), '--no-progress', ...args])
}

t.test('CSV with one column per variable, flushed to --output', async (t) => {
  const dir = t.testdir()
  const out = path.join(dir, 's.csv')
  const r = await scatter(['--runs', '2', '--output', out, SPIN])
  t.equal(r.code, 0, r.stderr)
  const { header, records } = parseCsvRecords(fs.readFileSync(out, 'utf8'))
  t.same(header, ['filename', 'kind', 'n', 'rate', 'time'], 'variables in Node core\'s order')
  t.equal(records.length, 4, '2 runs x 2 configurations')
  t.same(records.map((x) => x.kind).sort(), ['mix', 'mix', 'sqrt', 'sqrt'])
  t.ok(records.every((x) => x.filename === 'cpu/spin.js' && Number(x.rate) > 0))
})

t.test('--analyze gives mean and median with CIs per x and compares successive x', async (t) => {
  const r = await scatter(['--runs', '2', '--analyze', '--xaxis', 'kind', '--format', 'json', SPIN])
  t.equal(r.code, 0, r.stderr)
  const a = JSON.parse(r.stdout)
  t.equal(a.xaxis, 'kind')
  t.same(a.groups.map((g) => g.x), ['mix', 'sqrt'])
  t.ok(a.groups.every((g) => g.n === 2 && g.mean_ci.length === 2 && g.median_ci.length === 2))
  t.same(a.averagedOver, [])
  t.equal(a.steps.length, 1)
})

t.test('usage errors name the flag', async (t) => {
  let r = await scatter(['--analyze', SPIN])
  t.equal(r.code, 2)
  t.match(r.stderr, /--analyze needs --xaxis V/)
  r = await scatter(['--runs', '1', '--set', 'kind=mix', '--analyze', '--xaxis', 'nope', SPIN])
  t.match(r.stderr, /--xaxis nope: not a variable of this benchmark; it has kind, n/)
  r = await scatter([path.join(BENCH, 'missing.js')])
  t.match(r.stderr, /missing\.js: no such benchmark file/)
})
