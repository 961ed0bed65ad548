'use strict'
// Failures are counted by kind and never crash or hang the engine:
// malformed responses, timeouts, resets, unreachable targets, bailout.
const t = require('tap')
const net = require('node:net')
const { load } = require('../../lib/engine/index.js')
const { RunError, UsageError } = require('../../lib/errors.js')
const { rawServer, response } = require('../helpers/raw-server.js')

async function serve (t, onRequest) {
  const srv = await rawServer(onRequest)
  t.teardown(() => srv.close())
  return srv
}

t.test('malformed responses: parse errors, connection reset, the run goes on', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.total % 4 === 0) s.write('HTTP/1.1 2x0 broken\r\n\r\n')
    else s.write(response('fine'))
  })
  const r = await load({ url: srv.url, connections: 2, pipelining: 2, amount: 40, timeout: 5 })
  t.ok(r.errorsByKind.parse >= 1, `parse errors: ${r.errorsByKind.parse}`)
  t.equal(r.requests.total + r.errorsByKind.parse, 40, 'every request either completed or failed')
  t.equal(r.errors, r.errorsByKind.parse)
  t.ok(srv.stats.connections > 2, 'broken connections were replaced')
  t.match(r.errorDetails.parse, /status/)
})

t.test('garbage only, with -B/--bailout: stops after N errors', async (t) => {
  const srv = await serve(t, (s) => s.write('NOT HTTP AT ALL\r\n\r\n'))
  const r = await load({ url: srv.url, connections: 2, duration: 20, bailout: 5 })
  t.equal(r.stoppedBy, 'bailout')
  t.ok(r.errors >= 5)
  t.ok(r.duration < 10, 'stopped long before the duration')
  t.equal(r.requests.total, 0)
})

t.test('timeouts: the request is counted and its connection reset', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.n === 1) s.write(response('fast')) // only the first answer per connection
  })
  const r = await load({ url: srv.url, connections: 2, duration: 1.2, timeout: 0.3 })
  t.ok(r.timeouts >= 2, `timeouts: ${r.timeouts}`)
  t.equal(r.errorsByKind.timeout, r.timeouts)
  t.ok(r.requests.total >= 2)
  t.ok(srv.stats.connections >= 4, 'timed-out connections were replaced')
})

t.test('resets by the server are read errors', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.total % 2 === 0) s.resetAndDestroy()
    else s.write(response('ok'))
  })
  const r = await load({ url: srv.url, connections: 1, amount: 10, timeout: 5 })
  t.ok(r.errorsByKind.read >= 1, `read errors: ${r.errorsByKind.read}`)
  // a reset after an answer on the same socket re-sends the rest: all complete
  t.equal(r.requests.total, 10)
})

t.test('a server that closes without answering cannot make the engine loop', async (t) => {
  const srv = await serve(t, (s) => s.end())
  const r = await load({ url: srv.url, connections: 1, amount: 5, timeout: 5 })
  t.equal(r.requests.total, 0)
  t.equal(r.errorsByKind.read, 5)
})

t.test('unreachable target: a clear RunError, quickly', async (t) => {
  const port = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port
      s.close(() => resolve(p))
    })
  })
  const started = Date.now()
  await t.rejects(load({ url: `http://127.0.0.1:${port}/`, connections: 3, duration: 30 }), {
    constructor: RunError,
    code: 'BENCHRIG_ERR_UNREACHABLE',
    message: /cannot connect to 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/
  })
  t.ok(Date.now() - started < 10000, 'does not wait for the whole duration')
  const run = load({ url: `http://127.0.0.1:${port}/`, connections: 1, duration: 30 })
  const heard = await new Promise((resolve) => run.on('error', resolve))
  t.equal(heard.code, 'BENCHRIG_ERR_UNREACHABLE', "an 'error' listener hears it too")
})

t.test('invalid options throw a UsageError naming the flag', async (t) => {
  const cases = [
    [{}, /no URL/],
    [{ url: 'ftp://x/' }, /only http/],
    [{ url: 'not a url' }, /invalid URL/],
    [{ url: 'http://a/', connections: 0 }, /-c\/--connections "0"/],
    [{ url: 'http://a/', pipelining: 'x' }, /-p\/--pipelining "x"/],
    [{ url: 'http://a/', duration: '10x' }, /-d\/--duration "10x"/],
    [{ url: 'http://a/', duration: -1 }, /-d\/--duration/],
    [{ url: 'http://a/', timeout: 0 }, /-t\/--timeout/],
    [{ url: 'http://a/', amount: 1.5 }, /-a\/--amount/],
    [{ url: 'http://a/', workers: 4, connections: 2 }, /-w\/--workers 4 is more than -c/],
    [{ url: 'http://a/', headers: ['novalue'] }, /-H\/--headers "novalue"/],
    [{ url: 'http://a/', headers: ['x: a\r\nb'] }, /CR, LF/],
    [{ url: 'http://a/', method: 'G T' }, /-m\/--method/],
    [{ url: 'http://a/', bodyFile: '/nonexistent/file' }, /-i\/--input "\/nonexistent\/file": ENOENT/],
    [{ url: ['http://a/', 'http://b/'] }, /one origin/],
    [{ url: 'http://a/', refill: 'sometimes' }, /--refill/]
  ]
  for (const [opts, re] of cases) {
    t.throws(() => load(opts), { constructor: UsageError, message: re }, JSON.stringify(opts))
  }
})
