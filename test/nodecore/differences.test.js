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
