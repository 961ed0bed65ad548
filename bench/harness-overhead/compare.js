'use strict'
// bench/harness-overhead.js --compare: a whole comparison's wall time against
// the time its measured sections took, per executor (and per checkout with
// --before). See the header of bench/harness-overhead.js.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { parseCsvRecords } = require('../../lib/report/csv.js')

const REPO = path.join(__dirname, '..', '..')

/** A benchmark directory with one file of K configurations, each a section of `ms` ms of work. */
function makeRoot (configs, ms) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-overhead-compare-'))
  fs.mkdirSync(path.join(dir, 'spin'))
  fs.writeFileSync(path.join(dir, 'common.js'), `module.exports = require(${JSON.stringify(path.join(REPO, 'common.js'))})\n`)
  fs.writeFileSync(path.join(dir, 'spin', 'section.js'), [
    "'use strict'",
    "const common = require('../common.js')",
    `const bench = common.createBenchmark(main, { i: ${JSON.stringify(Array.from({ length: configs }, (_, i) => i + 1))} })`,
    '// busy for a fixed time: the section, not its rate, is what this measures',
    'function main () {',
    '  let n = 0',
    '  bench.start()',
    `  const end = process.hrtime.bigint() + ${ms}000000n`,
    '  while (process.hrtime.bigint() < end) n++',
    '  bench.end(n)',
    '}',
    ''
  ].join('\n'))
  return dir
}

/** Runs one comparison; resolves {wall, measured, start} in ms. */
function runOnce (compareJs, root, executor, pairs, csv) {
  return new Promise((resolve, reject) => {
    const args = [compareJs, '--old', process.execPath, '--new', process.execPath, '--root', root, '--runs', String(pairs), '--no-progress', '--output', csv, ...(executor === 'duet' ? ['--duet'] : []), 'spin']
    const t0 = Date.now()
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = Date.now() - t0
      if (code !== 0) return reject(new Error(`compare (${executor}) exited ${code}: ${stderr}`))
      const rows = parseCsvRecords(fs.readFileSync(csv, 'utf8')).records
      resolve({ wall, measured: measuredMs(rows, executor), start: Math.min(...rows.map((r) => Number(r.start))) - t0 })
    })
  })
}

/**
 * The time the sections took on the wall: serial runs one after the
 * other (their sum); duet runs both sides at once (per pair and
 * configuration the longer one).
 */
function measuredMs (rows, executor) {
  if (executor !== 'duet') return rows.reduce((s, r) => s + Number(r.time) * 1000, 0)
  const byKey = new Map()
  for (const r of rows) {
    const k = `${r.pair}\u0000${r.configuration}`
    byKey.set(k, Math.max(byKey.get(k) ?? 0, Number(r.time) * 1000))
  }
  return [...byKey.values()].reduce((a, b) => a + b, 0)
}

/**
 * @param {{rounds: number, configs: number, pairs: string, 'section-ms': string, executors: string, before?: string,
 *   stats: (xs: number[]) => {min: number, median: number, max: number}}} o
 */
async function main (o) {
  const pairs = Number(o.pairs)
  const ms = Number(o['section-ms'])
  const root = makeRoot(o.configs, ms)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-overhead-csv-'))
  const checkouts = [['this', path.join(REPO, 'compare.js')], ...(o.before ? [['before', path.join(path.resolve(o.before), 'compare.js')]] : [])]
  const cells = []
  for (const [who, js] of checkouts) for (const e of o.executors.split(',')) cells.push({ who, js, executor: e, runs: [] })
  try {
    for (let round = 0; round < o.rounds; round++) {
      for (let j = 0; j < cells.length; j++) {
        const c = cells[(round + j) % cells.length]
        c.runs.push(await runOnce(c.js, root, c.executor, pairs, path.join(tmp, 'out.csv')))
      }
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  const pct = (x) => `${(100 * x).toFixed(1)}%`.padStart(7)
  console.log(`harness overhead of a comparison: node ${process.version}, ${os.cpus().length} CPUs, ${o.rounds} rounds, ${o.configs} configurations x ${pairs} pairs, sections of ${ms} ms, load ${os.loadavg()[0].toFixed(2)}`)
  console.log('overhead = (wall - measured) / measured; "per configuration" leaves out compare\'s own start (spawn to its first run)')
  console.log('                         wall s   measured s   overhead min/median/max     per configuration min/median/max   compare start ms')
  for (const c of cells) {
    const all = o.stats(c.runs.map((r) => (r.wall - r.measured) / r.measured))
    const per = o.stats(c.runs.map((r) => (r.wall - r.start - r.measured) / r.measured))
    const name = `${c.executor}${o.before ? ` (${c.who})` : ''}`.padEnd(22)
    console.log(`${name}${(o.stats(c.runs.map((r) => r.wall)).median / 1000).toFixed(1).padStart(8)} ${(o.stats(c.runs.map((r) => r.measured)).median / 1000).toFixed(1).padStart(12)}   ${pct(all.min)} ${pct(all.median)} ${pct(all.max)}          ${pct(per.min)} ${pct(per.median)} ${pct(per.max)}   ${o.stats(c.runs.map((r) => r.start)).median.toFixed(0).padStart(10)}`)
  }
  console.log('target (issue 24): overhead <= 15% of the measured time')
}

module.exports = { main, measuredMs }
