'use strict'
// doc_img/ holds a plot bar.R made from a real run, with that run's CSV, and
// the compare guide shows it: the files exist, the CSV is a real two-binary
// compare run over buffers/, and the guide links the image.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { parseCsvRecords } = require('../../lib/report/csv.js')

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
