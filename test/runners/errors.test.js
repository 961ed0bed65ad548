'use strict'
// compare --cmd's bad input: an unknown runner is a usage error before any
// run; a command that fails on one side, or prints what is not the runner's
// output, is one error at the first pair naming the side, and the --output
// file is left for --resume, which finishes it.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { runnerModules } = require('./_packages.js')
const { PROJECTS, WORK } = require('./_projects.js')
const { BIN } = require('./_refs-case.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cmd-errors-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
const project = path.join(dir, 'project')

/** A node wrapper that answers compare's check (-e) and fails on a script: the new side's binary, first on PATH as node. */
// a node that cannot run files while its marker exists: removed, the same side
// (the same binary, so --resume takes the file) runs them
const broken = path.join(dir, 'broken-node')
const brokenMarker = path.join(dir, 'broken-node.marker')
fs.writeFileSync(broken, `#!/bin/sh\nif [ -e ${JSON.stringify(brokenMarker)} ]; then\n  case "$1" in -e|-p) ;; *) echo "broken-node: cannot run $1" >&2; exit 3;; esac\nfi\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
fs.writeFileSync(brokenMarker, '')

const compare = (args) => spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--seed', '9', '--runs', '2', ...args], { cwd: project })

t.before(async () => {
  const mods = await runnerModules()
  if (mods.skip) return
  fs.mkdirSync(project)
  fs.symlinkSync(mods.nodeModules, path.join(project, 'node_modules'))
  fs.writeFileSync(path.join(project, 'work.js'), WORK(2000))
  fs.writeFileSync(path.join(project, 'bench.mjs'), PROJECTS.tinybench.files['bench.mjs'])
})

const node = process.execPath

t.test('an unknown runner, a runner without --cmd, --cmd with categories, --set, --profile or another command\'s round: usage errors, nothing run', async (t) => {
  if (!fs.existsSync(project)) return t.skip('no runners installed')
  // a round plan (benchrig plan --next) of another command
  const roundOfOther = path.join(dir, 'other-round.json')
  fs.writeFileSync(roundOfOther, JSON.stringify({ schema: 'benchrig-plan/1', base: '0123456789abcdef', round: 2, seed: 9, target: 0.5, maxPairs: 60, files: [{ filename: 'node other.mjs', firstPair: 3, pairs: 2, cost: 1 }], capped: 0 }))
  const cases = [
    [['--runner', 'tinybnech'], /--runner tinybnech: unknown runner \(did you mean tinybench\?\); use one of tinybench, vitest, mitata, benchmarkjs, bench-node, node-bench, hyperfine/],
    [['--format', 'mitta'], /--format mitta: unknown runner \(did you mean mitata\?\)/],
    [['--runner', 'tinybench', '--format', 'mitata'], /--format mitata and --runner tinybench: name the runner once/],
    [['--runner', 'tinybench', '--set', 'n=1'], /--set does not go with --cmd/],
    [['--runner', 'tinybench', '--measure', 'instructions'], /--measure instructions does not go with --cmd: use wall .* or cpu/],
    [['--runner', 'tinybench', 'buffers'], /--cmd runs the command on each side instead of benchmark files: give no benchmark categories \(buffers\)/],
    [['--runner', 'tinybench', '--filter', 'sum'], /--filter does not go with --cmd: the command's runner decides what runs/],
    [['--runner', 'tinybench', '--profile'], /--profile does not go with --cmd: it runs each configuration found slower once more on each side, narrowed to it alone in its own process under node --cpu-prof, .*a command runs all its tasks together in the runner's process\(es\) and cannot be narrowed to one task/],
    [['--runner', 'tinybench', '--plan', roundOfOther], /--plan .*other-round\.json: its round is of "node other\.mjs", not of the command "node bench\.mjs"; give the --cmd of the first round/]
  ]
  for (const [extra, message] of cases) {
    const r = await compare(['--old', node, '--new', node, '--cmd', 'node bench.mjs', '--output', path.join(dir, 'never.csv'), ...extra])
    t.equal(r.code, 2, extra.join(' '))
    t.match(r.stderr, message)
    t.notOk(fs.existsSync(path.join(dir, 'never.csv')), 'nothing written')
  }
  const noCmd = await compare(['--old', node, '--new', node, '--runner', 'tinybench'])
  t.equal(noCmd.code, 2)
  t.match(noCmd.stderr, /--runner tinybench goes with --cmd "COMMAND"/)
})

t.test('a command that fails on one side: one error at the first pair naming the side; --resume finishes the file', async (t) => {
  if (!fs.existsSync(project)) return t.skip('no runners installed')
  const out = path.join(dir, 'failing.csv')
  const r = await compare(['--old', node, '--new', broken, '--cmd', 'node bench.mjs', '--runner', 'tinybench', '--output', out])
  t.equal(r.code, 1)
  t.match(r.stderr, /compare --cmd: the new side's command "node bench\.mjs" \(in .*project\) exited with code 3; it said:\n\s+broken-node: cannot run bench\.mjs\n\s*Nothing of this side was measured/)
  t.equal(r.stderr.match(/exited with code/g).length, 1, 'one error')
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace')
  const kept = parseCsvRecords(fs.readFileSync(out, 'utf8')).records
  t.ok(kept.every((x) => x.binary === 'old' && Number(x.pair) === 1), 'at most the old side of the first pair ran')
  fs.rmSync(brokenMarker)
  const resumed = await compare(['--old', node, '--new', broken, '--cmd', 'node bench.mjs', '--runner', 'tinybench', '--resume', out])
  t.equal(resumed.code, 0, resumed.stderr)
  const rows = parseCsvRecords(fs.readFileSync(out, 'utf8')).records
  t.equal(rows.length, 2 * 2 * 2, 'two pairs of two tasks on two sides')
  t.same([...new Set(rows.map((x) => x.configuration))].sort(), ['join', 'sum'])
})

t.test('Ctrl-C: compare stops after the run in progress (the command gets the signal too); --resume finishes the file', async (t) => {
  if (!fs.existsSync(project)) return t.skip('no runners installed')
  const { spawn } = require('node:child_process')
  const out = path.join(dir, 'interrupted.csv')
  const child = spawn(process.execPath, [BIN, 'compare', '--no-progress', '--seed', '9', '--runs', '2', '--old', node, '--new', node, '--cmd', 'node bench.mjs', '--runner', 'tinybench', '--output', out], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  const rows = () => (fs.existsSync(out) ? parseCsvRecords(fs.readFileSync(out, 'utf8')).records.length : 0)
  // the first row is on disk: interrupt the next run
  while (rows() === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50))
  child.kill('SIGINT')
  const code = await new Promise((resolve) => child.on('close', resolve))
  t.equal(code, 130, stderr)
  t.match(stderr, /compare: interrupted; stopping after the current run/)
  t.notMatch(stderr, /Nothing of this side was measured|FAILED/, 'the interrupted run is not a failure')
  t.ok(rows() < 2 * 2 * 2, 'stopped before the end')
  const resumed = await compare(['--old', node, '--new', node, '--cmd', 'node bench.mjs', '--runner', 'tinybench', '--resume', out])
  t.equal(resumed.code, 0, resumed.stderr)
  t.equal(rows(), 2 * 2 * 2, 'two pairs of two tasks on two sides')
})

t.test('output that is not the runner\'s: one error at the first run naming the side and the runner', async (t) => {
  if (!fs.existsSync(project)) return t.skip('no runners installed')
  const out = path.join(dir, 'wrong.csv')
  const r = await compare(['--old', node, '--new', node, '--cmd', 'node bench.mjs', '--runner', 'mitata', '--output', out])
  t.equal(r.code, 2)
  t.match(r.stderr, /compare --cmd: the (old|new) side's command "node bench\.mjs" \(in .*\): this is not mitata output \(it starts "\[\{"name":"sum"/)
  t.match(r.stderr, /call run\(\{ format: "json" \}\) \(docs\/runners\/mitata\.md\)/)
  t.equal(parseCsvRecords(fs.readFileSync(out, 'utf8')).records.length, 0, 'no row; the file is there to resume')
  const noFile = await compare(['--old', node, '--new', node, '--cmd', 'node bench.mjs > /dev/null', '--runner', 'vitest', '--output', path.join(dir, 'nofile.csv')])
  t.equal(noFile.code, 2)
  t.match(noFile.stderr, /this is not vitest output \(it is empty\); run "vitest bench --run --outputJson \{out\}"/)
})
