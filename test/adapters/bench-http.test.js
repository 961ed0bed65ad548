'use strict'
// bench.http option handling: defaults, the tool choice, test-mode
// durations per tool, and clear errors for bad values.
const { test } = require('tap')
const { normalizeOptions, toExtra, isTestMode, TEST_DURATION } = require('../../lib/harness/bench-http.js')
const { UsageError } = require('../../lib/errors.js')

test('defaults (Node core\'s bench.http)', async (t) => {
  const saved = process.env.PORT
  t.teardown(() => { if (saved === undefined) delete process.env.PORT; else process.env.PORT = saved })
  delete process.env.PORT
  const o = normalizeOptions({}, {})
  t.equal(o.benchmarker, 'builtin')
  t.equal(o.url, 'http://127.0.0.1:12346/')
  t.equal(o.connections, 100)
  t.equal(o.duration, 5)
  t.equal(o.pipelining, 1)
  t.equal(o.method, 'GET')
  t.same(o.headers, {})
  t.equal(o.protocol, 'http/1.1')
  process.env.PORT = '4000'
  t.equal(normalizeOptions({}, {}).port, 4000, 'PORT from the environment')
  t.equal(normalizeOptions({ port: 5555 }, {}).port, 5555, 'the port option wins')
})

test('the tool: --set benchmarker, then the option, then the protocol default', async (t) => {
  t.equal(normalizeOptions({ benchmarker: 'wrk' }, {}).benchmarker, 'wrk')
  t.equal(normalizeOptions({ benchmarker: 'wrk' }, { benchmarker: 'autocannon' }).benchmarker, 'autocannon')
  t.equal(normalizeOptions({ protocol: 'h2' }, {}).benchmarker, 'h2load')
  t.throws(() => normalizeOptions({}, { benchmarker: 'ab' }), { code: 'BENCHRIG_ERR_UNKNOWN_BENCHMARKER' })
})

test('durations: test mode, wrk\'s whole seconds, floors', async (t) => {
  t.equal(normalizeOptions({ duration: 5 }, { benchmarker: 'autocannon' }, { testMode: true }).duration, TEST_DURATION)
  t.equal(normalizeOptions({ duration: 5 }, { benchmarker: 'h2load' }, { testMode: true }).duration, TEST_DURATION)
  t.equal(normalizeOptions({ duration: 5 }, { benchmarker: 'wrk' }, { testMode: true }).duration, 1, 'wrk needs a whole second')
  t.equal(normalizeOptions({ duration: 2.5 }, { benchmarker: 'wrk' }).duration, 3, 'wrk rounds up')
  t.equal(normalizeOptions({ duration: 0.05 }, { benchmarker: 'builtin' }).duration, 0.25, 'a floor for the harness\'s 0.05 s test durations')
  t.equal(normalizeOptions({ duration: 2.5 }, { benchmarker: 'autocannon' }).duration, 2.5)
  const saved = process.env.BENCHRIG_MODE
  t.teardown(() => { if (saved === undefined) delete process.env.BENCHRIG_MODE; else process.env.BENCHRIG_MODE = saved })
  process.env.BENCHRIG_MODE = 'test-all'
  t.equal(isTestMode({}), true)
  delete process.env.BENCHRIG_MODE
  t.equal(isTestMode({}), false)
  t.equal(isTestMode({ testMode: true }), true)
})

test('requests: method, body, headers, scheme, host', async (t) => {
  const o = normalizeOptions({ body: { a: 1 }, headers: { 'x-a': 'b' }, scheme: 'https', host: '::1', port: 8443, path: '/p?q=1' }, {})
  t.equal(o.method, 'POST', 'a body makes a POST')
  t.equal(o.body, '{"a":1}')
  t.same(o.headers, { 'x-a': 'b', 'content-type': 'application/json' })
  t.equal(o.url, 'https://[::1]:8443/p?q=1')
  t.equal(normalizeOptions({ method: 'put', body: 'x' }, {}).method, 'PUT')
  const h2 = normalizeOptions({ protocol: 'h2', clients: 4, threads: 2, maxConcurrentStreams: 16 }, {})
  t.same([h2.clients, h2.threads, h2.streams], [4, 2, 16])
  t.equal(normalizeOptions({}, { cpuset_client: '0', cpuset_server: '1' }).cpuset, '0')
})

test('bad values are usage errors naming the key', async (t) => {
  t.throws(() => normalizeOptions({ connections: 0 }, {}), UsageError)
  t.throws(() => normalizeOptions({ connections: 'many' }, {}), /connections must be a positive number/)
  t.throws(() => normalizeOptions({ duration: -1 }, {}), /duration must be a positive number/)
  t.throws(() => normalizeOptions({ scheme: 'ftp' }, {}), /scheme must be "http" or "https"/)
  t.throws(() => normalizeOptions({ protocol: 'spdy' }, {}), /protocol must be "http\/1\.1" or "h2", got "spdy"/)
  t.throws(() => normalizeOptions({ path: 'api' }, {}), /path must start with "\/"/)
  t.equal(normalizeOptions({ protocol: 'http2' }, {}).protocol, 'h2')
})

test('report extra fields', async (t) => {
  const extra = toExtra({ benchmarker: 'wrk', version: '4.1.0', latency: { p50: 1, p90: 2, p99: 3, max: 4, mean: 1.5 }, errors: 5, non2xx: 6 })
  t.same(extra, { benchmarker: 'wrk', benchmarker_version: '4.1.0', latency_p50: 1, latency_p90: 2, latency_p99: 3, latency_max: 4, errors: 5, non2xx: 6 })
})
