'use strict'
// compare --cmd --duet with two git refs, for real (issue 33): the tinybench
// project of test/runners/_refs-case.js, whose second commit makes "sum" do
// 1.5x the work, compared with both sides' commands at once, each pinned to
// its CPU set in crossover blocks, under --runs seq: sum is called slower,
// join is not called, and the analysis reports the CPU sets' effect as it
// does for benchmark files. --max-runs counts pairs, two to a block: 24 is
// 12 blocks, past the 7 to 9 units of one sign a seq stop needs.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { PROJECTS } = require('./_projects.js')
const { runnerModules } = require('./_packages.js')
const { makeRepo } = require('./_repo.js')
const { BIN, CALLS } = require('./_refs-case.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-duet-refs-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))

t.test('tinybench, two refs, --duet --runs seq: the slower task called slower, nothing else called', async (t) => {
  const mods = await runnerModules()
  if (mods.skip) return t.skip(mods.skip)
  if (os.cpus().length < 2) return t.skip('--duet needs 2 CPUs')
  const p = PROJECTS.tinybench
  const repo = makeRepo(path.join(dir, 'project'), 'tinybench', mods.nodeModules, { loop: 20000 })
  const out = path.join(dir, 'duet.csv')
  const r = await spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--node', process.execPath, '--seed', '3', '--duet',
    '--old-ref', 'HEAD~1', '--new-ref', 'HEAD', '--cmd', p.command, '--runner', 'tinybench', '--runs', 'seq', '--threshold', '10', '--max-runs', '24',
    '--analyze', '--format', 'json', '--output', out], { cwd: repo })
  t.equal(r.code, 0, r.stderr)
  const a = JSON.parse(r.stdout)
  const v = Object.fromEntries(a.results.map((x) => [x.configuration, x.verdict]))
  t.equal(v.sum, 'slower', `sum: 1.5x the work is called slower (${r.stderr.split('\n').filter((l) => l.includes('--runs seq')).join(' ')})`)
  t.notMatch(v.join, CALLS, `join: not called (${v.join})`)
  const rows = parseCsvRecords(fs.readFileSync(out, 'utf8')).records
  t.same([...new Set(rows.map((x) => x.configuration))].sort(), ['join', 'sum'], 'one configuration per task')
  t.ok(rows.every((x) => x.executor === 'duet' && x.filename === p.command && x.cpu_block !== '' && x.cpuset !== ''), 'duet rows: each side\'s CPU set and block')
  const pairs = new Map()
  for (const x of rows) pairs.set(`${x.configuration} ${x.pair}`, { ...pairs.get(`${x.configuration} ${x.pair}`), [x.binary]: x.cpuset })
  t.ok([...pairs.values()].every((s) => !s.old || !s.new || s.old !== s.new), 'the sides of a pair on different CPU sets')
  t.ok(a.warnings.some((w) => w.kind === 'cpu-effect' && /^duet crossover: CPU set/.test(w.message)), 'the CPU sets\' effect reported, removed by the crossover')
})
