'use strict'
// `benchrig history` and the --history flags of run and load, as a user runs
// them: the real CLI in a child process, a SQLite store in a temporary folder
// (test/history/store.test.js covers both engines through the API).
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { spawn } = require('node:child_process')
const { openHistory } = require('../../lib/history/index.js')
const { createRng } = require('../../lib/prng.js')

const ROOT = path.join(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')

function tmp (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-history-cli-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The CLI in a child (async: the load test's server answers in this process). */
function cli (args, opts = {}) {
  return new Promise((resolve) => {
    const env = { ...process.env, BENCHRIG_PROGRESS: 'none' }
    delete env.BENCHRIG_DB
    Object.assign(env, opts.env)
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

t.test('add, list, show and changes print what the store holds', async (t) => {
  const dir = tmp(t)
  const db = path.join(dir, 'h.sqlite')
  // a 40-label history with a 6% drop at v1.20.0 and repeats per label
  const rng = createRng(9)
  const records = []
  for (let i = 0; i < 40; i++) {
    for (let k = 0; k < 3; k++) records.push({ file: 'buffers/x.js', configuration: 'n=1', value: 1000 * (i >= 20 ? 0.94 : 1) * Math.exp(0.005 * rng.normal()), label: `v1.${i}.0` })
  }
  const h = await openHistory(db)
  await h.add(records)
  await h.close()
  const csv = path.join(dir, 'run.csv')
  fs.writeFileSync(csv, '"filename","configuration","rate","time"\n"buffers/y.js","len=1",5,1\n"buffers/y.js","len=2",6,1\n')
  const add = await cli(['history', 'add', '--db', db, '--label', 'v1.39.0', csv])
  t.equal(add.status, 0, add.stderr)
  t.match(add.stdout, /run\.csv: 2 rows \(run-csv\); it names no machine and the store has no series of these benchmarks with one: filed without a fingerprint \(give --fingerprint F to join a machine\)\nhistory: 2 rows added, 0 already there/)
  const again = await cli(['history', 'add', '--db', db, '--label', 'v1.39.0', csv])
  t.match(again.stdout, /run\.csv: already in the store, nothing added/)
  const list = await cli(['history', 'list', '--db', db])
  t.match(list.stdout, /\(sqlite\): 2 files, 3 series, 122 rows, 2 sources\n/)
  t.match(list.stdout, /buffers\/x\.js: 1 series, 120 rows/)
  const show = await cli(['history', 'show', '--db', db, '--file', 'buffers/y.js', '--configuration', 'len=2'])
  t.equal(show.stdout, 'buffers/y.js len=2 [wall] #' + show.stdout.slice(27, 35) + '\n  v1.39.0        median         6.0000  n=1\n')
  const changes = await cli(['history', 'changes', '--db', db, '--file', 'buffers'])
  t.equal(changes.status, 0, changes.stderr)
  t.match(changes.stdout, /buffers\/x\.js n=1 \[wall\] #\w+: 40 labels\n {2}change at v1\.20\.0 \(after v1\.19\.0\): -[56]\.\d\d% \[-\d\.\d\d%, -\d\.\d\d%\]/)
  t.match(changes.stdout, /history: 3 series, 1 change points, \d+ weak candidates/)
  const json = JSON.parse((await cli(['history', 'changes', '--db', db, '--json', '--file', 'buffers/x.js'])).stdout)
  t.equal(json.length, 1)
  t.equal(json[0].changes[0].label, 'v1.20.0')
  t.ok(json[0].changes[0].ci[0] < -0.05 && json[0].changes[0].ci[1] > -0.07)
  t.same(Object.keys(json[0]).sort(), ['changes', 'key', 'weak'])
  const shown = JSON.parse((await cli(['history', 'show', '--db', db, '--json', '--from', 'v1.38.0', '--file', 'buffers/x.js'])).stdout)
  t.same(shown[0].points.map((p) => [p.label, p.values.length]), [['v1.38.0', 3], ['v1.39.0', 3]])
})

t.test('usage errors exit 2 before any work, naming the flag', async (t) => {
  const dir = tmp(t)
  const db = path.join(dir, 'h.sqlite')
  const cases = [
    [['history'], /give a subcommand: add, list, show, changes/],
    [['history', 'chnages'], /unknown subcommand "chnages" \(did you mean "changes"\?\)/],
    [['history', 'add', '--db', db], /history add: give the result files/],
    [['history', 'show', 'x.csv', '--db', db], /history show takes no file arguments \(x\.csv\); filter with --file/],
    [['history', 'show', '--label', 'v1', '--db', db], /--label is for history add/],
    [['history', 'add', '--file', 'a', 'x.csv', '--db', db], /--file filters show and changes/],
    [['history', 'changes', '--window', '3', '--db', db], /--window 3: give a whole number of points >= 6/],
    [['history', 'changes', '--max-p', '2', '--db', db], /--max-p 2: give a probability/],
    [['history', 'changes', '--max-p', '0.01', '--weak-p', '0.001', '--db', db], /--weak-p 0\.001 is below --max-p 0\.01/],
    [['history', 'show', '--order', 'alpha', '--db', db], /--order alpha: use one of auto, semver, commit, added/],
    [['history', 'add', '--db', db, path.join(dir, 'missing.csv')], /missing\.csv: cannot read it \(ENOENT\)/],
    [['history', 'list', '--db', dir], /--db .*: cannot open it as a history store/],
    [['run', '--history-label', 'v1', 'buffers'], /--history-label L labels what --history DB records: give --history too/],
    [['load', '--history', db, 'http://127.0.0.1:1/'], /--history needs --history-label L/],
    [['history', 'list', '--db', 'postgres://nobody@127.0.0.1:1/none'], /cannot connect \(ECONNREFUSED\); start the server \(scripts\/postgres-local\.sh start\)/]
  ]
  for (const [args, re] of cases) {
    const r = await cli(args)
    t.equal(r.status, 2, args.join(' '))
    t.match(r.stderr, re, args.join(' '))
    t.notMatch(r.stderr, /\n\s+at /, 'no stack trace')
  }
  fs.writeFileSync(path.join(dir, 'notadb'), 'hello, this is text, not a database file '.repeat(100))
  const notDb = await cli(['history', 'list', '--db', path.join(dir, 'notadb')])
  t.equal(notDb.status, 2)
  t.match(notDb.stderr, /not a SQLite database/)
})

t.test('the default store is .benchrig/history.sqlite in the benchmark directory, or $BENCHRIG_DB', async (t) => {
  const dir = tmp(t)
  const csv = path.join(dir, 'r.csv')
  fs.writeFileSync(csv, '"filename","configuration","rate","time"\n"a/b.js","",1,1\n')
  const r = await cli(['history', 'add', '--label', 'v1.0.0', '--root', dir, csv])
  t.equal(r.status, 0, r.stderr)
  t.ok(fs.existsSync(path.join(dir, '.benchrig', 'history.sqlite')))
  const viaEnv = await cli(['history', 'list', '--json'], { env: { BENCHRIG_DB: path.join(dir, '.benchrig', 'history.sqlite') } })
  t.equal(JSON.parse(viaEnv.stdout).sources.length, 1)
})

t.test('run --history records each file as it finishes; load --history its measures', async (t) => {
  const dir = tmp(t)
  const db = path.join(dir, 'h.sqlite')
  const run = await cli(['run', '--history', db, '--filter', 'buffer-concat', '--set', 'n=50', '--set', 'pieces=2', '--set', 'total=64', '--set', 'withTotal=false', 'buffers'])
  t.equal(run.status, 0, run.stderr)
  const h = await openHistory(db)
  t.teardown(() => h.close())
  const series = await h.series({})
  t.equal(series.length, 2, 'the two groups of buffer-concat')
  t.same(series.map((s) => s.points.map((p) => p.label)), [[process.version], [process.version]], 'labelled with the node version that ran them')
  t.equal(series[0].key.env.nodeVersion, '', 'the label is the node version, so not in the key')
  t.not(series[0].key.env.cpu, '', 'this machine\'s fingerprint')
  const server = http.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${server.address().port}/`
  const load = await cli(['load', '-c', '1', '-d', '0.3', '--history', db, '--history-label', 'v2.0.0', url])
  t.equal(load.status, 0, load.stderr)
  t.match(load.stderr, /history: 4 rows recorded in /)
  t.same((await h.series({ file: url })).map((s) => s.key.measure).sort(), ['latency-p50-ms', 'latency-p99-ms', 'requests/s', 'throughput-bytes/s'])
})

t.test('compare --history records both sides as the rows come; a bad store fails before any run', async (t) => {
  const dir = tmp(t)
  const db = path.join(dir, 'h.sqlite')
  const root = path.join(ROOT, 'test', 'fixtures', 'harness', 'root')
  const base = ['compare', '--root', root, '--filter', 'ok', '--set', 'n=100', '--set', 'mode=fast', '--set', 'flag=true', '--runs', '2', '--old', process.execPath, '--new', process.execPath]
  const r = await cli([...base, '--history', db, '--history-label', 'v1.0.0..v1.1.0', '--output', path.join(dir, 'out.csv'), 'alpha'])
  t.equal(r.status, 0, r.stderr)
  const h = await openHistory(db)
  t.teardown(() => h.close())
  const [s] = await h.series({ file: 'alpha/ok.js' })
  t.same(s.points.map((p) => [p.label, p.values.length]), [['v1.0.0', 2], ['v1.1.0', 2]], 'old and new rows under their labels')
  t.not(s.key.env.host, '', 'the machine from compare\'s metadata')
  const bad = await cli([...base, '--history', path.join(dir, 'out.csv', 'x.sqlite'), 'alpha'])
  t.equal(bad.status, 2)
  t.match(bad.stderr, /--history .*x\.sqlite: cannot open it as a history store/)
  t.notMatch(bad.stdout, /"old"|"new"/, 'no row measured')
})
