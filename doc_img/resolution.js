'use strict'
// What effect sizes a compare run of N pairs can resolve, from the pair-to-
// pair noise of a real compare CSV:
//   node doc_img/resolution.js doc_img/node22-vs-node24-buffers.csv
// For each configuration, sigma = SD of log(new/old) over its pairs. The
// Hodges-Lehmann estimate's standard error is about sigma * sqrt(pi / 3) / sqrt(N)
// (its efficiency relative to the mean is 3/pi for normal data), so the
// 95% CI half-width is 1.96 times that and the smallest change found with
// 80% power at alpha = .05 is (1.96 + 0.84) times that.
const fs = require('node:fs')
const { parseCsvRecords } = require('../lib/record/csv.js')

const rows = parseCsvRecords(fs.readFileSync(process.argv[2], 'utf8')).records
const byConf = new Map()
for (const r of rows) {
  const key = `${r.filename} ${r.configuration}`
  const m = byConf.get(key) ?? new Map()
  const p = m.get(r.pair) ?? {}
  p[r.binary] = Number(r.rate)
  m.set(r.pair, p)
  byConf.set(key, m)
}
const sigmas = []
for (const m of byConf.values()) {
  const d = [...m.values()].filter((p) => p.old > 0 && p.new > 0).map((p) => Math.log(p.new / p.old))
  if (d.length < 4) continue
  const mean = d.reduce((a, b) => a + b, 0) / d.length
  sigmas.push(Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (d.length - 1)))
}
sigmas.sort((a, b) => a - b)
const q = (p) => sigmas[Math.min(sigmas.length - 1, Math.floor(p * sigmas.length))]
const levels = [['best', q(0)], ['median', q(0.5)], ['90th percentile', q(0.9)], ['worst', q(1)]]
const K = Math.sqrt(Math.PI / 3)
console.log(`${sigmas.length} configurations; SD of log(new/old) per pair:`)
console.log('| configuration noise | SD per pair | ' + [6, 10, 30, 60].map((n) => `N=${n}: CI ± / detectable`).join(' | ') + ' |')
console.log('|---|--:|' + [6, 10, 30, 60].map(() => '--:').join('|') + '|')
for (const [label, s] of levels) {
  const cells = [6, 10, 30, 60].map((n) => {
    const se = s * K / Math.sqrt(n)
    return `±${(1.96 * se * 100).toFixed(1)}% / ${(2.8 * se * 100).toFixed(1)}%`
  })
  console.log(`| ${label} | ${(s * 100).toFixed(1)}% | ${cells.join(' | ')} |`)
}
