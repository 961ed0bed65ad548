'use strict'
// gRPC unary calls over the built-in HTTP/2 client (issue 27, part 3),
// against a real @grpc/grpc-js server: calls answered, status from the
// trailers counted by code (trailers-only replies too), metadata and the
// deadline (grpc-timeout from -t) as the server saw them, workers and merge,
// and bad input (a .proto that does not parse, a method it does not define)
// refused before any traffic.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const grpc = require('@grpc/grpc-js')
const protobuf = require('protobufjs')
const { load } = require('../../lib/engine/index.js')
const { merge } = require('../../lib/engine/result/merge.js')
const { UsageError } = require('../../lib/errors.js')

const PROTO = path.join(__dirname, '..', 'fixtures', 'grpc', 'echo.proto')
const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

async function echoServer (t) {
  const root = protobuf.loadSync(PROTO)
  const Req = root.lookupType('bench.Request')
  const Rep = root.lookupType('bench.Reply')
  const ser = (T) => (o) => Buffer.from(T.encode(T.fromObject(o)).finish())
  const de = (T) => (b) => T.toObject(T.decode(b))
  const def = (name) => ({ path: `/bench.Echo/${name}`, requestStream: false, responseStream: false, requestSerialize: ser(Req), requestDeserialize: de(Req), responseSerialize: ser(Rep), responseDeserialize: de(Rep) })
  const seen = { calls: 0, users: new Set(), deadlines: [] }
  const server = new grpc.Server()
  server.addService({ Say: def('Say'), Slow: def('Slow') }, {
    Say: (call, cb) => {
      seen.calls++
      seen.users.add(String(call.metadata.get('x-user')[0] ?? ''))
      const d = call.getDeadline()
      seen.deadlines.push(d instanceof Date ? d.getTime() - Date.now() : Number(d) - Date.now())
      if (call.request.code) cb({ code: call.request.code, details: 'asked' })
      else cb(null, { text: call.request.text })
    },
    Slow: (call, cb) => setTimeout(() => cb(null, { text: 'late' }), call.request.ms)
  })
  const port = await new Promise((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))))
  t.teardown(() => server.forceShutdown())
  return { url: `http://127.0.0.1:${port}`, seen }
}

t.test('unary calls: answered, status from the trailers by code, metadata and deadline sent', async (t) => {
  const srv = await echoServer(t)
  const base = { url: srv.url, proto: PROTO, call: 'bench.Echo/Say', connections: 2, timeout: 7 }
  const ok = await load({ ...base, amount: 200, data: '{"text":"hi"}', metadata: '{"x-user":"ann"}' })
  t.equal(ok.requests.total, 200)
  t.equal(srv.seen.calls, 200, 'the server saw every call')
  t.same(ok.grpc, { call: 'bench.Echo/Say', messageBytes: 4, statusCodes: { OK: 200 }, ok: 200, failed: 0 })
  t.same([...srv.seen.users], ['ann'], 'metadata as headers')
  t.ok(srv.seen.deadlines.every((ms) => ms > 5000 && ms <= 7000), 'grpc-timeout from -t (7 s)')
  const failing = await load({ ...base, amount: 50, data: '{"text":"x","code":5}' })
  t.same(failing.grpc.statusCodes, { NOT_FOUND: 50 }, 'a trailers-only reply counts its code')
  t.equal(failing.grpc.failed, 50)
  t.equal(failing.errors, 0, 'a gRPC status is not a transport error')
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-grpc-')), 'data.json')
  fs.writeFileSync(file, '{"text":"from a file","code":14}')
  t.teardown(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }))
  const fromFile = await load({ ...base, amount: 20, workers: 2, data: `@${file}` })
  t.same(fromFile.grpc.statusCodes, { UNAVAILABLE: 20 }, '--data @FILE, over two workers')
  const m = merge([JSON.parse(JSON.stringify(ok)), JSON.parse(JSON.stringify(failing))].map((r) => ({ ...r, grpc: { ...r.grpc, messageBytes: 4 } })))
  t.same(m.grpc.statusCodes, { OK: 200, NOT_FOUND: 50 })
  t.equal(m.grpc.ok, 200)
  t.equal(m.grpc.failed, 50)
})

t.test('a rate of calls: corrected latency, the uncorrected kept', async (t) => {
  const srv = await echoServer(t)
  const r = await load({ url: srv.url, proto: PROTO, call: 'bench.Echo/Say', connections: 1, overallRate: 200, duration: 0.5 })
  t.equal(r.latencyCorrected, true)
  t.equal(r.grpc.ok, r.requests.total)
  t.equal(r.uncorrectedLatency.totalCount, r.requests.total)
})

t.test('bad input: one clear error before any traffic', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-proto-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const broken = path.join(dir, 'broken.proto')
  fs.writeFileSync(broken, 'syntax = "proto3";\nmessage A { string x = 1 }\n')
  const base = { url: 'http://127.0.0.1:1', proto: PROTO, call: 'bench.Echo/Say' }
  const cases = [
    [{ ...base, proto: broken }, /--proto ".*broken\.proto" does not load: .*line 2/],
    [{ ...base, proto: path.join(dir, 'none.proto') }, /does not load: no such file/],
    [{ ...base, call: 'bench.Echo/Shout' }, /service bench\.Echo has no method Shout \(its methods: Say, Slow, Stream\)/],
    [{ ...base, call: 'bench.Nope/Say' }, /defines no service bench\.Nope \(it defines: bench\.Echo\)/],
    [{ ...base, call: 'Say' }, /invalid --call "Say"/],
    [{ ...base, call: 'bench.Echo/Stream' }, /is a streaming method/],
    [{ ...base, data: '{"text": 5}' }, /--data does not fit bench\.Request: text: string expected/],
    [{ ...base, data: '{"text":' }, /--data is not JSON/],
    [{ ...base, data: '[1]' }, /give a JSON object/],
    [{ ...base, data: '@/nonexistent.json' }, /cannot read --data "@\/nonexistent\.json": ENOENT/],
    [{ ...base, metadata: '{"grpc-x":"1"}' }, /--metadata "grpc-x": not a name a call may set/],
    [{ ...base, metadata: '{"a":1}' }, /--metadata "a": give a string/],
    [{ ...base, metadata: 'x' }, /--metadata is not JSON/],
    [{ url: base.url, call: 'bench.Echo/Say' }, /--call needs --proto/],
    [{ url: base.url, proto: PROTO }, /--proto needs --call/],
    [{ url: base.url, data: '{}' }, /--data is the message of a gRPC call/],
    [{ ...base, body: 'x' }, /a gRPC call's message is --data/],
    [{ ...base, method: 'PUT' }, /a gRPC call is a POST/],
    [{ ...base, pipelining: 2 }, /-p\/--pipelining is HTTP\/1\.1/],
    [{ ...base, url: [base.url, 'http://127.0.0.1:2'] }, /calls one server/]
  ]
  for (const [opts, re] of cases) t.throws(() => load(opts), { constructor: UsageError, message: re }, re.source)
  const cli = spawnSync(process.execPath, [BIN, 'load', '-d', '1', '--proto', broken, '--call', 'bench.Echo/Say', 'http://127.0.0.1:1'], { encoding: 'utf8' })
  t.equal(cli.status, 2)
  t.match(cli.stderr, /^benchrig load: --proto ".*broken\.proto" does not load/)
})

t.test('a server that is not gRPC: calls without grpc-status are counted as MISSING; unknown codes as OTHER', async (t) => {
  const http2 = require('node:http2')
  const plain = http2.createServer((req, res) => res.end('not grpc'))
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve))
  t.teardown(() => plain.close())
  const r = await load({ url: `http://127.0.0.1:${plain.address().port}`, proto: PROTO, call: 'bench.Echo/Say', connections: 1, amount: 10 })
  t.same(r.grpc.statusCodes, { MISSING: 10 })
  t.equal(r.grpc.failed, 10)
  const odd = http2.createServer()
  odd.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true })
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '99' }))
    stream.end(Buffer.alloc(5))
  })
  await new Promise((resolve) => odd.listen(0, '127.0.0.1', resolve))
  t.teardown(() => odd.close())
  const o = await load({ url: `http://127.0.0.1:${odd.address().port}`, proto: PROTO, call: 'bench.Echo/Say', connections: 1, amount: 10 })
  t.same(o.grpc.statusCodes, { OTHER: 10 }, 'a code outside the table')
})
