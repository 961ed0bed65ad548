'use strict'
// analyze --format github: the pull-request comment. The body is pinned by
// snapshot (tap-snapshots/); the marker, the order of the sections and what
// the design and environment sections read from the data are asserted too.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { main } = require('../../lib/cli/analyze.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { markerOf, designOf, sparkline, formatGithubComment } = require('../../lib/report/github.js')
const { analyze } = require('../../lib/stats/analyze.js')

const FIXTURE = path.join(__dirname, '..', 'r', 'fixtures', 'paired.csv')

function capture () {
  let text = ''
  return { stream: { write: (s) => { text += s; return true } }, get text () { return text } }
}

// A fixed meta record, as compare --ndjson writes one (no clock, no paths of this machine).
const META = {
  schema: 'benchrig-compare/1',
  type: 'meta',
  seed: 42,
  runs: 30,
  measure: 'wall',
  old: { path: '/opt/node-main/bin/node', version: 'v22.11.0', sha256: 'a'.repeat(64) },
  new: { path: '/opt/node-pr/bin/node', version: 'v22.12.0', sha256: 'b'.repeat(64) },
  benchrig: '0.1.0',
  driverNode: { version: 'v20.20.2', path: '/usr/bin/node' },
  cpu: { model: 'Example CPU @ 2.0GHz', count: 2 },
  os: { platform: 'linux', release: '6.1.0', arch: 'x64' },
  governor: 'performance',
  loadavg: [0.5, 0.4, 0.3],
  host: 'Example CPU @ 2.0GHz x2; linux 6.1.0; node v20.20.2'
}

function ndjsonFixture (dir, extra = {}) {
  const rows = parseCsvRecords(fs.readFileSync(FIXTURE, 'utf8')).records
  const file = path.join(dir, 'run.ndjson')
  const lines = [JSON.stringify(META), ...rows.map((r) => JSON.stringify({ schema: 'benchrig-compare/1', type: 'measurement', ...r, rate: Number(r.rate), ...extra }))]
  fs.writeFileSync(file, lines.join('\n') + '\n')
  return file
}

t.test('the comment body (snapshot)', async (t) => {
  const dir = t.testdir()
  const out = capture()
  const code = await main(['--format', 'github', '--max-regression', '5', ndjsonFixture(dir, { rule: 'fixed 30', executor: 'serial' })], { stdout: out.stream })
  t.equal(code, 1, 'the gate still sets the exit code')
  t.matchSnapshot(out.text, 'github comment of paired.csv with its meta record')
  const lines = out.text.split('\n')
  t.equal(lines[0], '<!-- benchrig-report default -->', 'the marker is the first line')
  const at = (s) => out.text.indexOf(s)
  t.ok(at('### :small_red_triangle_down: Slower (2)') < at('### :small_red_triangle: Faster (1)'), 'regressions first, then improvements')
  t.ok(at('Faster (1)') < at('<details><summary>All 5 configurations</summary>'), 'then the full table, collapsed')
  t.ok(at('All 5 configurations') < at('<summary>Design</summary>') && at('Design') < at('<summary>Environment</summary>'))
  t.match(out.text, /- stopping rule: fixed 30; pairs: 30 per file/)
  t.match(out.text, /- executor: serial\n/)
  t.match(out.text, /\*\*Compared:\*\* old node v22\.11\.0 \(sha256 `aaaaaaaaaaaa`\) → new node v22\.12\.0 \(sha256 `bbbbbbbbbbbb`\)/, 'both sides named by version and one hash')
  t.notMatch(out.text, /\/opt\//, 'no path of the machine')
  t.match(out.text, /- CPU: Example CPU @ 2\.0GHz ×2, governor performance/)
  const slower = lines.filter((l) => l.startsWith('| buffers/') && l.includes('**-')).slice(0, 2)
  t.match(slower[0], /type="slow"/, 'the worst regression first')
})

t.test('the marker is stable and named; the design comes from the rows', async (t) => {
  t.equal(markerOf(), '<!-- benchrig-report default -->')
  t.equal(markerOf('http'), '<!-- benchrig-report http -->')
  t.throws(() => markerOf('a b'), TypeError)
  const one = capture()
  const two = capture()
  await main(['--format', 'github', '--marker', 'buffers', FIXTURE], { stdout: one.stream })
  await main(['--format', 'github', '--marker', 'buffers', FIXTURE], { stdout: two.stream })
  t.equal(one.text, two.text, 'the same data gives the same body (no clock, no path)')
  t.equal(one.text.split('\n')[0], '<!-- benchrig-report buffers -->')
  t.match(one.text, /stopping rule: not recorded in the rows/)
  t.match(one.text, /executor: serial \(the rows name none/)
  t.match(one.text, /Environment<\/summary>\n\n- not recorded/)
  const d = designOf([
    { filename: 'a.js', pair: 1, seed: 1, rule: 'sequential', executor: 'duet' },
    { filename: 'a.js', pair: 2, seed: 1, rule: 'sequential', executor: 'duet' },
    { filename: 'b.js', pair: 1, seed: 1, rule: 'sequential', executor: 'duet', plan: 'p1', shard_count: 2 }
  ])
  t.same(d, { rule: 'sequential', executor: 'duet', pairs: '1 to 2 per file', seeds: ['1'], plans: ['p1'], shards: ['2'] })
  t.equal(designOf([{ filename: 'a.js' }]).pairs, 'none (unpaired rows)')
})

t.test('bad flags are usage errors', async (t) => {
  await t.rejects(main(['--marker', 'x', FIXTURE]), { message: /--marker x: goes with --format github/ })
  await t.rejects(main(['--format', 'github', '--marker', 'a/b', FIXTURE]), { message: /--marker a\/b: use letters/ })
  await t.rejects(main(['--format', 'gitlab', FIXTURE]), { message: /use one of text, markdown, json, github/ })
})

t.test('trends of the changed configurations, and no change at all', async (t) => {
  const rows = parseCsvRecords(fs.readFileSync(FIXTURE, 'utf8')).records
  const a = analyze(/** @type {any[]} */ (rows), {})
  const trends = new Map([[
    'buffers/b.js\u0000type="slow"',
    { points: [{ label: 'v22.10.0', value: 100 }, { label: 'v22.11.0', value: 101 }, { label: 'v22.12.0', value: 90 }], changes: [{ label: 'v22.12.0', change: -10.9 }] }
  ]])
  const body = formatGithubComment(a, { rows, trends })
  t.match(body, /### Trend in the history store/)
  t.match(body, /\| buffers\/b\.js \| type="slow" \| `▇█▁` v22\.10\.0 … v22\.12\.0 \(3\) \| -10\.0% \| v22\.12\.0 \(-10\.9%\) \|/)
  t.match(body, /\| buffers\/a\.js \| n=1 len=1024 \| no history \|/)
  t.ok(body.indexOf('Trend in the history store') < body.indexOf('All 5 configurations'), 'the trend comes before the full table')
  t.equal(sparkline([1, 1, 1]), '▄▄▄')
  const same = rows.filter((r) => r.filename === 'buffers/b.js' && r.configuration === 'type="fast"')
  const none = formatGithubComment(analyze(/** @type {any[]} */ (same), { threshold: 5 }), { rows: same, historyNote: 'a note on the trend' })
  t.match(none, /No configuration is shown to be slower or faster \(95% CIs, threshold ±5%\)/)
  t.notMatch(none, /a note on the trend/, 'no changed configuration, no trend note')
  t.match(formatGithubComment(a, { rows, trends, historyNote: 'a note on the trend' }), /_a note on the trend_/)
  t.notMatch(none, /Slower|Faster \(/)
})

t.test('--history: the trend of each changed configuration from a real store', async (t) => {
  const { openHistory } = require('../../lib/history/index.js')
  const dir = t.testdir()
  const db = path.join(dir, 'history.sqlite')
  const h = await openHistory(db)
  const records = []
  for (let i = 0; i < 12; i++) {
    for (const [file, configuration, level] of [['buffers/b.js', 'type="slow"', i < 8 ? 100 : 90], ['buffers/a.js', 'n=1 len=16', 50]]) {
      for (let k = 0; k < 3; k++) records.push({ file, configuration, measure: 'wall', value: level * (1 + ((i * 7 + k * 3) % 5 - 2) / 1000), label: `22.${i}.0`, env: { host: 'h' } })
    }
  }
  await h.add(records, { source: 'seeded' })
  await h.close()
  const out = capture()
  t.equal(await main(['--format', 'github', '--history', db, FIXTURE], { stdout: out.stream }), 0)
  t.match(out.text, /### Trend in the history store/)
  t.match(out.text, /\| buffers\/b\.js \| type="slow" \| `[▁-█]{12}` 22\.0\.0 … 22\.11\.0 \(12\) \| -(9\.9|10\.\d)% \| 22\.8\.0 \(-(9\.9|10\.\d)%, CI -\d+\.\d% to -\d+\.\d%\) \|/, 'the step at 22.8.0 with its size and interval')
  t.match(out.text, /\| buffers\/a\.js \| n=1 len=1024 \| no history \|/, 'a changed configuration the store does not hold')
  t.notMatch(out.text, /n=1 len=16 \| `/, 'unchanged configurations get no trend')
  await t.rejects(main(['--history', db, FIXTURE]), { message: /--history .*: goes with --format github/ })

  const mixed = path.join(dir, 'mixed.sqlite')
  const m = await openHistory(mixed)
  await m.add([{ file: 'buffers/b.js', configuration: 'type="slow"', value: 1, label: '22.0.0' }, { file: 'buffers/b.js', configuration: 'type="slow"', value: 1, label: 'deadbeef' }], { source: 'two kinds of labels' })
  await m.close()
  const note = capture()
  await main(['--format', 'github', '--history', mixed, FIXTURE], { stdout: note.stream })
  t.match(note.text, /### Trend in the history store[^]*\| buffers\/b\.js \| type="slow" \| `..` 22\.0\.0 … deadbeef \(2\) \|/, 'labels that cannot be ordered: in the order they were added')
  t.match(note.text, /_The store's labels are neither all versions nor all commits with their git order, so the trend shows them in the order they were added/)
  t.notMatch(note.text, /--repo|--order|\/tmp\//, 'no flag analyze lacks, no path')
})

t.test('compare --profile: the self-time table of each slower configuration, collapsed (snapshot of a real run)', async (t) => {
  // test/fixtures/profile-report: the NDJSON and .cpuprofile files of a real
  // `compare --profile --ndjson` run of test/fixtures/profile (hashItems made
  // three times slower by BENCHRIG_SLOW_HASH=1 on the new side)
  const dir = path.join(__dirname, '..', 'fixtures', 'profile-report')
  const out = capture()
  t.equal(await main(['--format', 'github', path.join(dir, 'run.ndjson')], { stdout: out.stream }), 0)
  t.matchSnapshot(out.text, 'github comment with the profile table of calls/two.js n=300')
  const at = (s) => out.text.indexOf(s)
  t.ok(at('Slower (1)') < at('### Where the time went (compare --profile)') && at('Where the time went') < at('All 1 configurations'), 'after the slower table, before the full one')
  t.match(out.text, /<details><summary><code>calls\/two\.js n=300<\/code>: <code>hashItems<\/code> \+\d+\.\d points of self time<\/summary>/)
  const section = out.text.slice(at('Where the time went'), at('All 1 configurations'))
  const firstRow = section.split('\n').find((l) => l.startsWith('| `'))
  t.match(firstRow, /^\| `hashItems` \| `calls\/two\.js:\d+:\d+` \| \d+\.\d% \| \d+\.\d% \| \+\d+\.\d \|$/, 'the function made slower is the first row')
  t.ok(section.split('\n').filter((l) => l.startsWith('| `')).length <= 10, 'the top 10 at most')
  t.match(section, /Profiles for Chrome DevTools: `profiles\/calls_two\.js-n=300\.old\.cpuprofile`/)
  // the committed profiles are the ones the table came from
  const { diffProfiles } = require('../../lib/profile/diff.js')
  const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, 'profiles', f), 'utf8'))
  t.equal(diffProfiles(read('calls_two.js-n=300.old.cpuprofile'), read('calls_two.js-n=300.new.cpuprofile'))[0].name, 'hashItems')

  // no section for a configuration that is not slower, nor without profile records
  const rows = parseCsvRecords(fs.readFileSync(FIXTURE, 'utf8')).records
  const a = analyze(/** @type {any[]} */ (rows), {})
  const table = { filename: 'buffers/b.js', configuration: 'type="fast"', files: { old: 'o', new: 'n' }, rows: [{ name: 'f', location: '', oldShare: 1, newShare: 2, change: 1, oldMs: 1, newMs: 2 }] }
  t.notMatch(formatGithubComment(a, { rows, profiles: [table] }), /Where the time went/)
  const slow = formatGithubComment(a, { rows, profiles: [{ ...table, configuration: 'type="slow"' }] })
  t.match(slow, /\| `f` \| `\(native\)` \| 1\.0% \| 2\.0% \| \+1\.0 \|/)
})
