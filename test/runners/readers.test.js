'use strict'
// Each reader against its runner's real output: the runner's package from
// the npm registry (hyperfine from its Debian package, node:bench from node
// 26) runs a two-task benchmark here, and the reader finds both tasks with a
// rate; every reader refuses every other runner's output.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { needTool } = require('../helpers/tools.js')
const { RUNNER_NAMES, runnerFor, readRunnerOutput } = require('../../lib/runners/index.js')
const { PROJECTS, WORK } = require('./_projects.js')
const { runnerModules } = require('./_packages.js')
const { benchrigPath } = require('../../lib/sides/node-path.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-readers-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))

const outputs = new Map()

t.test('every runner, run for real, read by its reader', async (t) => {
  const mods = await runnerModules()
  if (mods.skip) return t.skip(mods.skip)
  for (const name of RUNNER_NAMES) {
    await t.test(name, async (t) => {
      const p = PROJECTS[name]
      if (name === 'hyperfine' && !needTool(t, 'hyperfine')) return
      if (p.node && !fs.existsSync(p.node)) return t.skip(`no node at ${p.node}: scripts/install-node-versions.sh`)
      const project = path.join(dir, name)
      fs.mkdirSync(project)
      fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
      fs.writeFileSync(path.join(project, 'work.js'), WORK(2000))
      for (const [f, text] of Object.entries(p.files)) fs.writeFileSync(path.join(project, f), text)
      const out = path.join(project, 'out.json')
      // require('benchrig/...') resolves as on a compare side
      const env = { ...process.env, PATH: `${path.dirname(p.node ?? process.execPath)}${path.delimiter}${process.env.PATH}`, NODE_PATH: benchrigPath(dir) }
      const r = await spawnOutput('/bin/sh', ['-c', p.command.split('{out}').join(out)], { cwd: project, env })
      t.equal(r.code, 0, r.stderr)
      const text = p.command.includes('{out}') ? fs.readFileSync(out, 'utf8') : r.stdout
      outputs.set(name, text)
      const result = readRunnerOutput(runnerFor(name, '--runner'), text, name)
      t.same(result.tasks.map((x) => x.name).sort(), [...p.tasks].sort(), 'both tasks, named as the runner names them')
      t.same(result.errors, [])
      for (const task of result.tasks) {
        t.ok(Number.isFinite(task.rate) && task.rate > 0, `${task.name}: a rate`)
        t.match(task.stat, /^(median|mean)$/)
      }
      if (name === 'mitata') t.ok(result.noopRate > 0, 'mitata\'s empty function kept for the dead-code warning')
      if (name === 'hyperfine') t.ok(result.tasks.every((x) => x.cpuRate > 0), 'hyperfine\'s user + system time')
    })
  }
  await t.test('benchmark.js: its reporter kept its samples (the rate their median); its text lines read too (the rate its hz)', async (t) => {
    const project = path.join(dir, 'benchmarkjs')
    if (!fs.existsSync(project)) return t.skip('benchmark.js did not run')
    const viaReporter = readRunnerOutput(runnerFor('benchmarkjs', '--runner'), outputs.get('benchmarkjs'), 'reporter')
    t.ok(viaReporter.tasks.every((x) => x.samples && x.samples.length >= 5 && x.sampleUnit === 's' && x.stat === 'median'))
    const r = await spawnOutput(process.execPath, ['bench.js'], { cwd: project, env: { ...process.env, TEXT_LINES: '1' } })
    t.equal(r.code, 0, r.stderr)
    t.match(r.stdout, /^sum x [\d,.]+ ops\/sec \u00b1[\d.]+% \(\d+ runs sampled\)$/m, 'benchmark.js\'s own line')
    const result = readRunnerOutput(runnerFor('benchmark.js', '--runner'), r.stdout, 'text')
    t.same(result.tasks.map((x) => x.name).sort(), ['join', 'sum'])
    t.ok(result.tasks.every((x) => x.stat === 'mean' && x.count >= 5))
  })
})

t.test('a reader refuses every other runner\'s output, with one error naming the runner and the source', async (t) => {
  t.ok(outputs.size >= 2, 'outputs of several runners to cross')
  for (const [from, text] of outputs) {
    for (const name of RUNNER_NAMES) {
      if (name === from || (from === 'tinybench' && name === 'vitest') || (from === 'vitest' && name === 'tinybench')) continue
      const runner = runnerFor(name, '--runner')
      t.equal(runner.parse(text), undefined, `${name} does not read ${from}'s output`)
      t.throws(() => readRunnerOutput(runner, text, `out-of-${from}.json`), { code: 'BENCHRIG_ERR_RUNNER_OUTPUT', message: new RegExp(`^out-of-${from}\\.json: this is not ${name} output`) })
    }
  }
  t.throws(() => runnerFor('mitta', '--runner'), { code: 'BENCHRIG_ERR_RUNNER', message: /--runner mitta: unknown runner \(did you mean mitata\?\); use one of tinybench, vitest/ })
})
