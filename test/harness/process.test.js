'use strict'
const { test } = require('tap')
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const { ROOT, collect, plainNode } = require('./fixtures/helpers.js')
const { needNode } = require('../helpers/tools.js')
const { childFlags } = require('../../lib/harness/root.js')

test('a root forks one child per combination and streams config then reports', async (t) => {
  const r = await collect('alpha/ok.js')
  t.equal(r.exitCode, 0)
  t.equal(r.failures, 0)
  t.same(r.configs, [{ type: 'config', name: 'alpha/ok.js', queueLength: 6 }])
  t.equal(r.reports.length, 6)
  t.same(r.reports.map((x) => x.conf), [
    { mode: 'fast', n: 100, flag: true }, { mode: 'fast', n: 100, flag: false },
    { mode: 'fast', n: 2000, flag: true }, { mode: 'fast', n: 2000, flag: false },
    { mode: 'slow', n: 100, flag: true }, { mode: 'slow', n: 2000, flag: true }
  ])
  for (const rep of r.reports) {
    t.equal(rep.type, 'report')
    t.equal(rep.name, 'alpha/ok.js')
    t.ok(rep.rate > 0 && Number.isFinite(rep.rate), 'rate is a positive number')
    t.ok(rep.time > 0, 'time is positive seconds')
  }
})

test('a child that fails: the others still run and report, and the root exits non-zero', async (t) => {
  const r = await collect('alpha/crash.js')
  t.equal(r.exitCode, 1, 'root exits 1')
  t.equal(r.failures, 5)
  t.same(r.reports.map((x) => x.conf.how), ['first', 'last'], 'the results before and after the failures are kept')
  const byHow = Object.fromEntries(r.errors.map((e) => [e.conf.how, e.message]))
  t.same(Object.keys(byHow), ['throw', 'reject', 'exit', 'silent', 'async'])
  t.match(byHow.throw, /^Error: broken on purpose\n\s+at main/, 'the child\'s own message, with its stack')
  t.match(byHow.reject, /^Error: rejected on purpose/)
  t.equal(byHow.exit, 'the child exited with code 7')
  t.match(byHow.silent, /^the child exited without reporting a result: main\(\) must call bench.start\(\) and bench.end\(n\)/)
  t.match(byHow.async, /^Error: async on purpose/)
})

test('every bench.start/end misuse is a clear error without a stack', async (t) => {
  const r = await collect('alpha/misuse.js')
  const byHow = Object.fromEntries(r.errors.map((e) => [e.conf.how, e.message]))
  t.same(byHow, {
    'start-twice': 'bench.start() was called more than once: call it once, right before the measured loop',
    'end-without-start': 'bench.end() was called without bench.start(): call bench.start() before the measured loop',
    'end-twice': 'bench.end() was called more than once: a benchmark reports one result per process',
    'no-count': 'bench.end(n) needs the number of operations, got undefined',
    'zero-count': 'bench.end(n) needs a positive operation count, got 0 (set BENCHRIG_ZERO_ALLOWED=1 to allow 0)',
    'negative-count': 'bench.end(n) needs a positive operation count, got -1 (set BENCHRIG_ZERO_ALLOWED=1 to allow 0)',
    'nan-count': 'bench.end(n) needs the number of operations, got NaN',
    'zero-ok': 'bench.end(n) needs a positive operation count, got 0 (set BENCHRIG_ZERO_ALLOWED=1 to allow 0)'
  })
  for (const e of r.errors) t.equal(e.code, 'BENCHRIG_ERR_BENCHMARK')
  t.same(r.reports.map((x) => x.conf.how), ['end-twice'], 'end-twice reported its first result, which is kept')
  t.equal(r.exitCode, 1)
})

test('BENCHRIG_ZERO_ALLOWED and NODEJS_BENCHMARK_ZERO_ALLOWED allow a zero count', async (t) => {
  for (const name of ['BENCHRIG_ZERO_ALLOWED', 'NODEJS_BENCHMARK_ZERO_ALLOWED']) {
    const r = await collect('alpha/misuse.js', { args: ['how=zero-ok'], env: { ...process.env, [name]: '1' } })
    t.equal(r.failures, 0, name)
    t.equal(r.reports.length, 1)
    t.equal(r.reports[0].rate, 0)
  }
})

test('a child kept alive by an open server is ended after its report', async (t) => {
  const start = Date.now()
  const r = await collect('alpha/linger.js', { env: { ...process.env, BENCHRIG_GRACE_MS: '200' } })
  t.equal(r.exitCode, 0)
  t.equal(r.reports.length, 1)
  t.ok(Date.now() - start < 60000, 'it ended (bounded, not a timing claim)')
})

test('flags, driver node and pass-through options reach the child; report(rate, extra) shape', async (t) => {
  const env = { ...process.env, BENCHRIG_FLAGS: '--no-warnings', NODE_BENCHMARK_FLAGS: '--stack-size=900' }
  const r = await collect('alpha/env.js', { env, args: ['cpuset_server=1', 'benchrig_note=x'] })
  t.equal(r.failures, 0)
  const rep = r.reports[0]
  t.same(rep.extra.execArgv, ['--max-old-space-size=100', '--no-warnings', '--stack-size=900'], 'options.flags, BENCHRIG_FLAGS, NODE_BENCHMARK_FLAGS in that order')
  t.equal(rep.extra.driverNode, process.execPath)
  t.equal(rep.extra.childEnvLeft, null, 'BENCHRIG_CHILD is not left for processes the child starts')
  t.same(rep.extra.extraOptions, { cpuset_server: '1', benchrig_note: 'x' })
  t.equal(rep.time, 0.5)
  t.equal(rep.rate, 1000)
  t.same(rep.conf, { n: 1, benchmarker: 'fake' }, 'extra.benchmarker becomes a conf key')
  t.equal(rep.extra.benchmarker, 'fake', 'and stays in extra, as the protocol says')
  t.equal(rep.extra.testMode, false)
  const tm = await collect('alpha/env.js', { args: ['--test'] })
  t.equal(tm.reports[0].extra.testMode, true, 'bench.testMode tells bench.http to keep loads short')
  t.equal(tm.reports[0].extra.modeEnvLeft, null)
  t.same(childFlags(['--a'], { BENCHRIG_FLAGS: ' --b  --c ', NODE_BENCHMARK_FLAGS: '' }, ['--d']), ['--a', '--b', '--c', '--d'])
})

test('options.setup runs once in the root before any child; child output goes to `output`', async (t) => {
  const r = await collect('beta/setup.js')
  t.equal(r.reports.length, 3)
  const lines = r.output.trim().split('\n')
  t.match(lines[0], /^setup ran with 3 combinations in (\d+)$/)
  const rootPid = /in (\d+)$/.exec(lines[0])[1]
  t.same(lines.slice(1), ['a', 'b', 'c'].map((s) => `child ${s} of ${rootPid}`))
})

test('a root with invalid configs reports one error with no configuration', async (t) => {
  const r = await collect('beta/badconf.js')
  t.equal(r.exitCode, 1)
  t.same(r.configs, [{ type: 'config', name: 'beta/badconf.js', queueLength: 0 }])
  t.same(r.errors.map((e) => [e.conf, e.message]), [[null, 'configuration "n" mixes types (number and string): one key takes one type, so that key=value arguments parse the same way every time']])
  const u = await collect('alpha/ok.js', { args: ['nope=1'], env: { ...process.env, BENCHRIG_STRICT: '1' } })
  t.match(u.errors[0].message, 'unknown configuration key "nope" in nope=1; known keys: mode, n, flag (--strict)')
  t.equal(u.errors[0].code, 'BENCHRIG_ERR_UNKNOWN_KEY')
  const e = await collect('alpha/ok.js', { args: ['mode=none'], env: { ...process.env } })
  t.equal(e.reports.length, 4, 'a narrowed value need not be declared')
  const f = await collect('alpha/ok.js', { args: ['mode=slow', 'flag=false'] })
  t.same([f.exitCode, f.errors, f.reports, f.configs.map((c) => c.queueLength)], [0, [], [], [0]],
    'combinationFilter leaves nothing: no failure, a queue of 0 (as under Node core\'s harness)')
})

test('run by hand, a file prints text lines and its errors, no stack for harness errors', async (t) => {
  const ok = spawnSync(process.execPath, [path.join(ROOT, 'alpha/ok.js'), 'mode=fast', 'n=100'], { encoding: 'utf8' })
  t.equal(ok.status, 0)
  t.match(ok.stdout, /^alpha\/ok\.js flag=true n=100 mode="fast": [\d,]+(\.\d+)?\nalpha\/ok\.js flag=false n=100 mode="fast": [\d,]+(\.\d+)?\n$/, 'Node core\'s common.js lines')
  const bad = spawnSync(process.execPath, [path.join(ROOT, 'alpha/misuse.js'), 'how=start-twice'], { encoding: 'utf8' })
  t.equal(bad.status, 1)
  t.equal(bad.stderr, "alpha/misuse.js how='start-twice': failed: bench.start() was called more than once: call it once, right before the measured loop\n")
  const conf = spawnSync(process.execPath, [path.join(ROOT, 'alpha/ok.js'), 'bogus'], { encoding: 'utf8' })
  t.equal(conf.status, 1)
  t.equal(conf.stderr, 'alpha/ok.js: failed: bad argument "bogus": a benchmark file takes key=value arguments, --test or --test-all\n')
})

test('children run on another node binary (Node 18): only Node 18 APIs in common.js', async (t) => {
  const node18 = needNode(t, 18)
  if (!node18) return
  const launcher = plainNode(t, node18)
  const env = process.env
  const r = await collect('alpha/env.js', { execPath: launcher, env })
  t.equal(r.failures, 0)
  t.match(r.reports[0].extra.nodeVersion, /^v18\./)
  t.equal(r.reports[0].extra.driverNode, process.execPath, 'the driver node stays ours')
  const m = await collect('alpha/misuse.js', { execPath: launcher, env, args: ['how=end-twice', 'how=no-count'] })
  t.equal(m.reports.length, 1)
  t.equal(m.errors.length, 2)
  const ok = await collect('alpha/ok.js', { execPath: launcher, env, args: ['--test-all'] })
  t.equal(ok.reports.length, 3)
  t.equal(ok.failures, 0)
})

test('bench.report: seconds, an hrtime pair, the default time, and its errors', async (t) => {
  const r = await collect('gamma/report.js')
  t.same(r.reports.map((x) => [x.conf.how, x.rate]), [['seconds', 10], ['hrtime', 20], ['default', 30], ['twice', 40]])
  t.equal(r.reports[0].time, 2.5)
  t.equal(r.reports[1].time, 1.5)
  t.ok(r.reports[2].time > 0, 'default: seconds since main started')
  t.same(r.errors.map((e) => [e.conf.how, e.message]), [
    ['bad-rate', 'bench.report(rate): rate must be a finite number >= 0, got -1'],
    ['twice', 'this benchmark already reported a result: a benchmark reports one result per process']
  ])
})

test('options.setup that throws fails the file before any child runs', async (t) => {
  const r = await collect('gamma/prepare-fails.js')
  t.equal(r.exitCode, 1)
  t.equal(r.reports.length, 0)
  t.equal(r.errors.length, 1)
  t.equal(r.errors[0].conf, null)
  t.match(r.errors[0].message, /^options\.setup failed: Error: no fixtures today/)
})
