'use strict'
// The 100-configuration example of the PR figure in docs/compare.md, from a
// seeded simulated compare run (no real benchmark: a known truth, and the
// same bytes on every machine):
//   node doc_img/forest-example.js
// writes doc_img/forest-100.csv, the SVG of `benchrig analyze --plot` and,
// when Rscript is installed, the PNG of `Rscript bar.R --plot`.
// 10 files of 10 configurations, 20 pairs; per configuration a true change
// (none, +4%, -3% or a small +-0.5%) and a pair-to-pair noise of 0.5-8%;
// the configurations of one file share a per-process effect in each pair,
// as they do in a real run.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { createRng } = require('../lib/prng.js')
const { csvRow } = require('../lib/record/csv.js')

const HEADER = ['binary', 'filename', 'configuration', 'rate', 'time', 'pair', 'order', 'run', 'seed']
const EFFECTS = [1, 1, 1.04, 0.97, 1.005, 0.995, 1, 1.04, 0.97, 1]
const NOISES = [0.005, 0.01, 0.02, 0.04, 0.08]

/**
 * @param {{seed?: number, files?: number, configs?: number, pairs?: number}} [o]
 * @returns {string} a compare CSV
 */
function simulateCompareCsv ({ seed = 20261123, files = 10, configs = 10, pairs = 20 } = {}) {
  const rng = createRng(seed)
  const suite = []
  for (let f = 0; f < files; f++) {
    const filename = `example/${['concat', 'copy', 'fill', 'from', 'index-of', 'read', 'slice', 'to-string', 'write', 'compare'][f % 10]}${f >= 10 ? '-' + Math.floor(f / 10) : ''}.js`
    const confs = []
    for (let c = 0; c < configs; c++) {
      confs.push({
        configuration: `type="${['ascii', 'utf8', 'latin1', 'hex', 'base64'][c % 5]}" len=${[16, 1024][Math.floor(c / 5) % 2]} n=${1e5 * (1 + (c % 3))}`,
        effect: EFFECTS[(c + f) % EFFECTS.length],
        noise: NOISES[(3 * c + f) % NOISES.length],
        level: 1e4 * Math.exp(4 * rng.uniform())
      })
    }
    suite.push({ filename, confs })
  }
  let csv = csvRow(HEADER)
  let run = 0
  for (let p = 1; p <= pairs; p++) {
    for (const { filename, confs } of suite) {
      const first = rng.int(2) === 0 ? 'old' : 'new'
      for (const [order, binary] of (first === 'old' ? ['old', 'new'] : ['new', 'old']).entries()) {
        run++
        const process = Math.exp(0.01 * rng.normal()) // shared by the file's configurations
        for (const c of confs) {
          const rate = c.level * process * (binary === 'new' ? c.effect : 1) * Math.exp(c.noise * rng.normal())
          csv += csvRow([binary, filename, c.configuration, rate, 1, p, order + 1, run, seed])
        }
      }
    }
  }
  return csv
}

module.exports = { simulateCompareCsv }

if (require.main === module) {
  const root = path.join(__dirname, '..')
  const csv = path.join(__dirname, 'forest-100.csv')
  fs.writeFileSync(csv, simulateCompareCsv())
  const meta = path.join(__dirname, 'forest-100.meta.ndjson')
  fs.writeFileSync(meta, JSON.stringify({ schema: 'benchrig-compare/1', type: 'meta', seed: 20261123, old: { version: 'old (simulated)' }, new: { version: 'new (simulated)' } }) + '\n')
  const svg = spawnSync(process.execPath, [path.join(root, 'bin', 'benchrig.js'), 'analyze', '--meta', meta, '--plot', path.join(__dirname, 'forest-100.svg'), csv], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (svg.status !== 0) process.exitCode = 1
  const r = spawnSync('Rscript', [path.join(root, 'bar.R'), '--plot', path.join(__dirname, 'forest-100.png'), '--meta', meta], { input: fs.readFileSync(csv), stdio: ['pipe', 'ignore', 'inherit'] })
  if (r.error) console.error('Rscript not found: forest-100.png not made (scripts/install-tools.sh installs R)')
  else if (r.status !== 0) process.exitCode = 1
}
