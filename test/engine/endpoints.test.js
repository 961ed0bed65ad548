'use strict'
// Per-endpoint results against real servers on loopback: two node http
// servers on two ports are two origins. Every load is bounded by -a, so the
// counts per endpoint are exact; the totals are asserted to be the sum over
// the endpoints (requests, statuses, errors, bytes, latency counts).
const t = require('tap')
const http = require('node:http')
const http2 = require('node:http2')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { load } = require('../../lib/engine/index.js')
const { merge } = require('../../lib/engine/result/merge.js')
const { UsageError } = require('../../lib/errors.js')
const { formatEndpoints, shortenMiddle } = require('../../lib/engine/result/format-endpoints.js')

/** A server answering 500 on /bad, closing the socket on /drop, 200 with "<tag><path>" otherwise. */
function server (t, tag, make = http.createServer) {
  const seen = {}
  const s = make((req, res) => {
    const p = req.url ?? req.headers[':path']
    seen[p] = (seen[p] ?? 0) + 1
    if (p === '/drop') return req.socket.destroy()
    if (p === '/hang') return
    res.statusCode = p === '/bad' ? 500 : 200
    res.end(tag + p)
  })
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => {
    t.teardown(() => new Promise((resolve) => { s.closeAllConnections?.(); s.close(resolve) }))
    resolve({ seen, url: `http://127.0.0.1:${s.address().port}` })
  }))
}

/** The totals equal the sum over the endpoints, key by key. */
function assertSums (t, r) {
  const sum = (f) => r.endpoints.reduce((a, e) => a + f(e), 0)
  t.equal(sum((e) => e.requests.total), r.requests.total, 'requests')
  t.equal(sum((e) => e.latency.totalCount), r.latency.totalCount, 'latency counts')
  t.equal(sum((e) => e.non2xx), r.non2xx, 'non2xx')
  t.equal(sum((e) => e.errors), r.errors, 'errors')
  for (const k of Object.keys(r.errorsByKind)) t.equal(sum((e) => e.errorsByKind[k]), r.errorsByKind[k], `errors: ${k}`)
  for (const k of ['1xx', '2xx', '3xx', '4xx', '5xx', 'timeouts', 'mismatches']) t.equal(sum((e) => e[k]), r[k], k)
  t.equal(sum((e) => e.throughput.total), r.throughput.total, 'bytes')
  for (const [code, v] of Object.entries(r.statusCodeStats)) t.equal(sum((e) => e.statusCodeStats[code]?.count ?? 0), v.count, `status ${code}`)
}

const KEYS = ['name', 'method', 'url', 'requests', 'latency', 'latencyUs', 'statusCodeStats', '1xx', '2xx', '3xx', '4xx', '5xx',
  'non2xx', 'errors', 'errorsByKind', 'timeouts', 'mismatches', 'throughput', 'histogram']

t.test('URLs on two origins: own connections, exact counts per URL, totals are the sums (closed loop with --interval, -w 2, -R)', async (t) => {
  const a = await server(t, 'a')
  const b = await server(t, 'b')
  const urls = [`${a.url}/ok`, `${b.url}/y`, `${a.url}/bad`]
  for (const extra of [{ interval: 50 }, { workers: 2 }, { overallRate: 3000 }]) {
    const before = { ok: a.seen['/ok'] ?? 0, bad: a.seen['/bad'] ?? 0, y: b.seen['/y'] ?? 0 }
    const r = await load({ url: urls, connections: 4, amount: 240, ...extra })
    const what = JSON.stringify(extra)
    t.equal(r.requests.total, 240, what)
    // endpoints in the order of their origins' first appearance; -a split evenly over the origins
    t.same(r.endpoints.map((e) => [e.name, e.method, e.url]), [[urls[0], 'GET', urls[0]], [urls[2], 'GET', urls[2]], [urls[1], 'GET', urls[1]]], what)
    t.same(r.endpoints.map((e) => e.requests.total), [60, 60, 120], what)
    t.same(r.endpoints.map((e) => e.non2xx), [0, 60, 0], what)
    t.same(r.endpoints.map((e) => e.statusCodeStats), [{ 200: { count: 60 } }, { 500: { count: 60 } }, { 200: { count: 120 } }], what)
    t.same([a.seen['/ok'] - before.ok, a.seen['/bad'] - before.bad, b.seen['/y'] - before.y], [60, 60, 120], `the servers saw it: ${what}`)
    for (const e of r.endpoints) t.same(Object.keys(e), KEYS, `keys: ${what}`)
    assertSums(t, r)
    t.same(Object.keys(r.endpoints[0].latency), Object.keys(r.latency), 'latency stats of the same shape as the totals')
    // the runners of both origins close each interval together: one row per interval, all counted
    if (extra.interval) t.equal(r.intervals.reduce((n, row) => n + row.count, 0), 240, 'interval rows of both origins')
  }
})

t.test('errors go to the endpoint whose request they hit', async (t) => {
  const a = await server(t, 'a')
  // /drop closes the connection: each is a read error of /drop, re-sent until the run ends
  const r = await load({ url: [`${a.url}/ok`, `${a.url}/drop`], connections: 2, duration: 0.3 })
  const [ok, drop] = r.endpoints
  t.equal(ok.errors, 0)
  t.ok(drop.errorsByKind.read > 0, `read errors on /drop: ${drop.errorsByKind.read}`)
  t.equal(drop.requests.total, 0)
  assertSums(t, r)
  // -R: a request given up at the timeout is a timeout of /hang, and in its latency histogram as in the total's.
  // -t 0.5, not 0.1: /ok is answered by this process, and a loaded machine can
  // leave it unscheduled for a tenth of a second (then /ok times out too)
  const h = await load({ url: [`${a.url}/ok`, `${a.url}/hang`], connections: 2, overallRate: 40, duration: 1.2, timeout: 0.5 })
  const [, hang] = h.endpoints
  t.ok(hang.timeouts > 0, `timeouts on /hang: ${hang.timeouts}`)
  t.equal(h.endpoints[0].timeouts, 0)
  t.equal(hang.latency.totalCount, hang.timeouts, 'each given-up request in its histogram')
  assertSums(t, h)
})

t.test('named requests of a sequence (hooks on the dynamic path) and HAR entries are endpoints', async (t) => {
  const a = await server(t, 'a')
  const r = await load({
    url: `${a.url}/`,
    connections: 2,
    amount: 100,
    requests: [{ name: 'login', method: 'POST', path: '/login', body: 'u=1' }, { path: '/bad', setupRequest: (req) => req }]
  })
  t.same(r.endpoints.map((e) => [e.name, e.method, e.url, e.requests.total, e.non2xx]),
    [['login', 'POST', `${a.url}/login`, 50, 0], ['GET /bad', 'GET', `${a.url}/bad`, 50, 50]])
  assertSums(t, r)
  const har = { log: { entries: ['/h1', '/h2', '/h1'].map((p) => ({ request: { method: 'GET', url: `${a.url}${p}`, headers: [] } })) } }
  const h = await load({ url: `${a.url}/`, connections: 1, amount: 30, har })
  t.same(h.endpoints.map((e) => [e.name, e.requests.total]), [['GET /h1', 10], ['GET /h2', 10], ['GET /h1', 10]], 'one endpoint per HAR entry')
  assertSums(t, h)
  // -x: a non-2xx response leaves its endpoint's latency and bytes as it leaves the totals'
  const x = await load({ url: [`${a.url}/ok`, `${a.url}/bad`], connections: 1, amount: 40, excludeErrorStats: true })
  t.same(x.endpoints.map((e) => [e.requests.total, e.non2xx, e.latency.totalCount]), [[20, 0, 20], [20, 20, 0]])
  t.equal(x.endpoints[1].throughput.total, 0, 'no bytes of the excluded responses')
  assertSums(t, x)
})

t.test('--h2: two URLs on one origin, exact counts per URL', async (t) => {
  const a = await server(t, 'a', http2.createServer)
  const r = await load({ url: [`${a.url}/ok`, `${a.url}/bad`], connections: 2, amount: 200, h2: true })
  t.same(r.endpoints.map((e) => [e.requests.total, e.non2xx]), [[100, 0], [100, 100]])
  t.same([a.seen['/ok'], a.seen['/bad']], [100, 100], 'the server saw it')
  assertSums(t, r)
  // a sequence with a hook: HTTP/2's hooked connections, 50 requests on each of 2 connections
  const s = await load({ url: `${a.url}/`, connections: 2, amount: 100, h2: true, requests: [{ name: 'one', path: '/ok', setupRequest: (q) => q }, { path: '/bad' }, { name: 'three', path: '/c' }] })
  t.same(s.endpoints.map((e) => [e.name, e.requests.total, e.non2xx]), [['one', 34, 0], ['GET /bad', 34, 34], ['three', 32, 0]])
  assertSums(t, s)
})

t.test('benchrig merge adds endpoints of the same name, method and URL', async (t) => {
  const a = await server(t, 'a')
  const b = await server(t, 'b')
  const r1 = await load({ url: [`${a.url}/ok`, `${a.url}/bad`], connections: 2, amount: 40 })
  const r2 = await load({ url: [`${a.url}/ok`, `${b.url}/z`], connections: 2, amount: 40 })
  const m = merge([JSON.parse(JSON.stringify(r1)), JSON.parse(JSON.stringify(r2))])
  t.same(m.endpoints.map((e) => [e.name, e.requests.total, e.latency.totalCount, e.non2xx]),
    [[`${a.url}/ok`, 40, 40, 0], [`${a.url}/bad`, 20, 20, 20], [`${b.url}/z`, 20, 20, 0]])
  t.notOk(m.merge.ignored.includes('endpoints'))
  assertSums(t, m)
  // benchrig merge --per-url, in process: the merged rows
  const dir = t.testdir({ 'a.json': JSON.stringify(r1), 'b.json': JSON.stringify(r2) })
  let out = ''
  const write = process.stdout.write
  process.stdout.write = (s) => { out += s; return true }
  try {
    await require('../../lib/cli/merge.js').main(['--per-url', path.join(dir, 'a.json'), path.join(dir, 'b.json')])
  } finally {
    process.stdout.write = write
  }
  const rows = out.split('\n').filter((l) => l.startsWith('│ http://')).map((l) => l.split('│').map((c) => c.trim()).slice(1, 3))
  t.same(rows, [[`${a.url}/ok`, '40'], [`${a.url}/bad`, '20'], [`${b.url}/z`, '20']])
})

t.test('an origin that cannot be reached fails the run, naming it, as one origin would', async (t) => {
  const a = await server(t, 'a')
  await t.rejects(load({ url: [`${a.url}/ok`, 'http://127.0.0.1:1/x'], connections: 2, amount: 50 }),
    { code: 'BENCHRIG_ERR_UNREACHABLE', message: /cannot connect to 127\.0\.0\.1:1 \(ECONNREFUSED\)/ })
})

t.test('usage: several origins need a connection each, and one origin for --har', async (t) => {
  t.throws(() => load({ url: ['http://a/', 'http://b/', 'http://c/'], connections: 4, workers: 2 }),
    { constructor: UsageError, message: /-c\/--connections 4 is too few for 3 origins on 2 workers: .*give -c 6 or more/ })
  t.throws(() => load({ url: 'http://a/', requests: [{ name: '' }] }), { constructor: UsageError, message: /requests\[0\]\.name/ })
})

t.test('the --per-url table fits 100 columns; long names are shortened in the middle', async (t) => {
  t.equal(shortenMiddle('abcdefghij', 10), 'abcdefghij')
  t.equal(shortenMiddle('abcdefghijkl', 7), 'abc…jkl')
  const long = 'http://127.0.0.1:8080/' + 'x'.repeat(150) + '/end'
  const e = (name, n) => ({ name, method: 'GET', requests: { total: n }, latency: { p50: 1.234, p99: 12.5, max: 250 }, non2xx: 0, errors: 0, throughput: { total: 123456 } })
  const text = formatEndpoints({ endpoints: [e(long, 1234567), e('login', 3)] })
  const lines = text.split('\n')
  t.equal(lines.length, 6)
  for (const l of lines) t.ok(l.length <= 100, `${l.length} columns`)
  t.match(lines[3], /^│ http:\/\/127\.0\.0\.…x+\/end │ 1\.23M +│ 1\.23 +│ 12\.5 +│ 250 +│ 0 +│ 0 +│ 123 kB │$/)
  t.equal(lines[3].length, 100, 'the long name takes what the numbers leave')
  t.match(lines[4], /│ login +│ 3 /)
  t.equal(formatEndpoints({ endpoints: [] }), '')
})

t.test('benchrig load --per-url prints a row per URL (the CLI, once)', async (t) => {
  const a = await server(t, 'a')
  const b = await server(t, 'b')
  const bin = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
  const out = await new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'load', '--per-url', '-c', '2', '-a', '20', `${a.url}/p`, `${b.url}/bad`], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stderr.on('data', (d) => { stdout += d }) // the tables are on stderr (as autocannon's)
    child.on('close', (code) => resolve({ code, stdout }))
  })
  t.equal(out.code, 0)
  const rows = out.stdout.split('\n').filter((l) => l.startsWith('│ http://'))
  t.same(rows.map((l) => l.split('│').map((c) => c.trim()).slice(1, 3)), [[`${a.url}/p`, '10'], [`${b.url}/bad`, '10']])
  t.match(rows[1], /│ 10 +│ 0 +│ [\d.]+ k?B +│$/, 'non-2xx 10, no errors')
  // the tables fit 100 columns (a warning line, such as the generator's
  // saturation on this short run, is one line whatever its length)
  for (const l of out.stdout.split('\n').filter((l) => /^[┌├└│]/.test(l))) t.ok(l.length <= 100, `at most 100 columns: ${l}`)
})
