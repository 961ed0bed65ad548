'use strict'
// Sharding without a scheduler: which shard a process is (--shard I/N and
// the schedulers' environments), the split of a plan (disjoint, whole pairs,
// balanced, every shard busy), the checks of analyze over shard files, the
// next round of plan --next, the load split and --start-at's wait on an
// injected clock, and an interrupted shard resumed to its rows exactly once.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { parseShard } = require('../../lib/compare/shard-spec.js')
const { planSchedule, unitsOf, assignShards, shardSchedule, planHash, hostFingerprint } = require('../../lib/compare/shards.js')
const { checkShards, describeCheck, planConflict, machineBlocks } = require('../../lib/compare/shard-check.js')
const { nextRound } = require('../../lib/compare/plan-next.js')
const { readRoundPlan } = require('../../lib/compare/plan-file.js')
const { shardLoadOptions, parseStartAt } = require('../../lib/cli/load-shard.js')
const { waitUntil } = require('../../lib/engine/start-at.js')
const { runCompare, readRows } = require('./fixtures/helpers.js')

const SHARD_BENCH = path.join(__dirname, 'fixtures', 'shard-bench')

t.test('--shard I/N and --shard auto from Slurm, Kubernetes and BENCHRIG_SHARD', async (t) => {
  t.same(parseShard('2/5', { env: {} }), { index: 2, count: 5, source: '--shard' })
  t.equal(parseShard(undefined, { env: {} }), undefined)
  t.same(parseShard('auto', { env: { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '3' } }), { index: 1, count: 3, source: 'Slurm job array' })
  // --array=1-3 numbers tasks from 1; --array=0-8:4 steps by 4
  t.same(parseShard('auto', { env: { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '1' } }).index, 2)
  t.same(parseShard('auto', { env: { SLURM_ARRAY_TASK_ID: '8', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_STEP: '4' } }).index, 2)
  t.same(parseShard('auto', { env: { JOB_COMPLETION_INDEX: '4' }, shardCount: '5' }), { index: 4, count: 5, source: 'Kubernetes Indexed Job' })
  t.same(parseShard('auto', { env: { JOB_COMPLETION_INDEX: '0', BENCHRIG_SHARD_COUNT: '2' } }).count, 2)
  t.same(parseShard('auto', { env: { BENCHRIG_SHARD: '0/4' } }), { index: 0, count: 4, source: 'BENCHRIG_SHARD' })
  const bad = [
    [['3/3', {}], /--shard 3\/3: the index is 0-based/],
    [['1-3', {}], /--shard 1-3: expected I\/N/],
    [['auto', {}], /no scheduler found in the environment/],
    [['auto', { SLURM_ARRAY_TASK_ID: '1' }], /SLURM_ARRAY_TASK_COUNT is not/],
    [['auto', { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_COUNT: '3' }], /is not a shard/],
    [['auto', { JOB_COMPLETION_INDEX: '1' }], /--shard-count N or set BENCHRIG_SHARD_COUNT/],
    [['auto', { BENCHRIG_SHARD: 'x' }], /BENCHRIG_SHARD x: expected I\/N/]
  ]
  for (const [[raw, env], msg] of bad) t.throws(() => parseShard(raw, { env }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: msg })
  t.throws(() => parseShard('0/2', { env: {}, shardCount: '2' }), /--shard-count goes with --shard auto/)
})

const FILES = ['a/one.js', 'a/two.js', 'b/three.js'].map((name) => ({ file: `/x/${name}`, name }))

t.test('a plan splits into disjoint shards of whole pairs whose union is the plan', async (t) => {
  const schedule = planSchedule([{ files: FILES, runs: 5, firstPair: 1 }], 42)
  for (const count of [1, 2, 3, 4, 7, 15]) {
    const parts = Array.from({ length: count }, (_, index) => shardSchedule(schedule, { index, count }).runs)
    t.equal(parts.reduce((a, p) => a + p.length, 0), schedule.length, `${count} shards: every run once`)
    const seen = new Set()
    for (const [i, part] of parts.entries()) {
      t.ok(part.length > 0, `${count} shards: shard ${i} has work`)
      for (const r of part) {
        const key = `${r.name}/${r.pair}/${r.binary}`
        t.notOk(seen.has(key), `${key} in one shard only`)
        seen.add(key)
        // both runs of the pair in this shard, in the plan's order
        t.equal(part.filter((x) => x.name === r.name && x.pair === r.pair).length, 2)
      }
      const order = part.map((r) => schedule.indexOf(r))
      t.same(order, [...order].sort((a, b) => a - b), `${count} shards: shard ${i} keeps the plan's order`)
    }
    t.equal(seen.size, schedule.length)
    const sizes = parts.map((p) => p.length / 2)
    t.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${count} shards: pair counts ${sizes.join(',')} differ by at most one`)
  }
  // 16 shards for 15 pairs: one has nothing, as it must
  const parts16 = Array.from({ length: 16 }, (_, index) => shardSchedule(schedule, { index, count: 16 }).runs.length)
  t.equal(parts16.filter((n) => n === 0).length, 1)
})

t.test('the split balances expected time (longest first onto the least loaded shard)', async (t) => {
  const schedule = planSchedule([{ files: FILES, runs: 4, firstPair: 1 }], 7)
  const costs = new Map([['a/one.js', 10], ['a/two.js', 1], ['b/three.js', 1]])
  const units = unitsOf(schedule, costs)
  t.equal(units.length, 12)
  const { shardOf, load } = assignShards(units, 4)
  // 4 pairs of 10 and 8 of 1: one long pair per shard, two short ones each
  t.same(load, [12, 12, 12, 12])
  for (let s = 0; s < 4; s++) t.equal(units.filter((u, i) => shardOf[i] === s && u.filename === 'a/one.js').length, 1)
  // LPT's bound: no shard above 4/3 of the best possible (total/shards or the largest unit)
  const skew = unitsOf(schedule, new Map([['a/one.js', 7], ['a/two.js', 3], ['b/three.js', 2]]))
  const l3 = assignShards(skew, 3).load
  const best = Math.max(skew.reduce((a, u) => a + u.cost, 0) / 3, 7)
  t.ok(Math.max(...l3) <= best * 4 / 3, `loads ${l3.join(',')} within 4/3 of ${best}`)
})

t.test('the plan hash changes with what changes the measurements, the host fingerprint names the machine', async (t) => {
  const base = { seed: 1, categories: ['a'], batches: [{ files: FILES, runs: 5, firstPair: 1 }], args: ['n=1'], sha256: { old: 'aa', new: 'bb' } }
  const h = planHash(base)
  t.match(h, /^[0-9a-f]{16}$/)
  t.equal(planHash({ ...base }), h, 'stable')
  for (const change of [{ seed: 2 }, { categories: ['b'] }, { args: ['n=2'] }, { sha256: { old: 'aa', new: 'cc' } }, { batches: [{ files: FILES, runs: 6, firstPair: 1 }] }]) {
    t.not(planHash({ ...base, ...change }), h, `differs with ${Object.keys(change)[0]}`)
  }
  t.equal(hostFingerprint({ cpus: () => [{ model: ' Some  CPU ' }, { model: 'Some CPU' }], release: '6.1.0', version: 'v22.1.0' }), `Some CPU x2; ${process.platform} 6.1.0; node v22.1.0`)
})

function rowsOf ({ file = 'a/one.js', pairs, shard, count = 3, plan = 'p1', host = 'h', binaries = ['old', 'new'], configs = ['x=1', 'x=2'] }) {
  const rows = []
  for (const pair of pairs) {
    for (const binary of binaries) {
      for (const configuration of configs) {
        rows.push({ binary, filename: file, configuration, rate: String(100 + pair + (binary === 'new' ? 10 : 0)), pair: String(pair), seed: '5', configs: String(configs.length), plan, shard_index: String(shard), shard_count: String(count), host })
      }
    }
  }
  return rows
}

t.test('analyze checks: missing shards and pairs by name, duplicates, plans, hosts', async (t) => {
  const units = [1, 2, 3, 4, 5, 6].map((pair) => ({ filename: 'a/one.js', pair, shard: (pair - 1) % 3 }))
  const sidecar = { plan: 'p1', seed: 5, shardCount: 3, units }
  const s0 = { file: 's0.csv', rows: rowsOf({ pairs: [1, 4], shard: 0 }), sidecar }
  const s1 = { file: 's1.csv', rows: rowsOf({ pairs: [2, 5], shard: 1 }), sidecar }
  const s2 = { file: 's2.csv', rows: rowsOf({ pairs: [3, 6], shard: 2, host: 'other' }), sidecar }
  const all = checkShards([s0, s1, s2])
  t.same(all.missing, [])
  t.same(all.duplicates, [])
  t.equal(all.rows.length, 24)
  t.same(describeCheck(all), [])
  t.equal(all.hosts.length, 2, 'two host fingerprints')

  const partial = checkShards([s0, s1])
  t.same(partial.missing.map((m) => [m.filename, m.pair, m.shard]), [['a/one.js', 3, 2], ['a/one.js', 6, 2]])
  t.match(describeCheck(partial).join('\n'), /shard\(s\) 2 of 0..2 not among the files[\s\S]*2 missing pair\(s\):\n {2}a\/one.js pair 3 \(seed 5\): shard 2 did not report it/)

  // without the sidecar, the gaps in the pair numbers
  const noSidecar = checkShards([{ ...s0, sidecar: undefined }, { ...s2, sidecar: undefined }])
  t.same(noSidecar.missing.map((m) => m.pair), [2, 5])

  const twice = checkShards([s0, s1, s2, s1])
  t.same(twice.duplicates.map((d) => [d.pair, d.why]), [[2, 'in s1.csv and s1.csv'], [5, 'in s1.csv and s1.csv']])
  t.equal(twice.rows.length, 24, 'each duplicate counted once')

  // a run cut short: one configuration of the new binary missing
  const cut = { file: 's1.csv', rows: rowsOf({ pairs: [2, 5], shard: 1 }).filter((r) => !(r.pair === '5' && r.binary === 'new' && r.configuration === 'x=2')), sidecar }
  t.same(checkShards([s0, cut, s2]).missing.map((m) => [m.pair, m.why]), [[5, 'new run has 1 of 2 configurations']])

  t.ok(checkShards([s0, { file: 'z.csv', rows: rowsOf({ pairs: [2], shard: 1, plan: 'p2' }) }]).mixedPlans)
  t.notOk(checkShards([s0, { file: 'r2.csv', rows: rowsOf({ pairs: [7], shard: 0, count: 2, plan: 'p1.2' }) }]).mixedCounts, 'a later round may use another shard count')

  // whole runs of other seeds: no conflict, and a gap is found per seed
  const whole = (file, seed, pairs, plan) => ({ file, rows: rowsOf({ pairs, shard: '', count: '', plan }).map((r) => ({ ...r, seed })) })
  t.equal(planConflict([whole('a.csv', '5', [1, 3], 'pa'), whole('b.csv', '6', [2], 'pb')]), undefined)
  t.same(checkShards([whole('a.csv', '5', [1, 3], 'pa'), whole('b.csv', '6', [1, 2], 'pb')]).missing.map((m) => [m.seed, m.pair]), [['5', 2]], "b's pair 2 does not fill a's gap")
  t.equal(planConflict([s0, s1, s2]), undefined, 'the shards of one plan')
  t.equal(planConflict([s0, { file: 'r2.csv', rows: rowsOf({ pairs: [7], shard: 0, count: 2, plan: 'p1.2' }) }]), undefined, 'a later round may use another shard count')
  t.match(planConflict([s0, { file: 'z.csv', rows: rowsOf({ pairs: [2], shard: 1, plan: 'p2' }) }]), /shards of more than one plan[\s\S]*plan p1 \(seed 5, shard\(s\) 0 of 3\): s0.csv\n {2}plan p2 \(seed 5, shard\(s\) 1 of 3\): z.csv\nanalyse each plan's files on their own \(e.g. benchrig analyze s0.csv\)/)
  t.match(planConflict([whole('n.csv', '', [1], ''), s1]), /plan \(none\) \(seed \?, whole run\): n.csv/, "a file of Node core's columns has no plan")
  t.match(planConflict([s0, { file: 'x.csv', rows: rowsOf({ pairs: [2], shard: 1, count: 2 }) }]), /shards of one plan split into different counts[\s\S]*plan p1 \(seed 5, shard\(s\) 0, 1 of 3 and 2\): s0.csv x.csv\ngive the shards of one split/)

  const blocks = machineBlocks(all.rows)
  t.same(blocks.map((b) => [b.shard, b.host, b.pairs]), [[0, 'h', 2], [1, 'h', 2], [2, 'other', 2]])
})

t.test('plan --next: files still too wide get more pairs after those run, with their cost', async (t) => {
  // one file with widely scattered ratios, one with steady ones
  const rows = []
  for (let pair = 1; pair <= 6; pair++) {
    const noisy = [1, 1.5, 0.7, 1.3, 0.8, 1.2][pair - 1]
    for (const [file, ratio] of [['a/noisy.js', noisy], ['a/steady.js', 1 + pair * 1e-5]]) {
      rows.push({ binary: 'old', filename: file, configuration: 'x=1', rate: '100', time: '0.2', pair: String(pair), seed: '9', plan: 'abc' })
      rows.push({ binary: 'new', filename: file, configuration: 'x=1', rate: String(100 * ratio), time: '0.2', pair: String(pair), seed: '9', plan: 'abc' })
    }
  }
  const plan = nextRound(rows, { target: 1, maxPairs: 60 })
  t.equal(plan.schema, 'benchrig-plan/1')
  t.equal(plan.base, 'abc')
  t.equal(plan.round, 2)
  t.equal(plan.seed, 9)
  t.same(plan.files.map((f) => [f.filename, f.firstPair, f.pairs]), [['a/noisy.js', 7, 6], ['a/steady.js', 7, 6]],
    'the first round is the pilot: every file gets as many again, at most doubling in a round')
  t.equal(plan.files[0].cost, 0.6, 'two runs of 0.2 s measured + 0.1 s start-up each')
  // round 2 ran: the steady file is done; the noisy one goes on by the plan
  // its pilot set, whatever round 2's ratios were
  const round2 = (ratio) => rows.filter((r) => r.pair === '1').map((r) => ({ ...r, plan: 'abc.2' })).flatMap((r) =>
    [7, 8, 9, 10, 11, 12].map((pair) => ({ ...r, pair: String(pair), rate: r.binary === 'new' ? String(100 * ratio) : r.rate })))
  const next = nextRound([...rows, ...round2(1)], { target: 1, maxPairs: 60 })
  t.same(next.files.map((f) => [f.filename, f.firstPair, f.pairs]), [['a/noisy.js', 13, 12]])
  t.same(nextRound([...rows, ...round2(1.01)], { target: 1, maxPairs: 60 }).files, next.files, 'round 2 all one-sided: the same plan')
  const file = path.join(t.testdir(), 'plan.json')
  fs.writeFileSync(file, JSON.stringify(plan))
  t.same(readRoundPlan(file).files, plan.files)
  fs.writeFileSync(file, JSON.stringify({ ...plan, files: [] }))
  t.throws(() => readRoundPlan(file), /no file needs more pairs/)
  fs.writeFileSync(file, '{')
  t.throws(() => readRoundPlan(file), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--plan .*cannot read it as JSON/ })
})

t.test('load --shard splits the totals as workers do, and the parts add up', async (t) => {
  const opts = { connections: '10', amount: '1001', maxOverallRequests: undefined, burst: '7', overallRate: '900', connectionRate: '5' }
  const parts = [0, 1, 2].map((index) => shardLoadOptions(opts, { index, count: 3 }))
  t.same(parts.map((p) => p.connections), ['4', '3', '3'])
  t.same(parts.map((p) => p.amount), ['334', '334', '333'])
  t.same(parts.map((p) => p.burst), ['3', '2', '2'])
  t.same(parts.map((p) => Number(p.overallRate)), [360, 270, 270], '-R shared by connections')
  t.same(parts.map((p) => p.connectionRate), ['5', '5', '5'], '-r is per connection')
  t.equal(parts.reduce((a, p) => a + Number(p.amount), 0), 1001)
  t.throws(() => shardLoadOptions({ connections: '2' }, { index: 2, count: 3 }), /-c\/--connections 2 over 3 shards leaves shard 2 none/)
  t.equal(parseStartAt('1700000000000', 1700000000000 - 5), 1700000000000)
  t.throws(() => parseStartAt('soon', 0), /--start-at soon: give the start as epoch milliseconds/)
  t.throws(() => parseStartAt('1700000000000000', 1700000000000), /more than a day ahead/)
})

t.test('--start-at waits for the instant on the clock it is given', async (t) => {
  let now = 1000
  const sleeps = []
  // a timer that fires 3 ms early once, then on time: the wait checks the clock again
  const sleep = async (ms) => { sleeps.push(ms); now += sleeps.length === 1 ? ms - 3 : ms }
  t.equal(await waitUntil(1500, { now: () => now, sleep }), 0)
  t.same(sleeps, [500, 3])
  t.equal(await waitUntil(1400, { now: () => now, sleep }), 100, 'an instant already past: no wait, how late')
  t.equal(sleeps.length, 2)
})

t.test('an interrupted shard resumed yields its rows exactly once', async (t) => {
  const dir = t.testdir()
  const out = path.join(dir, 'shard1.csv')
  const args = ['--root', SHARD_BENCH, '--old', process.execPath, '--new', process.execPath, '--runs', '3', '--seed', '21', '--shard', 'auto', 'cpu']
  const env = { BENCHRIG_SHARD: '1/2' }
  const first = await runCompare([...args, '--output', out], {
    env,
    onSpawn (child) {
      const timer = setInterval(() => {
        if (fs.existsSync(out) && fs.readFileSync(out, 'utf8').split('\n').length > 3) {
          clearInterval(timer)
          child.kill('SIGINT')
        }
      }, 20)
      child.on('close', () => clearInterval(timer))
    }
  })
  t.equal(first.code, 130, first.stderr)
  const partial = readRows(out)
  const second = await runCompare([...args, '--resume', out], { env })
  t.equal(second.code, 0, second.stderr)
  const rows = readRows(out)
  t.ok(partial.length < rows.length, `${partial.length} rows before, ${rows.length} after`)
  // what shard 1 of 2 plans: 6 pairs (2 files x 3) split 3 and 3
  const schedule = planSchedule([{ files: [{ file: 'a', name: 'cpu/mul.js' }, { file: 'b', name: 'cpu/sqrt.js' }], runs: 3, firstPair: 1 }], 21)
  const planned = shardSchedule(schedule, { index: 1, count: 2 }).runs.map((r) => `${r.name}/${r.pair}/${r.binary}`).sort()
  const got = rows.map((r) => `${r.filename}/${r.pair}/${r.binary}`)
  t.equal(new Set(got).size, got.length, 'no row twice')
  t.same(got.sort(), planned, 'exactly the shard\'s runs')
  t.same([...new Set(rows.map((r) => `${r.shard_index}/${r.shard_count}/${r.seed}`))], ['1/2/21'])
  t.ok(fs.existsSync(`${out}.plan.json`), 'the split is recorded beside the CSV')
  // a shard resumed from a file with no rows has no seed to take: refused, not a random plan
  const empty = path.join(dir, 'empty.csv')
  fs.writeFileSync(empty, '')
  const noSeed = await runCompare(['--root', SHARD_BENCH, '--old', process.execPath, '--new', process.execPath, '--shard', '0/2', '--resume', empty, 'cpu'])
  t.equal(noSeed.code, 2)
  t.match(noSeed.stderr, /--resume .*empty\.csv: it holds no rows yet, so no seed; give --seed S/)
})

t.test('the committed examples agree with themselves: shard counts, the merge after the shards', async (t) => {
  const yaml = require('js-yaml')
  const examples = path.join(__dirname, '..', '..', 'examples')
  const [shards, merge] = yaml.loadAll(fs.readFileSync(path.join(examples, 'kubernetes', 'compare-indexed-job.yaml'), 'utf8'))
  t.equal(shards.spec.completionMode, 'Indexed')
  const env = Object.fromEntries(shards.spec.template.spec.containers[0].env.map((e) => [e.name, e.value]))
  t.equal(Number(env.BENCHRIG_SHARD_COUNT), shards.spec.completions, 'BENCHRIG_SHARD_COUNT = completions')
  t.match(shards.spec.template.spec.containers[0].args.join(' '), /--shard auto/)
  t.match(merge.spec.template.spec.containers[0].args.join(' '), /benchrig\.js analyze .*shard-\*\.csv/)
  const gh = yaml.load(fs.readFileSync(path.join(examples, 'github-actions', 'compare-matrix.yml'), 'utf8'))
  t.equal(gh.jobs.shard.env.BENCHRIG_SHARD, `\${{ matrix.shard }}/${gh.jobs.shard.strategy.matrix.shard.length}`, 'BENCHRIG_SHARD counts the matrix')
  t.same(gh.jobs.shard.strategy.matrix.shard, [0, 1, 2, 3])
  t.equal(gh.jobs.merge.needs, 'shard')
  t.match(gh.jobs.merge.steps.at(-1).run, /analyze .*shard-\*\.csv/)
  const sbatch = fs.readFileSync(path.join(examples, 'slurm', 'compare-array.sbatch'), 'utf8')
  t.match(sbatch, /^#SBATCH --array=0-3$/m)
  t.match(sbatch, /--shard auto/)
})

function capture () {
  let text = ''
  return { stream: { write: (s) => { text += s; return true } }, get text () { return text } }
}

t.test('benchrig analyze over NDJSON shards and benchrig plan --next over CSV shards, in process', async (t) => {
  const { main: analyzeMain } = require('../../lib/cli/analyze.js')
  const { main: planMain } = require('../../lib/cli/plan.js')
  const { csvRow } = require('../../lib/record/csv.js')
  const { COLUMNS } = require('../../lib/compare/output.js')
  const dir = t.testdir()
  const shards = [0, 1, 2].map((shard) => rowsOf({ pairs: [shard + 1, shard + 4], shard, plan: 'f00d', configs: ['x=1'] }))
  const nd = shards.map((rows, i) => {
    const file = path.join(dir, `s${i}.ndjson`)
    const meta = { schema: 'benchrig-compare/1', type: 'meta', seed: 5, plan: 'f00d', host: 'h', shard: { index: i, count: 3 } }
    // measurement records carry the row's fields; the shard columns come from the meta record
    const recs = rows.map(({ plan, host, shard_index: si, shard_count: sc, ...r }) => ({ schema: 'benchrig-compare/1', type: 'measurement', ...r, rate: Number(r.rate), pair: Number(r.pair), seed: 5 }))
    fs.writeFileSync(file, [meta, ...recs].map((x) => JSON.stringify(x)).join('\n') + '\n')
    return file
  })
  const out = capture()
  const err = capture()
  t.equal(await analyzeMain(['--format', 'json', ...nd], { stdout: out.stream, stderr: err.stream }), 0, err.text)
  const a = JSON.parse(out.text)
  t.equal(a.results[0].n_pairs, 6)
  t.same(a.machines.map((m) => [m.shard, m.pairs]), [[0, 2], [1, 2], [2, 2]])
  const err2 = capture()
  t.equal(await analyzeMain([nd[0], nd[2]], { stdout: capture().stream, stderr: err2.stream }), 3)
  t.match(err2.text, /shard\(s\) 1 of 0..2 not among the files[\s\S]*a\/one.js pair 2 \(seed 5\): a gap in the pair numbers/)
  await t.rejects(analyzeMain([nd[0], '-', '-']), /stdin \("-"\) can be read only once/)

  const csv = shards.map((rows, i) => {
    const file = path.join(dir, `s${i}.csv`)
    fs.writeFileSync(file, csvRow(COLUMNS) + rows.map((r) => csvRow(COLUMNS.map((c) => r[c]))).join(''))
    return file
  })
  const planOut = capture()
  const planErr = capture()
  t.equal(await planMain(['--next', '--target', '0.001', ...csv], { stdout: planOut.stream, stderr: planErr.stream }), 0)
  const plan = JSON.parse(planOut.text)
  t.same([plan.base, plan.round, plan.seed, plan.files.length, plan.files[0].firstPair], ['f00d', 2, 5, 1, 7])
  t.match(planErr.text, /plan: round 2: 1 file\(s\) need \d+ more pair\(s\)/)
  await t.rejects(planMain(['--next', csv[0], csv[1]], { stdout: capture().stream, stderr: capture().stream }), /not complete[\s\S]*shard 2|not complete[\s\S]*missing/)
  await t.rejects(planMain([csv[0]]), /give --next/)
})

t.test('compare --plan runs the round a plan file gives: its files, pairs numbered after the first round, its seed', async (t) => {
  const dir = t.testdir()
  const planFile = path.join(dir, 'plan-2.json')
  fs.writeFileSync(planFile, JSON.stringify({ schema: 'benchrig-plan/1', base: 'abcd', round: 2, seed: 21, files: [{ filename: 'cpu/mul.js', firstPair: 4, pairs: 2, cost: 0.5 }] }))
  const out = path.join(dir, 'r2.csv')
  const common = ['--root', SHARD_BENCH, '--old', process.execPath, '--new', process.execPath, '--set', 'n=100000']
  const r = await runCompare([...common, '--plan', planFile, '--output', out, 'cpu'])
  t.equal(r.code, 0, r.stderr)
  const rows = readRows(out)
  t.same(rows.map((x) => `${x.filename}/${x.pair}/${x.binary}`).sort(), ['cpu/mul.js/4/new', 'cpu/mul.js/4/old', 'cpu/mul.js/5/new', 'cpu/mul.js/5/old'])
  t.same([...new Set(rows.map((x) => `${x.plan}|${x.seed}`))], ['abcd.2|21'])
  const bad = await runCompare([...common, '--plan', planFile, '--seed', '3', 'cpu'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /--seed 3: --plan .* was made for seed 21; leave --seed out/)
  const gone = await runCompare([...common, '--plan', planFile, '--filter', 'sqrt', 'cpu'])
  t.equal(gone.code, 2)
  t.match(gone.stderr, /cpu\/mul\.js is not among the benchmark files/)
})
