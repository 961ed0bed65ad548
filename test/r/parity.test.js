'use strict'
// Parity with R on fixture CSVs: R's wilcox.test(conf.int = TRUE), p.adjust
// and t.test (through our compare.R) against lib/stats/analyze.js.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { needTool } = require('../helpers/tools.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { analyze } = require('../../lib/stats/analyze.js')

const ROOT = path.join(__dirname, '..', '..')
const FIXTURES = ['paired.csv', 'ties.csv', 'unpaired.csv', 'small.csv']

function rscript (args, input) {
  const r = spawnSync('Rscript', args, { input, encoding: 'utf8', cwd: ROOT })
  if (r.status !== 0) throw new Error(`Rscript ${args.join(' ')} failed: ${r.stderr}`)
  return parseCsvRecords(r.stdout).records
}

const name = (r) => `${r.filename} ${r.configuration}`

for (const fixture of FIXTURES) {
  t.test(`${fixture}: wilcox.test and p.adjust`, (t) => {
    if (!needTool(t, 'Rscript')) return t.end()
    const file = path.join(__dirname, 'fixtures', fixture)
    const ref = rscript([path.join(__dirname, 'parity.R'), file])
    const ours = analyze(parseCsvRecords(fs.readFileSync(file, 'utf8')).records)
    t.equal(ours.results.length, ref.length, 'one result per configuration')
    for (const [i, r] of ref.entries()) {
      const o = ours.results[i]
      t.equal(name(o), r.name, 'same configuration order')
      const exact = r.exact === 'TRUE'
      // R finds normal-approximation limits with uniroot(tol = 1e-4); exact
      // limits are order statistics and must agree to rounding.
      const tol = exact ? 1e-12 : 1.5e-4
      t.ok(Math.abs(o.p - Number(r.p)) <= 1e-9 * Math.max(1, Number(r.p)), `${r.name}: p ${o.p} vs R ${r.p}`)
      t.ok(Math.abs(Math.log1p(o.change / 100) - Number(r.estimate)) <= tol, `${r.name}: estimate`)
      t.ok(Math.abs(Math.log1p(o.ci[0] / 100) - Number(r.lo)) <= tol, `${r.name}: CI low`)
      t.ok(Math.abs(Math.log1p(o.ci[1] / 100) - Number(r.hi)) <= tol, `${r.name}: CI high`)
      t.ok(Math.abs(o.conf_level - Number(r.level)) <= 1e-9, `${r.name}: the CI's real level ${o.conf_level} vs R ${r.level}`)
      t.ok(Math.abs(o.q - Number(r.bh)) <= 1e-9, `${r.name}: BH q`)
      t.ok(Math.abs(o.q_holm - Number(r.holm)) <= 1e-9, `${r.name}: Holm`)
      t.equal(o.method === 'wilcoxon-signed-rank', !o.filename.startsWith('misc/') && !o.filename.startsWith('tiny/f'), 'paired exactly when the pair column is filled')
    }
    t.end()
  })

  t.test(`${fixture}: compare.R Welch columns match the JS to 2 decimals`, (t) => {
    if (!needTool(t, 'Rscript')) return t.end()
    const text = fs.readFileSync(path.join(__dirname, 'fixtures', fixture), 'utf8')
    const ref = rscript([path.join(ROOT, 'compare.R'), '--format', 'csv'], text)
    const ours = new Map(analyze(parseCsvRecords(text).records).results.map((r) => [name(r), r]))
    t.equal(ref.length, ours.size)
    for (const r of ref) {
      const o = ours.get(r.name)
      t.ok(o, `${r.name} analysed by both`)
      t.equal(o.welch.improvement.toFixed(2), Number(r.improvement).toFixed(2), `${r.name}: improvement`)
      t.equal(o.welch.p.toFixed(4), Number(r['p.value']).toFixed(4), `${r.name}: p`)
      t.same(o.welch.accuracy.map((a) => a.toFixed(2)), [r.a95, r.a99, r.a999].map((a) => Number(a).toFixed(2)), `${r.name}: accuracy`)
    }
    t.end()
  })
}

t.test('compare.R prints the table and writes a box plot', (t) => {
  if (!needTool(t, 'Rscript')) return t.end()
  const dir = t.testdir()
  const plot = path.join(dir, 'box.png')
  const r = spawnSync('Rscript', [path.join(ROOT, 'compare.R'), '--plot', plot], {
    input: fs.readFileSync(path.join(__dirname, 'fixtures', 'paired.csv')), encoding: 'utf8'
  })
  t.equal(r.status, 0, r.stderr)
  const header = r.stdout.split('\n')[0]
  for (const col of ['confidence', 'improvement', 'accuracy (*)', '(**)', '(***)', 'p']) t.ok(header.includes(col), `column ${col}`)
  t.match(r.stdout, /buffers\/b\.js type="slow"\s+\*\*\*\s+-10\.\d\d %/)
  t.ok(fs.statSync(plot).size > 1000, 'a PNG was written')
  t.end()
})

t.test('compare.R names a missing column', (t) => {
  if (!needTool(t, 'Rscript')) return t.end()
  const r = spawnSync('Rscript', [path.join(ROOT, 'compare.R')], { input: '"a","b"\n1,2\n', encoding: 'utf8' })
  t.equal(r.status, 2)
  t.match(r.stderr, /lacks the column\(s\) binary, filename, configuration, rate/)
  t.end()
})
