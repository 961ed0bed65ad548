'use strict'
// compare --cmd with --old-pkg/--new-pkg, for real: a tinybench project (and
// a bench-node one) whose "escape" task calls escape-html from the npm
// registry and whose "control" task does not. On 2 KB of plain text, 1.0.2
// (five replace() passes) took 0.4-2.4 us a call here and 1.0.3 (one exec()
// scan) 6.5-30 us, on node 20 (on node 26 both about 0.9 us):
// with 1.0.2 as old and 1.0.3 as new, escape is called slower and control
// not; an A/A of one version calls nothing.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { runnerModules } = require('./_packages.js')
const { verdicts, CALLS, BIN } = require('./_refs-case.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-pkg-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))

const TEXT = "const text = 'plain words without markup '.repeat(80)"
const PROJECTS = {
  tinybench: {
    file: 'bench.mjs',
    source: `import { Bench } from 'tinybench'
import escapeHtml from 'escape-html'
${TEXT}
const bench = new Bench({ time: 40, warmupTime: 10 })
bench.add('escape', () => escapeHtml(text))
bench.add('control', () => text.split(' ').length)
await bench.run()
console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))))
`,
    command: 'node bench.mjs',
    measure: 'wall'
  },
  // require() through the package hook; bench-node's mean: --measure cpu
  'bench-node': {
    file: 'bench.js',
    source: `const { Suite, jsonReport } = require('bench-node')
const escapeHtml = require('escape-html')
${TEXT}
const suite = new Suite({ reporter: jsonReport })
const opts = { minTime: 0.02, maxTime: 0.05 }
suite.add('escape', opts, () => escapeHtml(text)).add('control', opts, () => text.split(' ').length)
suite.run()
`,
    command: 'node --allow-natives-syntax bench.js',
    measure: 'cpu'
  }
}

for (const [runner, p] of Object.entries(PROJECTS)) {
  t.test(`${runner}: escape-html 1.0.2 against 1.0.3: escape is called slower, control not; an A/A calls nothing`, async (t) => {
    const mods = await runnerModules()
    if (mods.skip) return t.skip(mods.skip)
    const project = path.join(dir, runner)
    fs.mkdirSync(project)
    fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
    fs.writeFileSync(path.join(project, p.file), p.source)
    const compare = (args) => spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--seed', '5', '--cache', path.join(dir, 'cache'), '--analyze', '--format', 'json',
      '--cmd', p.command, '--runner', runner, '--measure', p.measure, '--runs', 'seq', '--threshold', '10', ...args], { cwd: project })
    const nd = path.join(dir, `${runner}.ndjson`)
    const r = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.3', '--max-runs', '20', '--ndjson', nd])
    if (/ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|network/i.test(r.stderr) && process.env.BENCHRIG_REQUIRE_TOOLS !== '1') return t.skip(`the npm registry is not reachable: ${r.stderr.trim().split('\n').pop()}`)
    t.equal(r.code, 0, r.stderr)
    const v = verdicts(r.stdout)
    t.equal(v.escape, 'slower', 'the version that is slower on plain text is called slower')
    t.notMatch(v.control, CALLS, `control: not called (${v.control})`)
    const recs = fs.readFileSync(nd, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    t.match(recs[0], { type: 'meta', old: { package: 'escape-html', package_version: '1.0.2' }, new: { package: 'escape-html', package_version: '1.0.3' } })
    const m = recs.find((x) => x.type === 'measurement')
    t.match(m.extra, { runner }, 'the runner\'s own statistics kept beside the row')

    const aa = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.2', '--max-runs', '10'])
    t.equal(aa.code, 0, aa.stderr)
    const w = verdicts(aa.stdout)
    t.same(Object.keys(w).sort(), ['control', 'escape'])
    for (const task of ['escape', 'control']) t.notMatch(w[task], CALLS, `A/A: ${task} not called (${w[task]})`)
  })
}
