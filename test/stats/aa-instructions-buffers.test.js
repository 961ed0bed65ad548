'use strict'
// The acceptance run of `--measure instructions` (docs/compare.md, "A/A over
// buffers/ under instructions"): the same node as old and new over every
// configuration of buffers/, 6 pairs, counted by callgrind on the shared 2-core
// machine with other jobs beside it. Its two CSVs are committed as they came
// out of compare.js; this reads them with the reader and the analysis every
// user gets, so a change to either that would call identical code faster or
// slower on real near-deterministic data fails here.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { readCompareCsv } = require('../../lib/compare/load-csv.js')
const { analyze } = require('../../lib/stats/analyze.js')

const DIR = path.join(__dirname, '..', '..', 'doc_img')
const FILES = ['aa-instructions-buffers-a.csv', 'aa-instructions-buffers-b.csv']

t.test('A/A over buffers/ under instructions: 6 pairs of every configuration, no faster or slower', async (t) => {
  // two plans (two streams of files): each analysed on its own, as analyze requires
  const rows = FILES.flatMap((f) => readCompareCsv(path.join(DIR, f)))
  const parts = FILES.map((f) => analyze(readCompareCsv(path.join(DIR, f))))
  const out = { meta: parts[0].meta, results: parts.flatMap((p) => p.results) }
  t.same(parts.map((p) => p.meta.measure), ['instructions', 'instructions'])
  t.equal(out.meta.measure, 'instructions')
  t.equal(out.meta.minEffect, 0.01, 'the floor is the measure\'s resolution')
  // every file of the suite, and every configuration the harness planned for
  // it (compare.js writes each file's count in the "configs" column)
  const files = fs.readdirSync(path.join(__dirname, '..', '..', 'buffers')).filter((f) => f.endsWith('.js')).map((f) => `buffers/${f}`)
  t.same([...new Set(rows.map((r) => r.filename))].sort(), files.sort(), 'every file of buffers/')
  const planned = [...new Map(rows.map((r) => [r.filename, Number(r.configs)])).values()].reduce((a, b) => a + b, 0)
  t.ok(planned > files.length, `several configurations a file (${planned})`)
  t.equal(out.results.length, planned, `every planned configuration (${planned})`)
  t.same(out.results.filter((r) => r.n_pairs !== 6).map((r) => `${r.filename} ${r.configuration}: ${r.n_pairs}`), [], '6 pairs each')
  t.same(out.results.filter((r) => r.method !== 'paired-t-log').map((r) => r.configuration), [], 'the paired t-test on log ratios throughout')
  const called = out.results.filter((r) => r.verdict === 'faster' || r.verdict === 'slower')
  t.same(called.map((r) => `${r.filename} ${r.configuration}: ${r.verdict} ${r.change}%`), [], 'no faster/slower verdict')
  const largest = Math.max(...out.results.map((r) => Math.abs(r.change)))
  t.ok(largest < 1, `the largest |change| is under 1% (${largest.toFixed(4)}%)`)
})
