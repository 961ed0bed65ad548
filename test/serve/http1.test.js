'use strict'
// Every route and query key over HTTP/1.1, against serve() in this process.
const t = require('tap')
const net = require('node:net')
const http = require('node:http')
const { serve } = require('../../lib/serve/index.js')
const { DEFAULT_BODY } = require('../../lib/serve/options.js')
const { ECHO_LIMIT } = require('../../lib/serve/handler.js')
const { request } = require('../helpers/serve.js')

t.test('default server', async (t) => {
  const s = await serve()
  t.teardown(() => s.close())
  t.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.ok(s.port > 0, 'port 0 picks a free port')
  t.same(s.pids, [process.pid])
  t.equal(s.h2c, false)

  t.test('/ answers 200 with the fixed small body', async (t) => {
    const r = await request(s.url + '/')
    t.equal(r.status, 200)
    t.same(r.body, DEFAULT_BODY)
    t.equal(r.headers['content-length'], String(DEFAULT_BODY.length))
    t.equal(r.headers['x-benchrig-pid'], String(process.pid))
    t.equal(r.headers['transfer-encoding'], undefined)
  })

  t.test('HEAD / has the headers and no body', async (t) => {
    const r = await request(s.url + '/', { method: 'HEAD' })
    t.equal(r.status, 200)
    t.equal(r.headers['content-length'], String(DEFAULT_BODY.length))
    t.equal(r.body.length, 0)
  })

  t.test('/bytes/SIZE sends SIZE bytes with content-length', async (t) => {
    for (const [spec, size] of [['0', 0], ['1', 1], ['1000', 1000], ['64k', 65536], ['200000', 200000]]) {
      const r = await request(`${s.url}/bytes/${spec}`)
      t.equal(r.status, 200, spec)
      t.equal(r.headers['content-length'], String(size), spec)
      t.equal(r.body.length, size, spec)
    }
    const r = await request(`${s.url}/bytes/10`)
    t.equal(r.body.toString(), 'abcdefghij', 'printable filler')
    t.equal(r.headers['content-type'], 'application/octet-stream')
  })

  t.test('?chunked=1 sends a chunked body of the same size; chunk= sets the piece size', async (t) => {
    const r = await request(`${s.url}/bytes/100000?chunked=1`)
    t.equal(r.headers['transfer-encoding'], 'chunked')
    t.equal(r.headers['content-length'], undefined)
    t.equal(r.body.length, 100000)

    // count the chunk-size lines on the wire: 1000 bytes in pieces of 300 -> 4 chunks + the last one
    const raw = await rawExchange(s.port, 'GET /bytes/1000?chunked=1&chunk=300 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4)
    const sizes = [...body.matchAll(/(?:^|\r\n)([0-9a-f]+)\r\n/g)].map((m) => parseInt(m[1], 16))
    t.same(sizes.filter((n) => n > 0), [300, 300, 300, 100])
    t.match(body, /\r\n0\r\n\r\n$/, 'ends with the last chunk')

    const empty = await request(`${s.url}/bytes/0?chunked=1`)
    t.equal(empty.body.length, 0)
    t.equal(empty.headers['transfer-encoding'], 'chunked')
  })

  t.test('?size= changes the body of /', async (t) => {
    const r = await request(`${s.url}/?size=2k`)
    t.equal(r.body.length, 2048)
  })

  t.test('?status=CODE sets the status, with no body for 204 and 304', async (t) => {
    for (const code of [201, 404, 500, 503]) {
      const r = await request(`${s.url}/?status=${code}`)
      t.equal(r.status, code)
      t.same(r.body, DEFAULT_BODY)
    }
    for (const code of [204, 304]) {
      const r = await request(`${s.url}/bytes/100?status=${code}`)
      t.equal(r.status, code)
      t.equal(r.body.length, 0)
      t.equal(r.headers['content-length'], undefined)
    }
  })

  t.test('?delay=MS answers no sooner than MS', async (t) => {
    const r = await request(`${s.url}/?delay=120`)
    t.equal(r.status, 200)
    t.equal(r.headers['x-benchrig-delay-ms'], '120')
    t.ok(r.ms >= 110, `took ${r.ms.toFixed(1)} ms`)
  })

  t.test('?delay=MIN-MAX picks a delay in the range', async (t) => {
    const seen = new Set()
    for (let i = 0; i < 8; i++) {
      const r = await request(`${s.url}/bytes/10?delay=5-25`)
      const ms = Number(r.headers['x-benchrig-delay-ms'])
      t.ok(ms >= 5 && ms <= 25, `delay ${ms} in 5..25`)
      t.ok(r.ms >= ms - 2, `took ${r.ms.toFixed(1)} ms for ${ms}`)
      seen.add(ms)
    }
    t.ok(seen.size > 1, 'random: not always the same delay')
  })

  t.test('?close=1 sends Connection: close and closes the connection', async (t) => {
    const agent = new http.Agent({ keepAlive: true })
    t.teardown(() => agent.destroy())
    const kept = await request(s.url + '/', { agent })
    t.equal(kept.headers.connection, 'keep-alive')
    const r = await request(s.url + '/?close=1', { agent })
    t.equal(r.headers.connection, 'close')
    const raw = await rawExchange(s.port, 'GET /?close=1 HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n')
    t.equal(raw.match(/HTTP\/1\.1 200/g).length, 1, 'the server closed after the first of two pipelined requests')
  })

  t.test('pipelined requests are answered in order', async (t) => {
    const raw = await rawExchange(s.port,
      'GET /bytes/3 HTTP/1.1\r\nHost: x\r\n\r\nGET /?status=503 HTTP/1.1\r\nHost: x\r\n\r\nGET /pid HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    t.same([...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]), ['200', '503', '200'])
  })

  t.test('/echo returns method, url, headers and body as JSON', async (t) => {
    const body = JSON.stringify({ hello: 'wörld' })
    const r = await request(s.url + '/echo?x=1', { method: 'POST', headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body })
    t.equal(r.status, 200)
    t.equal(r.headers['content-type'], 'application/json')
    const e = JSON.parse(r.body)
    t.equal(e.method, 'POST')
    t.equal(e.url, '/echo?x=1')
    t.equal(e.httpVersion, '1.1')
    t.equal(e.headers['x-test'], 'yes')
    t.equal(e.body, body)
    t.equal(e.bodyLength, Buffer.byteLength(body))
    const put = JSON.parse((await request(s.url + '/echo?status=202', { method: 'PUT', body: 'abc' })).body)
    t.equal(put.method, 'PUT')
    t.equal(put.body, 'abc')
    const get = await request(s.url + '/echo?status=202')
    t.equal(get.status, 202, 'query keys apply to /echo too')
    t.equal(JSON.parse(get.body).bodyLength, 0)
  })

  t.test('?reset=1 resets the connection without a response', async (t) => {
    await t.rejects(request(s.url + '/?reset=1'), { code: 'ECONNRESET' })
    await t.rejects(request(s.url + '/echo?reset=1&delay=20', { method: 'POST', body: 'x' }), { code: 'ECONNRESET' })
    t.equal((await request(s.url + '/')).status, 200, 'the server goes on')
  })

  t.test('/stats counts the requests this process answered, not itself', async (t) => {
    const before = JSON.parse((await request(s.url + '/stats')).body)
    t.equal(before.pid, process.pid)
    t.equal(before.freezes, 0)
    t.type(before.uptimeMs, 'number')
    for (let i = 0; i < 5; i++) await request(s.url + (i % 2 ? '/' : '/bytes/1?status=500'))
    const after = JSON.parse((await request(s.url + '/stats')).body)
    t.equal(after.requests - before.requests, 5)
  })

  t.test('/echo answers 413 to a body over its limit', async (t) => {
    const r = await request(s.url + '/echo', { method: 'POST', body: Buffer.alloc(ECHO_LIMIT + 1) })
    t.equal(r.status, 413)
    t.match(r.body.toString(), /\/echo reads at most 16777216 bytes/)
  })

  t.test('/pid returns the serving process id', async (t) => {
    const r = await request(s.url + '/pid')
    t.equal(r.body.toString(), `${process.pid}\n`)
  })

  t.test('unknown route: 404 listing the routes; bad query or size: 400 naming it', async (t) => {
    const r = await request(s.url + '/nope')
    t.equal(r.status, 404)
    t.match(r.body.toString(), /no route for \/nope: use \/, \/bytes\/SIZE, \/echo, \/pid or \/stats/)
    const q = await request(s.url + '/?status=42')
    t.equal(q.status, 400)
    t.match(q.body.toString(), /\?status=42: give a status code from 200 to 599/)
    const b = await request(s.url + '/bytes/lots')
    t.equal(b.status, 400)
    t.match(b.body.toString(), /\/bytes\/lots: give a whole number of bytes/)
    const ok = await request(s.url + '/?cachebuster=9')
    t.equal(ok.status, 200, 'unknown query keys are ignored')
  })

  t.test('a request without Host is answered; garbage gets 400 and the server lives on', async (t) => {
    const raw = await rawExchange(s.port, 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n')
    t.match(raw, /^HTTP\/1\.1 200/)
    const bad = await rawExchange(s.port, 'NOT HTTP AT ALL\r\n\r\n')
    t.match(bad, /^HTTP\/1\.1 400/)
    t.equal((await request(s.url + '/')).status, 200)
  })
})

t.test('flags set the defaults of every route', async (t) => {
  const s = await serve({ size: 300, status: 202, chunked: true, chunkSize: 100, delay: 30 })
  t.teardown(() => s.close())
  const r = await request(s.url + '/')
  t.equal(r.status, 202)
  t.equal(r.body.length, 300)
  t.equal(r.headers['transfer-encoding'], 'chunked')
  t.ok(r.ms >= 25, `delayed by the default delay (${r.ms.toFixed(1)} ms)`)
  const b = await request(s.url + '/bytes/7')
  t.equal(b.status, 202)
  t.equal(b.body.length, 7)
  const q = await request(s.url + '/bytes/7?status=200&chunked=0&delay=0')
  t.equal(q.status, 200, 'the query overrides the flags')
  t.equal(q.headers['content-length'], '7')
  t.equal(q.headers['x-benchrig-delay-ms'], undefined)

  const c = await serve({ close: true })
  t.teardown(() => c.close())
  t.equal((await request(c.url + '/')).headers.connection, 'close')
})

t.test('close() stops listening and ends idle keep-alive connections', async (t) => {
  const s = await serve()
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  const r = await request(s.url + '/', { agent })
  const socketClosed = new Promise((resolve) => r.socket.once('close', resolve))
  r.socket.ref() // the agent unrefs idle sockets: keep this process up to see the close
  await s.close()
  await socketClosed
  t.pass('the idle connection was closed')
  await t.rejects(request(s.url + '/'), { code: 'ECONNREFUSED' })
  t.equal(await s.close(), undefined, 'a second close is harmless')
})

t.test('a port in use is a UsageError naming --port', async (t) => {
  const a = await serve()
  t.teardown(() => a.close())
  await t.rejects(serve({ port: a.port }), { name: 'UsageError', message: new RegExp(`^--port ${a.port}: 127\\.0\\.0\\.1:${a.port} is already in use`) })
})

t.test('the freeze in-process: /stats counts the freezes, close() stops them', async (t) => {
  const s = await serve({ freeze: '5/0.05' })
  await new Promise((resolve) => setTimeout(resolve, 300))
  const stats = JSON.parse((await request(s.url + '/stats')).body)
  t.ok(stats.freezes >= 2, `${stats.freezes} freezes in 300 ms with one every 50 ms`)
  await s.close()
  t.pass('closed; the unref\'d freeze timer is cleared and lets this process end')
})

t.test('IPv6 loopback, where available', async (t) => {
  let s
  try {
    s = await serve({ host: '::1' })
  } catch (err) {
    t.skip(`no IPv6 loopback here: ${err.message}`)
    return
  }
  t.teardown(() => s.close())
  t.match(s.url, /^http:\/\/\[::1\]:\d+$/)
  t.equal((await request(s.url + '/pid')).status, 200)
})

/** Writes raw bytes, returns everything the server sends until it closes. */
function rawExchange (port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text))
    let out = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => { out += d })
    socket.on('end', () => resolve(out))
    socket.on('error', reject)
    socket.setTimeout(5000, () => socket.destroy(new Error(`no close after: ${out}`)))
  })
}
