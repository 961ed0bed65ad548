'use strict'
// Failures are counted by kind and never crash or hang the engine:
// malformed responses, timeouts, resets, unreachable targets, bailout.
const t = require('tap')
const fs = require('node:fs')
const https = require('node:https')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')
const { execFile, spawnSync } = require('node:child_process')
const { load } = require('../../lib/engine/index.js')
const { connectHint } = require('../../lib/engine/connect-hint.js')
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

// issue 23: after a parse error nothing more is read from that connection,
// even when well-formed responses follow the fault; the request it hit
// fails, the ones behind it are sent again on a new connection
t.test('a parse error ends the connection: the responses after it on that socket are not counted', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.conn.id === 1) {
      // four requests, then one write: a response, a status line where a
      // header is due, and two well-formed responses after it
      if (req.n === 4) s.write(response('one') + 'HTTP/1.1 200 OK\r\nHTTP/1.1 299 X\r\nContent-Length: 0\r\n\r\n' + response('three', 298) + response('four', 297))
    } else {
      s.write(response('again', 202))
    }
  })
  const r = await load({ url: srv.url, connections: 1, pipelining: 4, amount: 4, timeout: 5 })
  t.same(r.errorsByKind.parse, 1, 'one parse error')
  t.same(Object.keys(r.statusCodeStats).sort(), ['200', '202'], 'nothing after the fault was counted (no 297, 298, 299)')
  t.equal(r.statusCodeStats['200'].count, 1)
  t.equal(r.statusCodeStats['202'].count, 2, 'the two requests behind the failed one, answered on a new connection')
  t.equal(r.resent, 2)
  t.equal(r.reconnects, 1)
  t.equal(srv.stats.connections, 2)
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
    [{ url: 'http://a/', headers: ['novalue'] }, /-H\/--headers "novalue"/],
    [{ url: 'http://a/', headers: ['x: a\r\nb'] }, /CR, LF/],
    [{ url: 'http://a/', method: 'G T' }, /-m\/--method/],
    [{ url: 'http://a/', bodyFile: '/nonexistent/file' }, /-i\/--input "\/nonexistent\/file": ENOENT/],
    [{ url: ['http://a/', 'http://b/'], connections: 1 }, /-c\/--connections 1 is too few for 2 origins/],
    [{ url: ['http://a/', 'http://b/'], har: { log: { entries: [] } } }, /--har sends to one origin/],
    [{ url: 'http://a/', refill: 'sometimes' }, /--refill/]
  ]
  for (const [opts, re] of cases) {
    t.throws(() => load(opts), { constructor: UsageError, message: re }, JSON.stringify(opts))
  }
})

// issue 14, defect 11: say what happened, not "is the server running"
t.test('a certificate the TLS check rejects: said so, with what to do', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-cert-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '1', '-subj', '/CN=localhost'], { cwd: dir, stdio: 'ignore' })
  if (made.status !== 0) {
    t.skip('openssl could not make a certificate')
    return
  }
  const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'k.pem')), cert: fs.readFileSync(path.join(dir, 'c.pem')) }, (req, res) => res.end('ok'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const url = `https://127.0.0.1:${server.address().port}/`
  await t.rejects(load({ url, rejectUnauthorized: true, connections: 1, amount: 1 }), {
    code: 'BENCHRIG_ERR_UNREACHABLE',
    message: /\(DEPTH_ZERO_SELF_SIGNED_CERT\): the server's TLS certificate was rejected .*--ca FILE/
  })
  const ok = await load({ url, connections: 1, amount: 2 })
  t.equal(ok.requests.total, 2, 'unchecked by default')
})

t.test('EADDRNOTAVAIL: a local address that is not ours', async (t) => {
  const srv = await serve(t, (s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'))
  // TEST-NET-3 (RFC 5737): never an address of this machine
  const err = await load({ url: srv.url, localAddress: '203.0.113.7', connections: 1, amount: 1, timeout: 2 }).catch((e) => e)
  t.equal(err.code, 'BENCHRIG_ERR_UNREACHABLE')
  t.match(err.message, /\(EADDRNOTAVAIL\): a --local-address is not an address of this machine/)
  t.notMatch(err.message, /is the server running/)
  t.match(connectHint('EADDRNOTAVAIL', {}), /no local port or address left/)
  t.match(connectHint('ECONNREFUSED', {}), /nothing listens there/)
  t.match(connectHint('ERR_TLS_CERT_ALTNAME_INVALID', {}), /certificate was rejected/)
  t.match(connectHint('ENOTFOUND', {}), /does not resolve/)
})

t.test('the request-log writer failing: one coded message, no stack', async (t) => {
  if (!fs.existsSync('/dev/full')) {
    t.skip('no /dev/full to make writes fail')
    return
  }
  const srv = await serve(t, (s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'))
  await t.rejects(load({ url: srv.url, reqlog: '/dev/full', connections: 1, amount: 5000 }), {
    constructor: RunError,
    code: 'BENCHRIG_ERR_REQLOG',
    message: /cannot write --reqlog "\/dev\/full" \(ENOSPC\)/
  })
  // (not spawnSync: the server answering it lives in this process)
  const cli = await new Promise((resolve) => {
    execFile(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'benchrig.js'), 'load', '--reqlog', '/dev/full', '-c', '1', '-a', '5000', srv.url],
      { encoding: 'utf8', timeout: 60000 }, (err, stdout, stderr) => resolve({ status: err ? err.code : 0, stderr }))
  })
  t.equal(cli.status, 1)
  t.match(cli.stderr, /cannot write --reqlog "\/dev\/full" \(ENOSPC\)/)
  t.notMatch(cli.stderr, /\n\s+at /, 'no stack trace')
})
