'use strict'
// compare --profile: the differential self-time table from two CPU profiles
// (pure, on made-up profiles), the configuration's key=value narrowing, and
// end to end: a new side whose hashItems() does three times the work is
// called slower, profiled once per side (real node --cpu-prof), and
// hashItems is the table's first row; the .cpuprofile files are kept.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { diffProfiles, renderProfiles, displayUrl } = require('../../lib/profile/diff.js')
const { configurationArgs } = require('../../lib/profile/run.js')

const ROOT = path.join(__dirname, '..', '..')
const SUITE = path.join(__dirname, '..', 'fixtures', 'profile')

/** A profile whose samples hit functions in the given counts. */
function profile (counts, file = '/w/old/bench/x.js') {
  const nodes = [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 } }]
  const samples = []
  for (const [name, n] of Object.entries(counts)) {
    const id = nodes.length + 1
    nodes.push({ id, callFrame: { functionName: name, url: name.startsWith('(') ? '' : `file://${file}`, lineNumber: id, columnNumber: 2 } })
    for (let i = 0; i < n; i++) samples.push(id)
  }
  return { nodes, samples, timeDeltas: samples.map(() => 1000) }
}

t.test('diffProfiles: shares of self time, largest growth first; idle left out; locations relative to each side', async (t) => {
  const oldP = profile({ parse: 50, hash: 50, '(idle)': 100 }, '/w/old/bench/x.js')
  const newP = profile({ parse: 50, hash: 150, '(idle)': 5 }, '/w/new/bench/x.js')
  const rows = diffProfiles(oldP, newP, { oldBase: '/w/old/bench', newBase: '/w/new/bench' })
  t.same(rows.map((r) => r.name), ['hash', 'parse'])
  t.equal(rows.length, 2, 'the two copies of one file are one location')
  t.match(rows[0], { location: 'x.js:4:3', oldShare: 50, newShare: 75, change: 25, oldMs: 50, newMs: 150 })
  t.match(rows[1], { oldShare: 50, newShare: 25, change: -25 })
  t.equal(displayUrl('node:fs', '/w'), 'node:fs')
  t.equal(displayUrl('file:///w/lib/a.js', '/w/bench'), '../lib/a.js')
  t.equal(displayUrl('', '/w'), '')
  t.same(diffProfiles({ nodes: [] }, { nodes: [] }), [], 'empty profiles: no rows')
})

t.test('renderProfiles: text and markdown tables', async (t) => {
  const rows = diffProfiles(profile({ a: 1, b: 1 }), profile({ a: 1, b: 3 }))
  const tables = [{ filename: 'calls/x.js', configuration: 'n=1', files: { old: 'o.cpuprofile', new: 'n.cpuprofile' }, rows }]
  const text = renderProfiles(tables, 'text')
  t.match(text, /^where the time went: calls\/x\.js n=1\n {2}function +location +old self +new self +change \(points\)\n {2}b +\/w\/old\/bench\/x\.js:4:3 +50\.0% +75\.0% +\+25\.0\n/)
  t.match(text, /profiles: o\.cpuprofile, n\.cpuprofile/)
  const md = renderProfiles(tables, 'markdown')
  t.match(md, /^### Where the time went: calls\/x\.js n=1\n\n\| function \| location \| old self \| new self \| change \(points\) \|\n\|---\|---\|---:\|---:\|---:\|\n\| `b` \|/)
  t.equal(renderProfiles([], 'text'), '')
})

t.test('configurationArgs: Node core\'s configuration string back to key=value', async (t) => {
  t.same(configurationArgs("fn='spin' n=10000000"), ['fn=spin', 'n=10000000'])
  t.same(configurationArgs("s='it\\'s a b' x=1.5"), ["s=it's a b", 'x=1.5'])
  t.same(configurationArgs(''), [])
})

t.test('compare --profile: the function made slower is the first row; the profiles are kept', async (t) => {
  const dir = t.testdir()
  const slow = path.join(dir, 'node-slow-hash')
  fs.writeFileSync(slow, `#!/bin/sh\nBENCHRIG_SLOW_HASH=1 exec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
  const profiles = path.join(dir, 'profiles')
  const ndjson = path.join(dir, 'run.ndjson')
  const r = await spawnOutput(process.execPath, [path.join(ROOT, 'compare.js'), '--root', SUITE, '--no-progress', '--old', process.execPath, '--new', slow,
    '--runs', '6', '--seed', '2', '--measure', 'cpu', '--profile', '--profile-dir', profiles, '--ndjson', ndjson, '--analyze', '--format', 'markdown', 'calls'])
  t.equal(r.code, 0, r.stderr)
  t.match(r.stderr, /compare: profiling calls\/two\.js n=300 on each side/)
  const table = r.stdout.slice(r.stdout.indexOf('### Where the time went: calls/two.js n=300'))
  t.ok(table.length > 0, r.stdout)
  const firstRow = table.split('\n').find((l) => l.startsWith('| `'))
  t.match(firstRow, /^\| `hashItems` \| `calls\/two\.js:\d+:\d+` \|/, firstRow)
  t.same(fs.readdirSync(profiles).sort(), ['calls_two.js-n=300.new.cpuprofile', 'calls_two.js-n=300.old.cpuprofile'])
  const p = JSON.parse(fs.readFileSync(path.join(profiles, 'calls_two.js-n=300.new.cpuprofile'), 'utf8'))
  t.ok(Array.isArray(p.nodes) && p.samples.length > 0, 'a V8 CPU profile (Chrome DevTools loads it)')

  // the table travels in the NDJSON file: analyze --format github puts it in the PR report
  const { main: analyzeMain } = require('../../lib/cli/analyze.js')
  let body = ''
  await analyzeMain(['--format', 'github', ndjson], { stdout: { write: (s) => { body += s; return true } } })
  const section = body.slice(body.indexOf('### Where the time went (compare --profile)'))
  t.match(section, /^### Where the time went \(compare --profile\)\n\n<details><summary><code>calls\/two\.js n=300<\/code>: <code>hashItems<\/code>/)
  t.match(section.split('\n').find((l) => l.startsWith('| `')), /^\| `hashItems` \| `calls\/two\.js:\d+:\d+` \|/)
  t.match(section, /`profiles\/calls_two\.js-n=300\.new\.cpuprofile`/, 'the profiles named relative to the NDJSON file')
})

t.test('--profile-dir needs --profile; --profile does not go with --shard', async (t) => {
  const { parseCompareArgs } = require('../../lib/cli/compare.js')
  const base = ['--old', process.execPath, '--new', process.execPath]
  t.throws(() => parseCompareArgs([...base, '--profile-dir', 'x', 'calls']), { message: /--profile-dir goes with --profile/ })
  t.throws(() => parseCompareArgs([...base, '--profile', '--shard', '0/2', '--seed', '1', 'calls']), { message: /--profile does not go with --shard/ })
  t.equal(parseCompareArgs([...base, '--profile', 'calls']).profile, path.resolve('benchrig-profiles'))
})

t.test('the profiled run empties NODE_V8_COVERAGE (coverage counters move samples to the caller) and keeps the rest', async (t) => {
  const { profileSlower } = require('../../lib/profile/run.js')
  const dir = t.testdir()
  const seen = []
  // stands in for the child only to see what it is given; it writes what node --cpu-prof would
  const runFile = async ({ env, args }) => {
    seen.push({ env, args })
    const out = /--cpu-prof-dir=(\S+)/.exec(env.BENCHRIG_FLAGS)[1]
    fs.writeFileSync(path.join(out, 'CPU.1.cpuprofile'), JSON.stringify(profile({ f: 1 })))
  }
  const side = { execPath: process.execPath, execArgv: [] }
  const env = { NODE_V8_COVERAGE: '/tmp/cov', BENCHRIG_FLAGS: '--no-turbo-inlining', KEEP: '1' }
  const tables = await profileSlower({
    results: [{ filename: 'calls/two.js', configuration: 'n=300', verdict: 'slower' }, { filename: 'calls/two.js', configuration: 'n=1', verdict: 'same' }],
    sides: { old: side, new: side },
    root: SUITE,
    env,
    dir,
    runFile
  })
  t.equal(seen.length, 2, 'one run per side, only for the slower configuration')
  for (const s of seen) {
    t.equal(s.env.NODE_V8_COVERAGE, '', 'empty: node would copy its own into an env without the key')
    t.equal(s.env.KEEP, '1')
    t.match(s.env.BENCHRIG_FLAGS, /^--no-turbo-inlining --cpu-prof --cpu-prof-dir=/)
    t.same(s.args, ['n=300'])
  }
  t.equal(tables.length, 1)
  t.same(fs.readdirSync(dir).sort(), ['calls_two.js-n=300.new.cpuprofile', 'calls_two.js-n=300.old.cpuprofile'])
})
