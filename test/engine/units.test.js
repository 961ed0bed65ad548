'use strict'
// Counts with SI suffixes and compound durations (lib/engine/options/units.js),
// as every count, rate and duration flag of `benchrig load` takes them.
const t = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseCount, parseDuration } = require('../../lib/engine/options/units.js')
const options = require('../../lib/engine/options/options.js')
const { load } = require('../../lib/engine/index.js')
const { UsageError } = require('../../lib/errors.js')
const { shardLoadOptions } = require('../../lib/cli/load-shard.js')
const { rawServer, response } = require('../helpers/raw-server.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

t.test('parseCount: SI suffixes, k is 1000', async (t) => {
  const cases = [['7', 7], [' 12 ', 12], ['1k', 1000], ['1K', 1000], ['10k', 10000], ['1.5k', 1500],
    ['1.1k', 1100], ['1M', 1e6], ['2.5M', 2.5e6], ['1G', 1e9], [64, 64]]
  for (const [text, n] of cases) t.equal(parseCount(text, '-c'), n, `${JSON.stringify(text)} is ${n}`)
  t.equal(parseCount('0.5', '-R', { whole: false }), 0.5, 'a rate may be a fraction')
  t.equal(parseCount('2.5k', '-R', { whole: false }), 2500)
  t.equal(parseCount('0', '-w', { min: 0 }), 0, 'min 0 where 0 means something')
})

t.test('parseCount: bad values name the flag and say what to give', async (t) => {
  const bad = [
    ['1.5', /-a\/--amount "1.5": a count must be a whole number \(1.5 is not/],
    ['0.0015k', /"0.0015k": a count must be a whole number/],
    ['1m', /"1m".*a million is M: m would be milli/],
    ['abc', /"abc": give a whole number >= 1, optionally with k \(1000\)/],
    ['-1', /"-1": give a whole number >= 1/],
    ['1e3', /"1e3"/],
    ['', /-a\/--amount "": give/],
    ['0', /"0": give a whole number >= 1$/]
  ]
  for (const [text, re] of bad) {
    const err = t.throws(() => parseCount(text, '-a/--amount'), re, JSON.stringify(text))
    t.ok(err instanceof UsageError && err.exitCode === 2, 'a usage error (exit 2)')
  }
  t.throws(() => parseCount('20k', '--max-streams', { max: 10000 }), /--max-streams "20k": give a whole number >= 1 and <= 10000/)
  t.throws(() => parseCount('0', '-R', { whole: false }), /-R "0": give a number > 0/)
  t.throws(() => parseCount(1.5, '-c'), /a count must be a whole number/, 'numbers from the API too')
})

t.test('parseDuration: bare seconds and Go-style compound durations', async (t) => {
  const cases = [['10', 10], ['0.5', 0.5], ['500ms', 0.5], ['10s', 10], ['2m', 120], ['1h', 3600],
    ['1m30s', 90], ['1h2m3.5s', 3723.5], ['250us', 250e-6], ['250µs', 250e-6], ['1500ns', 1.5e-6], [3, 3]]
  for (const [text, s] of cases) t.ok(Math.abs(parseDuration(text, '-d') - s) < 1e-12, `${JSON.stringify(text)} is ${s} s`)
  t.equal(parseDuration('250', '--interval', { bare: 'ms' }), 0.25, 'bare milliseconds where the flag always took them')
  for (const text of ['1m30', 's', '10x', '0', '0s', 'ms', '-1s', '', '1h 30m']) {
    t.throws(() => parseDuration(text, '-d/--duration'),
      new RegExp(`-d/--duration "${text}": give a positive number of seconds or a duration like 500ms, 10s, 2m, 1m30s, 1h`), JSON.stringify(text))
  }
  t.equal(options.parseDuration, parseDuration, 'options.js re-exports the same function')
  t.equal(options.parseCount, parseCount)
})

t.test('every count, rate and duration option of a load run takes the forms', async (t) => {
  const url = 'http://127.0.0.1:9/'
  const o = options.normalizeOptions({ url, connections: '1k', pipelining: '1', workers: '0', duration: '1m30s', timeout: '500ms', bailout: '2k', reconnectRate: '1k', maxConnectionRequests: '10k', warmup: '1m', interval: '1s', overallRate: '10k' })
  t.same([o.connections, o.durationMs, o.timeoutMs, o.bailout, o.reconnectRate, o.maxConnectionRequests, o.warmup.durationMs, o.intervalMs, o.rate.rate],
    [1000, 90000, 500, 2000, 1000, 10000, 60000, 1000, 10000])
  const a = options.normalizeOptions({ url, amount: '1M', maxStreams: '1k', h2: true, burst: '2k', burstInterval: '250ms' })
  t.same([a.amount, a.h2.maxStreams, a.rate.burst, a.rate.intervalMs], [1e6, 1000, 2000, 250])
  t.equal(options.normalizeOptions({ url, maxOverallRequests: '1.5k' }).maxOverallRequests, 1500)
  t.equal(options.normalizeOptions({ url, connectionRate: '2.5k' }).rate.rate, 2500)
  t.equal(options.normalizeOptions({ url, interval: 250 }).intervalMs, 250, '--interval stays in ms when bare')
  t.equal(options.normalizeOptions({ url, warmup: { connections: '1k', duration: '1m' } }).warmup.connections, 1000)
  t.throws(() => options.normalizeOptions({ url, connections: '1.5' }), /-c\/--connections "1.5": a count must be a whole number/)
  t.throws(() => options.normalizeOptions({ url, amount: '2.5', duration: undefined }), /-a\/--amount "2.5"/)
  t.throws(() => options.normalizeOptions({ url, h2: true, maxStreams: '20k' }), /--max-streams "20k"/)
  t.throws(() => options.normalizeOptions({ url, interval: '5ms' }), /--interval "5ms": at least 10 ms/)
  t.throws(() => options.normalizeOptions({ url, timeout: '1m30' }), /-t\/--timeout "1m30"/)
})

t.test('--shard splits SI counts as it splits plain ones', async (t) => {
  const out = shardLoadOptions({ connections: '1k', amount: '1M', overallRate: '10k' }, { index: 0, count: 4 })
  t.same([out.connections, out.amount, Number(out.overallRate)], ['250', '250000', 2500])
})

t.test('a run with -a 0.2k sends 200 requests', async (t) => {
  const srv = await rawServer((s) => s.write(response('ok')))
  t.teardown(() => srv.close())
  const r = await load({ url: srv.url, connections: 2, amount: '0.2k' })
  t.equal(r.requests.total, 200)
})

t.test('benchrig load: a bad count exits 2 with one line naming the flag', async (t) => {
  const res = spawnSync(process.execPath, [BIN, 'load', '-c', '1.5', 'http://127.0.0.1:9/'], { encoding: 'utf8' })
  t.equal(res.status, 2)
  t.equal(res.stdout, '')
  t.match(res.stderr, /-c\/--connections "1.5": a count must be a whole number/)
  t.notMatch(res.stderr, /\n\s+at /, 'no stack trace')
})

t.test('--timeout of run, compare and scatter takes the same durations', async (t) => {
  const { parseTimeout } = require('../../lib/harness/cli-args.js')
  t.same(['300', '0', '1.5', '5m', '1h30m'].map(parseTimeout), [300, 0, 1.5, 300, 5400])
  t.equal(parseTimeout(undefined), undefined)
  t.throws(() => parseTimeout('soon'), /^--timeout soon: give a number of seconds \(0: no limit\)$/)
})
