'use strict'
// Runner outputs in the history store and the PR comment: real tinybench
// runs of a project whose "sum" does 2.5x the work from version 1.0.4 on (a step that stands out of the label-to-label noise of 3 runs a label on a loaded machine),
// three runs per version, added with history add --runner; each task is
// one series, and history changes finds the step in sum at 1.0.4 and not
// in join. compare --cmd --history records its rows as series of (command,
// task), and analyze --format github makes the PR comment of its rows.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { runnerModules } = require('./_packages.js')
const { PROJECTS, WORK } = require('./_projects.js')
const { BIN } = require('./_refs-case.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-history-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
const project = path.join(dir, 'project')
const db = path.join(dir, 'h.sqlite')
const benchrig = (args) => spawnOutput(process.execPath, [BIN, ...args], { cwd: project })

t.test('history add --runner: one series per task; history changes finds the step in sum only', async (t) => {
  const mods = await runnerModules()
  if (mods.skip) return t.skip(mods.skip)
  fs.mkdirSync(project)
  fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
  fs.writeFileSync(path.join(project, 'bench.mjs'), PROJECTS.tinybench.files['bench.mjs'])
  const versions = ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4', '1.0.5', '1.0.6', '1.0.7']
  // the versions' runs interleaved (round k of every version, then k + 1): a
  // machine that drifts while the test runs moves every label alike, not one
  const files = new Map(versions.map((v) => [v, []]))
  for (let k = 0; k < 3; k++) {
    for (const [i, v] of versions.entries()) {
      fs.writeFileSync(path.join(project, 'work.js'), WORK(i >= 4 ? 50000 : 20000))
      const r = await spawnOutput(process.execPath, ['bench.mjs'], { cwd: project })
      t.equal(r.code, 0, r.stderr)
      files.get(v).push(path.join(dir, `tb-${v}-${k}.json`))
      fs.writeFileSync(files.get(v).at(-1), r.stdout)
    }
  }
  for (const v of versions) {
    const add = await benchrig(['history', 'add', '--db', db, '--runner', 'tinybench', '--label', v, ...files.get(v)])
    t.equal(add.code, 0, add.stderr)
    t.match(add.stdout, /history: 6 rows added/)
  }
  const list = await benchrig(['history', 'show', '--db', db, '--json'])
  t.equal(list.code, 0, list.stderr)
  const series = JSON.parse(list.stdout)
  const names = (Array.isArray(series) ? series : series.series).map((s) => `${s.key.file} ${s.key.configuration}`).sort()
  t.same(names, ['tinybench join', 'tinybench sum'], 'one series per task, named by the runner')
  const changes = await benchrig(['history', 'changes', '--db', db, '--json'])
  t.equal(changes.code, 0, changes.stderr)
  const found = JSON.parse(changes.stdout)
  const bySeries = (Array.isArray(found) ? found : found.series).map((s) => [s.key.configuration, s.changes.map((c) => c.label)])
  const at = Object.fromEntries(bySeries)
  // the step is the series' strongest candidate: a change point, or a weak one when the
  // machine's noise between labels (3 runs each, under coverage in the suite) raises others
  const sumSeries = (Array.isArray(found) ? found : found.series).find((s) => s.key.configuration === 'sum')
  const candidates = [...sumSeries.changes, ...(sumSeries.weak ?? [])].sort((a, b) => a.p - b.p)
  t.equal(candidates[0]?.label, '1.0.4', `the step at 1.0.4 in sum (${candidates.map((c) => `${c.label} p=${c.p.toPrecision(2)}`).join(', ')})`)
  t.ok(candidates[0].size < 0, 'sum slower from 1.0.4 on')
  // join's runs are unpaired over time: the machine's drift may show as a step somewhere, never as the commit's
  t.notOk(at.join.includes('1.0.4'), `join: no step at 1.0.4 (${at.join.join(' ') || 'none'})`)

  const wrong = await benchrig(['history', 'add', '--db', db, '--runner', 'mitata', '--label', '9.9.9', path.join(dir, 'tb-1.0.0-0.json')])
  t.equal(wrong.code, 2)
  t.match(wrong.stderr, /tb-1\.0\.0-0\.json: this is not mitata output/)
  const gh = await benchrig(['analyze', '--runner', 'tinybench', '--format', 'github', ...['0', '1', '2'].flatMap((k) => ['--old', path.join(dir, `tb-1.0.0-${k}.json`), '--new', path.join(dir, `tb-1.0.7-${k}.json`)])])
  t.match(gh.stdout, /tinybench.*sum/, 'the PR comment of runner outputs names the task')
})

t.test('compare --cmd --history: rows of each task in one series; the PR comment from the same rows', async (t) => {
  if (!fs.existsSync(project)) return t.skip('no runners installed')
  const out = path.join(dir, 'cmp.csv')
  const r = await benchrig(['compare', '--no-progress', '--old', process.execPath, '--new', process.execPath, '--cmd', 'node bench.mjs', '--runner', 'tinybench',
    '--runs', '2', '--seed', '4', '--output', out, '--history', db, '--history-label', 'a..b'])
  t.equal(r.code, 0, r.stderr)
  const show = await benchrig(['history', 'show', '--db', db, '--file', 'node bench.mjs', '--order', 'added', '--json'])
  t.equal(show.code, 0, show.stderr)
  const s = JSON.parse(show.stdout)
  const keys = (Array.isArray(s) ? s : s.series).map((x) => x.key.configuration).sort()
  t.same(keys, ['join', 'sum'], 'one series per task of the command')
  const gh = await benchrig(['analyze', '--format', 'github', out])
  t.equal(gh.code, 0, gh.stderr)
  t.match(gh.stdout, /<!-- benchrig/)
  t.match(gh.stdout, /node bench\.mjs/)
})
