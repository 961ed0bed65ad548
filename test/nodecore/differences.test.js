'use strict'
// The last differences issue 23 found between Node core's harness and ours,
// one test each, on files of Node's shapes written by us
// (test/fixtures/nodecore-shapes). The entry points' bytes, as Node's own
// harness printed them side by side, are test/nodecore/node-bytes.test.js's.
const { test } = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { fork, spawnSync } = require('node:child_process')
const { collect } = require('../harness/fixtures/helpers.js')

const REPO = path.join(__dirname, '..', '..')
const SHAPES = path.join(REPO, 'test', 'fixtures', 'nodecore-shapes')
const env = { ...process.env, BENCHRIG_PROGRESS: 'none' }

function node (args, opts = {}) {
  return spawnSync(process.execPath, args, { encoding: 'utf8', env, ...opts })
}

// Node's run.js rules, written here from its behaviour (not its code).
function nodeRate (rate) {
  const [int, dec] = String(rate).split('.')
  return int.replace(/\B(?=(\d{3})+$)/g, ',') + (dec ? `.${dec}` : '')
}
/** The measured number of a run.js text line, read back. */
const rateOf = (line) => Number(line.slice(line.lastIndexOf(': ') + 2).replace(/,/g, ''))

test('a: Infinity (and any number) is a configuration value, printed as Node prints it', async (t) => {
  const run = node([path.join(REPO, 'run.js'), '--root', SHAPES, 'util'])
  t.equal(run.status, 0, run.stderr)
  const lines = run.stdout.split('\n')
  t.equal(lines[2], `util/inspect-max.js n=20 maxObjectProperties=10: ${nodeRate(rateOf(lines[2]))}`, 'the line of Node\'s run.js, in Node\'s key order')
  t.equal(lines[3], `util/inspect-max.js n=20 maxObjectProperties=null: ${nodeRate(rateOf(lines[3]))}`,
    'Infinity crosses IPC (JSON) as null and prints as under Node\'s harness')
  t.match(run.stderr, /main received 10\nmain received Infinity\n/, 'main() gets Infinity itself')
  const bad = node([path.join(SHAPES, 'util', 'inspect-max.js'), 'maxObjectProperties=lots'])
  t.equal(bad.status, 1)
  t.match(bad.stderr, /maxObjectProperties=lots: "maxObjectProperties" takes numbers/)
})

test('b: no unhandledRejection handler in a child; failures are still reported', async (t) => {
  const ok = await collect(path.join(SHAPES, 'promises', 'rejections.js'), { env })
  t.same(ok.errors, [], '--unhandled-rejections=warn decides, as under Node\'s harness')
  t.equal(ok.reports.length, 1)
  const failed = await collect(path.join(SHAPES, 'errors', 'unhandled.js'), { env })
  t.equal(failed.reports.length, 0)
  t.equal(failed.errors.length, 1)
  t.match(failed.errors[0].message, /rejected-and-nobody-cares/, 'node\'s default mode raises it as an uncaught exception, reported with its text')
})

test('c: a combinationFilter that keeps nothing runs nothing and exits 0', async (t) => {
  for (const mode of [[], ['test']]) {
    const run = node([path.join(REPO, 'run.js'), '--root', SHAPES, ...mode, 'assert'])
    t.equal(run.status, 0, run.stderr)
    t.equal(run.stderr, '')
    const lines = run.stdout.split('\n')
    // Node's run.js prints each file's blank line and name before it runs it,
    // so the filtered-out file has a header and no result (observed side by side)
    t.same(lines.slice(0, 4), ['', 'assert/filtered-out.js', '', 'assert/ok.js'], `${mode.join('') || 'run'}: a header, no result line`)
    t.equal(lines.length, 6)
  }
  const byHand = node([path.join(SHAPES, 'assert', 'filtered-out.js')])
  t.equal(byHand.status, 0)
  t.equal(byHand.stdout, '')
  t.match(byHand.stderr, /^assert\/filtered-out\.js: nothing to run: options\.combinationFilter leaves no configuration\n$/)
})

test('d: under a driver that reads only reports (Node\'s run.js), a child\'s error reaches stderr', async (t) => {
  // What Node's run.js does with a benchmark file: fork it, read 'report'
  // messages, ignore the rest; the file's stderr is the user's.
  const r = await new Promise((resolve) => {
    const child = fork(path.join(SHAPES, 'errors', 'throws.js'), [], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    let stderr = ''
    const types = []
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d })
    child.on('message', (m) => types.push(m.type))
    child.on('close', (code) => resolve({ code, stderr, types }))
  })
  t.equal(r.code, 1)
  t.same(r.types, ['config', 'error'])
  t.match(r.stderr, /^errors\/throws\.js n=10: failed: Error: thrown-in-main n=10\n\s+at main/, 'the text, not only the IPC message')
  const ours = node([path.join(REPO, 'run.js'), '--root', SHAPES, '--filter', 'throws', 'errors'])
  t.equal(ours.status, 1)
  t.equal(ours.stderr.split('\n').filter((l) => l.includes('thrown-in-main')).length, 1, 'under our driver the error is printed once')
})

test('e: --test runs one configuration of every group', async (t) => {
  const run = node([path.join(REPO, 'run.js'), '--root', SHAPES, 'test', 'groups'])
  t.equal(run.status, 0, run.stderr)
  const lines = run.stdout.split('\n')
  t.equal(lines.length, 5)
  t.equal(lines[2], `groups/by-groups.js group="small" len=1 n=1: ${nodeRate(rateOf(lines[2]))}`)
  t.equal(lines[3], `groups/by-groups.js group="large" len=1 n=1: ${nodeRate(rateOf(lines[3]))}`)
})

test('f: --human changes the simple format only', async (t) => {
  // The bytes of run.js, compare.js and scatter.js against Node's are
  // test/nodecore/node-bytes.test.js's; --human (the rounded form) is
  // test/harness/formats.test.js's.
  t.equal(node([path.join(REPO, 'run.js'), '--human', '--format', 'csv', 'assert']).status, 2, '--human with another format is a usage error')
})

test('g: entry files copied into another project\'s benchmark folder run the installed package', async (t) => {
  // As a contributor would: a project with benchrig in node_modules (linked,
  // as npm link or a workspace does), benchrig's entry files and common.js
  // copied into its benchmark folder, a benchmark file of Node's shape.
  // Outside this repository: inside it, require('benchrig/...') would resolve
  // to the repository itself (a package may require itself by name).
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-copied-'))
  t.teardown(() => fs.rmSync(project, { recursive: true, force: true }))
  for (const dir of ['benchmark/assert', 'node_modules']) fs.mkdirSync(path.join(project, dir), { recursive: true })
  fs.symlinkSync(REPO, path.join(project, 'node_modules', 'benchrig'), 'dir')
  const bench = path.join(project, 'benchmark')
  for (const f of ['run.js', 'compare.js', 'scatter.js', 'calibrate-n.js', 'common.js']) fs.copyFileSync(path.join(REPO, f), path.join(bench, f))
  fs.copyFileSync(path.join(SHAPES, 'assert', 'ok.js'), path.join(bench, 'assert', 'ok.js'))
  const run = node([path.join(bench, 'run.js'), 'assert'], { cwd: project })
  t.equal(run.status, 0, run.stderr)
  t.match(run.stdout, /^\nassert\/ok\.js\nassert\/ok\.js method="deepEqual" n=100: [\d,.]+\n$/, 'the copied run.js finds the category next to it')
  const byHand = node([path.join(bench, 'assert', 'ok.js'), 'n=5'], { cwd: project })
  t.equal(byHand.status, 0, byHand.stderr)
  t.match(byHand.stdout, /^assert\/ok\.js method="deepEqual" n=5: [\d,.]+\n$/, 'the copied common.js loads the installed harness')
  t.throws(() => require('../../lib/cli/entry.js').runEntry('nope', bench), { message: /no entry file "nope"/ })
  const help = node([path.join(bench, 'compare.js'), '--help'])
  t.match(help.stdout, /^Usage: compare\.js --old BIN --new BIN/)
  fs.unlinkSync(path.join(project, 'node_modules', 'benchrig'))
  const missing = node([path.join(bench, 'scatter.js'), '--help'])
  t.equal(missing.status, 2)
  t.equal(missing.stderr, 'scatter.js: benchrig is not installed where this copy is: run "npm install --save-dev benchrig" in its project\n')
})

// What Node core's run.js and compare.js do with a benchmark file, written
// here from their behaviour (not their code): fork it with IPC, keep its
// 'report' messages, ignore the rest, and exit with its exit code when that
// is not 0. Core dumps off: a SIGABRT or SIGTRAP child would write one.
const NODE_SHAPED_DRIVER = `
const { fork } = require('node:child_process')
const child = fork(process.argv[1], process.argv.slice(2), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
const reports = []
child.on('message', (m) => { if (m && m.type === 'report') reports.push(m.conf) })
child.on('close', (code, signal) => {
  process.stdout.write(JSON.stringify({ code, signal, reports }) + '\\n')
  if (code) process.exitCode = code
})`
test('h: a child killed by a signal (abort, SIGTRAP, SIGKILL): under a driver of Node\'s the run goes on and exits 0, as Node\'s common.js; under ours it is a failure', async (t) => {
  const file = path.join(SHAPES, 'signals', 'killed.js')
  const r = spawnSync('sh', ['-c', 'ulimit -c 0; exec "$@"', 'sh', process.execPath, '-e', NODE_SHAPED_DRIVER, file], { encoding: 'utf8', env })
  t.equal(r.status, 0, r.stderr)
  const seen = JSON.parse(r.stdout.trim().split('\n').pop())
  t.same(seen, { code: 0, signal: null, reports: [{ how: 'none', n: 10 }] }, 'the root went on to the last configuration and exited 0')
  for (const sig of ['SIGABRT', 'SIGTRAP', 'SIGKILL']) {
    t.match(r.stderr, new RegExp(`signals/killed\\.js n=10 how='\\w+': failed: the child was killed by ${sig} \\(not counted in the exit code, as under Node core's common\\.js\\)`), `${sig} is still said on stderr`)
  }
  // our drivers count it, and say which configuration
  const ours = spawnSync('sh', ['-c', 'ulimit -c 0; exec "$@"', 'sh', process.execPath, path.join(REPO, 'run.js'), '--root', SHAPES, 'signals'], { encoding: 'utf8', env })
  t.equal(ours.status, 1, 'our run.js: three failed configurations')
  t.equal(ours.stdout.split('\n').filter((l) => l.startsWith('signals/killed.js n=10 how="none": ')).length, 1, 'and the one that reported')
  t.equal((ours.stderr.match(/the child was killed by SIG(ABRT|TRAP|KILL)\n/g) || []).length, 3)
  t.notMatch(ours.stderr, /not counted/)
})

test('i: test mode\'s duration: a duration key becomes 0.25 s (Node\'s common.js: 0.05 s), the load bench.http() runs', async (t) => {
  // docs/http-benchmarkers.md ("--test and durations") says why; the value
  // lives in lib/harness/test-mode.js alone
  const { TEST_DURATION } = require('../../lib/harness/test-mode.js')
  t.equal(TEST_DURATION, 0.25)
  const { buildQueue } = require('../../lib/harness/matrix.js')
  const { parseBenchArgs } = require('../../lib/harness/args.js')
  const q = buildQueue({ configs: { duration: [5], dur: [3], n: [1e6] }, args: parseBenchArgs(['--test']) }).queue
  t.same(q, [{ duration: 0.25, dur: 0.25, n: 1 }], 'dur and duration, as Node names them')
  const { normalizeOptions } = require('../../lib/harness/bench-http.js')
  t.equal(normalizeOptions({ path: '/', duration: 10, benchmarker: 'builtin' }, {}, { testMode: true }).duration, TEST_DURATION, 'a fixed bench.http duration is shortened to the same')
  for (const doc of ['coming-from-node.md', 'http-benchmarkers.md']) {
    const text = fs.readFileSync(path.join(REPO, 'docs', doc), 'utf8')
    t.notMatch(text, /duration`? 0\.05|to 0\.3 s/, `${doc} does not give another test-mode duration`)
    t.match(text, /0\.25 s/, `${doc} gives ours`)
  }
})
