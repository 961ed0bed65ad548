'use strict'
// compare --cmd with --shard: the shards of one seeded plan of a command
// hold disjoint whole pairs of every task, and analyze takes them as one;
// each pair ran in the task order its number gives (odd forward, even reverse);
// plan --next over the shards and compare --plan run the next round of it.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { runnerModules } = require('./_packages.js')
const { PROJECTS, WORK } = require('./_projects.js')
const { BIN } = require('./_refs-case.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-shards-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))

t.test('two shards of a --cmd plan: disjoint whole pairs, analysed as one; then a round of plan --next', async (t) => {
  const mods = await runnerModules()
  if (mods.skip) return t.skip(mods.skip)
  const project = path.join(dir, 'project')
  fs.mkdirSync(project)
  fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
  fs.writeFileSync(path.join(project, 'work.js'), WORK(2000))
  fs.writeFileSync(path.join(project, 'bench.mjs'), PROJECTS.tinybench.files['bench.mjs'])
  const files = []
  for (const i of [0, 1]) {
    files.push(path.join(dir, `s${i}.csv`))
    const r = await spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--old', process.execPath, '--new', process.execPath, '--cmd', 'node bench.mjs',
      '--runner', 'tinybench', '--runs', '2', '--seed', '11', '--shard', `${i}/2`, '--output', files[i], '--ndjson', `${files[i]}.ndjson`], { cwd: project })
    t.equal(r.code, 0, r.stderr)
  }
  const rows = files.map((f) => parseCsvRecords(fs.readFileSync(f, 'utf8')).records)
  t.same(rows.map((r) => r.length), [4, 4], 'each shard: one pair of two tasks')
  t.not(rows[0][0].pair, rows[1][0].pair, 'different pairs')
  const recs = files.flatMap((f) => fs.readFileSync(`${f}.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l))).filter((r) => r.type === 'measurement')
  t.equal(recs.length, 8)
  t.same(recs.filter((r) => r.extra.task_order !== (r.pair % 2 === 0 ? 'reverse' : 'forward')), [], 'BENCHRIG_TASK_ORDER: odd pairs forward, even pairs reverse, on both sides')
  const a = await spawnOutput(process.execPath, [BIN, 'analyze', '--format', 'json', ...files])
  t.equal(a.code, 0, a.stderr)
  t.same(JSON.parse(a.stdout).results.map((x) => [x.configuration, x.n_pairs]).sort(), [['join', 2], ['sum', 2]])

  // the next round: plan --next over the shards names the command as its one file, and compare --plan runs it
  const round = path.join(dir, 'round.json')
  const next = await spawnOutput(process.execPath, [BIN, 'plan', '--next', '--target', '0.01', '--max-runs', '4', '--output', round, ...files])
  t.equal(next.code, 0, next.stderr)
  t.match(JSON.parse(fs.readFileSync(round, 'utf8')), { round: 2, seed: 11, files: [{ filename: 'node bench.mjs', firstPair: 3, pairs: 2 }] })
  const r2 = path.join(dir, 'r2.csv')
  const second = await spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--old', process.execPath, '--new', process.execPath, '--cmd', 'node bench.mjs',
    '--runner', 'tinybench', '--plan', round, '--output', r2], { cwd: project })
  t.equal(second.code, 0, second.stderr)
  const more = parseCsvRecords(fs.readFileSync(r2, 'utf8')).records
  t.same([...new Set(more.map((x) => `${x.pair} ${x.plan}`))].sort(), [`3 ${rows[0][0].plan}.2`, `4 ${rows[0][0].plan}.2`], 'pairs 3 and 4 under the round\'s plan')
  const all = await spawnOutput(process.execPath, [BIN, 'analyze', '--format', 'json', ...files, r2])
  t.equal(all.code, 0, all.stderr)
  t.same(JSON.parse(all.stdout).results.map((x) => [x.configuration, x.n_pairs]).sort(), [['join', 4], ['sum', 4]], 'both rounds analysed as one')
})
