'use strict'
// bench/harness-overhead.js --compare: a whole comparison's wall time against
// the time its measured sections took, per executor (and per checkout with
// --before). See the header of bench/harness-overhead.js.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { parseCsvRecords } = require('../../lib/record/csv.js')

const REPO = path.join(__dirname, '..', '..')

/**
 * A benchmark directory with one file of K configurations, each a section of
 * `ms` ms of CPU; its common.js is the checkout's, so that --before measures
 * that checkout's children too.
 */
function makeRoot (configs, ms, repo = REPO) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-overhead-compare-'))
  fs.mkdirSync(path.join(dir, 'spin'))
  fs.writeFileSync(path.join(dir, 'common.js'), `module.exports = require(${JSON.stringify(path.join(repo, 'common.js'))})\n`)
  fs.writeFileSync(path.join(dir, 'spin', 'section.js'), [
    "'use strict'",
    "const common = require('../common.js')",
    `const bench = common.createBenchmark(main, { i: ${JSON.stringify(Array.from({ length: configs }, (_, i) => i + 1))} })`,
    '// busy for a fixed CPU time: the section, not its rate, is what this',
    '// measures, and its CPU time is known whatever else runs on the machine',
    'function main () {',
    '  let n = 0',
    '  bench.start()',
    '  const t0 = process.cpuUsage()',
    `  for (;;) { for (let i = 0; i < 1e4; i++) n++; const c = process.cpuUsage(t0); if (c.user + c.system >= ${ms * 1000}) break }`,
    '  bench.end(n)',
    '}',
    ''
  ].join('\n'))
  return dir
}

/**
 * Runs one comparison under /usr/bin/time (the CPU time of its whole process
 * tree); resolves {wall, measured, start, cpu, sectionsCpu} in ms.
 */
function runOnce (compareJs, root, executor, pairs, csv, ms) {
  return new Promise((resolve, reject) => {
    const args = ['-f', 'cpu %U %S', process.execPath, compareJs, '--old', process.execPath, '--new', process.execPath, '--root', root, '--runs', String(pairs), '--no-progress', '--output', csv, ...(executor === 'duet' ? ['--duet'] : []), 'spin']
    const t0 = Date.now()
    const child = spawn('/usr/bin/time', args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = Date.now() - t0
      if (code !== 0) return reject(new Error(`compare (${executor}) exited ${code}: ${stderr}`))
      const rows = parseCsvRecords(fs.readFileSync(csv, 'utf8')).records
      const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr)
      resolve({ wall, measured: measuredMs(rows, executor), start: Math.min(...rows.map((r) => Number(r.start))) - t0, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, sectionsCpu: rows.length * ms })
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
 * Each round runs every cell (executor, checkout) twice, at 1 pair and at
 * --pairs, in a rotating order; the difference of the two is what the extra
 * pairs cost, with compare's own start, checks and end (paid once per
 * comparison) cancelled out: the overhead per configuration that a long
 * comparison (Node core's 30 pairs of many files) pays.
 * @param {{rounds: number, configs: number, pairs: string, 'section-ms': string, executors: string, before?: string,
 *   stats: (xs: number[]) => {min: number, median: number, max: number}}} o
 */
async function main (o) {
  const pairs = Number(o.pairs)
  if (pairs < 2) throw new Error('--compare needs --pairs 2 or more (the runs at 1 pair are subtracted)')
  const ms = Number(o['section-ms'])
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-overhead-csv-'))
  const checkouts = [['this', REPO], ...(o.before ? [['before', path.resolve(o.before)]] : [])].map(([who, dir]) => ({ who, js: path.join(dir, 'compare.js'), root: makeRoot(o.configs, ms, dir) }))
  const cells = []
  for (const c of checkouts) for (const e of o.executors.split(',')) cells.push({ ...c, executor: e, runs: [] })
  const steps = cells.flatMap((c) => [{ c, pairs: 1 }, { c, pairs }])
  try {
    for (let round = 0; round < o.rounds; round++) {
      const got = new Map()
      for (let j = 0; j < steps.length; j++) {
        const s = steps[(round + j) % steps.length]
        got.set(s, await runOnce(s.c.js, s.c.root, s.c.executor, s.pairs, path.join(tmp, 'out.csv'), ms))
      }
      for (const c of cells) {
        const [one, many] = steps.filter((s) => s.c === c).map((s) => got.get(s))
        const d = (k) => many[k] - one[k]
        c.runs.push({ long: many, wall: d('wall'), measured: d('measured'), cpu: d('cpu'), sectionsCpu: d('sectionsCpu') })
      }
    }
  } finally {
    for (const c of checkouts) fs.rmSync(c.root, { recursive: true, force: true })
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  const pct = (x) => `${(100 * x).toFixed(1)}%`.padStart(7)
  const three = (xs) => { const s = o.stats(xs); return `${pct(s.min)} ${pct(s.median)} ${pct(s.max)}` }
  console.log(`harness overhead of a comparison: node ${process.version}, ${os.cpus().length} CPUs, ${o.rounds} rounds, ${o.configs} configurations, ${pairs} pairs against 1, sections of ${ms} ms of CPU, load ${os.loadavg()[0].toFixed(2)}`)
  console.log('per configuration: what the extra pairs cost, (wall - measured) / measured, compare\'s own start and end cancelled out')
  console.log('  in CPU: (CPU of the process trees - the sections\' CPU) / the sections\' CPU, which load does not inflate (a quiet machine\'s wall figure)')
  console.log(`whole run: (wall - measured) / measured of the ${pairs}-pair comparison, its start included`)
  console.log('                   per configuration: wall, min/median/max       CPU, min/median/max        whole run, median   compare wall s')
  for (const c of cells) {
    const name = `${c.executor}${o.before ? ` (${c.who})` : ''}`.padEnd(18)
    const whole = o.stats(c.runs.map((r) => (r.long.wall - r.long.measured) / r.long.measured)).median
    console.log(`${name}${three(c.runs.map((r) => (r.wall - r.measured) / r.measured)).padStart(39)}   ${three(c.runs.map((r) => (r.cpu - r.sectionsCpu) / r.sectionsCpu))}   ${pct(whole).padStart(16)}   ${(o.stats(c.runs.map((r) => r.long.wall)).median / 1000).toFixed(1).padStart(14)}`)
  }
  console.log('target (issue 24): overhead per configuration <= 15% of the measured time')
}

module.exports = { main, measuredMs }
