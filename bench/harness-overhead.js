#!/usr/bin/env node
'use strict'
// What a configuration costs beyond its main(): starting the child, loading
// common.js, the IPC report and the exit, against a bare `node -e 0`.
//
//   node bench/harness-overhead.js [--rounds 15] [--configs 10]
//   node bench/harness-overhead.js --compare [--rounds 5] [--configs 4] [--pairs 3]
//        [--section-ms 500] [--executors serial,duet] [--before DIR]
//
// Three measurements alternate in every round (the order rotates), so that
// machine noise spreads over all of them:
//   bare   spawnSync(node, ['-e', '0'])
//   file1  a driver run (runBenchmarkFile) of a file with ONE configuration
//          whose main is empty: driver fork + root + one child
//   fileK  the same file with K configurations
// The cost of one configuration is (fileK - file1) / (K - 1): the root's own
// start is paid once per file, not per configuration. Target: < 1.5x bare.
//
// --compare: the overhead of a whole comparison against its measured time
// (issue 24's target: <= 15% at Node's default run lengths). Each round runs
// compare.js (one binary on both sides, --runs PAIRS) once per executor, in
// a rotating order, over a file of K configurations whose measured section
// lasts --section-ms (500 by default: Node core's own files at their default
// n measure ~0.55 s per configuration, issue 24's 292 s for 20 pairs of 12
// configurations, 90% of it measured). Each round runs every executor at
// 1 pair and at --pairs; their difference is what the extra pairs cost,
// compare's own start and end cancelled out. It prints
//   overhead per configuration = (wall time - measured time) / measured time
// of that difference, where measured time is the sum of the rows' sections
// (serial: one after the other; duet: both sides at once, so per pair the
// longer of the two), and the same in CPU time of the process trees (which
// the load of other processes does not inflate: what a quiet machine shows).
// --before DIR alternates
// DIR's compare.js (a checkout of another commit) with this one's in every
// round, for a before/after in one go.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { runBenchmarkFile } = require('../lib/harness/run-file.js')

const USAGE = 'usage: node bench/harness-overhead.js [--rounds N] [--configs K] | --compare [--rounds N] [--configs K] [--pairs P] [--section-ms MS] [--executors serial,duet] [--before DIR]'

let opts
try {
  opts = require('node:util').parseArgs({
    options: {
      rounds: { type: 'string' },
      configs: { type: 'string' },
      compare: { type: 'boolean', default: false },
      pairs: { type: 'string', default: '3' },
      'section-ms': { type: 'string', default: '500' },
      executors: { type: 'string', default: 'serial,duet' },
      before: { type: 'string' }
    }
  }).values
  for (const k of ['rounds', 'configs', 'pairs', 'section-ms']) {
    if (opts[k] !== undefined && !(/^\d+$/.test(opts[k]) && Number(opts[k]) >= 1)) throw new Error(`--${k} ${opts[k]}: give a whole number >= 1`)
  }
  if (!opts.compare && (opts.before !== undefined || process.argv.some((a) => /^--(pairs|section-ms|executors)/.test(a)))) throw new Error('--pairs, --section-ms, --executors and --before go with --compare')
  if (opts.before !== undefined && !fs.existsSync(path.join(opts.before, 'compare.js'))) throw new Error(`--before ${opts.before}: no compare.js there; give a checkout of benchrig`)
  for (const e of opts.executors.split(',')) if (e !== 'serial' && e !== 'duet') throw new Error(`--executors: unknown executor ${e} (serial, duet)`)
} catch (err) {
  process.stderr.write(`harness-overhead: ${err.message}\n${USAGE}\n`)
  process.exitCode = 2
  opts = undefined
}
const ROUNDS = Number(opts?.rounds ?? (opts?.compare ? 5 : 15))
const K = Number(opts?.configs ?? (opts?.compare ? 4 : 10))

function makeRoot () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-overhead-'))
  fs.mkdirSync(path.join(dir, 'empty'))
  fs.writeFileSync(path.join(dir, 'common.js'), `module.exports = require(${JSON.stringify(path.join(__dirname, '..', 'common.js'))})\n`)
  const configs = Array.from({ length: K }, (_, i) => i + 1)
  fs.writeFileSync(path.join(dir, 'empty', 'empty.js'), [
    "'use strict'",
    "const common = require('../common.js')",
    `const bench = common.createBenchmark(main, { i: ${JSON.stringify(configs)} })`,
    'function main () { bench.start(); bench.end(1) }',
    ''
  ].join('\n'))
  return { dir, file: path.join(dir, 'empty', 'empty.js') }
}

function ms (t0) {
  return Number(process.hrtime.bigint() - t0) / 1e6
}

async function timeFile (file, args) {
  const t0 = process.hrtime.bigint()
  const r = await runBenchmarkFile({ file, args })
  if (r.failures || r.exitCode !== 0) throw new Error(`the empty benchmark failed: ${JSON.stringify(r)}`)
  return ms(t0)
}

function stats (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
  return { min: s[0], median, max: s[s.length - 1] }
}

const fmt = (x) => x.toFixed(1).padStart(7)

async function main () {
  const { dir, file } = makeRoot()
  const env = { ...process.env }
  delete env.NODE_OPTIONS
  const samples = { bare: [], file1: [], fileK: [], perConfig: [] }
  const steps = {
    bare: async () => {
      const t0 = process.hrtime.bigint()
      spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore', env })
      samples.bare.push(ms(t0))
    },
    file1: async () => samples.file1.push(await timeFile(file, ['i=1'])),
    fileK: async () => samples.fileK.push(await timeFile(file, []))
  }
  const order = Object.keys(steps)
  await steps.bare() // warm the file cache once, unmeasured runs below are discarded
  samples.bare.length = 0
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < order.length; j++) await steps[order[(round + j) % order.length]]()
  }
  for (let i = 0; i < ROUNDS; i++) samples.perConfig.push((samples.fileK[i] - samples.file1[i]) / (K - 1))
  fs.rmSync(dir, { recursive: true, force: true })

  console.log(`harness overhead: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0].model.trim()}), ${ROUNDS} rounds, K=${K}, load ${os.loadavg()[0].toFixed(2)}`)
  console.log('                               min  median     max   (ms)')
  const rows = {
    'node -e 0': samples.bare,
    'file, 1 configuration': samples.file1,
    [`file, ${K} configurations`]: samples.fileK,
    'one configuration (marginal)': samples.perConfig
  }
  for (const [name, xs] of Object.entries(rows)) {
    const s = stats(xs)
    console.log(`${name.padEnd(29)}${fmt(s.min)} ${fmt(s.median)} ${fmt(s.max)}`)
  }
  const bare = stats(samples.bare).median
  const per = stats(samples.perConfig).median
  console.log(`ratio: one configuration / node -e 0 = ${(per / bare).toFixed(2)}x (target < 1.5x)`)
  console.log(`ratio: a whole 1-configuration file (driver fork + root + child) / node -e 0 = ${(stats(samples.file1).median / bare).toFixed(2)}x`)
}

if (opts) (opts.compare ? require('./harness-overhead/compare.js').main({ ...opts, rounds: ROUNDS, configs: K, stats }) : main()).catch((err) => { console.error(err); process.exitCode = 1 })
