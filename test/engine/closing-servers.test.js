'use strict'
// Responses that close the connection (Connection: close, HTTP/1.0 without
// keep-alive) against real servers and raw byte streams: a response is
// complete only when its body is, a request whose answer was partly read is
// never sent again, -t still fires, and 1xx counts once (issue 14, defects 1
// and 2). The servers count the requests they saw: that count is the proof.
const t = require('tap')
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { execFile, spawn } = require('node:child_process')
const { load } = require('../../lib/engine/index.js')
const { rawServer } = require('../helpers/raw-server.js')
const { needTool } = require('../helpers/tools.js')
const { startNginx, freePort } = require('../../bench/lib/nginx.js')

const BIG = 300 * 1000

async function serve (t, onRequest) {
  const srv = await rawServer(onRequest)
  t.teardown(() => srv.close())
  return srv
}

/** A directory holding big.bin (BIG bytes of a known pattern). */
function bigFileDir (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-close-'))
  const body = Buffer.alloc(BIG)
  for (let i = 0; i < BIG; i++) body[i] = 97 + (i % 26)
  fs.writeFileSync(path.join(dir, 'big.bin'), body)
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return { dir, body }
}

t.test('python3 -m http.server (HTTP/1.0, a 300 KB body over many reads): -a 1 sends one request', async (t) => {
  if (!needTool(t, 'python3')) return
  const { dir, body } = bigFileDir(t)
  const port = await freePort()
  const py = spawn('python3', ['-u', '-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  py.stderr.on('data', (d) => { log += d })
  py.stdout.on('data', () => {})
  const exited = new Promise((resolve) => py.once('exit', resolve))
  t.teardown(async () => { py.kill('SIGTERM'); await exited })
  // wait until it accepts connections (python's start-up is slow on a busy machine)
  for (const deadline = Date.now() + 60000; Date.now() < deadline;) {
    const up = await new Promise((resolve) => {
      const s = require('node:net').connect(port, '127.0.0.1')
      s.once('connect', () => { s.destroy(); resolve(true) })
      s.once('error', () => resolve(false))
    })
    if (up) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const url = `http://127.0.0.1:${port}/big.bin`
  const one = await load({ url, connections: 1, amount: 1, timeout: 10, expectBody: body.toString('latin1') })
  t.equal(one.requests.total, 1)
  t.equal(one.errors, 0)
  t.equal(one.mismatches, 0, 'the whole body was read')
  const three = await load({ url, connections: 1, amount: 3, timeout: 10 })
  t.equal(three.requests.total, 3)
  t.equal(three.errors, 0)
  // python logs one line per request once it has sent the response
  for (let i = 0; i < 100 && (log.match(/"GET \/big\.bin/g) ?? []).length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal((log.match(/"GET \/big\.bin/g) ?? []).length, 4, 'the server saw exactly 1 + 3 requests')
})

t.test('node http with res.shouldKeepAlive = false: one request per response', async (t) => {
  const body = Buffer.alloc(BIG, 'n')
  let seen = 0
  const server = http.createServer((req, res) => {
    seen++
    res.shouldKeepAlive = false
    res.setHeader('Content-Length', body.length)
    res.end(body)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const url = `http://127.0.0.1:${server.address().port}/`
  const r = await load({ url, connections: 2, amount: 6, timeout: 10, expectBody: body.toString() })
  t.equal(r.requests.total, 6)
  t.equal(r.errors, 0)
  t.equal(r.mismatches, 0)
  t.equal(seen, 6, 'the server saw each request once')
  t.equal(r.resent, 0)
  // pipelined: the requests behind a closing response are re-sent on the
  // next connection (node may have read them already, never answered them)
  seen = 0
  const p = await load({ url, connections: 2, pipelining: 3, amount: 6, timeout: 10, expectBody: body.toString() })
  t.equal(p.requests.total, 6)
  t.equal(p.errors, 0)
  t.equal(p.mismatches, 0)
  t.ok(seen >= 6 && seen <= p.requests.sent + p.resent, `seen ${seen}, sent ${p.requests.sent} + re-sent ${p.resent}`)
})

t.test('nginx with keepalive_timeout 0 serving a 300 KB file', async (t) => {
  if (!needTool(t, 'nginx')) return
  const { dir, body } = bigFileDir(t)
  const nginx = await startNginx({ keepaliveTimeout: '0', files: dir })
  t.teardown(() => nginx.stop())
  const r = await load({ url: nginx.url + 'files/big.bin', connections: 2, amount: 10, timeout: 10, expectBody: body.toString('latin1') })
  t.equal(r.requests.total, 10)
  t.equal(r.errors, 0)
  t.equal(r.mismatches, 0)
  t.equal(r.resent, 0, 'nothing was sent twice')
  t.equal(r.requests.sent, 10)
})

t.test('raw: a Connection: close body over several writes is read to its end', async (t) => {
  const srv = await serve(t, (s) => {
    s.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 10\r\n\r\nabc')
    setTimeout(() => s.write('defg'), 10)
    setTimeout(() => s.end('hij'), 20)
  })
  const r = await load({ url: srv.url, connections: 1, amount: 3, timeout: 5, expectBody: 'abcdefghij' })
  t.equal(r.requests.total, 3)
  t.equal(r.errors, 0)
  t.equal(r.mismatches, 0)
  t.equal(srv.stats.requests, 3, 'one request per response, none re-sent')
})

t.test('raw: HTTP/1.0 with a body cut short by the close is one read error, not a hang', async (t) => {
  const srv = await serve(t, (s) => s.end('HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\nabc'))
  const r = await load({ url: srv.url, connections: 1, amount: 1, timeout: 5 })
  t.equal(r.requests.total, 0)
  t.equal(r.errors, 1)
  t.equal(r.errorsByKind.read, 1)
  t.equal(srv.stats.requests, 1)
  t.equal(r.resent, 0)
  const two = await load({ url: srv.url, connections: 1, amount: 4, timeout: 5 })
  t.equal(two.errorsByKind.read, 4, 'each request fails once')
  t.equal(srv.stats.requests, 5)
})

t.test('raw: pipelined, the second answer cut mid-body: it fails, the third is re-sent', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.conn.id === 1) {
      if (req.n === 3) s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\npart')
    } else {
      s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
    }
  })
  const r = await load({ url: srv.url, connections: 1, pipelining: 3, amount: 3, timeout: 5 })
  t.equal(r.requests.total, 2, 'the first and the re-sent third')
  t.equal(r.errorsByKind.read, 1, 'the second failed')
  t.equal(r.resent, 1)
  t.equal(srv.stats.requests, 4)
})

t.test('raw: -t fires while a closing response\'s body never ends', async (t) => {
  const srv = await serve(t, (s) => s.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 10\r\n\r\nabc'))
  const r = await load({ url: srv.url, connections: 1, amount: 2, timeout: 0.3 })
  t.equal(r.requests.total, 0)
  t.equal(r.errorsByKind.timeout, 2)
  t.equal(r.errorsByKind.parse, 0)
  t.equal(srv.stats.requests, 2, 'a timed-out request is not re-sent')
  t.equal(r.informational, 2, '1xx counted once per request')
})

t.test('raw: 1xx then a closing response split across writes counts the 1xx once', async (t) => {
  const srv = await serve(t, (s) => {
    s.write('HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.0 200 OK\r\nContent-Length: 6\r\n\r\nabc')
    setTimeout(() => s.end('def'), 10)
  })
  const r = await load({ url: srv.url, connections: 1, amount: 3, timeout: 5, expectBody: 'abcdef' })
  t.equal(r.requests.total, 3)
  t.equal(r.informational, 3)
  t.equal(r.mismatches, 0)
  t.equal(srv.stats.requests, 3)
})

t.test('raw: a close-delimited body ended by -t adds no error on the next connection (defect 2)', async (t) => {
  const srv = await serve(t, (s) => s.write('HTTP/1.1 200 OK\r\n\r\nabc')) // keeps the socket open
  const r = await load({ url: srv.url, connections: 1, amount: 3, timeout: 0.3 })
  t.equal(r.requests.total, 0)
  t.equal(r.errorsByKind.timeout, 3)
  t.equal(r.errorsByKind.parse, 0, 'no "response without a request"')
  t.equal(r.errors, 3)
  t.equal(srv.stats.requests, 3)
})

t.test('raw: a header section over --max-header-size is a parse error and resets the connection', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.conn.id === 1) s.write('HTTP/1.1 200 OK\r\nX-Big: ' + 'a'.repeat(4 * 1024 * 1024) + '\r\nContent-Length: 2\r\n\r\nok')
    else s.write('HTTP/1.1 200 OK\r\nX-Small: ' + 'a'.repeat(1000) + '\r\nContent-Length: 2\r\n\r\nok')
  })
  const r = await load({ url: srv.url, connections: 1, amount: 3, timeout: 5, maxHeaderSize: '16k' })
  t.equal(r.errorsByKind.parse, 1)
  t.equal(r.requests.total, 2, 'the next connection works')
  t.equal(srv.stats.connections, 2, 'the connection was reset')
  t.throws(() => load({ url: srv.url, maxHeaderSize: '12q' }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--max-header-size "12q"/ })
})

t.test('--max-header-size: a 20 KB header passes the 80 KiB default, fails 16k, in worker threads too', async (t) => {
  const srv = await serve(t, (s) => s.write('HTTP/1.1 200 OK\r\nSet-Cookie: ' + 'c'.repeat(20 * 1024) + '\r\nContent-Length: 2\r\n\r\nok'))
  const byDefault = await load({ url: srv.url, connections: 2, amount: 4, timeout: 5 })
  t.equal(byDefault.requests.total, 4)
  t.equal(byDefault.errors, 0)
  const strict = await load({ url: srv.url, connections: 2, workers: 2, amount: 4, timeout: 5, maxHeaderSize: '16k' })
  t.equal(strict.requests.total, 0)
  t.equal(strict.errorsByKind.parse, 4)
  const cli = await new Promise((resolve) => {
    execFile(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'benchrig.js'), 'load', '--max-header-size', '12q', srv.url],
      { encoding: 'utf8', timeout: 30000 }, (err, stdout, stderr) => resolve({ status: err ? err.code : 0, stderr }))
  })
  t.equal(cli.status, 2)
  t.match(cli.stderr, /invalid --max-header-size "12q": give bytes from 256 to 64m/)
  t.equal(srv.stats.requests, 8, 'the bad flag stopped before any request')
})
