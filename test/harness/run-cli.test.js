'use strict'
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseRunArgs, defaultRoot } = require('../../lib/cli/run.js')
const { listCategories } = require('../../lib/harness/discover.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { parseCpuList, cpusetPrefix } = require('../../lib/harness/cpuset.js')
const { createProgress, formatProgress } = require('../../lib/harness/progress.js')
const { needTool } = require('../helpers/tools.js')
const { runIn, sink } = require('../helpers/run-in-process.js')
const { ROOT, REPO } = require('./fixtures/helpers.js')

const run = runIn(ROOT)

// a result line of Node's run.js: the rate's own digits, thousands separated
const resultLines = (text) => text.split('\n').filter((l) => /: [\d,]+(\.\d+)?$/.test(l))

test('categories: which folders count, and unknown ones are clear errors', async (t) => {
  t.same(listCategories(ROOT), ['alpha', 'beta', 'gamma'], 'lib/ and _private/ are not categories')
  const r = await run(['nope'])
  t.equal(r.code, 2)
  t.equal(r.stderr, `run.js: unknown category "nope" (no such folder); categories in ${ROOT}: alpha, beta, gamma\n`)
  const none = await run([])
  t.match(none.stderr, /name at least one category or "all"/)
})

test('--filter / --exclude: substrings and /regex/, repeatable; simple output', async (t) => {
  const r = await run(['alpha', '--filter', 'ok', '--set', 'mode=fast', '--set', 'n=100'])
  t.equal(r.code, 0)
  const lines = r.stdout.split('\n')
  t.equal(lines[0], '', 'a blank line before each file, as in Node core')
  lines.shift()
  t.equal(lines[0], 'alpha/ok.js', 'a header line with the file name')
  t.equal(resultLines(r.stdout).length, 2)
  t.match(lines[1], /^alpha\/ok\.js flag=true n=100 mode="fast": [\d,]+(\.\d+)?$/)
  const re = await run(['all', '--test', '--filter', '/^(ok|env)\\.js$/', '--filter', 'setup', '--exclude', 'env'])
  t.same(r.stderr, '')
  t.same(re.stdout.split('\n').filter((l) => l.endsWith('.js')), ['alpha/ok.js', 'beta/setup.js'])
  const bad = await run(['alpha', '--filter', '/[/'])
  t.match(bad.stderr, /--filter \/\[\/: not a valid regular expression/)
  const empty = await run(['alpha', '--filter', 'zzz'])
  t.match(empty.stderr, /no benchmark file matches: categories alpha, --filter zzz/)
})

test('--set narrows each file; a key a file lacks passes through with one warning per run, --strict fails that file', async (t) => {
  const r = await run(['alpha', '--filter', 'ok', '--filter', 'linger', '--set', 'n=7', '--set', 'flag=true', '--format', 'csv'])
  t.equal(r.code, 0, r.stderr)
  const { records } = parseCsvRecords(r.stdout)
  t.same(records.map((x) => x.configuration), ['n=7', 'flag=true n=7 mode="fast"', 'flag=true n=7 mode="slow"'])
  t.equal(r.stderr, 'benchrig run: warning: alpha/linger.js has no configuration key "flag" (did you mean "n"?): flag=true is passed through to the benchmark as Node core does (extra_options); --strict makes this an error\n')
  const typo = await run(['alpha', '--filter', 'ok', '--filter', 'linger', '--set', 'mdoe=fast', '--test'])
  t.equal(typo.code, 0)
  t.equal(typo.stderr.split('\n').filter((l) => l.includes('warning')).length, 1, 'one warning although two files lack the key')
  t.match(typo.stderr, '(did you mean "n"?)')
  const strict = await run(['alpha', '--filter', 'ok', '--filter', 'linger', '--set', 'n=7', '--set', 'flag=true', '--format', 'csv', '--strict'])
  t.equal(strict.code, 1)
  t.equal(parseCsvRecords(strict.stdout).records.length, 2)
  t.equal(strict.stderr, 'alpha/linger.js: failed: unknown configuration key "flag" in flag=true; known keys: n (--strict)\n')
  const bad = await run(['alpha', '--set', 'novalue'])
  t.equal(bad.stderr, 'run.js: --set novalue: expected key=value, e.g. --set n=1000\n')
})

test('--format csv and ndjson; options in any order and the --x=y form', async (t) => {
  const r = await run(['--format=csv', 'alpha', `--root=${ROOT}`, '--filter=ok', '--test'])
  t.equal(r.code, 0)
  t.equal(r.stdout.split('\n')[0], '"filename", "configuration", "rate", "time"', 'Node\'s run.js header')
  const { records } = parseCsvRecords(r.stdout)
  t.same(records.map((x) => [x.filename, x.configuration]), [['alpha/ok.js', 'flag=true n=1 mode="fast"']])
  t.ok(Number(records[0].rate) > 0)
  const before = process.env.BENCHRIG_FLAGS
  process.env.BENCHRIG_FLAGS = '--stack-size=900'
  let nd
  try {
    nd = await run(['alpha', '--format', 'ndjson', '--filter', 'env', '--set', 'benchmarker=autocannon'])
  } finally {
    if (before === undefined) delete process.env.BENCHRIG_FLAGS
    else process.env.BENCHRIG_FLAGS = before
  }
  const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l))
  t.same(lines.map((l) => l.type), ['result', 'summary'])
  const rec = lines[0]
  t.equal(rec.schema, 'benchrig-run/1')
  t.equal(rec.configuration, "n=1 benchmarker='fake'")
  t.equal(rec.meta.node.path, process.execPath)
  t.equal(rec.meta.benchrig, require('../../package.json').version)
  t.type(rec.meta.cpu.model, 'string')
  t.type(rec.meta.date, 'string')
  t.equal(rec.run, 1)
  t.equal(rec.benchmarker, 'fake')
  t.ok(Array.isArray(rec.execArgv), 'extra fields of the report are NDJSON fields')
  t.equal(rec.meta.node.sha256, require('node:crypto').createHash('sha256').update(require('node:fs').readFileSync(process.execPath)).digest('hex'), 'the binary\'s sha256')
  t.equal(rec.meta.v8Flags[0], '--stack-size=900', 'the flags the driver gives the children (BENCHRIG_FLAGS first)')
  t.ok(rec.execArgv.includes('--stack-size=900'), 'and the child ran with them')
  const badFormat = await run(['alpha', '--format', 'xml'])
  t.equal(badFormat.stderr, 'run.js: --format xml: use one of simple, csv, csv-wide, ndjson\n')
  const unknown = await run(['alpha', '--bogus'])
  t.match(unknown.stderr, /^run\.js: unknown option --bogus; see --help/)
})

test('--test runs each file once; --test-all every combination; --runs repeats', async (t) => {
  const r = await run(['alpha', 'beta', '--test', '--exclude', 'misuse', '--exclude', 'badconf', '--format', 'csv'])
  t.equal(r.code, 0, r.stderr)
  const { records } = parseCsvRecords(r.stdout)
  t.same(records.map((x) => `${x.filename} ${x.configuration}`), [
    'alpha/crash.js how="first"',
    'alpha/env.js n=1 benchmarker="fake"',
    'alpha/linger.js n=1',
    'alpha/ok.js flag=true n=1 mode="fast"',
    'beta/groups.js group="short" n=1 len=1',
    'beta/groups.js group="long" dur=0.25 n=1 len=1',
    'beta/hang.js how="ok"',
    'beta/setup.js size="b"'
  ], 'one configuration per file, one per group of a file with groups')
  const all = await run(['beta', '--test-all', '--filter', 'groups', '--runs', '2', '--format', 'ndjson'])
  const recs = all.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'result')
  t.same(recs.map((x) => `${x.run} ${x.configuration}`), [
    "1 group='short' n=1 len=1", "1 group='short' n=1 len=2", "1 group='long' dur=0.25 n=1 len=1000",
    "2 group='short' n=1 len=1", "2 group='short' n=1 len=2", "2 group='long' dur=0.25 n=1 len=1000"
  ])
  const simple = await run(['beta', '--test', '--filter', 'groups', '--runs', '2'])
  t.equal(simple.stdout.split('\n').filter((l) => l === 'beta/groups.js').length, 1, 'one header for the file, before its first run, as Node\'s run.js prints it')
  t.equal(resultLines(simple.stdout).length, 4, 'one configuration per group, per run')
  const badRuns = await run(['beta', '--runs', '0'])
  t.equal(badRuns.stderr, 'run.js: --runs 0: give a whole number >= 1\n')
})

test('a failing file: its error is printed, the others still run, exit code 1', async (t) => {
  const r = await run(['all', '--test', '--filter', 'misuse', '--filter', 'badconf', '--filter', 'ok'])
  t.equal(r.code, 1)
  t.same(r.stdout.split('\n').filter((l) => l.endsWith('.js')), ['alpha/misuse.js', 'alpha/ok.js', 'beta/badconf.js'])
  t.equal(resultLines(r.stdout).length, 1)
  t.equal(r.stderr, [
    "alpha/misuse.js how='start-twice': failed: bench.start() was called more than once: call it once, right before the measured loop",
    'beta/badconf.js: failed: configuration "n" mixes types (number and string): one key takes one type, so that key=value arguments parse the same way every time',
    ''
  ].join('\n'))
})

test('--timeout kills a configuration that hangs and goes on', async (t) => {
  // 3 s: the limit runs from fork to exit, and a starved machine (with the
  // coverage hooks of the test run) can take over 1 s to start and end a child
  const r = await run(['beta', '--filter', 'hang', '--timeout', '3'])
  t.equal(r.code, 1)
  t.equal(resultLines(r.stdout).length, 1, 'the other configuration still reports')
  t.equal(r.stderr, "beta/hang.js how='hang': failed: the configuration ran longer than 3 s and was killed (raise the limit with --timeout SECONDS, or --timeout 0 for none)\n")
  const bad = await run(['beta', '--timeout', 'soon'])
  t.equal(bad.stderr, 'run.js: --timeout soon: give a number of seconds (0: no limit)\n')
})

test('--cpuset pins the benchmark with taskset; bad lists are clear errors', async (t) => {
  t.same(parseCpuList('0,2-3,2'), [0, 2, 3])
  t.throws(() => parseCpuList('a'), { message: /--cpuset a: not a CPU list/ })
  t.throws(() => parseCpuList('3-1'), { message: /the range 3-1 runs backwards/ })
  t.throws(() => cpusetPrefix('0', { platform: 'darwin' }), { message: '--cpuset needs Linux (taskset); this is darwin: run without --cpuset' })
  t.throws(() => cpusetPrefix('0-4', { platform: 'linux', cpuCount: 2 }), { message: '--cpuset 0-4: CPU 2, 3, 4 does not exist; this machine has CPUs 0-1' })
  t.throws(() => cpusetPrefix('0', { platform: 'linux', cpuCount: 2, hasTaskset: () => false }), { name: 'ToolMissingError', message: /taskset is not installed/ })
  const bad = await run(['alpha', '--cpuset', '1,,2'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /^run\.js: --cpuset 1,,2: not a CPU list/)
  if (!needTool(t, 'taskset')) return
  const r = await run(['alpha', '--filter', 'env', '--cpuset', '0', '--format', 'ndjson'])
  t.equal(r.code, 0, r.stderr)
  const rec = JSON.parse(r.stdout.split('\n')[0])
  t.equal(rec.cpusAllowed, '0', 'the child runs on CPU 0 only')
})

test('--root defaults: run.js its own folder; benchrig run ./benchmark, else the cwd', async (t) => {
  const dir = t.testdir({ benchmark: {}, other: {} })
  t.equal(defaultRoot(dir), path.join(dir, 'benchmark'))
  t.equal(defaultRoot(path.join(dir, 'other')), path.join(dir, 'other'))
  t.equal(parseRunArgs(['x'], { defaultRoot: '/a/b' }).root, '/a/b')
  t.equal(parseRunArgs(['x', '--root', 'rel'], { defaultRoot: '/a/b' }).root, path.resolve('rel'))
  const help = spawnSync(process.execPath, [path.join(REPO, 'run.js'), '--help'], { encoding: 'utf8' })
  t.equal(help.status, 0)
  t.match(help.stdout, /^Usage: run\.js \[options\] <category \.\.\.\|all>/)
  const own = spawnSync(process.execPath, [path.join(REPO, 'run.js'), 'nope'], { encoding: 'utf8', cwd: ROOT })
  t.equal(own.status, 2)
  t.match(own.stderr, `run.js: unknown category "nope" (no such folder); categories in ${REPO}:`)
  const bin = spawnSync(process.execPath, [path.join(REPO, 'bin', 'benchrig.js'), 'run', 'alpha', '--filter', 'ok', '--test'], { encoding: 'utf8', cwd: ROOT })
  t.equal(bin.status, 0, bin.stderr)
  t.match(bin.stdout, /^\nalpha\/ok\.js\nalpha\/ok\.js flag=true n=1 mode="fast": /)
  const binHelp = spawnSync(process.execPath, [path.join(REPO, 'bin', 'benchrig.js'), 'run', '-h'], { encoding: 'utf8' })
  t.match(binHelp.stdout, /^Usage: benchrig run \[options\]/)
  fs.rmSync(dir, { recursive: true, force: true })
})

test('progress line: only on a TTY, with files, configurations, elapsed time and ETA', async (t) => {
  t.equal(formatProgress({ fileIndex: 2, files: 4, name: 'a/b.js', done: 1, queue: 4, elapsedMs: 30000, fraction: 0.25 }),
    '[2/4] a/b.js config 2/4  elapsed 0:30  ETA 1:30', 'the configuration running: one done, the second runs')
  t.equal(formatProgress({ fileIndex: 1, files: 1, name: 'a/b.js', done: 0, queue: 0, elapsedMs: 0, fraction: 0 }),
    '[1/1] a/b.js  elapsed 0:00  ETA ?')
  let written = ''
  let now = 0
  const tty = { isTTY: true, columns: 80, write: (s) => { written += s } }
  const p = createProgress({ stream: tty, units: 2, now: () => now, env: {}, timers: { setInterval: () => ({}), clearInterval () {} } })
  p.startFile(1, 'x/y.js')
  p.config(2)
  now = 10000
  p.result()
  t.ok(written.endsWith('\r[1/2] x/y.js config 2/2  elapsed 0:10  ETA 0:30\u001b[K'), 'redrawn in place, with ETA')
  p.clear()
  t.ok(written.endsWith('\r\u001b[K'), 'cleared before other output')
  let quiet = ''
  const pipe = createProgress({ stream: { isTTY: false, write: (s) => { quiet += s } }, units: 1, env: {} })
  pipe.startFile(1, 'x.js'); pipe.config(3); pipe.result(); pipe.clear()
  t.equal(quiet, '', 'nothing when stderr is not a TTY')
})

test('Node core\'s run.js forms: the "test" keyword, --set CPUSET, --track, an empty category', async (t) => {
  const p = parseRunArgs(['test', 'alpha', '--strict', '--track'], { defaultRoot: ROOT })
  t.same([p.categories, p.mode, p.strict, p.track], [['alpha'], 'test', true, true])
  t.equal(parseRunArgs(['alpha'], { defaultRoot: ROOT }).mode, undefined)

  const { runSuite } = require('../../lib/harness/run-suite.js')
  const stdout = sink()
  const stderr = sink()
  let clock = 0
  const now = () => { clock += 1500; return clock }
  const r = await runSuite({ root: ROOT, categories: ['alpha'], filter: ['ok'], mode: 'test', track: true, now, stdout, stderr, prog: 'run.js' })
  t.equal(r.results, 1)
  t.equal(stderr.text, '', 'nothing on stderr')
  t.match(stdout.text, /^\nalpha\/ok\.js\nalpha\/ok\.js flag=true n=1 mode="fast": [\d,]+(\.\d+)?\n\[1500ms\] alpha\/ok\.js\n$/,
    'a blank line before each file, as in Node; --track: Node\'s line after the run, from the injected clock')

  await t.rejects(runSuite({ root: ROOT, categories: ['alpha'], set: ['CPUSET=0'], cpuset: '1', stdout, stderr }), { message: '--set CPUSET=0 and --cpuset 1 disagree: give one of them' })
  const { splitSetArgs } = require('../../lib/harness/pass-through.js')
  t.same(splitSetArgs(['n=1', 'CPUSET=0-1'], undefined), { args: ['n=1'], cpuset: '0-1' }, 'Node\'s --set CPUSET=LIST is --cpuset LIST')

  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'benchrig-empty-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.mkdirSync(path.join(dir, 'empty'))
  const e = { out: sink(), err: sink() }
  const empty = await runSuite({ root: dir, categories: ['empty'], stdout: e.out, stderr: e.err, prog: 'run.js' })
  t.same(empty, { files: 0, results: 0, failures: 0 }, 'an empty category folder is no files, not an error')
  t.equal(e.err.text, 'run.js: no benchmark files in empty\n')
  await t.rejects(runSuite({ root: dir, categories: ['nope'], stdout: e.out, stderr: e.err }), { message: /unknown category "nope" \(no such folder\)/ })
})
