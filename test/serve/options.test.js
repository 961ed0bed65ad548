'use strict'
const t = require('tap')
const {
  normalizeOptions, applyQuery, parseSize, parseStatus, parseDelay, parseFreeze, parseSwitch, DEFAULTS
} = require('../../lib/serve/options.js')
const { UsageError } = require('../../lib/errors.js')
const { parseServeArgs } = require('../../lib/cli/serve.js')

t.test('defaults: 127.0.0.1, a free port, HTTP/1.1, one process, 200, no delay', async (t) => {
  const o = normalizeOptions()
  t.same(o, DEFAULTS)
  t.equal(o.host, '127.0.0.1')
  t.equal(o.port, 0)
  t.equal(o.cluster, 1)
  t.equal(o.status, 200)
  t.same(o.delay, { min: 0, max: 0 })
  t.equal(o.freeze, undefined)
  t.ok(Object.isFrozen(o))
})

t.test('parsers accept the documented forms', async (t) => {
  t.equal(parseSize('0'), 0)
  t.equal(parseSize('16k'), 16384)
  t.equal(parseSize('2m'), 2 * 1024 * 1024)
  t.equal(parseSize(' 10 '), 10)
  t.equal(parseStatus('503'), 503)
  t.same(parseDelay('25'), { min: 25, max: 25 })
  t.same(parseDelay('5-50'), { min: 5, max: 50 })
  t.same(parseFreeze('500/2'), { ms: 500, everyMs: 2000 })
  t.same(parseFreeze('100/0.5'), { ms: 100, everyMs: 500 })
  t.equal(parseSwitch('1'), true)
  t.equal(parseSwitch(''), true)
  t.equal(parseSwitch('false'), false)
})

t.test('parsers reject bad values with a hint of the right form', async (t) => {
  t.throws(() => parseSize('-1'), /whole number of bytes/)
  t.throws(() => parseSize('2g'), /whole number of bytes/)
  t.throws(() => parseSize(String(2 ** 30 + 1)), /whole number of bytes/)
  t.throws(() => parseStatus('99'), /200 to 599/)
  t.throws(() => parseStatus('600'), /200 to 599/)
  t.throws(() => parseStatus('2e2'), /200 to 599/)
  t.throws(() => parseDelay('50-5'), /MIN-MAX/)
  t.throws(() => parseDelay('fast'), /MIN-MAX/)
  t.throws(() => parseDelay('700000'), /at most 600000/)
  t.throws(() => parseFreeze('1000/1'), /shorter than T/)
  t.throws(() => parseFreeze('0/1'), /S >= 1/)
  t.throws(() => parseFreeze('500'), /S\/T/)
  t.throws(() => parseSwitch('maybe'), /1 or 0/)
})

t.test('normalizeOptions throws UsageError naming the flag', async (t) => {
  const cases = [
    [{ port: 70000 }, /^--port 70000: give a whole number from 0 to 65535$/],
    [{ cluster: 0 }, /^--cluster 0: /],
    [{ status: 'ok' }, /^--status ok: /],
    [{ delay: '9-1' }, /^--delay 9-1: /],
    [{ freeze: '5/0' }, /^--freeze 5\/0: /],
    [{ chunkSize: 0 }, /^--chunk-size 0: /],
    [{ chunkSize: '128k' }, /^--chunk-size 128k: /],
    [{ host: '' }, /^--host : /],
    [{ bogus: 1 }, /unknown serve option "bogus"/],
    [{ maxStreams: 10 }, /^--max-streams 10: it limits HTTP\/2 streams per connection; add --h2c/],
    [{ maxStreams: 0, h2c: true }, /^--max-streams 0: give a whole number from 1/]
  ]
  for (const [opts, re] of cases) {
    const err = t.throws(() => normalizeOptions(opts), re, JSON.stringify(opts))
    t.ok(err instanceof UsageError, 'a UsageError')
    t.equal(err.exitCode, 2)
  }
})

t.test('normalizeOptions takes API forms (objects, numbers) and skips undefined', async (t) => {
  const o = normalizeOptions({ port: 8080, delay: { min: 1, max: 3 }, freeze: { ms: 10, everyMs: 100 }, size: 5, h2c: true, status: undefined })
  t.equal(o.port, 8080)
  t.same(o.delay, { min: 1, max: 3 })
  t.same(o.freeze, { ms: 10, everyMs: 100 })
  t.equal(o.size, 5)
  t.equal(o.h2c, true)
  t.equal(o.status, 200)
  // the JSON form a cluster worker receives gives the same options back
  t.same(normalizeOptions(JSON.parse(JSON.stringify(o))), o)
})

t.test('applyQuery overrides the defaults for one request and ignores unknown keys', async (t) => {
  const defaults = { ...DEFAULTS, size: undefined }
  const plan = applyQuery(defaults, 'status=503&delay=1-2&chunked=1&chunk=100&close=1&size=1k&nocache=123&reset=1')
  t.equal(plan.reset, true)
  t.equal(applyQuery(defaults, 'block=250').block, 250)
  t.throws(() => applyQuery(defaults, 'block=20000'), /^\?block=20000: give a whole number from 0 to 10000/)
  t.equal(plan.status, 503)
  t.same(plan.delay, { min: 1, max: 2 })
  t.equal(plan.chunked, true)
  t.equal(plan.chunkSize, 100)
  t.equal(plan.close, true)
  t.equal(plan.size, 1024)
  t.equal(defaults.status, 200, 'the defaults are not changed')
  t.throws(() => applyQuery(defaults, 'status=1000'), /^\?status=1000: give a status code/)
  t.throws(() => applyQuery(defaults, 'delay=x'), /^\?delay=x: /)
})

t.test('parseServeArgs maps flags to serve options', async (t) => {
  const r = parseServeArgs(['--host', '::1', '-p', '8080', '--h2c', '--cluster', '2', '--size', '1k', '--status', '201',
    '--delay', '1-5', '--chunked', '--chunk-size', '100', '--close', '--freeze', '100/1', '--max-streams', '8'])
  t.same(r, {
    help: false,
    options: { host: '::1', port: '8080', h2c: true, cluster: '2', size: '1k', status: '201', delay: '1-5', chunked: true, chunkSize: '100', close: true, freeze: '100/1', maxStreams: '8' }
  })
  const d = parseServeArgs([])
  t.same(Object.values(d.options).filter((v) => v !== undefined), [], 'no flags: every option takes its default')
  t.same(parseServeArgs(['--help']), { help: true })
  t.same(parseServeArgs(['-h']), { help: true })
  t.throws(() => parseServeArgs(['--bogus']), /unknown option --bogus; see benchrig serve --help/)
  t.throws(() => parseServeArgs(['stray']), /unexpected argument "stray"/)
  t.throws(() => parseServeArgs(['--delay']), /--delay needs a value/)
  t.equal(parseServeArgs(['--port', '1', '--port', '2']).options.port, '2', 'a repeated flag: the last wins')
})
