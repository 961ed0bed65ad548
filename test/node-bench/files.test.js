'use strict'
// node:bench files (Node 26.9+ style) through run.js, compare.js and
// scatter.js: on node 26.10 through Node's own runner, on 20/22/24 through
// benchrig's implementation, with the same rows either way.
const { test } = require('tap')
const path = require('node:path')
const fs = require('node:fs')
const { needNode } = require('../helpers/tools.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { formatConfiguration, formatNodeConfiguration } = require('../../lib/record/text.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const REPO = path.join(__dirname, '..', '..')
const FIXTURES = path.join(REPO, 'test', 'fixtures', 'node-bench')

// The rows of strings/concat-join.js: params in Node's sorted key order, the
// benchmark's full name first because the file declares two names.
const CONFS = [
  { bench: 'join', parts: 4, piece: 'a' },
  { bench: 'join', parts: 4, piece: 'hello' },
  { bench: 'join', parts: 64, piece: 'a' },
  { bench: 'join', parts: 64, piece: 'hello' },
  { bench: 'concat plus', parts: 4, piece: 'a' }
]
// compare.js quotes as Node's compare.js (util.inspect), run.js as Node's run.js (JSON)
const EXPECTED = CONFS.map(formatConfiguration)
const EXPECTED_RUN = CONFS.map(formatNodeConfiguration)

/** Runs a command with a given node binary, without tap's NODE_OPTIONS (Node 18-24 cannot load its hooks). */
function runWith (bin, args, extraEnv = {}) {
  const env = { ...process.env, ...extraEnv }
  delete env.NODE_OPTIONS
  return spawnOutput(bin, args, { cwd: REPO, env })
}

function binaryFor (t, major) {
  if (process.versions.node.split('.')[0] === String(major)) return process.execPath
  return needNode(t, major)
}

for (const major of [20, 22, 24, 26]) {
  test(`node ${major}: run.js --format csv runs a node:bench file with the common row shape`, async (t) => {
    const bin = binaryFor(t, major)
    if (!bin) return
    const r = await runWith(bin, ['run.js', '--root', FIXTURES, '--format', 'csv', 'strings', 'which'])
    t.equal(r.code, 0, `exit 0; stderr:\n${r.stderr}`)
    const { header, records } = parseCsvRecords(r.stdout)
    t.same(header, ['filename', 'configuration', 'rate', 'time'], 'run.js CSV header')
    const strings = records.filter((x) => x.filename === 'strings/concat-join.js')
    t.same(strings.map((x) => x.configuration), EXPECTED_RUN, 'one row per benchmark, params as the configuration, in declaration order')
    for (const x of strings) {
      t.ok(Number(x.rate) > 0 && Number(x.time) > 0, `${x.configuration}: positive rate and time`)
    }
    const which = records.filter((x) => x.filename === 'which/impl.js')
    const impl = major >= 26 ? 'node' : 'benchrig'
    t.same(which.map((x) => x.configuration), [formatNodeConfiguration({ impl })], `node ${major} ran the file with ${impl === 'node' ? "Node's node:bench" : "benchrig's node:bench"}`)
  })
}

test('a benchmark that breaks the node:bench contract fails alone, with the same codes in both implementations', async (t) => {
  const ours = needNode(t, 24)
  const native = needNode(t, 26)
  if (!ours || !native) return
  const outcomes = []
  for (const bin of [ours, native]) {
    const r = await runWith(bin, ['run.js', '--root', FIXTURES, '--format', 'csv', 'broken'])
    t.equal(r.code, 1, 'exit 1: two benchmarks failed')
    const { records } = parseCsvRecords(r.stdout)
    t.same(records.map((x) => x.configuration), [formatNodeConfiguration({ bench: 'good', k: 2 })], 'the benchmark between the broken ones still gives its row')
    const failed = r.stderr.split('\n').filter((l) => /: failed: /.test(l))
    // "FILE CONFIGURATION: failed: MESSAGE (CODE)": the configuration as the harness formats it
    outcomes.push(failed.map((l) => /^\S+ (.*?): failed: .*?(ERR_[A-Z_]+)/.exec(l)?.slice(1).join(' ')))
  }
  t.same(outcomes[0], [
    `${formatConfiguration({ bench: 'no start', k: 1 })} ERR_INVALID_STATE`,
    `${formatConfiguration({ bench: 'zero operations', k: 3 })} ERR_OUT_OF_RANGE`
  ], 'ours: end() before start() and end(0) fail with their codes')
  t.same(outcomes[1], outcomes[0], "node 26.10's runner: the same failures and codes")
})

test('BENCHRIG_NODE_BENCH picks the implementation, and refuses native where there is none', async (t) => {
  const n24 = needNode(t, 24)
  const n26 = needNode(t, 26)
  if (!n24 || !n26) return
  const forced = await runWith(n26, ['run.js', '--root', FIXTURES, '--format', 'csv', 'which'], { BENCHRIG_NODE_BENCH: 'ours' })
  t.equal(forced.code, 0)
  t.same(parseCsvRecords(forced.stdout).records.map((x) => x.configuration), [formatNodeConfiguration({ impl: 'benchrig' })], 'node 26 with BENCHRIG_NODE_BENCH=ours runs benchrig\'s')
  const refused = await runWith(n24, ['run.js', '--root', FIXTURES, '--format', 'csv', 'which'], { BENCHRIG_NODE_BENCH: 'native' })
  t.equal(refused.code, 1, 'the file fails')
  t.match(refused.stderr, /which\/impl\.js.*BENCHRIG_NODE_BENCH=native: node v24\.\S+ has no node:bench/, 'one line naming the file, the variable and the version')
  t.notMatch(refused.stderr, /\n\s+at /, 'no stack trace')
})

test('compare.js node 24 vs node 26.10 over a node:bench file, and analyze reads it', async (t) => {
  const n24 = needNode(t, 24)
  const n26 = needNode(t, 26)
  if (!n24 || !n26) return
  const dir = t.testdir({})
  const out = path.join(dir, 'cmp.csv')
  const r = await runWith(process.execPath, ['compare.js', '--root', FIXTURES, '--old', n24, '--new', n26,
    '--runs', '2', '--seed', '7', '--no-progress', '--output', out, 'strings'])
  t.equal(r.code, 0, `exit 0; stderr:\n${r.stderr}`)
  const { header, records } = parseCsvRecords(fs.readFileSync(out, 'utf8'))
  t.same(header.slice(0, 5), ['binary', 'filename', 'configuration', 'rate', 'time'], "Node's five columns first")
  t.equal(records.length, 2 * 2 * EXPECTED.length, '2 binaries x 2 runs x 5 benchmarks')
  for (const conf of EXPECTED) {
    const rows = records.filter((x) => x.configuration === conf)
    t.same(rows.map((x) => x.binary).sort(), ['new', 'new', 'old', 'old'], `${conf}: two pairs of old and new`)
  }
  const a = await runWith(process.execPath, ['bin/benchrig.js', 'analyze', '--format', 'json', out])
  t.equal(a.code, 0, `analyze exit 0; stderr:\n${a.stderr}`)
  const analysis = JSON.parse(a.stdout)
  const rows = analysis.results
  t.equal(rows.length, EXPECTED.length, 'one analysed comparison per benchmark')
  t.ok(rows.every((x) => x.n_pairs === 2), 'each from its two pairs')
  t.same(rows.map((x) => x.configuration).sort(), EXPECTED.slice().sort(), 'keyed by the same configurations')
})

test('scatter.js runs a node:bench file with --binary and --set, one column per param', async (t) => {
  const n26 = needNode(t, 26)
  if (!n26) return
  const r = await runWith(process.execPath, ['scatter.js', '--runs', '2', '--no-progress', '--binary', n26, '--set', 'bench=join', '--set', 'piece=a',
    path.join(FIXTURES, 'strings', 'concat-join.js')])
  t.equal(r.code, 0, `exit 0; stderr:\n${r.stderr}`)
  const { header, records } = parseCsvRecords(r.stdout)
  t.same(header, ['filename', 'bench', 'parts', 'piece', 'rate', 'time'])
  t.same(records.map((x) => `${x.bench} ${x.parts} ${x.piece}`), ['join 4 a', 'join 64 a', 'join 4 a', 'join 64 a'], 'the narrowed benchmarks, twice')
})

test('run.js --timeout ends a node:bench file that hangs, ours and node 26.10\'s, leaving no process behind', async (t) => {
  const n26 = needNode(t, 26)
  if (!n26) return
  for (const bin of [process.execPath, n26]) {
    const r = await runWith(bin, ['run.js', '--root', FIXTURES, '--timeout', '2', 'hang'])
    t.equal(r.code, 1, 'exit 1')
    t.match(r.stderr, /hang\/forever\.js: failed: the node:bench run took longer than BENCHRIG_TIMEOUT=2 s \(--timeout\) and was killed/)
    const ps = require('node:child_process').spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    t.notMatch(ps.stdout, /fixtures\/node-bench\/hang\/forever\.js/, 'the hung benchmark process is gone')
  }
})

test('a node:bench file that declares nothing fails with one message saying what to write', async (t) => {
  const r = await runWith(process.execPath, ['run.js', '--root', FIXTURES, 'empty'])
  t.equal(r.code, 1)
  t.match(r.stderr, /empty\/nothing\.js: failed: the file declared no benchmark: call bench\(name, \{ params \}, \(b\) => \{ b\.start\(\); \.\.\.; b\.end\(n\) \}\)/)
})
