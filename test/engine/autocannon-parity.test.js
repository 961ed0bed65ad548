'use strict'
// The same tests, written against autocannon's documented API (README of
// autocannon 9: options, events, result keys, track, printResult,
// aggregateResult), run once with require('autocannon') and once with
// require('benchrig').load: code written for autocannon runs on benchrig with
// only the import changed. Real servers on 127.0.0.1; every run is bounded.
const t = require('tap')
const http = require('node:http')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Writable } = require('node:stream')

const LIBS = [
  ['autocannon', require('autocannon')],
  ['benchrig', require('../../index.js').load]
]
const HOOK = path.join(__dirname, '..', 'fixtures', 'hooks', 'set-header.js')
const PCT = ['min', 'max', 'average', 'stddev', 'p2_5', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']

/** A server that records what it gets; /404 answers 404, /never never answers. */
async function server (t, listenArg = 0) {
  const seen = []
  const s = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      seen.push({ method: req.method, url: req.url, headers: req.headers, body })
      if (req.url === '/never') return
      res.statusCode = req.url === '/404' ? 404 : 200
      res.setHeader('x-token', `tok-${seen.length}`)
      res.end(req.url.startsWith('/echo') ? `${req.method} ${req.url} ${body}` : 'hello')
    })
  })
  await new Promise((resolve) => (typeof listenArg === 'string' ? s.listen(listenArg, resolve) : s.listen(0, '127.0.0.1', resolve)))
  t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
  return { seen, url: typeof listenArg === 'string' ? 'http://localhost/' : `http://127.0.0.1:${s.address().port}` }
}

for (const [name, autocannon] of LIBS) {
  t.test(name, async (t) => {
    t.test('promise form: the documented result keys', async (t) => {
      const { url } = await server(t)
      const r = await autocannon({ url, connections: 2, amount: 20, title: 'parity' })
      for (const k of ['title', 'url', 'socketPath', 'requests', 'latency', 'throughput', 'duration', 'errors', 'timeouts',
        'mismatches', 'start', 'finish', 'connections', 'pipelining', 'non2xx', 'resets', 'statusCodeStats']) {
        t.ok(Object.hasOwn(r, k), k)
      }
      for (const g of ['requests', 'latency', 'throughput']) for (const k of PCT) t.type(r[g][k], 'number', `${g}.${k}`)
      t.equal(r.title, 'parity')
      t.equal(r.url, url)
      t.ok(r.start instanceof Date && r.finish instanceof Date)
      t.equal(r.requests.total, 20)
      t.equal(r.connections, 2)
      t.equal(Number(r.statusCodeStats[200].count), 20)
      t.equal(r.errors, 0)
    })

    t.test('callback form and the events start, response, done', async (t) => {
      const { url } = await server(t)
      const events = { start: 0, done: 0, responses: [] }
      const result = await new Promise((resolve, reject) => {
        const instance = autocannon({ url, connections: 1, amount: 5 }, (err, res) => (err ? reject(err) : resolve(res)))
        instance.on('start', () => events.start++)
        instance.on('done', () => events.done++)
        instance.on('response', (client, statusCode, resBytes, responseTime) => {
          events.responses.push({ client, statusCode, resBytes, responseTime })
        })
      })
      t.equal(result.requests.total, 5)
      t.equal(events.start, 1)
      t.equal(events.done, 1)
      t.equal(events.responses.length, 5)
      for (const e of events.responses) {
        t.equal(e.statusCode, 200)
        t.type(e.client, 'object')
        t.type(e.client.setHeaders, 'function')
        t.ok(e.resBytes > 'hello'.length, 'resBytes counts the whole response')
        t.ok(e.responseTime >= 0)
      }
    })

    t.test('invalid options reach the callback', async (t) => {
      const err = await new Promise((resolve) => autocannon({ url: 'http://127.0.0.1:1/', connections: -1 }, (e) => resolve(e)))
      t.ok(err instanceof Error)
    })

    t.test('tick carries counter and bytes each second', async (t) => {
      const { url } = await server(t)
      const ticks = []
      const instance = autocannon({ url, connections: 1, duration: 1.5 })
      instance.on('tick', (x) => ticks.push(x))
      await instance
      t.ok(ticks.length >= 1)
      t.type(ticks[0].counter, 'number')
      t.type(ticks[0].bytes, 'number')
    })

    t.test('method, headers, body', async (t) => {
      const { url, seen } = await server(t)
      await autocannon({ url: `${url}/echo`, method: 'PUT', headers: { 'x-a': '1' }, body: 'payload', connections: 1, amount: 3 })
      t.equal(seen.length, 3)
      for (const q of seen) t.match(q, { method: 'PUT', url: '/echo', body: 'payload', headers: { 'x-a': '1' } })
    })

    t.test('requests: setupRequest, onResponse, context reset per loop', async (t) => {
      const { url, seen } = await server(t)
      const got = []
      await autocannon({
        url,
        connections: 1,
        amount: 6,
        initialContext: { loops: 0 },
        requests: [
          {
            method: 'POST',
            path: '/echo/login',
            body: 'user=a',
            onResponse: (status, body, context, headers) => {
              context.token = headers['x-token']
              context.loops++
              got.push({ status, body, loops: context.loops })
            }
          },
          {
            path: '/echo/item',
            setupRequest: (req, context) => ({ ...req, path: `/echo/item/${context.token}` })
          }
        ]
      })
      t.equal(seen.length, 6)
      t.same(seen.map((q) => q.url.replace(/tok-\d+/, 'T')), ['/echo/login', '/echo/item/T', '/echo/login', '/echo/item/T', '/echo/login', '/echo/item/T'])
      t.equal(seen[1].url, '/echo/item/tok-1', 'the second request used the first response\'s header')
      t.same(got.map((g) => g.loops), [1, 1, 1], 'the context starts afresh with every loop')
      t.same(got[0], { status: 200, body: 'POST /echo/login user=a', loops: 1 })
    })

    t.test('setupClient: client.setHeaders', async (t) => {
      const { url, seen } = await server(t)
      await autocannon({ url, connections: 2, amount: 4, setupClient: (client) => client.setHeaders({ 'x-client': 'yes' }) })
      t.equal(seen.length, 4)
      t.ok(seen.every((q) => q.headers['x-client'] === 'yes'))
    })

    t.test('idReplacement: a fresh id for every [<id>]', async (t) => {
      const { url, seen } = await server(t)
      await autocannon({ url: `${url}/echo`, method: 'POST', body: '{"id":"[<id>]"}', idReplacement: true, connections: 1, amount: 5 })
      const ids = seen.map((q) => JSON.parse(q.body).id)
      t.equal(ids.length, 5)
      t.equal(new Set(ids).size, 5, 'unique')
      t.notOk(ids.some((id) => id.includes('[<id>]')))
    })

    t.test('expectBody and verifyBody count mismatches', async (t) => {
      const { url } = await server(t)
      const a = await autocannon({ url, connections: 1, amount: 4, expectBody: 'hello' })
      t.equal(a.mismatches, 0)
      const b = await autocannon({ url, connections: 1, amount: 4, expectBody: 'other' })
      t.equal(b.mismatches, 4)
      const c = await autocannon({ url, connections: 1, amount: 4, verifyBody: (body) => body === 'hello' })
      t.equal(c.mismatches, 0)
      const d = await autocannon({ url, connections: 1, amount: 4, verifyBody: (body) => body.length > 100 })
      t.equal(d.mismatches, 4)
    })

    t.test('mismatches count towards the bailout', async (t) => {
      const { url } = await server(t)
      const r = await autocannon({ url, connections: 1, duration: 10, expectBody: 'other', bailout: 3 })
      t.ok(r.duration < 5, `stopped early (${r.duration}s)`)
      t.ok(r.mismatches >= 3)
    })

    t.test('reqError on a timeout', async (t) => {
      const { url } = await server(t)
      const errors = []
      const instance = autocannon({ url: `${url}/never`, connections: 1, duration: 2, timeout: 1 })
      instance.on('reqError', (err) => errors.push(err))
      const r = await instance
      t.ok(errors.length >= 1, 'reqError emitted')
      t.ok(errors[0] instanceof Error)
      t.ok(r.timeouts >= 1)
      t.ok(r.errors >= 1)
    })

    t.test('form: multipart with a file part', async (t) => {
      const { url, seen } = await server(t)
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-form-'))
      t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
      const file = path.join(dir, 'upload.txt')
      fs.writeFileSync(file, 'file content')
      await autocannon({
        url: `${url}/echo`,
        connections: 1,
        amount: 2,
        form: { name: { type: 'text', value: 'alice' }, doc: { type: 'file', path: file } }
      })
      t.equal(seen.length, 2)
      const q = seen[0]
      t.equal(q.method, 'POST', 'a form is a POST')
      t.match(q.headers['content-type'], /^multipart\/form-data; boundary=/)
      t.match(q.body, /name="name"\r\n\r\nalice\r\n/)
      t.match(q.body, /name="doc"; filename="upload\.txt"\r\n[^]*\r\n\r\nfile content\r\n/)
    })

    t.test('har: the entries for the target origin', async (t) => {
      const { url, seen } = await server(t)
      const entry = (u, method = 'GET', postData) => ({ request: { method, url: u, headers: [{ name: 'x-har', value: '1' }], ...(postData ? { postData } : {}) } })
      const har = {
        log: {
          entries: [
            entry(`${url}/echo/one`),
            entry('http://other.invalid/skip'),
            entry(`${url}/echo/two?q=1`, 'POST', { mimeType: 'text/plain', text: 'from-har' })
          ]
        }
      }
      await autocannon({ url, connections: 1, amount: 4, har })
      t.same(seen.map((q) => `${q.method} ${q.url}`), ['GET /echo/one', 'POST /echo/two?q=1', 'GET /echo/one', 'POST /echo/two?q=1'])
      t.equal(seen[1].body, 'from-har')
      t.equal(seen[0].headers['x-har'], '1')
    })

    t.test('excludeErrorStats: non-2xx responses leave the latency', async (t) => {
      const { url } = await server(t)
      const r = await autocannon({ url: [`${url}/`, `${url}/404`], connections: 2, amount: 20, excludeErrorStats: true })
      t.equal(r.non2xx, 10)
      t.equal(r.latency.totalCount, 10, 'only the 2xx latencies')
    })

    t.test('socketPath', async (t) => {
      const sock = path.join(os.tmpdir(), `benchrig-parity-${process.pid}-${name}.sock`)
      fs.rmSync(sock, { force: true })
      const { url, seen } = await server(t, sock)
      const r = await autocannon({ url, socketPath: sock, connections: 1, amount: 3 })
      t.equal(r.requests.total, 3)
      t.equal(seen.length, 3)
    })

    t.test('workers with a setupRequest module', async (t) => {
      const { url, seen } = await server(t)
      const r = await autocannon({ url, connections: 2, workers: 2, amount: 10, requests: [{ setupRequest: HOOK }] })
      t.equal(r.requests.total, 10)
      t.ok(seen.length >= 10)
      t.ok(seen.every((q) => /^worker-\d+$/.test(q.headers['x-hook'])), 'the module ran in the workers')
    })

    t.test('aggregateResult of runs with skipAggregateResult', async (t) => {
      const { url } = await server(t)
      const a = await autocannon({ url, connections: 1, amount: 10, skipAggregateResult: true })
      const b = await autocannon({ url, connections: 1, amount: 15, skipAggregateResult: true })
      const agg = autocannon.aggregateResult([a, b], { url, title: 'both' })
      t.equal(agg.title, 'both')
      t.equal(agg.url, url)
      t.equal(agg.requests.total, 25)
      t.equal(agg.latency.totalCount, 25)
      t.equal(agg['2xx'], 25)
      t.equal(Number(agg.statusCodeStats[200].count), 25)
      for (const k of PCT) t.type(agg.latency[k], 'number', `latency.${k}`)
    })

    t.test('track and printResult', async (t) => {
      const { url } = await server(t)
      let out = ''
      const outputStream = new Writable({ write (chunk, _enc, cb) { out += chunk; cb() } })
      const instance = autocannon({ url, connections: 1, amount: 10 })
      autocannon.track(instance, { outputStream, renderProgressBar: false })
      const r = await instance
      await new Promise((resolve) => setImmediate(resolve))
      t.match(out, /Latency/)
      t.match(out, /Req\/Sec/)
      const text = autocannon.printResult(r)
      t.type(text, 'string')
      t.match(text, /Latency/)
      t.match(text, /requests in [\d.]+s/)
    })

    t.test('forever runs again until stop()', async (t) => {
      const { url } = await server(t)
      let dones = 0
      const instance = autocannon({ url, connections: 1, amount: 5, forever: true })
      await new Promise((resolve) => {
        instance.on('done', (r) => {
          t.equal(r.requests.total, 5)
          if (++dones === 2) {
            instance.stop()
            resolve()
          }
        })
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      t.ok(dones >= 2 && dones <= 3, `${dones} rounds, then it stopped`)
    })
  })
}
