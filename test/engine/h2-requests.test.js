'use strict'
// Request sequences and hooks over HTTP/2 (--h2): setupRequest, onResponse,
// the per-connection context, setupClient and the Client API, -I, verifyBody,
// -x, reqError, hooks as modules with workers, --script on the CLI. Against
// node:http2 servers (h2c) that record what each session received, and
// `benchrig serve --h2c`. Every load is bounded by an amount; the assertions
// are on behaviour and counts, never speed.
const t = require('tap')
const http2 = require('node:http2')
const path = require('node:path')
const { load } = require('../../lib/engine/index.js')
const { startServe } = require('../helpers/serve.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'hooks')

/**
 * A node:http2 h2c server that records every request per session (in the
 * order the streams ended) and answers with handler(req) -> {status, headers, body}.
 */
async function recordingServer (t, handler) {
  const server = http2.createServer()
  const sessions = []
  const all = []
  server.on('session', (session) => {
    session.recorded = []
    sessions.push(session.recorded)
    session.on('error', () => {})
  })
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {})
    const list = stream.session.recorded
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    stream.on('end', () => {
      const req = { method: headers[':method'], path: headers[':path'], headers, body: Buffer.concat(chunks).toString() }
      list.push(req)
      all.push(req)
      req.n = all.length
      const { status = 200, headers: extra = {}, body = '' } = handler(req, req.n) ?? {}
      if (stream.destroyed) return
      stream.respond({ ':status': status, ...extra })
      stream.end(body)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const open = new Set()
  server.on('session', (s) => { open.add(s); s.on('close', () => open.delete(s)) })
  t.teardown(() => new Promise((resolve) => {
    server.close(resolve)
    for (const s of open) s.destroy()
  }))
  return { url: `http://127.0.0.1:${server.address().port}`, sessions, all }
}

function cli (args) {
  return spawnOutput(process.execPath, [BIN, 'load', ...args], { timeout: 30000 })
}

t.test('a sequence of 3: setupRequest uses what onResponse stored, in order on every connection', async (t) => {
  const { url, sessions } = await recordingServer(t, (req, n) => ({
    headers: { 'x-token': `tok${n}` },
    body: `body of ${req.path}`
  }))
  const r = await load({
    url,
    h2: true,
    connections: 2,
    maxStreams: 1,
    amount: 12,
    requests: [
      {
        method: 'POST',
        path: '/login',
        body: 'user=a',
        onResponse: (status, body, context, headers) => { context.token = headers['x-token'] }
      },
      {
        path: '/profile',
        setupRequest: (req, context) => {
          req.path = `/profile/${context.token}`
          return req
        },
        onResponse: (status, body, context) => { context.last = body }
      },
      {
        path: '/item',
        setupRequest: (req, context) => {
          req.headers = { ...req.headers, 'x-prev': context.last, 'x-token': context.token }
          return req
        }
      }
    ]
  })
  t.equal(r.requests.total, 12)
  t.equal(r.errors, 0)
  t.equal(sessions.length, 2, 'one session per connection')
  for (const list of sessions) {
    t.equal(list.length, 6)
    for (let i = 0; i < list.length; i += 3) {
      const [login, profile, item] = list.slice(i, i + 3)
      t.same([login.method, login.path, login.body], ['POST', '/login', 'user=a'])
      const token = /^\/profile\/(tok\d+)$/.exec(profile.path)?.[1]
      t.ok(token, `the profile path holds the token of this connection's login: ${profile.path}`)
      t.equal(item.path, '/item')
      t.equal(item.headers['x-token'], token, 'the context is the connection\'s own')
      t.equal(item.headers['x-prev'], `body of ${profile.path}`, 'the body stored by the previous onResponse')
    }
  }
})

t.test('the context starts afresh when the sequence restarts, also when setupRequest sends it back', async (t) => {
  const { url, sessions } = await recordingServer(t, () => ({ body: 'ok' }))
  const resets = []
  let calls = 0
  const r = await load({
    url,
    h2: true,
    connections: 1,
    maxStreams: 1,
    amount: 10,
    initialContext: { n: 0 },
    setupClient: (client) => client.on('reset', () => resets.push(calls)),
    requests: [
      { path: '/a', setupRequest: (req, ctx) => { req.headers = { 'x-n': String(++ctx.n) }; return req } },
      { path: '/b', setupRequest: (req, ctx) => { req.headers = { 'x-n': String(++ctx.n) }; return req } },
      // every other time /c sends the sequence back to /a
      { path: '/c', setupRequest: (req, ctx) => { req.headers = { 'x-n': String(++ctx.n) }; return ++calls % 2 === 0 ? null : req } }
    ]
  })
  t.equal(r.requests.total, 10)
  const got = sessions[0].map((q) => `${q.path}:${q.headers['x-n']}`)
  t.same(got, ['/a:1', '/b:2', '/c:3', '/a:1', '/b:2', '/a:1', '/b:2', '/c:3', '/a:1', '/b:2'], 'the context counts from the initialContext after every restart')
  t.same(resets, [2], 'the Client emitted reset when setupRequest restarted the sequence')
})

t.test('several streams per connection: exact amounts, each response reaches the hook of its own request', async (t) => {
  const { url, all } = await recordingServer(t, (req) => ({ body: `answer ${req.path}` }))
  const got = { '/x': [], '/y': [] }
  const r = await load({
    url,
    h2: true,
    connections: 2,
    maxStreams: 4,
    amount: 101,
    requests: [
      { path: '/x', onResponse: (status, body) => got['/x'].push(body) },
      { path: '/y', onResponse: (status, body) => got['/y'].push(body) }
    ]
  })
  t.equal(r.requests.total, 101)
  t.equal(r.requests.sent, 101)
  t.equal(all.length, 101, 'the server saw exactly the amount')
  t.ok(got['/x'].every((b) => b === 'answer /x'), 'onResponse of /x saw only /x bodies')
  t.ok(got['/y'].every((b) => b === 'answer /y'), 'onResponse of /y saw only /y bodies')
  t.equal(got['/x'].length + got['/y'].length, 101)
  t.equal(got['/x'].length, all.filter((q) => q.path === '/x').length)
})

t.test('setupClient: setHeaders, setBody, setRequest; the Client\'s events', async (t) => {
  const { url, all } = await recordingServer(t, (req) => ({ headers: { 'x-echo': req.body.slice(0, 64) }, body: `got ${req.body.slice(0, 64)}` }))
  const heard = { headers: 0, body: 0, response: 0 }
  const r = await load({
    url,
    h2: true,
    connections: 2,
    maxStreams: 3,
    amount: 30,
    method: 'PUT',
    setupClient: (client) => {
      client.setHeaders({ 'x-client': `c${client.id}` })
      client.setBody(`from ${client.id}`)
      client.on('headers', (h) => { if (h['x-echo'] === `from ${client.id}`) heard.headers++ })
      client.on('body', (b) => { if (b.toString() === `got from ${client.id}`) heard.body++ })
      client.on('response', (status, resBytes) => { if (status === 200 && resBytes > 0) heard.response++ })
    }
  })
  t.equal(r.requests.total, 30)
  t.equal(all.length, 30)
  t.ok(all.every((q) => q.method === 'PUT' && q.body === `from ${q.headers['x-client'].slice(1)}`), 'each connection sent its own headers and body')
  t.equal(new Set(all.map((q) => q.headers['x-client'])).size, 2)
  t.ok(all.every((q) => q.headers['content-length'] === String(q.body.length)), 'content-length of the body set by the client')
  t.same(heard, { headers: 30, body: 30, response: 30 })

  all.length = 0
  const big = Buffer.alloc(200 * 1024, 'z')
  const large = await load({ url, h2: true, connections: 1, maxStreams: 2, amount: 4, method: 'POST', setupClient: (client) => client.setBody(big) })
  t.equal(large.requests.total, 4)
  t.equal(large.errors, 0)
  t.ok(all.every((q) => q.body.length === big.length), 'a body larger than the windows is sent whole')
})

t.test('-I: a fresh id in the path and the body of every request', async (t) => {
  const { url, all } = await recordingServer(t, () => ({}))
  const r = await load({ url: `${url}/items/[<id>]`, h2: true, idReplacement: true, method: 'POST', body: 'id=[<id>]', connections: 2, maxStreams: 3, amount: 20 })
  t.equal(r.requests.total, 20)
  t.ok(all.every((q) => /^\/items\/[0-9a-f-]{36}$/.test(q.path) && /^id=[0-9a-f-]{36}$/.test(q.body)))
  t.equal(new Set(all.map((q) => q.path)).size, 20, 'no id twice')
})

t.test('verifyBody: mismatches counted, towards -B; expectBody with hooks', async (t) => {
  const { url } = await recordingServer(t, (req, n) => ({ body: n % 4 === 0 ? 'bad' : 'good' }))
  const r = await load({ url, h2: true, connections: 2, maxStreams: 2, amount: 40, verifyBody: (body) => body === 'good' })
  t.equal(r.requests.total, 40)
  t.equal(r.mismatches, 10)
  const bail = await load({ url, h2: true, connections: 1, maxStreams: 1, amount: 1000, bailout: 3, verifyBody: (body) => body === 'good' })
  t.equal(bail.mismatches, 3, 'the third mismatch stops the run')
  t.ok(bail.requests.total < 1000)
  // -E beside a sequence: compared on the captured body
  const e = await load({ url, h2: true, connections: 1, maxStreams: 2, amount: 20, expectBody: 'good', requests: [{ onResponse: () => {} }] })
  t.equal(e.requests.total, 20)
  t.equal(e.mismatches, 5)
})

t.test('benchrig serve --h2c: /echo through a sequence, -x, reqError', async (t) => {
  const target = await startServe(t, { h2c: true })
  const seen = []
  const r = await load({
    url: target.url,
    h2: true,
    connections: 2,
    maxStreams: 1,
    amount: 8,
    requests: [
      { path: '/echo', method: 'POST', body: 'first', onResponse: (status, body, ctx) => { ctx.len = JSON.parse(body).bodyLength } },
      {
        path: '/echo',
        setupRequest: (req, ctx) => ({ ...req, headers: { 'x-len': String(ctx.len) } }),
        onResponse: (status, body) => seen.push(JSON.parse(body))
      }
    ]
  })
  t.equal(r.requests.total, 8)
  t.equal(seen.length, 4)
  t.ok(seen.every((e) => e.method === 'GET' && e.headers['x-len'] === '5' && e.httpVersion === '2.0'), 'the second request carried what the first response said')

  const x = await load({ url: [`${target.url}/`, `${target.url}/?status=503`], h2: true, excludeErrorStats: true, connections: 2, maxStreams: 3, amount: 40 })
  t.equal(x.requests.total, 40)
  t.equal(x.non2xx, 20)
  t.equal(x.latency.totalCount, 20, '-x: non-2xx responses are left out of the latency')

  const errors = []
  const run = load({ url: `${target.url}/?reset=1`, h2: true, connections: 1, maxStreams: 2, amount: 6, requests: [{ onResponse: () => {} }] })
  run.on('reqError', (err) => errors.push(err.kind))
  const reset = await run
  t.equal(reset.errors, 6)
  t.same(errors, ['reset', 'reset', 'reset', 'reset', 'reset', 'reset'], 'each RST_STREAM reached reqError')
})

t.test('hooks as module paths with workers: 2', async (t) => {
  const { url, all } = await recordingServer(t, () => ({}))
  const r = await load({
    url,
    h2: true,
    workers: 2,
    connections: 4,
    maxStreams: 1,
    amount: 40,
    requests: [{ path: '/1', setupRequest: path.join(FIXTURES, 'set-header.js') }, { path: '/2', setupRequest: path.join(FIXTURES, 'set-header.js') }]
  })
  t.equal(r.requests.total, 40)
  t.equal(all.length, 40)
  // the hook counts in the context, which starts afresh with each round of the sequence
  t.ok(all.every((q) => q.headers['x-hook'] === `worker-${q.path.slice(1)}`), 'each worker loaded the module and kept a context per connection')
  t.ok(all.some((q) => q.path === '/2'))
})

t.test('--script FILE with --h2 on the CLI (also with workers), and rate mode', async (t) => {
  const { url, sessions } = await recordingServer(t, (req, n) => ({ headers: { 'x-token': `tok${n}` } }))
  for (const extra of [[], ['-w', '2']]) {
    sessions.length = 0
    const s = await cli(['--h2', '--max-streams', '1', '-c', '2', '-a', '8', '-j', '--script', path.join(FIXTURES, 'script.js'), ...extra, `${url}/`])
    t.equal(s.code, 0, s.stderr)
    t.equal(JSON.parse(s.stdout).requests.total, 8)
    t.equal(sessions.flat().length, 8)
    // the connections share the amount, not always evenly: check each one's own order
    for (const list of sessions) {
      t.ok(list.every((q, i) => i % 2 === 0
        ? q.method === 'POST' && q.path === '/login' && q.body === 'user=a'
        : q.path === `/item/tok${list[i - 1].n}`), `login, then an item with the token of that login ${extra.join(' ')}`)
    }
  }

  sessions.length = 0
  const paced = await load({
    url,
    h2: true,
    connections: 2,
    maxStreams: 2,
    overallRate: 400,
    amount: 40,
    requests: [{ path: '/p1' }, { path: '/p2', setupRequest: (req) => ({ ...req, headers: { 'x-paced': '1' } }) }]
  })
  t.equal(paced.requests.total, 40)
  t.equal(sessions.flat().length, 40)
  for (const list of sessions) {
    t.ok(list.every((q, i) => q.path === `/p${i % 2 + 1}` && (q.headers['x-paced'] === '1') === (i % 2 === 1)), 'a paced run takes the sequence too')
  }
})

t.test('a hook that throws ends the run with its message; a response listener sees the bytes', async (t) => {
  const { url } = await recordingServer(t, () => ({ body: 'hello' }))
  const err = await load({ url, h2: true, connections: 1, duration: 5, requests: [{ onResponse: () => { throw new Error('boom') } }] }).catch((e) => e)
  t.match(err.message, /onResponse threw: boom/)
  t.equal(err.code, 'BENCHRIG_ERR_HOOK')

  const sizes = []
  const run = load({ url, h2: true, connections: 1, maxStreams: 2, amount: 10 })
  run.on('response', (client, status, resBytes) => sizes.push(resBytes))
  t.equal((await run).requests.total, 10)
  t.equal(sizes.length, 10)
  t.ok(sizes.every((n) => n > 'hello'.length + 2 * 9), `resBytes counts the stream's frames (${sizes[0]})`)
})

t.test('the sequence goes on across reconnects (-D)', async (t) => {
  const { url, sessions } = await recordingServer(t, () => ({}))
  const r = await load({
    url,
    h2: true,
    connections: 1,
    maxStreams: 1,
    amount: 9,
    reconnectRate: 2,
    requests: [{ path: '/1' }, { path: '/2' }, { path: '/3', setupRequest: (req) => req }]
  })
  t.equal(r.requests.total, 9)
  t.ok(sessions.length >= 4, `a new session every 2 streams (${sessions.length})`)
  t.same(sessions.flat().map((q) => q.path), ['/1', '/2', '/3', '/1', '/2', '/3', '/1', '/2', '/3'])
})

t.test('the per-request encoder: the fields of encodeRequest; a header block over one frame goes in CONTINUATION', async (t) => {
  const { HpackDecoder, encodeRequest, encodeRequestInto, requestBound } = require('../../lib/engine/http2/hpack.js')
  const decode = (buf, start, end) => {
    const d = new HpackDecoder({ full: true })
    const got = []
    d.onHeader = (name, value) => got.push([name, value])
    t.ok(d.decode(buf, start, end))
    return got
  }
  const specs = [
    { method: 'GET', path: '/', host: 'h:1', headers: {} },
    { method: 'DELETE', path: '/a?b=c', host: 'h:1', headers: { Host: 'other:2', 'X-K': 'v', Connection: 'keep-alive', TE: 'trailers', accept: '*/*' }, body: Buffer.from('xyz') },
    { method: 'POST', path: '/p', host: 'h:1', headers: { 'content-length': '3', 'x-long': 'l'.repeat(300) }, body: Buffer.from('abc') }
  ]
  for (const spec of specs) {
    for (const scheme of ['http', 'https']) {
      const out = Buffer.alloc(requestBound(spec, scheme) + 4)
      const end = encodeRequestInto(spec, scheme, out, 4)
      const plain = encodeRequest(spec, scheme)
      t.same(decode(out, 4, end), decode(plain, 0, plain.length), `${spec.method} ${spec.path} ${scheme}`)
    }
  }

  const { url, all } = await recordingServer(t, () => ({}))
  const big = 'b'.repeat(40 * 1024)
  const r = await load({
    url,
    h2: true,
    connections: 1,
    maxStreams: 2,
    amount: 6,
    requests: [{ setupRequest: (req, ctx) => ({ ...req, headers: { 'x-big': big, 'x-i': String(ctx.i = (ctx.i ?? 0) + 1) } }) }]
  })
  t.equal(r.requests.total, 6)
  t.equal(r.errors, 0)
  t.ok(all.every((q) => q.headers['x-big'] === big), 'a 40 KiB header arrived whole')
})

t.test('GOAWAY: streams above the last id are re-sent with the request they held, setupRequest not called again', async (t) => {
  // each session sends GOAWAY with its first stream as the last one processed
  const server = http2.createServer()
  const open = new Set()
  server.on('session', (s) => {
    s.on('error', () => {})
    s.first = true
    open.add(s)
    s.on('close', () => open.delete(s))
  })
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {})
    if (stream.session.first) {
      stream.session.first = false
      stream.session.goaway(0, stream.id)
    }
    stream.respond({ ':status': 200 })
    stream.end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    server.close(() => resolve())
    for (const s of open) s.destroy()
  }))
  let calls = 0
  const r = await load({
    url: `http://127.0.0.1:${server.address().port}`,
    h2: true,
    connections: 1,
    maxStreams: 3,
    amount: 9,
    requests: [{ path: '/1' }, { path: '/2', setupRequest: (req) => { calls++; return req } }, { path: '/3' }]
  })
  t.equal(r.requests.total, 9)
  t.equal(r.errors, 0)
  t.ok(r.resent > 0, `streams were re-sent (${r.resent})`)
  t.equal(calls, 3, 'setupRequest ran once per request of the sequence, not per re-send')
})
