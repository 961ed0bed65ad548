'use strict'
// --h2c: HTTP/2 with prior knowledge and HTTP/1.1 on the same port.
const t = require('tap')
const net = require('node:net')
const http = require('node:http')
const { serve } = require('../../lib/serve/index.js')
const { DEFAULT_BODY } = require('../../lib/serve/options.js')
const { startServe, request, h2request, h2connect } = require('../helpers/serve.js')

t.test('h2c server', async (t) => {
  const s = await serve({ h2c: true })
  t.teardown(() => s.close())
  t.equal(s.h2c, true)
  const session = h2connect(t, s.url)

  t.test('/ over HTTP/2', async (t) => {
    const r = await h2request(session, '/')
    t.equal(r.status, 200)
    t.same(r.body, DEFAULT_BODY)
    t.equal(r.headers['content-length'], String(DEFAULT_BODY.length))
    t.equal(r.headers['x-benchrig-pid'], String(process.pid))
  })

  t.test('many concurrent streams on one session', async (t) => {
    const all = await Promise.all(Array.from({ length: 50 }, (_, i) => h2request(session, `/bytes/${i * 100}`)))
    t.same(all.map((r) => r.body.length), Array.from({ length: 50 }, (_, i) => i * 100))
  })

  t.test('/bytes/SIZE, chunked (no content-length), HEAD, status', async (t) => {
    const big = await h2request(session, '/bytes/300000')
    t.equal(big.body.length, 300000)
    t.equal(big.headers['content-length'], '300000')
    const chunked = await h2request(session, '/bytes/70000?chunked=1&chunk=1000')
    t.equal(chunked.body.length, 70000)
    t.equal(chunked.headers['content-length'], undefined)
    t.equal(chunked.headers['transfer-encoding'], undefined, 'no connection-specific headers in HTTP/2')
    const head = await h2request(session, '/bytes/5', { method: 'HEAD' })
    t.equal(head.status, 200)
    t.equal(head.body.length, 0)
    const s503 = await h2request(session, '/?status=503')
    t.equal(s503.status, 503)
    const s204 = await h2request(session, '/?status=204')
    t.equal(s204.status, 204)
    t.equal(s204.body.length, 0)
  })

  t.test('delay and echo', async (t) => {
    const d = await h2request(session, '/pid?delay=80')
    t.equal(d.headers['x-benchrig-delay-ms'], '80')
    t.ok(d.ms >= 70, `took ${d.ms.toFixed(1)} ms`)
    const e = JSON.parse((await h2request(session, '/echo', { method: 'POST', headers: { 'x-test': 'h2' }, body: 'payload' })).body)
    t.equal(e.method, 'POST')
    t.equal(e.httpVersion, '2.0')
    t.equal(e.headers['x-test'], 'h2')
    t.equal(e.body, 'payload')
  })

  t.test('?reset=1 resets the stream (RST_STREAM) and the session goes on', async (t) => {
    await t.rejects(h2request(session, '/?reset=1'), { code: 'ERR_HTTP2_STREAM_ERROR', message: /NGHTTP2_INTERNAL_ERROR/ })
    await t.rejects(h2request(session, '/bytes/10?reset=1&delay=20'), { code: 'ERR_HTTP2_STREAM_ERROR' })
    t.equal((await h2request(session, '/')).status, 200)
  })

  t.test('bad query: 400; unknown route: 404', async (t) => {
    t.equal((await h2request(session, '/?delay=soon')).status, 400)
    t.equal((await h2request(session, '/missing')).status, 404)
  })

  t.test('HTTP/1.1 on the same port', async (t) => {
    const r = await request(s.url + '/bytes/1234?chunked=1')
    t.equal(r.status, 200)
    t.equal(r.body.length, 1234)
    t.equal(r.headers['transfer-encoding'], 'chunked')
    const e = JSON.parse((await request(s.url + '/echo', { method: 'POST', body: 'h1' })).body)
    t.equal(e.httpVersion, '1.1')
    t.equal(e.body, 'h1')
  })

  t.test('an HTTP/1.1 request arriving one byte at a time still goes to HTTP/1.1', async (t) => {
    const text = 'GET /pid HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
    const out = await new Promise((resolve, reject) => {
      const socket = net.connect(s.port, '127.0.0.1')
      let buf = ''
      let i = 0
      const step = () => {
        if (i < 6) setTimeout(() => { socket.write(text[i++]); step() }, 5)
        else socket.write(text.slice(i))
      }
      socket.on('connect', step)
      socket.setEncoding('latin1')
      socket.on('data', (d) => { buf += d })
      socket.on('end', () => resolve(buf))
      socket.on('error', reject)
    })
    t.match(out, /^HTTP\/1\.1 200/)
    t.match(out, new RegExp(`\\r\\n\\r\\n${process.pid}\\n$`))
  })
})

t.test('an HTTP/2 preface split across reads still goes to HTTP/2', async (t) => {
  const s = await startServe(t, { h2c: true })
  // preface + an empty SETTINGS frame, sent as 'PR' then the rest
  const bytes = Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])])
  const reply = await new Promise((resolve, reject) => {
    const socket = net.connect(s.port, '127.0.0.1', () => {
      socket.write(bytes.subarray(0, 2))
      setTimeout(() => socket.write(bytes.subarray(2)), 30)
    })
    socket.once('data', (d) => { socket.destroy(); resolve(d) })
    socket.on('error', reject)
  })
  t.equal(reply[3], 4, 'the server answers with an HTTP/2 SETTINGS frame')
})

t.test('clients that leave while their response is delayed do not hurt the server', async (t) => {
  const s = await startServe(t, { h2c: true })
  const left = []
  for (const q of ['reset=1', 'close=1', 'chunked=1', 'status=204']) {
    const path = `/bytes/100000?delay=600&${q}`
    const h1 = http.get(s.url + path)
    h1.on('error', () => {})
    const stream = h2connect(t, s.url).request({ ':path': path })
    stream.on('error', () => {})
    stream.end()
    const session = h2connect(t, s.url)
    session.request({ ':path': path }).on('error', () => {}).end()
    left.push(() => h1.destroy(), () => stream.close(), () => session.destroy())
  }
  // the requests arrive (200 ms: ample on a starved machine) and the clients
  // leave while every response is still delayed
  await new Promise((resolve) => setTimeout(resolve, 200))
  for (const leave of left) leave()
  await new Promise((resolve) => setTimeout(resolve, 600)) // the delays run out
  const stats = JSON.parse((await request(s.url + '/stats')).body)
  t.equal(stats.requests, 12, 'all twelve arrived')
  t.equal((await request(s.url + '/')).status, 200, 'the server still answers')
})

t.test('?close=1 over HTTP/2 ends the session with GOAWAY after the response', async (t) => {
  const s = await startServe(t, { h2c: true }) // the helper other tests use
  const session = h2connect(t, s.url)
  const goaway = new Promise((resolve) => session.once('goaway', (code) => resolve(code)))
  const r = await h2request(session, '/bytes/10?close=1')
  t.equal(r.status, 200)
  t.equal(r.body.length, 10)
  t.equal(await goaway, 0, 'GOAWAY with NO_ERROR')
})

t.test('--max-streams sets SETTINGS_MAX_CONCURRENT_STREAMS', async (t) => {
  const s = await startServe(t, { h2c: true, maxStreams: 4 })
  const session = h2connect(t, s.url)
  await new Promise((resolve) => session.once('remoteSettings', resolve))
  t.equal(session.remoteSettings.maxConcurrentStreams, 4)
  // more requests than streams allowed: the client queues them, all are answered
  const all = await Promise.all(Array.from({ length: 10 }, () => h2request(session, '/?delay=5')))
  t.same(all.map((r) => r.status), Array(10).fill(200))
})

t.test('close() sends GOAWAY to open sessions and stops listening', async (t) => {
  const s = await serve({ h2c: true })
  const session = h2connect(t, s.url)
  t.equal((await h2request(session, '/')).status, 200)
  const gone = new Promise((resolve) => session.once('close', resolve))
  await s.close()
  await gone
  t.pass('the session closed')
  await t.rejects(request(s.url + '/'), { code: 'ECONNREFUSED' })
})
