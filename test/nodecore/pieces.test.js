'use strict'
// Pieces of Node core's harness: cpu.sh (governor), compare --scale/--csv,
// scatter --no-chart. Each without the machine's own state: cpu.sh runs on a
// fake sysfs tree and on this machine's, where it must not fail.
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseCompareArgs, scaleRate } = require('../../lib/cli/compare.js')
const { parseScatterArgs } = require('../../lib/cli/scatter.js')
const { formatScatterText } = require('../../lib/report/scatter-text.js')

const REPO = path.join(__dirname, '..', '..')
const CPU_SH = path.join(REPO, 'cpu.sh')

function cpu (args, env) {
  return spawnSync('bash', [CPU_SH, ...args], { encoding: 'utf8', env: { ...process.env, ...env } })
}

test('cpu.sh fast / reset on a writable governor tree', async (t) => {
  const dir = t.testdir()
  const root = path.join(dir, 'cpu')
  for (const c of ['cpu0', 'cpu1']) {
    fs.mkdirSync(path.join(root, c, 'cpufreq'), { recursive: true })
    fs.writeFileSync(path.join(root, c, 'cpufreq', 'scaling_governor'), c === 'cpu0' ? 'powersave\n' : 'schedutil\n')
  }
  const env = { BENCHRIG_CPUFREQ_ROOT: root, BENCHRIG_CPU_STATE: path.join(dir, 'state') }
  const gov = (c) => fs.readFileSync(path.join(root, c, 'cpufreq', 'scaling_governor'), 'utf8').trim()
  const fast = cpu(['fast'], env)
  t.equal(fast.status, 0, fast.stderr)
  t.equal(fast.stdout, 'cpu.sh: 2 CPU(s) set to performance\n')
  t.same([gov('cpu0'), gov('cpu1')], ['performance', 'performance'])
  t.equal(cpu(['show'], env).stdout, 'cpu0 performance\ncpu1 performance\n')
  const reset = cpu(['reset'], env)
  t.equal(reset.stdout, 'cpu.sh: governors restored\n')
  t.same([gov('cpu0'), gov('cpu1')], ['powersave', 'schedutil'], 'the previous governors are back')
  t.equal(cpu(['bogus'], env).status, 2)
})

test('cpu.sh where the governor cannot be set exits 0 and says why', async (t) => {
  const dir = t.testdir()
  const none = cpu(['fast'], { BENCHRIG_CPUFREQ_ROOT: path.join(dir, 'nothing'), BENCHRIG_CPU_STATE: path.join(dir, 'state') })
  t.equal(none.status, 0)
  t.match(none.stdout, /no CPU frequency governor here .*the CPU frequency may vary/)
  // A governor file in a read-only folder stands for a file only root may write.
  const root = path.join(dir, 'ro')
  const f = path.join(root, 'cpu0', 'cpufreq', 'scaling_governor')
  fs.mkdirSync(path.dirname(f), { recursive: true })
  fs.writeFileSync(f, 'powersave\n')
  fs.chmodSync(f, 0o444)
  const ro = cpu(['fast'], { BENCHRIG_CPUFREQ_ROOT: root, BENCHRIG_CPU_STATE: path.join(dir, 'state2') })
  t.equal(ro.status, 0)
  if (process.getuid && process.getuid() === 0) {
    t.comment('running as root: the read-only file is writable anyway')
  } else {
    t.match(ro.stdout, /cannot write .*scaling_governor \(run as root, e\.g\. sudo \.\/cpu\.sh fast\); left as powersave/)
  }
  t.equal(cpu(['show']).status, 0, 'and on this machine, whatever it has')
})

test('compare --scale reproduces Node\'s integer rounding; --csv and --scale go with --analyze', async (t) => {
  t.same(scaleRate({ rate: 12.34567, binary: 'old' }, 1000), { rate: 12.346, binary: 'old' })
  t.equal(scaleRate({ rate: 0.0001 }, 10).rate, 0.1, 'at least 1 / scale, as Node records max(1, round(rate * scale))')
  const base = ['--old', process.execPath, '--new', process.execPath, 'buffers']
  const o = parseCompareArgs([...base, '--analyze', '--csv', '--scale', '100', '--set', 'CPUSET=0', '--strict'], { defaultRoot: REPO })
  t.same([o.csv, o.scale, o.cpuset, o.strict, o.args], [true, 100, '0', true, []])
  t.throws(() => parseCompareArgs([...base, '--csv'], { defaultRoot: REPO }), { message: /--csv goes with --analyze/ })
  t.throws(() => parseCompareArgs([...base, '--analyze', '--scale', '0'], { defaultRoot: REPO }), { message: '--scale 0: give a whole number >= 1' })
})

test('scatter --analyze draws a bar per group; --no-chart leaves it out', async (t) => {
  const a = {
    xaxis: 'len',
    category: undefined,
    averagedOver: [],
    steps: [],
    groups: [
      { x: '16', n: 3, mean: 100, mean_ci: [90, 110], median: 100, median_ci: [90, 110] },
      { x: '64', n: 3, mean: 50, mean_ci: [45, 55], median: 50, median_ci: [45, 55] }
    ]
  }
  const text = formatScatterText(a)
  const bars = text.split('\n').filter((l) => l.startsWith('len='))
  t.equal(bars.length, 2)
  t.equal((bars[0].match(/\u2588/g) || []).length, 40, 'the largest mean: a full bar')
  t.equal((bars[1].match(/\u2588/g) || []).length, 20, 'half the rate: half the bar')
  t.notMatch(formatScatterText(a, { chart: false }), /\u2588/)
  const file = path.join(REPO, 'buffers', 'buffer-compare.js')
  t.equal(parseScatterArgs(['--analyze', '--xaxis', 'len', '--no-chart', file]).chart, false)
  t.throws(() => parseScatterArgs(['--no-chart', file]), { message: /--no-chart go with --analyze/ })
})

test('compare does not retry a file that rejects its arguments; it still retries other failures', async (t) => {
  const { runOne } = require('../../lib/compare/run-compare.js')
  const calls = []
  const fakeRun = (errors) => async (o) => {
    calls.push(o.args)
    for (const e of errors) o.onError(e)
    return { failures: errors.length }
  }
  const run = { binary: 'old', file: '/x/a.js', name: 'a/a.js', pair: 1, order: 1 }
  const ctx = { binaries: { old: process.execPath }, args: ['lenn=1'], seed: 1, onRow () {} }
  const usage = { type: 'error', name: 'a/a.js', conf: null, code: 'BENCHRIG_ERR_UNKNOWN_KEY', message: 'unknown configuration key "lenn" (--strict)' }
  const r = await runOne(run, { ...ctx, runFile: fakeRun([usage]) })
  t.equal(calls.length, 1, 'one attempt only')
  t.same(r.failures.map((f) => [f.message, f.retried]), [['unknown configuration key "lenn" (--strict)', false]])
  calls.length = 0
  const crash = { type: 'error', name: 'a/a.js', conf: null, message: 'the benchmark process exited with code 1' }
  await runOne(run, { ...ctx, runFile: fakeRun([crash]) })
  t.equal(calls.length, 2, 'a crash is retried once')
})

test('--resume of a file in the older 11-column layout rewrites it in today\'s 16 columns', async (t) => {
  const { loadForResume } = require('../../lib/compare/resume.js')
  const { COLUMNS } = require('../../lib/compare/output.js')
  const { parseCsvRecords } = require('../../lib/record/csv.js')
  const file = path.join(t.testdir(), 'old.csv')
  const old = ['"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs"',
    '"old","a/b.js","n=1",10,1,1,1,1,5,"2026-11-22T08:20:31.541Z",1',
    '"new","a/b.js","n=1",11,1,1,2,2,5,"2026-11-22T08:20:32.541Z",1', '']
  fs.writeFileSync(file, old.join('\n'))
  const r = loadForResume(file)
  t.equal(r.rows.length, 2)
  t.equal(r.seed, 5)
  const { header, records } = parseCsvRecords(fs.readFileSync(file, 'utf8'))
  t.same(header, COLUMNS)
  t.same(records.map((x) => [x.binary, x.rate, x.start]), [['old', '10', String(Date.parse('2026-11-22T08:20:31.541Z'))], ['new', '11', String(Date.parse('2026-11-22T08:20:32.541Z'))]], 'ISO start times become epoch ms')
})

test('NODE_RUN_BENCHMARK_GROUPS selects the groups of a file run by hand', async (t) => {
  const file = path.join(REPO, 'buffers', 'buffer-tostring.js')
  const r = spawnSync(process.execPath, [file, '--test'], { encoding: 'utf8', env: { ...process.env, NODE_RUN_BENCHMARK_GROUPS: 'large' } })
  t.equal(r.status, 0, r.stderr)
  t.match(r.stdout, /^buffers\/buffer-tostring\.js group="large" n=1 len=1 encoding="utf8": [\d,]+(\.\d+)?\n$/)
  const bad = spawnSync(process.execPath, [file, '--test'], { encoding: 'utf8', env: { ...process.env, NODE_RUN_BENCHMARK_GROUPS: 'huge' } })
  t.equal(bad.status, 1)
  t.equal(bad.stderr, 'buffers/buffer-tostring.js: failed: NODE_RUN_BENCHMARK_GROUPS names "huge", which this file does not have; its groups: small, large\n')
})
