'use strict'
// compare --cmd with --old-ref/--new-ref, for real: per runner, a project in
// a temporary git repository whose second commit makes "sum" do 1.5x the
// work. --runs seq calls sum slower and join neither faster nor slower; an
// A/A of one commit calls nothing. Each run is one process of the runner at
// short time settings; --max-runs bounds the pairs.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { needTool } = require('../helpers/tools.js')
const { parseCsvRecords } = require('../../lib/report/csv.js')
const { PROJECTS } = require('./_projects.js')
const { runnerModules } = require('./_packages.js')
const { makeRepo } = require('./_repo.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-refs-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))

// Loops per runner: "sum" takes ~0.1-0.3 ms a call, so the timer's step and
// the call's overhead are far below the 33% step; hyperfine's command runs
// it 400 times per process, so the work outweighs node's start-up.
const RUNNERS = (process.env.BENCHRIG_TEST_RUNNERS || 'tinybench,vitest,mitata,benchmarkjs,bench-node,node-bench,hyperfine').split(',')
const LOOP = { hyperfine: 200000 }

/** compare in the project; the analysis as JSON on stdout. */
function compare (cwd, args, node = process.execPath) {
  return spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--node', node, '--seed', '3', '--cache', path.join(dir, 'cache'), '--analyze', '--format', 'json', ...args], { cwd })
}

const verdicts = (stdout) => Object.fromEntries(JSON.parse(stdout).results.map((r) => [r.configuration, r.verdict]))
const CALLS = /^(faster|slower)$/

for (const runner of RUNNERS) {
  t.test(runner, async (t) => {
    const mods = await runnerModules()
    if (mods.skip) return t.skip(mods.skip)
    const p = PROJECTS[runner]
    if (runner === 'hyperfine' && !needTool(t, 'hyperfine')) return
    if (p.node && !fs.existsSync(p.node)) return t.skip(`no node at ${p.node}: scripts/install-node-versions.sh`)
    const repo = makeRepo(path.join(dir, runner), runner, mods.nodeModules, { loop: LOOP[runner] ?? 20000 })
    const [sum, join] = p.tasks
    const out = path.join(dir, `${runner}.csv`)
    const r = await compare(repo, ['--old-ref', 'HEAD~1', '--new-ref', 'HEAD', '--cmd', p.command, '--runner', runner, '--runs', 'seq', '--max-runs', '12', '--threshold', '10', '--output', out], p.node)
    t.equal(r.code, 0, r.stderr)
    const v = verdicts(r.stdout)
    t.equal(v[sum], 'slower', `${sum}: 1.5x the work is called slower`)
    t.notMatch(v[join], CALLS, `${join}: not called (${v[join]})`)
    const rows = parseCsvRecords(fs.readFileSync(out, 'utf8')).records
    t.same([...new Set(rows.map((x) => x.configuration))].sort(), [...p.tasks].sort(), 'one configuration per task')
    t.same([...new Set(rows.map((x) => x.filename))], [p.command], 'the filename is the command')

    const aa = await compare(repo, ['--old-ref', 'HEAD', '--new-ref', 'HEAD', '--cmd', p.command, '--runner', runner, '--runs', 'seq', '--max-runs', '6', '--threshold', '10'], p.node)
    t.equal(aa.code, 0, aa.stderr)
    const w = verdicts(aa.stdout)
    t.same(Object.keys(w).sort(), [...p.tasks].sort())
    for (const task of p.tasks) t.notMatch(w[task], CALLS, `A/A: ${task} not called (${w[task]})`)
  })
}
