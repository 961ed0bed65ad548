#!/usr/bin/env node
'use strict'
// What compare --cmd adds to each run of a runner's command, against the
// runner's own start-up plus 5% of its run (issue 33's target).
//
//   node bench/cmd-overhead.js [--rounds 3] [--pairs 4] [--time-ms 200]
//
// The project: a tinybench script (tinybench from the test cache, see
// test/runners/_packages.js) with two tasks of --time-ms each. Every round,
// in a rotating order:
//   direct   the command run 2 x PAIRS times by spawnSync, one after another
//   startup  `node -e "import('tinybench')"` as often: the runner's start-up
//   cmdN     compare --cmd at 1 pair and at 1 + PAIRS pairs
// compare's cost per run is (cmd(1+P) - cmd(1)) / 2P - direct/run: its own
// start and end cancel out in the difference. Reported per round, then
// min/median/max, in wall time and in CPU time of the process trees (which
// the load of other processes does not inflate), with the target
// startup + 5% of the direct run. "own cpu" is the compare process's own CPU
// time (a preload prints process.cpuUsage() at exit), without its children:
// what the harness itself spends per run.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseArgs } = require('node:util')

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, pairs: { type: 'string', default: '4' }, 'time-ms': { type: 'string', default: '200' } } })
const ROUNDS = Number(values.rounds)
const PAIRS = Number(values.pairs)
const TIME_MS = Number(values['time-ms'])
const BIN = path.join(__dirname, '..', 'bin', 'benchrig.js')

async function main () {
  const { runnerModules } = require('../test/runners/_packages.js')
  const mods = await runnerModules()
  if (mods.skip) throw new Error(mods.skip)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-overhead-'))
  try {
    fs.symlinkSync(mods.nodeModules, path.join(dir, 'node_modules'))
    fs.writeFileSync(path.join(dir, 'bench.mjs'), `import { Bench } from 'tinybench'
const bench = new Bench({ time: ${TIME_MS / 2}, warmupTime: ${TIME_MS / 10} })
bench.add('sqrt', () => { let s = 0; for (let k = 0; k < 2000; k++) s += Math.sqrt(k); return s })
bench.add('join', () => [1, 2, 3, 4, 5, 6, 7, 8].join(','))
await bench.run()
console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))))
`)
    /** wall and CPU (children's user + system) seconds of fn's processes */
    const timed = (fn) => {
      const c0 = childCpu()
      const t0 = process.hrtime.bigint()
      fn()
      return { wall: Number(process.hrtime.bigint() - t0) / 1e9, cpu: childCpu() - c0 }
    }
    const runs = 2 * PAIRS
    const direct = () => timed(() => { for (let i = 0; i < runs; i++) check(spawnSync(process.execPath, ['bench.mjs'], { cwd: dir, encoding: 'utf8' })) })
    const startup = () => timed(() => { for (let i = 0; i < runs; i++) check(spawnSync(process.execPath, ['-e', 'import("tinybench")'], { cwd: dir, encoding: 'utf8' })) })
    const preload = path.join(dir, 'own-cpu.js')
    fs.writeFileSync(preload, "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.OWN_CPU_FILE, String((u.user + u.system) / 1e6)) })\n")
    const ownFile = path.join(dir, 'own-cpu.txt')
    let own = 0
    const cmp = (pairs) => timed(() => { check(spawnSync(process.execPath, ['--require', preload, BIN, 'compare', '--no-progress', '--old', process.execPath, '--new', process.execPath, '--cmd', 'node bench.mjs', '--runner', 'tinybench', '--runs', String(pairs), '--seed', '1'], { cwd: dir, encoding: 'utf8', env: { ...process.env, OWN_CPU_FILE: ownFile } })); own = Number(fs.readFileSync(ownFile, 'utf8')) })
    const rows = []
    for (let r = 0; r < ROUNDS; r++) {
      const parts = [['direct', direct], ['startup', startup], ['cmd1', () => cmp(1)], ['cmdN', () => cmp(1 + PAIRS)]]
      const got = {}
      const owns = {}
      for (let k = 0; k < parts.length; k++) {
        const [name, fn] = parts[(k + r) % parts.length]
        got[name] = fn()
        owns[name] = own
      }
      const row = {}
      for (const m of ['wall', 'cpu']) {
        const perRun = got.direct[m] / runs
        const harness = (got.cmdN[m] - got.cmd1[m]) / runs - perRun
        const target = got.startup[m] / runs + 0.05 * perRun
        row[m] = { run: perRun, startup: got.startup[m] / runs, harness, target, ratio: harness / target }
      }
      row.own = (owns.cmdN - owns.cmd1) / runs
      rows.push(row)
      console.log(`round ${r + 1}: ${['wall', 'cpu'].map((m) => `${m}: run ${ms(row[m].run)}, runner start-up ${ms(row[m].startup)}, compare's cost per run ${ms(row[m].harness)} (target <= ${ms(row[m].target)}: ${pct(row[m].ratio)} of it)`).join('; ')}; compare's own cpu per run ${ms(row.own)} (${pct(row.own / row.cpu.target)} of the cpu target)`)
    }
    for (const m of ['wall', 'cpu']) {
      const ratios = rows.map((x) => x[m].ratio).sort((a, b) => a - b)
      const costs = rows.map((x) => x[m].harness).sort((a, b) => a - b)
      if (m === 'cpu') console.log(`own cpu: compare's own CPU per run min/median/max ${rows.map((x) => x.own).sort((a, b) => a - b).map(ms).filter((_, i, a) => i === 0 || i === a.length - 1 || i === (a.length >> 1)).join(' / ')}`)
      console.log(`${m}: compare's cost per run min/median/max ${costs.map(ms).filter((_, i, a) => i === 0 || i === a.length - 1 || i === (a.length >> 1)).join(' / ')}; of the target ${ratios.map(pct).filter((_, i, a) => i === 0 || i === a.length - 1 || i === (a.length >> 1)).join(' / ')}`)
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function check (r) {
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`)
}

/** CPU seconds of this process's waited-for children (Linux: /proc/self/stat cutime + cstime). */
function childCpu () {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  // fields after the command: state is index 0, so cutime is 14 and cstime 15
  return (Number(f[13]) + Number(f[14])) / 100
}

const ms = (s) => `${(s * 1000).toFixed(1)} ms`
const pct = (x) => `${Math.round(x * 100)}%`

main().catch((err) => {
  console.error(err.message)
  process.exitCode = 1
})
