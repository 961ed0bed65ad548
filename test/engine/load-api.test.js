'use strict'
// load() against real node http/https servers: what is sent, the worker
// split, events, the result's JSON shape, TLS with a self-signed cert and
// unix sockets.
const t = require('tap')
const http = require('node:http')
const https = require('node:https')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { load, split } = require('../../lib/engine/index.js')
const { decode } = require('../../lib/engine/measure/hdr-codec.js')

function nodeServer (t, handler, listenArgs = [0, '127.0.0.1'], make = http.createServer) {
  const seen = { requests: [], connections: 0 }
  const server = make((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      seen.requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() })
      handler(req, res)
    })
  })
  server.on('connection', () => { seen.connections++ })
  return new Promise((resolve) => {
    server.listen(...listenArgs, () => {
      t.teardown(() => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve) }))
      resolve({ server, seen, port: server.address().port })
    })
  })
}

t.test('split spreads the remainder and drops nothing', async (t) => {
  t.same(split(10, 3), [4, 3, 3])
  t.same(split(2, 2), [1, 1])
  t.same(split(7, 1), [7])
  for (let n = 0; n < 50; n++) for (let k = 1; k < 6; k++) t.equal(split(n, k).reduce((a, b) => a + b, 0), n)
})

t.test('method, headers, body and Host are sent as given', async (t) => {
  const { seen, port } = await nodeServer(t, (req, res) => res.end('ok'))
  const r = await load({
    url: `http://127.0.0.1:${port}/path?q=1`,
    method: 'post',
    headers: ['x-one: 1', 'x-two=a=b', 'Content-Type: text/plain'],
    body: 'payload',
    connections: 2,
    amount: 6
  })
  t.equal(r.requests.total, 6)
  t.equal(seen.requests.length, 6)
  for (const q of seen.requests) {
    t.equal(q.method, 'POST')
    t.equal(q.url, '/path?q=1')
    t.equal(q.headers['x-one'], '1')
    t.equal(q.headers['x-two'], 'a=b')
    t.equal(q.headers.host, `127.0.0.1:${port}`)
    t.equal(q.headers['content-length'], '7')
    t.equal(q.body, 'payload')
  }
})

t.test('a body file (-i) and several URLs round-robin', async (t) => {
  const { seen, port } = await nodeServer(t, (req, res) => res.end(req.url))
  const file = path.join(os.tmpdir(), `benchrig-body-${process.pid}.txt`)
  fs.writeFileSync(file, 'from a file')
  t.teardown(() => fs.rmSync(file, { force: true }))
  const base = `http://127.0.0.1:${port}`
  const r = await load({ url: [`${base}/a`, `${base}/b`], method: 'PUT', bodyFile: file, connections: 1, amount: 10 })
  t.equal(r.requests.total, 10)
  t.same(r.url, [`${base}/a`, `${base}/b`])
  const paths = seen.requests.map((q) => q.url)
  t.equal(paths.filter((p) => p === '/a').length, 5)
  t.equal(paths.filter((p) => p === '/b').length, 5)
  t.ok(seen.requests.every((q) => q.body === 'from a file'))
})

t.test('workers split connections and the amount exactly', async (t) => {
  const { seen, port } = await nodeServer(t, (req, res) => res.end('hello'))
  const ticks = []
  const run = load({ url: `http://127.0.0.1:${port}/`, connections: 7, workers: 3, pipelining: 2, amount: 301 })
  run.on('tick', (x) => ticks.push(x))
  const r = await run
  t.equal(r.requests.total, 301)
  t.equal(r.requests.sent, 301)
  t.equal(seen.requests.length, 301)
  t.equal(seen.connections, 7, 'seven connections over three workers')
  t.equal(r.workers, 3)
  t.equal(r.saturation.workers.length, 3)
  if (process.platform === 'linux') t.ok(r.saturation.workers.every((w) => typeof w.cpu === 'number'), 'each worker has its own CPU')
  t.equal(r.latency.totalCount, 301)
  t.equal(decode(r.histogram).totalCount, 301, 'the merged histogram holds every request')
})

t.test('a duration run with workers: ticks each second and per-second samples', async (t) => {
  const { port } = await nodeServer(t, (req, res) => res.end('hello'))
  const ticks = []
  let started = 0
  const run = load({ url: `http://127.0.0.1:${port}/`, connections: 4, workers: 2, duration: '2.2s' })
  run.on('start', () => started++)
  run.on('tick', (x) => ticks.push(x))
  let doneEvent
  run.on('done', (r) => { doneEvent = r })
  const r = await run
  t.equal(started, 1)
  t.equal(doneEvent, r, 'done carries the awaited result')
  t.equal(r.samples, 2)
  t.same(ticks.map((x) => x.second), [1, 2])
  t.ok(r.requests.total > 0)
  t.ok(r.duration >= 2 && r.duration < 4)
  t.equal(r.requests.min <= r.requests.max, true)
})

t.test('the result has autocannon\'s keys and ours', async (t) => {
  const { port } = await nodeServer(t, (req, res) => {
    res.statusCode = req.url === '/missing' ? 404 : 200
    res.end('x')
  })
  const base = `http://127.0.0.1:${port}`
  const r = await load({ url: [`${base}/`, `${base}/missing`], connections: 2, amount: 50 })
  for (const k of ['url', 'connections', 'pipelining', 'workers', 'duration', 'samples', 'start', 'finish', 'errors', 'timeouts',
    'mismatches', 'non2xx', 'resets', '1xx', '2xx', '3xx', '4xx', '5xx', 'statusCodeStats', 'latency', 'requests', 'throughput',
    'latencyUs', 'errorsByKind', 'histogram', 'saturation']) {
    t.ok(Object.hasOwn(r, k), k)
  }
  const pk = ['p0_001', 'p0_01', 'p0_1', 'p1', 'p2_5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']
  for (const group of ['latency', 'requests', 'throughput', 'latencyUs']) {
    for (const k of ['average', 'mean', 'stddev', 'min', 'max', ...pk]) t.type(r[group][k], 'number', `${group}.${k}`)
  }
  t.equal(r.requests.total, 50)
  t.equal(r['2xx'], 25)
  t.equal(r['4xx'], 25)
  t.equal(r.non2xx, 25)
  t.equal(r.errorsByKind.status, 25)
  t.equal(r.errors, 0, 'non-2xx responses are not errors')
  t.same(r.statusCodeStats, { 200: { count: 25 }, 404: { count: 25 } })
  t.ok(Math.abs(r.latency.p50 * 1000 - r.latencyUs.p50) < 1, 'latency in ms mirrors µs')
  t.ok(r.latencyUs.min <= r.latencyUs.p50 && r.latencyUs.p50 <= r.latencyUs.max)
  t.ok(r.throughput.total > 0)
  t.type(r.saturation.cpuCores, 'number')
  const w = r.saturation.workers[0]
  t.ok(w.eventLoopUtilization >= 0 && w.eventLoopUtilization <= 1)
  if (process.platform === 'linux') t.ok(w.cpu >= 0 && w.cpu <= 1, `thread cpu ${w.cpu}: a share of one core`)
  const json = JSON.parse(JSON.stringify(r))
  t.match(json.start, /^\d{4}-\d\d-\d\dT/)
})

t.test('https with a self-signed certificate (unchecked by default)', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-tls-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const gen = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'k.pem'),
    '-out', path.join(dir, 'c.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' })
  if (gen.status !== 0) {
    t.skip('openssl could not make a certificate')
    return
  }
  const opts = { key: fs.readFileSync(path.join(dir, 'k.pem')), cert: fs.readFileSync(path.join(dir, 'c.pem')) }
  const { port } = await nodeServer(t, (req, res) => res.end('secure'), [0, '127.0.0.1'], (h) => https.createServer(opts, h))
  const r = await load({ url: `https://localhost:${port}/`, connections: 2, pipelining: 2, amount: 20, expectBody: 'secure' })
  t.equal(r.requests.total, 20)
  t.equal(r.mismatches, 0)
  const checked = await load({ url: `https://localhost:${port}/`, connections: 1, amount: 2, rejectUnauthorized: true, duration: 1 })
    .catch((err) => err)
  t.match(checked.message, /cannot connect/, 'checking the certificate refuses it')
})

t.test('a unix socket (-S) with the URL giving Host and path', async (t) => {
  const sock = path.join(os.tmpdir(), `benchrig-${process.pid}.sock`)
  fs.rmSync(sock, { force: true })
  const { seen } = await nodeServer(t, (req, res) => res.end('unix'), [sock])
  const r = await load({ url: 'http://example.test/over-unix', socketPath: sock, connections: 2, amount: 8 })
  t.equal(r.requests.total, 8)
  t.equal(seen.requests[0].url, '/over-unix')
  t.equal(seen.requests[0].headers.host, 'example.test')
})

t.test('stop() ends a run early with what happened so far', async (t) => {
  const { port } = await nodeServer(t, (req, res) => res.end('x'))
  const run = load({ url: `http://127.0.0.1:${port}/`, connections: 2, duration: 30 })
  setTimeout(() => run.stop(), 300)
  const r = await run
  t.equal(r.stoppedBy, 'stopped')
  t.ok(r.duration < 5)
  t.ok(r.requests.total > 0)
})
