'use strict'
// compare.js end to end with real node processes: a "new" binary that does
// 25% more work is called slower; the same binary against itself is not
// called faster or slower; rows are shaped as Node core's tools expect.
const t = require('tap')
// 480 s, not tap's 240 s a file: its compares run their pairs one process
// after another, and under a CPU hog the file took 60 to 116 s at load 4-13;
// each benchmark process keeps the harness's own limit.
t.setTimeout(480e3)
const fs = require('node:fs')
const path = require('node:path')
const { makeWrapper, runCompare, readRows } = require('./fixtures/helpers.js')
const { analyze } = require('../../lib/stats/analyze.js')

const NODE_COLUMNS = ['binary', 'filename', 'configuration', 'rate', 'time']

t.test('a new binary that does 25% more work is called slower, with a CI that excludes 0', async (t) => {
  const dir = t.testdir()
  const slow = makeWrapper(dir, 'node-slow', 'slow25.js')
  const out = path.join(dir, 'slow.csv')
  // Each pair runs old and new back to back, so the slow and fast spells of
  // this machine hit both alike; spin.js reports per CPU-second.
  // n=1e7 (about 0.1 s of loop per process, not 10 ms): the JIT's warm-up and
  // the granularity of CPU-time accounting, which diluted the 20% to 13-17%
  // and spread the pairs by as much under load, are small against it.
  // --max-regression 5: the ~20% slowdown is a regression, so compare.js
  // exits 1 and names it, with every row still written.
  const r = await runCompare(['--old', process.execPath, '--new', slow, '--runs', '8', '--seed', '7',
    '--set', 'n=10000000', '--set', 'kind=sqrt', '--output', out, '--max-regression', '5', 'cpu'])
  t.equal(r.code, 1, `exit 1 for a regression beyond -5%: ${r.stderr}`)
  t.match(r.stderr, /FAIL: 1 configuration\(s\) slower than -5% \(one-sided test against -5%/)
  const text = fs.readFileSync(out, 'utf8')
  t.equal(text.split('\n')[0], '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure","plan","shard_index","shard_count","host","executor","rule","section_start","section_end","cpuset","starved","section_cpu","alloc_bytes","max_rss_kb","gc_ms","server_cpu_us","generator_bound","cpu_speed","cpu_spread","cpu_block"')
  const rows = readRows(out)
  t.equal(rows.length, 16, '8 pairs x 2 binaries x 1 configuration')
  t.same([...new Set(rows.map((x) => x.binary))].sort(), ['new', 'old'])
  t.ok(rows.every((x) => x.filename === 'cpu/spin.js' && x.configuration === "kind='sqrt' n=10000000"))
  for (let p = 1; p <= 8; p++) {
    const pair = rows.filter((x) => Number(x.pair) === p)
    t.same(pair.map((x) => x.order).sort(), ['1', '2'], `pair ${p} has one run in each position`)
  }
  const [res] = analyze(rows).results
  t.equal(res.verdict, 'slower', `change ${res.change.toFixed(1)}% [${res.ci[0].toFixed(1)}, ${res.ci[1].toFixed(1)}]`)
  t.ok(res.ci[1] < 0, 'the CI excludes 0')
  t.ok(res.ci[0] < -20 * 0.5 && res.ci[1] > -20 * 1.6, 'the CI is in the region of the true -20% (25% more time)')
})

t.test('the same binary against itself is not called faster or slower', async (t) => {
  const dir = t.testdir()
  const same = makeWrapper(dir, 'node-same')
  const svg = path.join(dir, 'pr.svg')
  // n=1e7 as above: at the default 1e6 (about 10 ms of loop) the JIT's
  // warm-up is much of the section, and once under a CPU hog the A/A was
  // called 15.7% faster at alpha .005.
  const r = await runCompare(['--old', process.execPath, '--new', same, '--runs', '10', '--seed', '11',
    '--set', 'kind=mix', '--set', 'n=10000000', '--analyze', '--format', 'json', '--alpha', '0.005', '--max-regression', '5', '--plot', svg, 'cpu'])
  t.equal(r.code, 0, `no regression, exit 0: ${r.stderr}`)
  const a = JSON.parse(r.stdout)
  t.equal(a.schema, 'benchrig-analysis/1')
  t.equal(a.results.length, 1, 'one configuration')
  // At alpha = .05 a correct test calls an A/A difference 5% of the time by
  // definition; alpha = .005 keeps this test from flaking while a systematic
  // bias (all 10 pairs in the same direction, p = .002) would still fail it.
  for (const res of a.results) {
    t.notOk(['faster', 'slower'].includes(res.verdict), `${res.configuration}: ${res.verdict}, ${res.change.toFixed(2)}%`)
    t.equal(res.n_pairs, 10)
    t.same(Object.keys(res.welch).sort(), ['accuracy', 'improvement', 'p'])
    t.equal(res.ci.length, 2)
  }
  t.ok(a.meta.old.sha256 && a.meta.new.sha256, 'binaries described in meta')
  t.ok(Array.isArray(a.meta.old.v8Flags) && Array.isArray(a.meta.new.v8Flags), 'each side\'s node/V8 flags in meta (the history key)')
  // --plot through compare's analysis: the figure of the same analysis, titled
  // from the binaries compare described.
  const figure = fs.readFileSync(svg, 'utf8')
  t.equal(figure.split('<g class="row" ').length - 1, 1, 'one row')
  t.match(figure, `data-verdict="${a.results[0].verdict}"`, 'with the verdict of the analysis')
  t.match(figure, `class="title">${a.meta.new.version} vs ${a.meta.old.version}<`, 'titled with the binaries\' versions')
  t.match(figure, /class="subtitle">category cpu · 1 configuration · 10 pairs · seed 11</)
})

t.test('CSV goes to stdout without --output, and NDJSON carries the metadata', async (t) => {
  const dir = t.testdir()
  const nd = path.join(dir, 'out.ndjson')
  const r = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--seed', '3',
    '--set', 'kind=mix', '--ndjson', nd, '--warmup', '1', 'cpu'])
  t.equal(r.code, 0, r.stderr)
  const lines = r.stdout.trim().split('\n')
  t.equal(lines.length, 3, 'header + 2 rows')
  t.same(lines[0].split(',').slice(0, 5), NODE_COLUMNS.map((c) => `"${c}"`))
  const records = fs.readFileSync(nd, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  t.equal(records[0].type, 'meta')
  t.equal(records[0].seed, 3)
  t.equal(records[0].old.version, process.version)
  t.match(records[0].new.sha256, /^[0-9a-f]{64}$/)
  t.ok(records[0].cpu && records[0].loadavg, 'CPU and load recorded')
  t.equal(records.filter((x) => x.type === 'measurement').length, 2)
})

t.test('missing or non-executable binaries fail before anything runs', async (t) => {
  const dir = t.testdir({ 'not-exec': 'x' })
  let r = await runCompare(['--old', path.join(dir, 'nope'), '--new', process.execPath, 'cpu'])
  t.equal(r.code, 2)
  t.match(r.stderr, /--old .*nope: no such file/)
  r = await runCompare(['--old', process.execPath, '--new', path.join(dir, 'not-exec'), 'cpu'])
  t.equal(r.code, 2)
  t.match(r.stderr, /--new .*not-exec: not executable; run chmod \+x/)
  r = await runCompare(['--new', process.execPath, 'cpu'])
  t.match(r.stderr, /--old is required/)
  t.equal(r.stdout, '', 'nothing ran')
})
