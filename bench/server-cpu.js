'use strict'
// How many pairs does compare need to call a server that does 20% more work
// per request slower, under --measure wall and --measure server-cpu, on this
// machine (server and generator share its CPUs)? And an A/A under
// server-cpu. Uses test/fixtures/measure-cost/http/work.js (a node http
// server spinning `spins` steps per request) and a wrapper "binary" that sets
// BENCHRIG_EXTRA_WORK. For each measure it runs one compare of --pairs
// pairs, then analyses its first k pairs for k = 6..N and prints the first k
// at which the verdict is "slower" and the k from which it stays so.
//
// Measured here (node 20.20.2, 2 CPUs shared with other jobs, load average
// 21-23; 12 pairs, 1 s loads, 200,000 spins per request, +20% work):
//   wall            first "slower" at 7 pairs, but not at 12: -38.7% [-62.9, +0.9] inconclusive
//   server-cpu      slower from 6 pairs on (the fewest a rank test can call); at 12: -15.8% [-19.1, -12.7]
//   server-cpu A/A  never slower or faster; at 12: -1.0% [-4.4, +2.8]
// Server CPU per request spread 974-1287 us under server-cpu, 1035-2139 us in
// the wall runs; the generator was the limit in none of the 24+24+24 runs.
//
// usage: node bench/server-cpu.js [--pairs N] [--duration S] [--extra F] [--spins N]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseArgs } = require('node:util')
const { parseCsvRecords } = require('../lib/record/csv.js')
const { analyze } = require('../lib/stats/analyze.js')

const USAGE = 'usage: node bench/server-cpu.js [--pairs N] [--duration S] [--extra F] [--spins N]'
let opts
try {
  const { values } = parseArgs({ options: { pairs: { type: 'string' }, duration: { type: 'string' }, extra: { type: 'string' }, spins: { type: 'string' }, help: { type: 'boolean' } } })
  if (values.help) { console.log(USAGE); process.exit(0) }
  opts = { pairs: Number(values.pairs ?? 12), duration: Number(values.duration ?? 1), extra: Number(values.extra ?? 0.2), spins: Number(values.spins ?? 200000) }
  for (const [k, v] of Object.entries(opts)) if (!(v > 0)) throw new Error(`--${k} must be a positive number`)
  if (!Number.isInteger(opts.pairs) || opts.pairs < 6) throw new Error('--pairs must be a whole number >= 6')
} catch (err) {
  console.error(`${err.message}\n${USAGE}`)
  process.exit(2)
}

const ROOT = path.join(__dirname, '..')
const SUITE = path.join(ROOT, 'test', 'fixtures', 'measure-cost')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-server-cpu-'))
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
const wrapper = path.join(dir, 'node-more-work')
fs.writeFileSync(wrapper, `#!/bin/sh\nBENCHRIG_EXTRA_WORK=${opts.extra} exec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })

function compare (newBin, measure, seed) {
  const out = path.join(dir, `${measure}-${seed}.csv`)
  const r = spawnSync(process.execPath, [path.join(ROOT, 'compare.js'), '--root', SUITE, '--no-progress', '--old', process.execPath, '--new', newBin,
    '--runs', String(opts.pairs), '--seed', String(seed), '--measure', measure, '--set', `duration=${opts.duration}`, '--set', `spins=${opts.spins}`,
    '--output', out, 'http'], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] })
  if (r.status !== 0) throw new Error(`compare failed: ${r.stderr}`)
  return parseCsvRecords(fs.readFileSync(out, 'utf8')).records
}

/** The verdict and change after each number of pairs, and the first k that calls it slower. */
function byPairs (rows) {
  const steps = []
  for (let k = 6; k <= opts.pairs; k++) {
    const [res] = analyze(rows.filter((r) => Number(r.pair) <= k)).results
    steps.push({ k, verdict: res.verdict, change: res.change, ci: res.ci })
  }
  const first = steps.find((s) => s.verdict === 'slower')?.k
  // from k on: slower at k and at every later count (a verdict that comes and goes is not a call)
  let stays
  for (let i = steps.length - 1; i >= 0 && steps[i].verdict === 'slower'; i--) stays = steps[i].k
  return { steps, first, stays }
}

const fmt = (s) => `${s.change >= 0 ? '+' : ''}${s.change.toFixed(1)}% [${s.ci[0].toFixed(1)}, ${s.ci[1].toFixed(1)}] ${s.verdict}`
console.log(`node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${opts.pairs} pairs, ${opts.duration} s loads, ${opts.spins} spins, new side +${opts.extra * 100}% work per request`)
const runs = [
  ['wall', wrapper, 11],
  ['server-cpu', wrapper, 11],
  ['server-cpu A/A', process.execPath, 13]
]
for (const [label, bin, seed] of runs) {
  const rows = compare(bin, label.split(' ')[0], seed)
  const { steps, first, stays } = byPairs(rows)
  const last = steps[steps.length - 1]
  const perReq = rows.filter((r) => r.server_cpu_us !== '').map((r) => Number(r.server_cpu_us))
  const bound = rows.filter((r) => r.generator_bound === 'true').length
  console.log(`${label.padEnd(15)} first "slower" at ${first ?? 'no'} pairs, slower from ${stays ?? 'no'} pairs on; at ${last.k}: ${fmt(last)}; server CPU per request ${Math.min(...perReq).toFixed(0)}-${Math.max(...perReq).toFixed(0)} us; generator the limit in ${bound} of ${rows.length} runs`)
}
