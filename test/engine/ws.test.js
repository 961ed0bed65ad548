'use strict'
// WebSocket load (issue 27) against the `ws` package's server and node's
// http server upgraded by hand (test/helpers/ws-servers.js): counts,
// matching by order and by id, rate mode's two histograms, workers, server
// pings, closes and fragmented replies, masking as the RFC requires,
// protocol violations and handshake refusals counted by kind, merge, and
// bad input refused before any traffic. Counts and shapes, never speed.
const t = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { load } = require('../../lib/engine/index.js')
const { merge } = require('../../lib/engine/result/merge.js')
const { UsageError, RunError } = require('../../lib/errors.js')
const { wsServer, handServer, serverFrame } = require('../helpers/ws-servers.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

t.test('closed loop against ws: every message answered, one in flight per connection', async (t) => {
  const srv = await wsServer(t)
  const r = await load({ url: srv.url + '/', connections: 5, amount: 500, timeout: 5 })
  t.equal(r.requests.total, 500)
  t.equal(r.requests.sent, 500)
  t.equal(srv.stats.messages, 500)
  t.equal(r.errors, 0)
  t.equal(r['2xx'], 500)
  t.same(r.statusCodeStats, {}, 'replies have no status code')
  t.equal(r.ws.match, 'order')
  t.equal(r.ws.messageBytes, 5, 'the default message')
  t.equal(r.handshakeLatency.totalCount, 5, 'one handshake per connection')
  t.equal(r.connectLatency.totalCount, 5)
  t.equal(typeof r.handshakeHistogram, 'string')
  t.equal(r.latency.totalCount, 500)
  t.same(r.ws.closeCodes, {})
  t.equal(Object.values(r.ws.protocolErrors).reduce((a, b) => a + b), 0)
})

t.test('ids and binary frames: replies matched by the number in the field', async (t) => {
  const srv = await wsServer(t)
  const r = await load({ url: srv.url, connections: 3, amount: 300, body: '{"op":"echo"}', wsId: 'seq', wsBinary: true })
  t.equal(r.requests.total, 300)
  t.equal(r.ws.match, 'id:seq')
  t.equal(r.ws.binary, true)
  t.equal(r.ws.unmatched, 0)
  t.equal(r.ws.messageBytes, '{"seq":{{id}},"op":"echo"}'.length - 6 + 16, 'the id slot is 16 bytes wide')
})

t.test('replies out of order: ids match each to its message; an unknown id is counted, not matched', async (t) => {
  let held = null
  const srv = await handServer(t, (socket, msg) => {
    // answer two messages at a time, the second first, and once a stranger
    if (held === null) { held = msg; return }
    socket.write(Buffer.concat([serverFrame(1, msg), serverFrame(1, held), serverFrame(1, '{"id": 99999999}')]))
    held = null
  })
  const r = await load({ url: srv.url, connections: 1, overallRate: 400, duration: 0.5, wsId: 'id', timeout: 5 })
  t.ok(r.requests.total >= 50, `answered: ${r.requests.total}`)
  t.equal(r.ws.unmatched, r.requests.total / 2, 'one stranger per pair')
  t.equal(r.errors, 0)
  t.equal(srv.stats.errors.length, 0, 'the server read every frame as a masked client frame')
})

t.test('a message rate: latency from the planned send, the uncorrected histogram kept', async (t) => {
  const srv = await wsServer(t)
  const r = await load({ url: srv.url, connections: 2, overallRate: 300, duration: 0.6 })
  t.equal(r.rate.mode, 'overall')
  t.equal(r.latencyCorrected, true)
  t.equal(r.uncorrectedLatency.totalCount, r.requests.total)
  t.equal(r.latency.totalCount, r.requests.total)
  t.equal(r.rate.sent, r.requests.sent)
  t.ok(r.requests.total > 0)
})

t.test('workers: the run splits and merges; the handshakes add up', async (t) => {
  const srv = await wsServer(t)
  const r = await load({ url: srv.url, connections: 4, workers: 2, amount: 400 })
  t.equal(r.requests.total, 400)
  t.equal(r.handshakeLatency.totalCount, 4)
  t.equal(r.saturation.workers.length, 2)
})

t.test('server pings are answered with pongs; server closes are counted by code and reconnected', async (t) => {
  const srv = await wsServer(t)
  const pinged = await load({ url: srv.url + '/ping', connections: 2, amount: 100 })
  t.equal(pinged.requests.total, 100)
  t.equal(pinged.ws.pings, 100)
  t.ok(srv.stats.pongs >= 98, `the server got the pongs (${srv.stats.pongs})`)
  const closing = await load({ url: srv.url + '/close/5/4001', connections: 2, amount: 60 })
  t.equal(closing.requests.total, 60)
  t.ok(closing.ws.closeCodes['4001'] >= 10, `closes: ${JSON.stringify(closing.ws.closeCodes)}`)
  t.equal(closing.ws.serverCloses, closing.ws.closeCodes['4001'])
  t.ok(closing.reconnects >= 10)
  t.equal(closing.errors, 0, 'each close came after its reply')
})

t.test('masking: a fresh random key per frame, the payload masked with it', async (t) => {
  const srv = await handServer(t, (socket, msg) => socket.write(serverFrame(1, msg)))
  const r = await load({ url: srv.url, connections: 1, amount: 40, body: 'the same bytes each time' })
  t.equal(r.requests.total, 40)
  t.same(srv.stats.errors, [], 'ws\'s Receiver in server mode took every frame (it refuses unmasked ones)')
  const raw = Buffer.concat(srv.stats.raw)
  const keys = new Set()
  const masked = new Set()
  for (let at = 0; at < raw.length;) {
    const len = raw[at + 1] & 0x7f
    t.equal(raw[at + 1] & 0x80, 0x80, 'mask bit set')
    keys.add(raw.subarray(at + 2, at + 6).toString('hex'))
    const body = raw.subarray(at + 6, at + 6 + len)
    masked.add(body.toString('hex'))
    t.equal(Buffer.from(body.map((b, i) => b ^ raw[at + 2 + (i & 3)])).toString(), 'the same bytes each time')
    at += 6 + len
  }
  t.equal(keys.size, 40, 'no key repeats')
  t.equal(masked.size, 40, 'so the same message never goes out as the same bytes')
})

t.test('fragmented replies with a ping between fragments; an empty close', async (t) => {
  const srv = await handServer(t, (socket, msg, ctx) => {
    socket.write(Buffer.concat([serverFrame(1, msg.subarray(0, 2), { fin: false }), serverFrame(9, 'p')]))
    setImmediate(() => socket.write(Buffer.concat([serverFrame(0, msg.subarray(2, 3), { fin: false }), serverFrame(0, msg.subarray(3)),
      ...(ctx.n === 10 ? [serverFrame(8, '')] : [])])))
  })
  const r = await load({ url: srv.url, connections: 1, amount: 30 })
  t.equal(r.requests.total, 30)
  t.equal(r.ws.pings, 30)
  // every 10th reply comes with a close: after 10 and 20 (after 30 the run has ended)
  t.same(r.ws.closeCodes, { 1005: 2 }, 'a close without a code is 1005')
  t.equal(r.reconnects, 2)
  t.equal(r.errors, 0)
})

t.test('protocol violations are counted by kind; the run goes on and ends', async (t) => {
  const srv = await handServer(t, (socket, msg, ctx) => {
    if (ctx.path === '/masked') socket.write(serverFrame(1, msg, { mask: true }))
    else if (ctx.path === '/opcode') socket.write(Buffer.from([0x83, 0]))
    else if (ctx.path === '/code') socket.write(serverFrame(8, Buffer.from([0x03, 0xe7])))
    else if (ctx.path === '/rsv') socket.write(Buffer.from([0xc1, 1, 0x41]))
  })
  for (const [p, kind] of [['/masked', 'masked'], ['/opcode', 'opcode'], ['/code', 'close-code'], ['/rsv', 'reserved-bits']]) {
    const r = await load({ url: srv.url + p, connections: 1, amount: 4, timeout: 5 })
    t.equal(r.requests.total, 0, p)
    t.equal(r.ws.protocolErrors[kind], 4, `${p}: ${kind} counted`)
    t.equal(r.errorsByKind.parse, 4)
    t.match(r.errorDetails.parse, `protocol: ${kind}`)
    t.equal(r.ws.closesSent, 4, 'each answered with a close frame')
  }
})

t.test('unanswered messages time out; a message nobody asked for is counted', async (t) => {
  const srv = await handServer(t, (socket, msg, ctx) => {
    if (ctx.path === '/push') socket.write(Buffer.concat([serverFrame(1, 'news'), serverFrame(1, msg)]))
  })
  const silent = await load({ url: srv.url, connections: 1, amount: 2, timeout: 0.2 })
  t.equal(silent.timeouts, 2)
  t.equal(silent.requests.total, 0)
  const push = await load({ url: srv.url + '/push', connections: 1, amount: 10 })
  // the news answers each message (order), and the echo finds nobody waiting
  // (the last echo comes after the run's end)
  t.equal(push.requests.total, 10)
  t.equal(push.ws.unsolicited, 9)
})

t.test('a refused handshake fails the run with what the server said', async (t) => {
  const notFound = await handServer(t, () => {}, { status: 404 })
  await t.rejects(load({ url: notFound.url, connections: 2, duration: 5 }), { constructor: RunError, message: /handshake: HTTP 404 instead of 101/ })
  const wrong = await handServer(t, () => {}, { accept: () => 'bm90IHRoZSBoYXNo' })
  await t.rejects(load({ url: wrong.url, connections: 1, duration: 5 }), { message: /Sec-WebSocket-Accept does not match/ })
  const ext = await handServer(t, () => {}, { extraHeaders: 'Sec-WebSocket-Extensions: permessage-deflate\r\n' })
  await t.rejects(load({ url: ext.url, connections: 1, duration: 5 }), { message: /extension we did not offer/ })
})

t.test('merge adds WebSocket results exactly', async (t) => {
  const srv = await wsServer(t)
  const a = await load({ url: srv.url + '/close/10/4002', connections: 2, amount: 100 })
  const b = await load({ url: srv.url + '/close/10/4002', connections: 3, amount: 90 })
  const m = merge([JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))])
  t.equal(m.requests.total, 190)
  t.equal(m.handshakeLatency.totalCount, a.handshakeLatency.totalCount + b.handshakeLatency.totalCount)
  t.equal(m.ws.closeCodes['4002'], a.ws.closeCodes['4002'] + b.ws.closeCodes['4002'])
  t.equal(m.ws.match, 'order')
  t.same(m.merge.ignored.filter((k) => k.startsWith('ws') || k.startsWith('handshake')), [])
  t.throws(() => merge([a, { ...b, ws: { ...b.ws, match: 'id:x' } }]).ws.match.x, TypeError, 'a disagreement is left out')
  t.ok(merge([a, { ...b, ws: { ...b.ws, match: 'id:x' } }]).merge.ignored.includes('ws.match'))
})

t.test('bad input: one clear error before any traffic', async (t) => {
  const cases = [
    [{ url: 'ws://127.0.0.1:1/', pipelining: 2 }, /-p\/--pipelining is HTTP\/1.1 pipelining/],
    [{ url: 'ws://127.0.0.1:1/', h2: true }, /--h2 does not apply to a WebSocket run/],
    [{ url: 'ws://127.0.0.1:1/', method: 'POST' }, /handshake is a GET/],
    [{ url: ['ws://127.0.0.1:1/a', 'ws://127.0.0.1:1/b'] }, /loads one URL/],
    [{ url: 'ws://127.0.0.1:1/', wsId: 'id', body: 'plain' }, /must hold \{\{id\}\}/],
    [{ url: 'ws://127.0.0.1:1/', wsId: 'a"b' }, /invalid --ws-id/],
    [{ url: 'http://127.0.0.1:1/', wsBinary: true }, /--ws-binary applies to WebSocket runs/],
    [{ url: 'http://127.0.0.1:1/', wsId: 'id' }, /--ws-id applies to WebSocket runs/],
    [{ url: 'ws://127.0.0.1:1/', connection: 'close' }, /--connection close does not apply/]
  ]
  for (const [opts, re] of cases) t.throws(() => load(opts), { constructor: UsageError, message: re }, JSON.stringify(opts))
  const cli = spawnSync(process.execPath, [BIN, 'load', '-p', '4', '-d', '1', 'ws://127.0.0.1:1/'], { encoding: 'utf8' })
  t.equal(cli.status, 2)
  t.match(cli.stderr, /^benchrig load: -p\/--pipelining is HTTP\/1.1 pipelining/)
  t.notMatch(cli.stderr, /at .*\.js:\d+/, 'no stack trace')
})

t.test('messages from a hook: a function here, a module in workers; a hook that throws stops the run', async (t) => {
  const srv = await wsServer(t)
  const seen = new Set()
  const r = await load({ url: srv.url, connections: 2, amount: 200, wsId: 'id', wsMessage: (seq, c) => { seen.add(c); return JSON.stringify({ id: seq, c }) } })
  t.equal(r.requests.total, 200)
  t.equal(r.ws.unmatched, 0)
  t.same([...seen].sort(), [0, 1], 'each connection calls it with its id')
  t.equal(r.ws.messageBytes, undefined, 'a hook\'s messages have no one size')
  const file = path.join(__dirname, '..', 'fixtures', 'ws', 'message.js')
  const w = await load({ url: srv.url, connections: 4, workers: 2, amount: 200, wsId: 'id', wsMessage: file, wsBinary: true })
  t.equal(w.requests.total, 200)
  t.equal(w.ws.unmatched, 0)
  await t.rejects(load({ url: srv.url, connections: 1, amount: 50, wsMessage: (seq) => { if (seq === 3) throw new Error('boom'); return 'x' } }),
    { constructor: RunError, message: /the run stopped: --ws-message threw: boom/ })
  await t.rejects(load({ url: srv.url, connections: 1, amount: 5, wsMessage: () => 42 }), { message: /--ws-message threw: it returned number, not a string or a Buffer/ })
  t.throws(() => load({ url: srv.url, wsMessage: () => 'x', workers: 2, connections: 2 }), { constructor: UsageError, message: /path of a module/ })
  t.throws(() => load({ url: srv.url, wsMessage: '/nonexistent/hook.js' }), { constructor: UsageError, message: /cannot load --ws-message module/ })
  t.throws(() => load({ url: srv.url, wsMessage: file, body: 'x' }), { constructor: UsageError, message: /either with -b\/-i or with --ws-message/ })
  t.throws(() => load({ url: 'http://127.0.0.1:1/', wsMessage: file }), { constructor: UsageError, message: /--ws-message applies to WebSocket/ })
})

t.test('large messages: 16- and 64-bit lengths both ways, replies gathered for their id', async (t) => {
  const srv = await wsServer(t)
  for (const size of [200, 70000, 300000]) {
    const body = JSON.stringify({ op: 'echo', pad: 'y'.repeat(size) })
    const r = await load({ url: srv.url, connections: 2, amount: 20, body, wsId: 'n', overallRate: 1000, duration: 5 })
    t.equal(r.requests.total, 20, `${size} bytes`)
    t.equal(r.ws.unmatched, 0)
    t.ok(r.throughput.total > 20 * size)
  }
})

t.test('wss:// over TLS', async (t) => {
  const https = require('node:https')
  const fs = require('node:fs')
  const { WebSocketServer } = require('ws')
  const os = require('node:os')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-wss-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '1', '-subj', '/CN=localhost'], { cwd: dir, stdio: 'ignore' })
  if (made.status !== 0) return t.skip('openssl could not make a certificate')
  const server = https.createServer({ cert: fs.readFileSync(path.join(dir, 'c.pem')), key: fs.readFileSync(path.join(dir, 'k.pem')) })
  const wss = new WebSocketServer({ server, perMessageDeflate: false })
  wss.on('connection', (s) => s.on('message', (d, binary) => s.send(d, { binary })))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { for (const c of wss.clients) c.terminate(); server.close() })
  const r = await load({ url: `wss://127.0.0.1:${server.address().port}/`, connections: 2, amount: 100 })
  t.equal(r.requests.total, 100)
  t.equal(r.handshakeLatency.totalCount, 2)
})

t.test('Prometheus text and thresholds read a WebSocket result', async (t) => {
  const { prometheusText } = require('../../lib/engine/result/prometheus.js')
  const srv = await wsServer(t)
  const r = await load({ url: srv.url + '/close/5/4003', connections: 1, amount: 20, thresholds: ['errors==0', 'p99<5000ms'] })
  const text = prometheusText(r, { version: 'x' })
  t.match(text, /benchrig_load_requests_total 20\n/)
  t.match(text, /benchrig_load_ws_server_closes_total\{code="4003"\} 3\n/)
  t.match(text, /benchrig_load_ws_protocol_errors_total\{kind="masked"\} 0\n/)
  t.match(text, /benchrig_load_ws_handshake_errors_total\{kind="accept"\} 0\n/)
  t.match(text, /benchrig_load_ws_frames_total\{kind="pings"\} 0\n/)
  t.match(text, /benchrig_load_ws_handshake_seconds_count 4\n/)
  t.same(r.thresholds.map((x) => x.ok), [true, true])
})
