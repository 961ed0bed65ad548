'use strict'
// benchrig analyze --plot: the PR figure as a standalone SVG. Its structure
// (one row per configuration in the CSV's order, analyze's verdicts and
// colours, labels, a title from the metadata, nothing external) from the
// file itself; that it draws what it says, by rendering it in headless
// Chromium and reading the pixels back.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { main } = require('../../lib/cli/analyze.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { rowsFromCsvText } = require('../../lib/compare/load-csv.js')
const { VERDICT_COLOURS, logTicks } = require('../../lib/report/forest.js')
const { simulateCompareCsv } = require('../../doc_img/forest-example.js')
const { needTool } = require('../helpers/tools.js')
const { screenshot } = require('../helpers/chromium.js')
const { decodePng } = require('../helpers/png.js')

const PAIRED = path.join(__dirname, '..', 'r', 'fixtures', 'paired.csv')
const sink = { write: () => true }
const unescape = (s) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')

// The rows of the figure, in document order: their data attributes and the
// fill of their estimate's dot.
function figureRows (svg) {
  return [...svg.matchAll(/<g class="row" data-file="([^"]*)" data-configuration="([^"]*)" data-verdict="([^"]*)"[^>]*>(.*?)<\/g>/g)].map((m) => ({
    filename: unescape(m[1]),
    configuration: unescape(m[2]),
    verdict: m[3],
    dot: (m[4].match(/<circle [^>]*fill="([^"]+)"[^>]*class="estimate"/) || [])[1]
  }))
}

function writeMeta (dir) {
  const file = path.join(dir, 'run.ndjson')
  fs.writeFileSync(file, JSON.stringify({ schema: 'benchrig-compare/1', type: 'meta', seed: 42, old: { path: '/opt/node22', version: 'v22.11.0', sha256: 'ab' }, new: { path: '/opt/node24', version: 'v24.1.0', sha256: 'cd' } }) + '\n')
  return file
}

t.test('one row per configuration in the CSV\'s order, with analyze\'s verdicts and colours, titled from the metadata', async (t) => {
  const dir = t.testdir()
  const file = path.join(dir, 'pr.svg')
  t.equal(await main(['--plot', file, '--meta', writeMeta(dir), PAIRED], { stdout: sink }), 0)
  const svg = fs.readFileSync(file, 'utf8')
  const ours = analyze(rowsFromCsvText(fs.readFileSync(PAIRED, 'utf8'), 'x')).results
  const rows = figureRows(svg)
  t.same(rows.map((r) => [r.filename, r.configuration, r.verdict]), ours.map((r) => [r.filename, r.configuration, r.verdict]), '5 rows: file, configuration and verdict as analyze gives them, in order')
  t.same(rows.map((r) => r.dot), ours.map((r) => VERDICT_COLOURS[r.verdict]), 'each dot in its verdict\'s colour')
  t.same([...new Set(ours.map((r) => r.verdict))].sort(), ['faster', 'inconclusive', 'slower'], 'the fixture has three verdicts')
  t.match(svg, /<text [^>]*class="title">v24\.1\.0 vs v22\.11\.0<\/text>/, 'title: the binaries\' versions')
  t.match(svg, /class="subtitle">category buffers · 5 configurations · 30 pairs · seed 42</, 'subtitle: category, configurations, pairs, seed')
  t.match(svg, /class="axis-label">change of ops\/sec, new vs old \(log scale; 95% CI; positive = new is faster\)</)
  t.match(svg, />n=1 len=&quot;x,y&quot;</, 'labels are the configurations, escaped')
  t.equal([...svg.matchAll(/class="file">/g)].length, 2, 'a heading per file')
  t.match(svg, /class="tick">0%</)
  t.match(svg, />\+3\.12% \[\+2\.0%, \+4\.2%\]</, 'the change and CI printed beside the row')
  // Standalone: no scripts, links, external resources or web fonts.
  t.notMatch(svg, /<script|href=|url\(|@import|@font-face|<image|<foreignObject/i)
  t.same(svg.match(/https?:\/\/[^"]*/g), ['http://www.w3.org/2000/svg'], 'the one URL is the namespace')
})

t.test('the axis names the rows\' measure; an unpaired run says so; bad --plot or --meta exits 2 before any work', async (t) => {
  const dir = t.testdir()
  const csv = '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure"\n' +
    Array.from({ length: 8 }, (_, i) => `"old","cpu/a.js","n=1",${100 + (i % 3)},1,,,,,,,"cpu"\n"new","cpu/a.js","n=1",${110 + (i % 4)},1,,,,,,,"cpu"\n`).join('')
  const input = path.join(dir, 'cpu.csv')
  fs.writeFileSync(input, csv)
  const file = path.join(dir, 'cpu.svg')
  t.equal(await main(['--plot', file, input], { stdout: sink }), 0)
  const svg = fs.readFileSync(file, 'utf8')
  t.match(svg, /class="title">new vs old</, 'no metadata: a plain title')
  t.match(svg, /8 runs per binary \(unpaired\)/)
  t.match(svg, /change of operations per CPU-second/, 'the measure from the rows')
  const empty = path.join(dir, 'empty.csv')
  fs.writeFileSync(empty, csv.split('\n')[0] + '\n')
  t.equal(await main(['--plot', path.join(dir, 'empty.svg'), empty], { stdout: sink }), 0)
  const blank = fs.readFileSync(path.join(dir, 'empty.svg'), 'utf8')
  t.equal(figureRows(blank).length, 0, 'a header-only CSV: no rows')
  t.match(blank, /class="subtitle">no data: the CSV has no old\/new rows with a rate</, 'and says so')
  for (const [args, re] of [
    [['--plot', path.join(dir, 'x.png'), input], /--plot .*x\.png: give a file name ending in \.svg/],
    [['--plot', path.join(dir, 'no', 'x.svg'), input], /--plot .*x\.svg: the folder .*no does not exist/],
    [['--plot', file, '--meta', input, input], /--meta .*cpu\.csv: its first line is not a compare metadata record/],
    [['--plot', path.join(dir, 'y.svg'), path.join(dir, 'missing.csv')], /missing\.csv: cannot read it/]
  ]) {
    await t.rejects(main(args, { stdout: sink }), { exitCode: 2, message: re })
  }
  t.notOk(fs.existsSync(path.join(dir, 'y.svg')), 'nothing written on an error')
})

t.test('log-ratio ticks: the widest spread of round percentages, none crowding 0', async (t) => {
  t.same(logTicks(Math.log(0.9), Math.log(1.1)), [-5, -2, 0, 2, 5, 10])
  t.same(logTicks(Math.log(0.3), Math.log(2)), [-50, -20, 0, 25, 100])
  t.same(logTicks(-0.004, 0.004), [-0.2, -0.1, 0, 0.1, 0.2])
})

t.test('rendered in headless Chromium: 100 configurations, each a row of its verdict\'s colour', async (t) => {
  if (!needTool(t, 'chromium')) return
  const dir = t.testdir()
  const input = path.join(dir, 'hundred.csv')
  const csv = simulateCompareCsv()
  fs.writeFileSync(input, csv)
  const file = path.join(dir, 'hundred.svg')
  t.equal(await main(['--plot', file, input], { stdout: sink }), 0)
  const svg = fs.readFileSync(file, 'utf8')
  const width = Number(svg.match(/<svg [^>]*width="(\d+)"/)[1])
  const height = Number(svg.match(/<svg [^>]*height="(\d+)"/)[1])
  const ours = analyze(rowsFromCsvText(csv, 'x')).results
  t.equal(figureRows(svg).length, 100, '100 rows in the document')

  const shot = screenshot(file, dir, { width, height })
  t.ok(shot.png, `Chromium wrote a PNG (exit ${shot.status})`)
  if (!shot.png) return
  const img = decodePng(shot.png)
  t.same([img.width, img.height], [width, height], 'the whole figure in the window')
  let ink = 0
  for (let y = 0; y < img.height; y += 2) {
    for (let x = 0; x < img.width; x += 2) if (img.pixel(x, y).slice(0, 3).some((c) => c < 200)) ink++
  }
  t.ok(ink > 0.01 * (img.width * img.height / 4), `not blank: ${ink} dark pixels of ${img.width * img.height / 4} sampled`)

  // Inside the plot area (no text there) only the CI bars and dots have the
  // verdict colours: count the colours, and the horizontal bands of
  // coloured pixels (one per configuration row).
  const area = svg.match(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="none" class="plot-area"\/>/).slice(1).map(Number)
  const rgb = Object.fromEntries(Object.entries(VERDICT_COLOURS).map(([v, hex]) => [hex.slice(1).match(/../g).map((h) => parseInt(h, 16)).join(','), v]))
  const seen = {}
  let bands = 0
  let inBand = false
  for (let y = Math.ceil(area[1]); y < area[1] + area[3]; y++) {
    let hit = false
    for (let x = Math.ceil(area[0]); x < area[0] + area[2]; x++) {
      const v = rgb[img.pixel(x, y).slice(0, 3).join(',')]
      if (v) {
        seen[v] = (seen[v] ?? 0) + 1
        hit = true
      }
    }
    if (hit && !inBand) bands++
    inBand = hit
  }
  t.equal(bands, 100, 'one coloured bar per configuration')
  const expected = [...new Set(ours.map((r) => r.verdict))].sort()
  t.same(expected, ['faster', 'inconclusive', 'no change', 'slower'], 'the suite has all four verdicts')
  t.same(Object.keys(seen).sort(), expected, `each verdict drawn in its colour: ${JSON.stringify(seen)}`)
})
