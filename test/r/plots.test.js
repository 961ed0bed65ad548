'use strict'
// scatter.R, bar.R and compare.R read our CSVs and write plots; bar.R's
// numbers are R's wilcox.test, its verdicts the same rules as benchrig
// analyze's.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { needTool } = require('../helpers/tools.js')
const { parseCsvRecords, csvRow } = require('../../lib/record/csv.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { createRng } = require('../../lib/prng.js')
const { VERDICT_COLOURS } = require('../../lib/report/forest.js')
const { simulateCompareCsv } = require('../../doc_img/forest-example.js')

const ROOT = path.join(__dirname, '..', '..')

// bar.R computes the verdicts itself (R has no JSON reader here, and Node
// core users have only the CSV): the same rules as benchrig analyze, so its
// numbers, verdicts and colours must equal analyze()'s row by row, in the
// CSV's order.
function barR (t, dir, csv, extra = []) {
  const plot = path.join(dir, `bar-${extra.length}.png`)
  const r = spawnSync('Rscript', [path.join(ROOT, 'bar.R'), '--plot', plot, '--format', 'csv', ...extra], { input: csv, encoding: 'utf8' })
  t.equal(r.status, 0, r.status === 0 ? 'bar.R exits 0' : r.stderr)
  return { rows: parseCsvRecords(r.stdout).records, png: fs.readFileSync(plot), stderr: r.stderr }
}

function sameAsAnalyze (t, rows, csv) {
  const ours = analyze(parseCsvRecords(csv).records).results
  t.same(rows.map((r) => `${r.filename} ${r.configuration}`), ours.map((r) => `${r.filename} ${r.configuration}`), 'one row per configuration, in the CSV\'s order')
  let bad = 0
  for (const [i, res] of ours.entries()) {
    const r = rows[i]
    const ok = Math.abs(Number(r.change) - res.change) < 0.01 && Math.abs(Number(r.lower) - res.ci[0]) < 0.01 &&
      Math.abs(Number(r.upper) - res.ci[1]) < 0.01 && r.verdict === res.verdict && r.colour === VERDICT_COLOURS[res.verdict]
    if (!ok) {
      bad++
      t.fail(`${res.configuration}: R ${r.change} [${r.lower}, ${r.upper}] ${r.verdict} ${r.colour}, analyze ${res.change} [${res.ci[0]}, ${res.ci[1]}] ${res.verdict}`)
    }
  }
  t.equal(bad, 0, `${ours.length} configurations: R's change, CI, verdict and colour equal analyze's`)
  return ours
}

// Width and height of a PNG, from its IHDR chunk.
const pngSize = (png) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) })

t.test('bar.R: the forest plot of analyze\'s changes, coloured by analyze\'s verdicts', (t) => {
  if (!needTool(t, 'Rscript')) return t.end()
  const dir = t.testdir()
  const metaFile = path.join(dir, 'meta.ndjson')
  fs.writeFileSync(metaFile, JSON.stringify({ schema: 'benchrig-compare/1', type: 'meta', seed: 42, old: { path: '/x/node22', version: 'v22.11.0', sha256: 'ab' }, new: { path: '/x/node24', version: 'v24.1.0', sha256: 'cd' } }) + '\n')
  const paired = fs.readFileSync(path.join(__dirname, 'fixtures', 'paired.csv'), 'utf8')
  const p = barR(t, dir, paired, ['--meta', metaFile])
  sameAsAnalyze(t, p.rows, paired)
  t.match(p.stderr, /: v24\.1\.0 vs v22\.11\.0\ncategory buffers \u00b7 5 configurations \u00b7 30 pairs \u00b7 seed 42\n/, 'titled from the binaries\' versions, category, pairs')
  const unpaired = fs.readFileSync(path.join(__dirname, 'fixtures', 'unpaired.csv'), 'utf8')
  const u = barR(t, dir, unpaired)
  sameAsAnalyze(t, u.rows, unpaired)
  t.match(u.stderr, /: new vs old\n.*runs per binary \(unpaired\)/, 'without metadata: a plain title, and says it is unpaired')
  t.equal(u.png.toString('latin1', 1, 4), 'PNG', 'PNG written')
  const bad = spawnSync('Rscript', [path.join(ROOT, 'bar.R')], { input: '', encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, /--plot FILE is required/)
  const meta = spawnSync('Rscript', [path.join(ROOT, 'bar.R'), '--plot', path.join(dir, 'x.png'), '--meta', path.join(dir, 'none.ndjson')], { input: '', encoding: 'utf8' })
  t.equal(meta.status, 2)
  t.match(meta.stderr, /--meta .*none\.ndjson: cannot read a compare metadata record/)
  t.end()
})

t.test('bar.R at 100 configurations: every verdict as analyze gives it, one row each, a page that grows', (t) => {
  if (!needTool(t, 'Rscript')) return t.end()
  const csv = simulateCompareCsv()
  const { rows, png } = barR(t, t.testdir(), csv)
  const ours = sameAsAnalyze(t, rows, csv)
  t.same([...new Set(ours.map((r) => r.verdict))].sort(), ['faster', 'inconclusive', 'no change', 'slower'], 'the fixture has all four verdicts')
  // 1.8 in + 0.17 in per row + 0.3 in per file at 100 dpi: a tall page,
  // not 100 rows squashed into a fixed height.
  const { width, height } = pngSize(png)
  t.ok(Math.abs(height - (180 + 100 * 17 + 10 * 30)) <= 2, `height ${height} px grows with the rows`)
  t.ok(width >= 700 && width <= 1200, `width ${width} px`)
  t.end()
})

t.test('compare.R --plot: a box plot normalised per configuration, one row per configuration', (t) => {
  if (!needTool(t, 'Rscript')) return t.end()
  const csv = simulateCompareCsv({ files: 4, configs: 5, pairs: 6 })
  const plot = path.join(t.testdir(), 'box.png')
  const r = spawnSync('Rscript', [path.join(ROOT, 'compare.R'), '--plot', plot], { input: csv, encoding: 'utf8' })
  t.equal(r.status, 0, r.stderr)
  // 1.5 in + 0.3 in per configuration and per file at 100 dpi.
  const { height } = pngSize(fs.readFileSync(plot))
  t.ok(Math.abs(height - (150 + 20 * 30 + 4 * 30)) <= 2, `height ${height} px grows with the 20 rows`)
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
