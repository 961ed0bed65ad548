'use strict'
// scatter.R and bar.R read our CSVs and write plots; bar.R's paired numbers
// are R's wilcox.test on pairs, the same as benchrig analyze.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { needTool } = require('../helpers/tools.js')
const { parseCsvRecords, csvRow } = require('../../lib/report/csv.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { createRng } = require('../../lib/stats/prng.js')

const ROOT = path.join(__dirname, '..', '..')
const PAIRED = path.join(__dirname, 'fixtures', 'paired.csv')

t.test('bar.R plots the paired changes that benchrig analyze reports', (t) => {
  if (!needTool(t, 'Rscript')) return t.end()
  const plot = path.join(t.testdir(), 'bar.png')
  const r = spawnSync('Rscript', [path.join(ROOT, 'bar.R'), '--plot', plot], { input: fs.readFileSync(PAIRED), encoding: 'utf8' })
  t.equal(r.status, 0, r.stderr)
  t.ok(fs.statSync(plot).size > 1000, 'PNG written')
  const ours = analyze(parseCsvRecords(fs.readFileSync(PAIRED, 'utf8')).records).results
  for (const res of ours) {
    const line = r.stdout.split('\n').find((l) => l.trim().startsWith(`${res.filename} ${res.configuration} `))
    t.ok(line, `bar.R printed ${res.configuration}`)
    const [change, lower, upper] = line.trim().split(/\s+/).slice(-3).map(Number)
    t.ok(Math.abs(change - res.change) < 0.01 && Math.abs(lower - res.ci[0]) < 0.01 && Math.abs(upper - res.ci[1]) < 0.01, `${res.configuration}: ${change} [${lower}, ${upper}]`)
  }
  const bad = spawnSync('Rscript', [path.join(ROOT, 'bar.R')], { input: '', encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, /--plot FILE is required/)
  t.end()
})

t.test('scatter.R: mean with CI per x and category, names what it averaged over', (t) => {
  if (!needTool(t, 'Rscript')) return t.end()
  const rng = createRng(5)
  let csv = csvRow(['filename', 'len', 'enc', 'n', 'rate', 'time'])
  for (let run = 0; run < 5; run++) {
    for (const len of [16, 256, 4096]) {
      for (const enc of ['utf8', 'latin1']) {
        for (const n of [1, 2]) csv += csvRow(['b/x.js', len, enc, n, 1e6 / Math.sqrt(len) * Math.exp(0.02 * rng.normal()), 1])
      }
    }
  }
  const plot = path.join(t.testdir(), 'scatter.png')
  const r = spawnSync('Rscript', [path.join(ROOT, 'scatter.R'), '--xaxis', 'len', '--category', 'enc', '--log', '--plot', plot], { input: csv, encoding: 'utf8' })
  t.equal(r.status, 0, r.stderr)
  t.match(r.stdout, /enc\s+len\s+n\s+mean\s+lower\s+upper\s+median/)
  t.equal(r.stdout.split('\n').filter((l) => /^\s*(utf8|latin1)\s+\d+\s+10\s/.test(l)).length, 6, 'six groups of 10 runs')
  t.match(r.stdout, /Averaged over: n/)
  t.ok(fs.statSync(plot).size > 1000, 'PNG written')
  const bad = spawnSync('Rscript', [path.join(ROOT, 'scatter.R'), '--xaxis', 'size'], { input: csv, encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, /no column "size" in the CSV/)
  t.end()
})
