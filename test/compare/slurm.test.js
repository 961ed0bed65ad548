'use strict'
// Sharding on a real scheduler: the one-node Slurm cluster of
// scripts/slurm-local.sh runs job arrays of `compare --shard auto` (A/B with
// a binary doing twice the work, and A/A) and of `benchrig load --shard auto
// --start-at` against one `benchrig serve`; the merged results are checked
// for completeness, verdicts and exact sums. Skipped without Slurm, failed
// without it under BENCHRIG_REQUIRE_TOOLS=1.
const t = require('tap')
// 480 s, not tap's 240 s a file: its job arrays queue on a one-node cluster
// and run their pairs one process after another, and under a CPU hog the file
// took 100 and 107 s at load 17; each benchmark process keeps the harness's
// own limit.
t.setTimeout(480e3)
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { needTool } = require('../helpers/tools.js')
const { startServe } = require('../helpers/serve.js')
const { makeWrapper, readRows, ROOT } = require('./fixtures/helpers.js')
const { planSchedule, shardSchedule } = require('../../lib/compare/shards.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const SCRIPT = path.join(ROOT, 'scripts', 'slurm-local.sh')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')
const COMPARE = path.join(ROOT, 'compare.js')
const SHARD_BENCH = path.join(__dirname, 'fixtures', 'shard-bench')
const FILES = ['cpu/mul.js', 'cpu/sqrt.js']
const ENV = { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` }

/** Starts the cluster unless it runs; stops it in teardown only if this test started it. */
function useCluster (t) {
  const wasUp = spawnSync('bash', [SCRIPT, 'status'], { env: ENV, encoding: 'utf8' }).status === 0
  if (!wasUp) {
    const r = spawnSync('bash', [SCRIPT, 'start'], { env: ENV, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`slurm-local.sh start failed: ${r.stderr}`)
    t.teardown(() => { spawnSync('bash', [SCRIPT, 'stop'], { env: ENV }) })
  }
  const conf = /SLURM_CONF=(\S+)/.exec(spawnSync('bash', [SCRIPT, 'env'], { env: ENV, encoding: 'utf8' }).stdout)[1]
  return { ...ENV, SLURM_CONF: conf }
}

/** sbatch --array=0-(n-1) of a shell command; resolves when every task has left the queue. */
async function runArray (env, dir, name, n, command) {
  // each task records its exit code: accounting is off on the local cluster
  const wrap = `${command}; echo $? > ${name}-$SLURM_ARRAY_TASK_ID.rc`
  const r = spawnSync('sbatch', ['--parsable', `--array=0-${n - 1}`, '--chdir', dir, '-o', `${dir}/${name}-%a.log`, '-J', `benchrig-${name}`, '--wrap', wrap], { env, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`sbatch failed: ${r.stderr}`)
  const job = r.stdout.trim().split(';')[0]
  for (;;) {
    const q = spawnSync('squeue', ['-h', '-j', job, '-o', '%i'], { env, encoding: 'utf8' })
    if (q.status === 0 && q.stdout.trim() === '') break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return Array.from({ length: n }, (_, i) => {
    const rc = path.join(dir, `${name}-${i}.rc`)
    return { code: fs.existsSync(rc) ? Number(fs.readFileSync(rc, 'utf8')) : undefined, log: fs.readFileSync(path.join(dir, `${name}-${i}.log`), 'utf8') }
  })
}

function benchrig (args) {
  return spawnOutput(process.execPath, [BIN, ...args])
}

const q = (s) => JSON.stringify(s)

t.test('a 3-task job array of compare --shard auto: A/B is slower, A/A is not, the shards make the plan', async (t) => {
  if (!needTool(t, 'slurm')) return
  const env = useCluster(t)
  const dir = t.testdir()
  const slow = makeWrapper(dir, 'node-slow', 'slow2x.js')
  const same = makeWrapper(dir, 'node-same')
  const compare = (name, bin, extra) => `${q(process.execPath)} ${q(COMPARE)} --root ${q(SHARD_BENCH)} --no-progress --shard auto --old ${q(process.execPath)} --new ${q(bin)} ${extra} --output ${name}-$SLURM_ARRAY_TASK_ID.csv cpu`
  // A/B: 8 pairs of both files, n=3e6 (~0.05 s of loop a process). The
  // subject is the sharding, not power: twice the work is "slower" even when
  // the suite's other jobs make a short loop's CPU time swing by a third
  // (a 25% change with n=1e7 once came out -15.8% [-31.1, +2.3] here).
  // A/A: 10 pairs of one file (at --alpha .005 a verdict needs p < .005,
  // which 10 pairs all one way would reach). Both arrays are queued at once.
  const [ab, aa] = await Promise.all([
    runArray(env, dir, 'ab', 3, compare('ab', slow, '--seed 3 --runs 8 --set n=3000000')),
    runArray(env, dir, 'aa', 3, compare('aa', same, '--seed 4 --runs 10 --set n=2000000 --filter mul'))
  ])
  for (const [i, task] of [...ab, ...aa].entries()) t.equal(task.code, 0, `task ${i} exit 0: ${task.log}`)
  const abFiles = [0, 1, 2].map((i) => path.join(dir, `ab-${i}.csv`))
  for (const i of [0, 1, 2]) t.match(fs.readFileSync(path.join(dir, `ab-${i}.log`), 'utf8'), new RegExp(`shard ${i}/3 \\(Slurm job array\\)`))

  // the union of the shards' rows is the unsharded plan's, each row once
  const rows = abFiles.flatMap((f) => readRows(f))
  const got = rows.map((r) => `${r.filename}|${r.configuration}|${r.pair}|${r.binary}`)
  const plan = planSchedule([{ files: FILES.map((name) => ({ file: name, name })), runs: 8, firstPair: 1 }], 3)
  t.equal(new Set(got).size, got.length, 'no row in two shards')
  t.same(got.sort(), plan.map((r) => `${r.name}|n=3000000|${r.pair}|${r.binary}`).sort(), '(file, configuration, pair, binary) as planned unsharded')
  t.same([...new Set(rows.map((r) => `${r.shard_count}|${r.plan}`))].length, 1, 'one plan, one shard count')
  t.same([...new Set(rows.map((r) => r.shard_index))].sort(), ['0', '1', '2'])

  const a = await benchrig(['analyze', '--format', 'json', ...abFiles])
  t.equal(a.code, 0, a.stderr)
  const res = JSON.parse(a.stdout)
  t.equal(res.results.length, 2)
  for (const r of res.results) {
    t.equal(r.verdict, 'slower', `${r.filename}: ${r.change.toFixed(1)}% [${r.ci[0].toFixed(1)}, ${r.ci[1].toFixed(1)}]`)
    t.equal(r.n_pairs, 8, 'every pair of the three shards analysed')
  }
  t.same(res.machines.map((m) => m.shard), [0, 1, 2], 'each shard a block')

  const aaFiles = [0, 1, 2].map((i) => path.join(dir, `aa-${i}.csv`))
  const b = await benchrig(['analyze', '--format', 'json', '--alpha', '0.005', ...aaFiles])
  t.equal(b.code, 0, b.stderr)
  const same2 = JSON.parse(b.stdout)
  t.equal(same2.results.length, 1)
  for (const r of same2.results) {
    t.notOk(['faster', 'slower'].includes(r.verdict), `A/A ${r.filename}: ${r.verdict}, ${r.change.toFixed(2)}%`)
    t.equal(r.n_pairs, 10)
  }

  // two of the three shards: the third's pairs named, exit 3, no analysis
  const part = await benchrig(['analyze', abFiles[0], abFiles[1]])
  t.equal(part.code, 3)
  t.equal(part.stdout, '')
  const missing = shardSchedule(plan, { index: 2, count: 3 }).units.filter((u) => u.shard === 2)
  t.ok(missing.length > 0)
  t.match(part.stderr, /shard\(s\) 2 of 0..2 not among the files/)
  for (const u of missing) t.match(part.stderr, `${u.filename} pair ${u.pair} (seed 3): shard 2 did not report it`)
  t.match(part.stderr, `${missing.length} missing pair(s)`)
  const allowed = await benchrig(['analyze', '--allow-partial', abFiles[0], abFiles[1]])
  t.equal(allowed.code, 0, 'analysed with --allow-partial')
  t.match(allowed.stdout, /cpu\/mul.js/)
})

t.test('a 2-task job array of load --start-at against one serve: together, and the merge is the sum', async (t) => {
  if (!needTool(t, 'slurm')) return
  const env = useCluster(t)
  const dir = t.testdir()
  const target = await startServe(t)
  // far enough ahead for both tasks to start node on a busy machine
  const at = Date.now() + 6000
  const tasks = await runArray(env, dir, 'load', 2, `${q(process.execPath)} ${q(BIN)} load -j -c 4 -a 2000 --shard auto --start-at ${at} ${target.url} > load-$SLURM_ARRAY_TASK_ID.json`)
  for (const [i, task] of tasks.entries()) {
    t.equal(task.code, 0, `task ${i}: ${task.log}`)
    t.notMatch(task.log, /had passed/, 'ready before the instant')
  }
  const [r0, r1] = [0, 1].map((i) => JSON.parse(fs.readFileSync(path.join(dir, `load-${i}.json`), 'utf8')))
  t.same([r0.connections, r1.connections], [2, 2])
  t.same([r0.requests.total, r1.requests.total], [1000, 1000], '-a split in two')
  const s0 = new Date(r0.start).getTime()
  const s1 = new Date(r1.start).getTime()
  t.ok(s0 >= at && s1 >= at, 'neither started before the instant')
  // at the instant, each late only by its own wake-up: within a second of it
  // (the 6 s lead is what a generator without --start-at would start
  // inside). Not a tighter window: each task's timer wakes when a loaded
  // machine schedules it, and the two starts were 116 ms apart at load 17.
  t.ok(s0 - at < 1000 && s1 - at < 1000, `started ${s0 - at} and ${s1 - at} ms after the instant (${Math.abs(s0 - s1)} ms apart)`)
  const m = await benchrig(['merge', '-j', path.join(dir, 'load-0.json'), path.join(dir, 'load-1.json')])
  t.equal(m.code, 0, m.stderr)
  const merged = JSON.parse(m.stdout)
  t.equal(merged.requests.total, r0.requests.total + r1.requests.total)
  t.equal(merged['2xx'], r0['2xx'] + r1['2xx'])
  t.equal(merged.throughput.total, r0.throughput.total + r1.throughput.total)
  t.equal(merged.connections, 4)
  t.equal(merged.errors, r0.errors + r1.errors)
})
