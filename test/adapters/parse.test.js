'use strict'
// Parsers on recorded real outputs (test/fixtures/adapters/README.md).
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const wrk = require('../../lib/adapters/wrk.js')
const autocannon = require('../../lib/adapters/autocannon.js')
const builtin = require('../../lib/adapters/builtin.js')
const h2load = require('../../lib/adapters/h2load.js')
const { toMs } = require('../../lib/adapters/units.js')

const dir = path.join(__dirname, '..', 'fixtures', 'adapters')
const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8')
const KEYS = ['requests', 'duration', 'rate', 'latency', 'errors', 'non2xx', 'source']

function shape (t, r) {
  t.same(Object.keys(r).sort(), [...KEYS].sort(), 'result keys')
  for (const k of ['p50', 'p90', 'p99', 'max', 'mean']) {
    t.ok(r.latency[k] === undefined || Number.isFinite(r.latency[k]), `latency.${k} is a number or undefined`)
  }
}

test('units: durations to ms', async (t) => {
  t.equal(toMs('88.00us'), 0.088)
  t.equal(toMs('2.97ms'), 2.97)
  t.equal(toMs('1.10s'), 1100)
  t.equal(toMs('1.5m'), 90000)
  t.equal(toMs('12 parsecs'), undefined)
  t.equal(toMs(undefined), undefined)
})

test('wrk: the done() JSON line', async (t) => {
  const r = wrk.parse(read('wrk-lua-ok.txt'))
  shape(t, r)
  t.equal(r.source, 'lua')
  t.equal(r.requests, 51177)
  t.equal(r.duration, 1.000222)
  t.equal(r.rate, 51177 / 1.000222)
  t.same(r.latency, { p50: 0.066, p90: 0.162, p99: 0.771, max: 3.629, mean: 0.099 })
  t.equal(r.errors, 0)
  t.equal(r.non2xx, 0)
})

test('wrk: socket errors and non-2xx, JSON and text agree in kind', async (t) => {
  const lua = wrk.parse(read('wrk-lua-socket-errors.txt'))
  t.equal(lua.errors, 4054, 'read errors counted')
  t.equal(lua.non2xx, 0)
  const text = wrk.parse(read('wrk-text-socket-errors.txt'))
  shape(t, text)
  t.equal(text.source, 'text')
  t.equal(text.requests, 17484)
  t.equal(text.errors, 4371)
  t.equal(text.rate, 15906.61)
  t.same(text.latency, { p50: 0.164, p90: 0.377, p99: 1.36, max: 6.64, mean: 0.229 })

  const luaStatus = wrk.parse(read('wrk-lua-non2xx.txt'))
  t.equal(luaStatus.non2xx, 12345)
  t.equal(luaStatus.errors, 0)
  const textStatus = wrk.parse(read('wrk-text-non2xx.txt'))
  t.equal(textStatus.non2xx, 11239)
  t.equal(textStatus.errors, 0)
})

test('wrk: the pipelined POST script ran and reported', async (t) => {
  const out = read('wrk-lua-pipelined-post.txt')
  const r = wrk.parse(out)
  t.equal(r.source, 'lua')
  t.ok(r.requests > 0)
  t.equal(r.errors, 0)
})

test('wrk: text without the JSON line falls back; garbage is undefined', async (t) => {
  const text = read('wrk-lua-ok.txt').split('BENCHRIG_WRK_JSON')[0]
  const r = wrk.parse(text)
  t.equal(r.source, 'text')
  t.equal(r.requests, 51177)
  t.equal(r.rate, 51165.64)
  t.same(r.latency, { p50: 0.066, p90: 0.162, p99: 0.771, max: 3.63, mean: 0.099 })
  t.equal(wrk.parse('unable to connect to 127.0.0.1:1 Connection refused'), undefined)
  t.equal(wrk.parse('BENCHRIG_WRK_JSON {broken'), undefined)
})

test('wrk: the generated Lua script', async (t) => {
  const s = wrk.script({ method: 'POST', body: 'a"b\\c\né', pipelining: 3 })
  t.match(s, 'wrk.method = "POST"')
  t.match(s, 'wrk.body = "a\\34b\\92c\\10\\195\\169"', 'body escaped with decimal escapes (LuaJIT has no \\u)')
  t.match(s, 'for i = 1, 3 do')
  t.match(s, /done = function \(summary, latency, requests\)/)
  const plain = wrk.script({ method: 'GET', pipelining: 1 })
  t.notMatch(plain, 'wrk.body')
  t.notMatch(plain, 'request = function')
})

test('wrk: args use whole seconds and the script', async (t) => {
  const args = wrk.args({ connections: 8, threads: 4, duration: 0.3, headers: { 'x-a': '1' }, url: 'http://127.0.0.1:9/x', files: { 'wrk.lua': '/tmp/s.lua' } })
  t.same(args, ['-c', '8', '-t', '4', '-d', '1s', '--latency', '-H', 'x-a: 1', '-s', '/tmp/s.lua', 'http://127.0.0.1:9/x'])
  t.equal(wrk.args({ connections: 2, threads: 8, duration: 2.2, headers: {}, url: 'u' })[3], '2', 'threads never exceed connections')
})

test('autocannon: -j JSON', async (t) => {
  const ok = autocannon.parse(read('autocannon-9.0.0-ok.json'))
  shape(t, ok)
  t.equal(ok.requests, 28543)
  t.equal(ok.duration, 1.01)
  t.equal(ok.rate, 28543 / 1.01)
  t.same(ok.latency, { p50: 0, p90: 0, p99: 0, max: 15, mean: 0.02 })
  const non2 = autocannon.parse(read('autocannon-9.0.0-non2xx.json'))
  t.equal(non2.non2xx, 6229)
  const errs = autocannon.parse(read('autocannon-9.0.0-errors.json'))
  t.equal(errs.errors, 463)
  t.equal(errs.latency.p99, 583)
  const short = autocannon.parse(read('autocannon-9.0.0-post-short.json'))
  t.equal(short.duration, 0.31, '-L 100 lets a 0.3 s run stop at 0.3 s')
  t.equal(autocannon.parse('Running 1s test @ http://x'), undefined)
  t.equal(autocannon.parse('{"requests": {}}'), undefined)
  t.equal(builtin.parse, autocannon.parse, 'builtin prints the same JSON shape')
})

test('builtin: benchrig load -j, with µs latencies', async (t) => {
  const text = read('builtin-0.1.0-non2xx.json')
  const j = JSON.parse(text)
  const r = builtin.parse(text)
  shape(t, r)
  t.equal(r.requests, j.requests.total)
  t.equal(r.non2xx, j.requests.total, 'every 404 is non-2xx')
  t.equal(r.latency.p99, j.latencyUs.p99 / 1000, 'latencyUs preferred over whole-ms latency')
  t.equal(r.latency.max, j.latencyUs.max / 1000)
})

test('autocannon and builtin: args', async (t) => {
  const opts = { connections: 3, duration: 0.3, pipelining: 2, method: 'POST', headers: { 'content-type': 'a=b' }, body: '{}', url: 'http://127.0.0.1:9/', driverNode: '/x/node' }
  const a = autocannon.args(opts)
  t.match(a[0], /autocannon\.js$/)
  t.same(a.slice(1), ['-c', '3', '-d', '0.3', '-p', '2', '-m', 'POST', '-L', '100', '-H', 'content-type=a=b', '-b', '{}', '-n', '-j', 'http://127.0.0.1:9/'])
  t.equal(autocannon.executable(opts), '/x/node')
  const b = builtin.args(opts)
  t.match(b[0], /bin[/\\]benchrig\.js$/)
  t.same(b.slice(1), ['load', '-c', '3', '-d', '0.3', '-m', 'POST', '-p', '2', '-H', 'content-type=a=b', '-b', '{}', '-j', 'http://127.0.0.1:9/'])
  t.equal(builtin.executable(opts), '/x/node')
  const h2 = builtin.args({ ...opts, protocol: 'h2', clients: 4, streams: 8 })
  t.same(h2.slice(1, 10), ['load', '-c', '4', '-d', '0.3', '-m', 'POST', '--h2', '--max-streams'], 'HTTP/2: clients x streams, as h2load')
  t.equal(h2[10], '8')
})

test('h2load 1.52 (older generation)', async (t) => {
  const r = h2load.parse(read('h2load-1.52-h2c-ok.txt'))
  shape(t, r)
  t.equal(r.source, 'text-1.52')
  t.equal(r.requests, 22044)
  t.equal(r.rate, 22044)
  t.equal(r.duration, 1)
  t.same(r.latency, { p50: undefined, p90: undefined, p99: undefined, max: 5.77, mean: 0.353 })
  const h1 = h2load.parse(read('h2load-1.52-h1-non2xx.txt'))
  t.equal(h1.non2xx, 2971)
  t.equal(h1.errors, 0)
  t.equal(h1.requests, 11886)
  t.equal(h1.duration, 0.50048)
  const refused = h2load.parse(read('h2load-1.52-refused.txt'))
  t.equal(refused.requests, 0, 'a refused port parses as zero requests (the registry turns that into an error)')
})

test('h2load 1.69+ (newer generation: short row names, median/p95/p99)', async (t) => {
  const r = h2load.parse(read('h2load-1.69-h2c-ok.txt'))
  shape(t, r)
  t.equal(r.source, 'text-1.69')
  t.equal(r.requests, 21861, 'done minus errored')
  t.equal(r.rate, 21873 * 21861 / 21873, 'the rate counts responses only')
  t.equal(r.errors, 12)
  t.same(r.latency, { p50: 0.301, p90: undefined, p99: 1.63, max: 6.02, mean: 0.361 })
})

test('h2load: percentiles from --log-file', async (t) => {
  const log = read('h2load-1.52-requests.log')
  const r = h2load.parse(read('h2load-1.52-h2c-n400.txt'), { [h2load.LOG_FILE]: log })
  t.equal(r.source, 'text-1.52+log')
  t.equal(r.requests, 400)
  const us = log.trim().split('\n').map((l) => Number(l.split('\t')[2])).sort((a, b) => a - b)
  t.equal(r.latency.p50, us[199] / 1000)
  t.equal(r.latency.p90, us[359] / 1000)
  t.equal(r.latency.p99, us[395] / 1000)
  t.equal(h2load.parseLog(''), undefined)
  t.equal(h2load.parseLog('1\t-1\t5\n'), undefined, 'failed streams (status -1) are not latencies')
  t.equal(h2load.parse('h2load: no URI given'), undefined)
})

test('h2load: args', async (t) => {
  const a = h2load.args({ connections: 10, clients: 4, threads: 2, streams: 8, duration: 0.3, protocol: 'h2', method: 'GET', headers: { 'x-a': '1' }, url: 'http://127.0.0.1:9/', files: { [h2load.LOG_FILE]: '/tmp/l' } })
  t.same(a, ['-c', '4', '-t', '2', '-m', '8', '-D', '300ms', '-H', 'x-a: 1', '--log-file=/tmp/l', 'http://127.0.0.1:9/'])
  const h1 = h2load.args({ connections: 2, duration: 1, protocol: 'http/1.1', method: 'PUT', headers: {}, url: 'u', files: { 'body.bin': '/tmp/b' } })
  t.same(h1, ['-c', '2', '-t', '1', '-m', '1', '-D', '1000ms', '--h1', '-H', ':method: PUT', '-d', '/tmp/b', 'u'])
})
