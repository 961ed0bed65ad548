'use strict'
// doc_img/ holds a plot bar.R made from a real run, with that run's CSV, and
// the 100-configuration example of the PR figure; the compare guide shows
// them: the files exist, the CSVs are what they claim, the guide links them.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { parseCsvRecords } = require('../../lib/record/csv.js')

const ROOT = path.join(__dirname, '..', '..')
const PNG = path.join(ROOT, 'doc_img', 'node22-vs-node24-buffers.png')
const CSV = path.join(ROOT, 'doc_img', 'node22-vs-node24-buffers.csv')

t.test('the node 22 vs 24 plot and its data are committed and used in the guide', (t) => {
  const png = fs.readFileSync(PNG)
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file')
  t.ok(png.length > 10000, 'with a real plot in it')
  const { header, records } = parseCsvRecords(fs.readFileSync(CSV, 'utf8'))
  t.same(header.slice(0, 5), ['binary', 'filename', 'configuration', 'rate', 'time'])
  t.same([...new Set(records.map((r) => r.binary))].sort(), ['new', 'old'])
  t.ok(records.every((r) => r.filename.startsWith('buffers/')), 'over buffers/')
  t.ok(new Set(records.map((r) => r.filename)).size >= 6, 'every buffers/ file')
  const guide = fs.readFileSync(path.join(ROOT, 'docs', 'compare.md'), 'utf8')
  t.match(guide, /!\[[^\]]+\]\(\.\.\/doc_img\/node22-vs-node24-buffers\.png\)/, 'docs/compare.md shows the plot')
  t.match(guide, /Rscript bar\.R --plot doc_img\/node22-vs-node24-buffers\.png/, 'and says how it was made')
  t.end()
})

// The PR figure's example: 100 configurations from the seeded suite of
// doc_img/forest-example.js, drawn by analyze --plot (SVG) and bar.R (PNG).
t.test('the 100-configuration PR figure, its seeded data and the script that makes them', (t) => {
  const { simulateCompareCsv } = require('../../doc_img/forest-example.js')
  const dir = path.join(ROOT, 'doc_img')
  t.equal(fs.readFileSync(path.join(dir, 'forest-100.csv'), 'utf8'), simulateCompareCsv(), 'the committed CSV is what the seeded script makes')
  const svg = fs.readFileSync(path.join(dir, 'forest-100.svg'), 'utf8')
  t.equal([...svg.matchAll(/<g class="row" /g)].length, 100, 'the SVG has 100 rows')
  t.match(svg, /class="title">new \(simulated\) vs old \(simulated\)</, 'titled from the metadata file')
  const png = fs.readFileSync(path.join(dir, 'forest-100.png'))
  t.equal(png.toString('latin1', 1, 4), 'PNG')
  t.ok(png.readUInt32BE(20) > 1800, `bar.R's PNG is a tall page (${png.readUInt32BE(20)} px)`)
  const guide = fs.readFileSync(path.join(ROOT, 'docs', 'compare.md'), 'utf8')
  t.match(guide, /!\[[^\]]+\]\(\.\.\/doc_img\/forest-100\.svg\)/, 'docs/compare.md shows the figure')
  t.match(guide, /node doc_img\/forest-example\.js/, 'and says how it was made')
  t.end()
})
