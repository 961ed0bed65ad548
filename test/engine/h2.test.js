'use strict'
// The HTTP/2 client (--h2) against real servers: node:http2 (h2c and TLS),
// `benchrig serve --h2c`, and nginx (h2c). Every load is bounded by an
// amount or a short duration; the assertions are on counts, never speed.
const t = require('tap')
const http2 = require('node:http2')
const { load } = require('../../lib/engine/index.js')
const { startServe } = require('../helpers/serve.js')
const { needTool } = require('../helpers/tools.js')
const { startNginx } = require('../../bench/lib/nginx.js')
const { testCert } = require('../../http/_serve.js')

/** A node:http2 server closed in teardown; handler(stream, headers, server). */
async function h2server (t, handler, { secure = false, settings, onSession } = {}) {
  const server = secure ? http2.createSecureServer({ ...testCert(), settings }) : http2.createServer({ settings })
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {}) // streams the client or a GOAWAY cut short
    handler(stream, headers, server)
  })
  server.on('session', (session) => {
    session.on('error', () => {})
    if (onSession) onSession(session)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    server.close(resolve)
    // close() waits for sessions: end the ones a test left open
    for (const s of sessions) s.destroy()
  }))
  const sessions = new Set()
  server.on('session', (s) => {
    sessions.add(s)
    s.on('close', () => sessions.delete(s))
  })
  return `${secure ? 'https' : 'http'}://127.0.0.1:${server.address().port}`
}

t.test('node:http2 h2c: exact amounts over connections x streams, bodies compared, several URLs', async (t) => {
  const paths = {}
  const url = await h2server(t, (stream, headers) => {
    paths[headers[':path']] = (paths[headers[':path']] ?? 0) + 1
    stream.respond({ ':status': headers[':path'] === '/missing' ? 404 : 200, 'content-type': 'text/plain' })
    stream.end('hello h2')
  })
  const r = await load({ url: `${url}/`, h2: true, connections: 3, maxStreams: 7, amount: 2000, expectBody: 'hello h2' })
  t.equal(r.requests.total, 2000)
  t.equal(r.requests.sent, 2000)
  t.equal(r.errors, 0)
  t.equal(r.mismatches, 0)
  t.same(r.statusCodeStats, { 200: { count: 2000 } })
  t.equal(r.latency.totalCount, 2000, 'one latency per stream')
  const two = await load({ url: [`${url}/a`, `${url}/missing`], h2: true, connections: 2, maxStreams: 5, amount: 100 })
  t.equal(two.requests.total, 100)
  t.same(two.statusCodeStats, { 200: { count: 50 }, 404: { count: 50 } })
  t.equal(paths['/a'], 50)
  const mismatch = await load({ url: `${url}/`, h2: true, connections: 1, maxStreams: 3, amount: 20, expectBody: 'other' })
  t.equal(mismatch.mismatches, 20)
})

t.test('request method, headers and body reach the server', async (t) => {
  const seen = []
  const url = await h2server(t, (stream, headers) => {
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    stream.on('end', () => {
      seen.push({ method: headers[':method'], x: headers['x-k'], authority: headers[':authority'], body: Buffer.concat(chunks).toString(), len: headers['content-length'] })
      stream.respond({ ':status': 201 })
      stream.end()
    })
  })
  const r = await load({ url: `${url}/p`, h2: true, method: 'PUT', headers: ['x-k: v', 'Connection: keep-alive'], body: 'abc', connections: 2, maxStreams: 4, amount: 40 })
  t.equal(r.requests.total, 40)
  t.equal(r.errors, 0)
  t.same(r.statusCodeStats, { 201: { count: 40 } })
  t.same(seen[0], { method: 'PUT', x: 'v', authority: new URL(url).host, body: 'abc', len: '3' })
})

t.test('flow control: bodies larger than the window (WINDOW_UPDATE per stream and connection)', async (t) => {
  const body = Buffer.alloc(300 * 1024, 'w')
  const url = await h2server(t, (stream) => {
    stream.respond({ ':status': 200, 'content-length': body.length })
    stream.end(body)
  })
  // the smallest window: every stream needs several updates
  const r = await load({ url, h2: true, h2Window: 65535, connections: 2, maxStreams: 4, amount: 40, timeout: 10 })
  t.equal(r.requests.total, 40)
  t.equal(r.errors, 0)
  t.ok(r.throughput.total >= 40 * body.length, 'every body read')
  const big = await load({ url, h2: true, h2Window: '1m', connections: 1, maxStreams: 8, amount: 40, expectBody: body.toString() })
  t.equal(big.requests.total, 40)
  t.equal(big.mismatches, 0, 'DATA across reads and frames compared in order')
})

t.test('HPACK: dynamic table and Huffman over many responses; CONTINUATION for large header blocks; 1xx', async (t) => {
  let n = 0
  const url = await h2server(t, (stream, headers) => {
    n++
    const h = { ':status': 200, 'x-count': `value number ${n}`, 'x-same': 'same every time', 'set-cookie': `s=${n % 7}` }
    if (headers[':path'] === '/large') h['x-large'] = 'L'.repeat(40000) + n // > 16384: HEADERS + CONTINUATION
    if (headers[':path'] === '/early') stream.additionalHeaders({ ':status': 103, link: '</a>; rel=preload' })
    stream.respond(h)
    stream.end('ok')
  })
  const r = await load({ url: `${url}/`, h2: true, connections: 2, maxStreams: 10, amount: 3000 })
  t.equal(r.requests.total, 3000)
  t.equal(r.errors, 0, 'the table stayed in sync')
  const large = await load({ url: [`${url}/large`, `${url}/`], h2: true, connections: 1, maxStreams: 4, amount: 60 })
  t.equal(large.requests.total, 60)
  t.equal(large.errors, 0)
  t.same(large.statusCodeStats, { 200: { count: 60 } })
  const early = await load({ url: `${url}/early`, h2: true, connections: 1, maxStreams: 2, amount: 10 })
  t.equal(early.requests.total, 10)
  t.equal(early.informational, 10, '103 Early Hints skipped and counted')
  t.same(early.statusCodeStats, { 200: { count: 10 } })
})

t.test('SETTINGS_MAX_CONCURRENT_STREAMS below --max-streams is respected', async (t) => {
  let open = 0
  let most = 0
  const url = await h2server(t, (stream) => {
    most = Math.max(most, ++open)
    setTimeout(() => {
      open--
      stream.respond({ ':status': 200 })
      stream.end('x')
    }, 2)
  }, { settings: { maxConcurrentStreams: 3 } })
  const r = await load({ url, h2: true, connections: 1, maxStreams: 50, amount: 200 })
  t.equal(r.requests.total, 200)
  t.equal(r.errors, 0, 'no stream refused')
  t.ok(most <= 3, `at most 3 streams open at once (saw ${most})`)
  t.ok(most >= 2, 'and more than one')
})

t.test('benchrig serve --h2c: RST_STREAM mid-run counted as reset errors, the rest completes', async (t) => {
  const target = await startServe(t, { h2c: true })
  const r = await load({ url: [`${target.url}/`, `${target.url}/?reset=1`], h2: true, connections: 2, maxStreams: 5, amount: 200 })
  t.equal(r.requests.total, 100, 'the streams that were answered')
  t.equal(r.errorsByKind.reset, 100, 'one reset error per reset stream')
  t.equal(r.errors, 100)
  t.equal(r.errorDetails.reset, 'INTERNAL_ERROR')
  t.equal(r.reconnects, 0, 'a stream reset does not touch the connection')
  t.same(r.statusCodeStats, { 200: { count: 100 } })
})

t.test('benchrig serve --h2c: graceful GOAWAY after responses (close=1) reconnects, nothing lost', async (t) => {
  const target = await startServe(t, { h2c: true })
  const r = await load({ url: [`${target.url}/`, `${target.url}/`, `${target.url}/?close=1`], h2: true, connections: 2, maxStreams: 3, amount: 300 })
  t.equal(r.requests.total, 300)
  t.equal(r.errors, 0, `no errors (${JSON.stringify(r.errorDetails)})`)
  t.ok(r.goaways >= 1, `GOAWAYs counted (${r.goaways})`)
  t.ok(r.reconnects >= 1, `reconnected (${r.reconnects})`)
  t.equal(r.requests.sent, 300)
})

t.test('GOAWAY mid-run: streams above last-stream-id are re-sent on a new connection', async (t) => {
  let n = 0
  let sessions = 0
  const url = await h2server(t, (stream) => {
    n++
    const session = stream.session
    if (n % 50 === 0 && !session.goingAway) {
      session.goingAway = true
      // answer nothing above this stream, then close: the client must re-send them
      session.goaway(http2.constants.NGHTTP2_NO_ERROR, stream.id)
      stream.respond({ ':status': 200 })
      stream.end('last')
      setTimeout(() => session.destroy(), 20)
      return
    }
    if (session.goingAway) return // never answered: above last-stream-id
    stream.respond({ ':status': 200 })
    stream.end('ok')
  }, { onSession: () => sessions++ })
  const r = await load({ url, h2: true, connections: 1, maxStreams: 8, amount: 400, timeout: 5 })
  t.equal(r.requests.total, 400, 'every request completed')
  t.equal(r.errors, 0, `no errors (${JSON.stringify(r.errorDetails)})`)
  t.ok(r.goaways >= 7, `GOAWAYs counted (${r.goaways})`)
  t.ok(r.resent > 0, `requests re-sent (${r.resent})`)
  t.ok(sessions >= 8, `new connections (${sessions})`)
})

t.test('GOAWAY with an error code is a goaway error; the run goes on', async (t) => {
  let n = 0
  const url = await h2server(t, (stream) => {
    stream.respond({ ':status': 200 })
    stream.end('ok')
    if (++n === 30) stream.session.goaway(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, stream.id)
  })
  const r = await load({ url, h2: true, connections: 1, maxStreams: 1, amount: 100 })
  t.equal(r.requests.total, 100)
  t.equal(r.errorsByKind.goaway, 1)
  t.equal(r.errorDetails.goaway, 'ENHANCE_YOUR_CALM')
  t.equal(r.goaways, 1)
})

t.test('stream ids running out: the connection is replaced before the limit', async (t) => {
  const ids = new Set()
  const url = await h2server(t, (stream) => {
    ids.add(stream.id)
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  // h2LastStreamId (tests only) stands in for 2^31-1: 11 streams per connection
  const r = await load({ url, h2: true, h2LastStreamId: 21, connections: 1, maxStreams: 4, amount: 100 })
  t.equal(r.requests.total, 100)
  t.equal(r.errors, 0)
  t.ok(Math.max(...ids) <= 21, 'no stream id above the limit')
  t.ok(r.reconnects >= 9, `reconnected (${r.reconnects})`)
})

t.test('timeouts: unanswered streams time out, the connection is reset, the run ends', async (t) => {
  const url = await h2server(t, (stream, headers) => {
    if (headers[':path'] === '/never') return
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  const r = await load({ url: [`${url}/never`, `${url}/`], h2: true, connections: 1, maxStreams: 2, amount: 6, timeout: 0.2 })
  t.ok(r.errorsByKind.timeout >= 1, `timeouts counted (${r.errorsByKind.timeout})`)
  t.equal(r.requests.total + r.errorsByKind.timeout, 6, 'every request finished: answered or timed out')
})

t.test('TLS: ALPN h2 with the test certificate; a server without h2 is named', async (t) => {
  const url = await h2server(t, (stream) => {
    stream.respond({ ':status': 200 })
    stream.end('secure')
  }, { secure: true })
  const r = await load({ url, h2: true, connections: 2, maxStreams: 8, amount: 300, expectBody: 'secure' })
  t.equal(r.requests.total, 300)
  t.equal(r.errors, 0)
  t.equal(r.mismatches, 0)
  const https = require('node:https')
  const h1 = https.createServer(testCert(), (req, res) => res.end('h1'))
  await new Promise((resolve) => h1.listen(0, '127.0.0.1', resolve))
  t.teardown(() => h1.close())
  const err = await load({ url: `https://127.0.0.1:${h1.address().port}/`, h2: true, connections: 1, amount: 1 }).catch((e) => e)
  t.match(err.message, /did not choose h2 in ALPN/)
})

t.test('workers split connections and the amount', async (t) => {
  const url = await h2server(t, (stream) => {
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  const r = await load({ url, h2: true, workers: 2, connections: 4, maxStreams: 5, amount: 1001 })
  t.equal(r.requests.total, 1001)
  t.equal(r.errors, 0)
})

t.test('options: --max-streams and --h2-window need --h2; -p is refused with --h2', async (t) => {
  t.throws(() => load({ url: 'http://127.0.0.1:1/', maxStreams: 4 }), /--max-streams applies to HTTP\/2 only: add --h2/)
  t.throws(() => load({ url: 'http://127.0.0.1:1/', h2Window: '1m' }), /--h2-window applies to HTTP\/2 only/)
  t.throws(() => load({ url: 'http://127.0.0.1:1/', h2: true, pipelining: 2 }), /-p\/--pipelining is HTTP\/1.1/)
  t.throws(() => load({ url: 'http://127.0.0.1:1/', h2: true, maxStreams: 0 }), /invalid --max-streams "0"/)
  t.throws(() => load({ url: 'http://127.0.0.1:1/', h2: true, h2Window: '10' }), /invalid --h2-window "10"/)
  const err = await load({ url: 'http://127.0.0.1:1/', h2: true, amount: 1 }).catch((e) => e)
  t.equal(err.code, 'BENCHRIG_ERR_UNREACHABLE')
})

t.test('nginx h2c (listen ... http2): exact amounts, bodies compared', async (t) => {
  if (!needTool(t, 'nginx')) return
  const nginx = await startNginx({ body: 'from nginx h2', h2c: true })
  t.teardown(() => nginx.stop())
  const r = await load({ url: nginx.url, h2: true, connections: 4, maxStreams: 10, amount: 3000, expectBody: 'from nginx h2' })
  t.equal(r.requests.total, 3000)
  t.equal(r.errors, 0)
  t.equal(r.mismatches, 0)
  t.same(r.statusCodeStats, { 200: { count: 3000 } })
  // nginx allows 128 streams per connection by default: ask for more
  const many = await load({ url: nginx.url, h2: true, connections: 1, maxStreams: 500, amount: 2000 })
  t.equal(many.requests.total, 2000)
  t.equal(many.errors, 0, 'never above the server\'s SETTINGS_MAX_CONCURRENT_STREAMS')
})

t.test('--h2 against a server that answers in HTTP/1.1: a clear error, not a frame-size riddle', async (t) => {
  const target = await startServe(t) // HTTP/1.1 only (no --h2c)
  await t.rejects(load({ url: target.url + '/', h2: true, connections: 2, duration: 1 }), {
    code: 'BENCHRIG_ERR_UNREACHABLE',
    message: /the server answered in HTTP\/1\.x, not HTTP\/2\): with --h2 the server must speak HTTP\/2: h2c with prior knowledge/
  })
})
