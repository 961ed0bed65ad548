'use strict'
// `benchrig load` with the flags of issue 7, as a real process: TLS with a
// self-signed CA (--ca, --cert/--key, -s, --rejectUnauthorized), --on-port,
// -f, -T, --debug, -x, -I, --har, -F, --script (with workers), and the
// hooks' failure modes through the API.
const t = require('tap')
const http = require('node:http')
const https = require('node:https')
const net = require('node:net')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { load } = require('../../index.js')
const { UsageError } = require('../../lib/errors.js')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { freePort } = require('../helpers/loopback.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const SCRIPT = path.join(__dirname, '..', 'fixtures', 'hooks', 'script.js')

function run (args, { onStdout } = {}) {
  return spawnOutput(process.execPath, [BIN, 'load', ...args], { onStdout })
}

async function echoServer (t) {
  const seen = []
  const s = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      seen.push({ method: req.method, url: req.url, headers: req.headers, body, socket: req.socket.remotePort })
      if (req.url === '/never') return
      res.statusCode = req.url === '/404' ? 404 : 200
      res.setHeader('x-token', `tok${seen.length}`)
      res.end(`${req.method} ${req.url}`)
    })
  })
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
  return { seen, url: `http://127.0.0.1:${s.address().port}` }
}

function openssl (dir, args) {
  return spawnSync('openssl', args, { cwd: dir, stdio: 'ignore' }).status === 0
}

/** A CA, a server certificate for localhost and a client certificate, signed by the CA. */
function makePki (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-pki-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=DNS:localhost\n')
  const ok = openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=benchrig test CA']) &&
    openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']) &&
    openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext']) &&
    openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=client']) &&
    openssl(dir, ['x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '1'])
  return ok ? (f) => path.join(dir, f) : null
}

t.test('TLS with a self-signed CA: unchecked by default, --rejectUnauthorized with --ca, -s, client certificates', async (t) => {
  const pki = makePki(t)
  if (pki === null) {
    t.skip('openssl could not make the certificates')
    return
  }
  const names = []
  const server = https.createServer({
    key: fs.readFileSync(pki('server.key')),
    cert: fs.readFileSync(pki('server.pem')),
    ca: fs.readFileSync(pki('ca.pem')),
    requestCert: true,
    rejectUnauthorized: false
  }, (req, res) => res.end(req.socket.authorized ? 'client-ok' : 'anonymous'))
  server.on('secureConnection', (s) => names.push(s.servername))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
  const port = server.address().port
  const byName = `https://localhost:${port}/`
  const byIp = `https://127.0.0.1:${port}/`

  const plain = await run(['-c', '1', '-a', '3', '-j', '-E', 'anonymous', byName])
  t.equal(plain.code, 0, plain.stderr)
  t.equal(JSON.parse(plain.stdout).requests.total, 3, 'unchecked by default')
  t.equal(JSON.parse(plain.stdout).mismatches, 0)

  const refused = await run(['-c', '1', '-a', '3', '-d', '2', '-j', '--rejectUnauthorized', byName])
  t.equal(refused.code, 1, 'the self-signed chain is refused when checked')
  t.match(refused.stderr, /cannot connect/)

  const trusted = await run(['-c', '1', '-a', '3', '-j', '--rejectUnauthorized', '--ca', pki('ca.pem'), byName])
  t.equal(trusted.code, 0, trusted.stderr)
  t.equal(JSON.parse(trusted.stdout).requests.total, 3, 'checked and trusted through --ca')

  names.length = 0
  const sni = await run(['-c', '1', '-a', '2', '-j', '--rejectUnauthorized', '--ca', pki('ca.pem'), '-s', 'localhost', byIp])
  t.equal(sni.code, 0, sni.stderr)
  t.same(names, ['localhost'], 'the server saw -s as SNI, and the name checked was -s')

  const client = await run(['-c', '1', '-a', '2', '-j', '-E', 'client-ok', '--cert', pki('client.pem'), '--key', pki('client.key'), byName])
  t.equal(client.code, 0, client.stderr)
  t.equal(JSON.parse(client.stdout).mismatches, 0, 'the server accepted the client certificate')

  const badFile = await run(['--ca', '/nonexistent/ca.pem', byName])
  t.equal(badFile.code, 2)
  t.match(badFile.stderr, /cannot read --ca "\/nonexistent\/ca.pem"/)
  const notHttps = await run(['-s', 'x', 'http://127.0.0.1:1/'])
  t.equal(notHttps.code, 2)
  t.match(notHttps.stderr, /need an https:\/\/ URL/)
})

t.test('--on-port starts the command, waits for its port, runs, stops it', async (t) => {
  const port = await freePort()
  const serverJs = "require('http').createServer((q, r) => r.end('up')).listen(process.env.PORT, '127.0.0.1')"
  const r = await run(['-c', '1', '-a', '5', '-j', '-E', 'up', '--on-port', `http://127.0.0.1:${port}/`, '--', process.execPath, '-e', serverJs])
  t.equal(r.code, 0, r.stderr)
  const j = JSON.parse(r.stdout)
  t.equal(j.requests.total, 5)
  t.equal(j.mismatches, 0)
  const stillUp = await new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', () => resolve(false))
  })
  t.notOk(stillUp, 'the command was stopped after the run')

  const dies = await run(['-a', '1', '--on-port', `http://127.0.0.1:${port}/`, '--', process.execPath, '-e', 'process.exit(3)'])
  t.equal(dies.code, 1)
  t.match(dies.stderr, /--on-port: ".*" ended \(exit code 3\) before listening on 127\.0\.0\.1:\d+/)
  const noFlag = await run(['-a', '1', `http://127.0.0.1:${port}/`, '--', 'true'])
  t.equal(noFlag.code, 2)
  t.match(noFlag.stderr, /a command after -- needs --on-port/)
})

t.test('-f runs round after round until SIGINT; -T titles the result', async (t) => {
  const { url } = await echoServer(t)
  let signalled = false
  const r = await run(['-c', '1', '-a', '5', '-f', '-j', '-T', 'rounds', `${url}/`], {
    onStdout: (out, child) => {
      if (!signalled && out.split('\n').filter(Boolean).length >= 2) {
        signalled = true
        child.kill('SIGINT')
      }
    }
  })
  t.equal(r.code, 130, 'Ctrl-C ends -f as it ends any run: exit 130')
  t.match(r.stderr, /benchrig load: stopped by Ctrl-C; the last round above was cut short/)
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
  t.ok(lines.length >= 2, `${lines.length} results`)
  t.equal(lines[0].requests.total, 5)
  t.equal(lines[0].title, 'rounds')
})

t.test('--debug prints errors; -x leaves non-2xx out of the latency', async (t) => {
  const { url } = await echoServer(t)
  const d = await run(['-c', '1', '-d', '1', '-t', '0.3', '-j', '--debug', `${url}/never`])
  t.match(d.stderr, /^error: request timed out$/m)
  const x = await run(['-c', '2', '-a', '20', '-j', '-x', `${url}/`, `${url}/404`])
  t.equal(x.code, 0, x.stderr)
  const j = JSON.parse(x.stdout)
  t.equal(j.non2xx, 10)
  t.equal(j.latency.totalCount, 10)
})

t.test('-I, --har, -F, --script (also with workers)', async (t) => {
  const { url, seen } = await echoServer(t)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-req-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))

  const ids = await run(['-c', '1', '-a', '3', '-j', '-I', '-m', 'POST', '-b', 'id=[<id>]', `${url}/items/[<id>]`])
  t.equal(ids.code, 0, ids.stderr)
  t.equal(seen.length, 3)
  t.ok(seen.every((q) => /^\/items\/[0-9a-f-]{36}$/.test(q.url) && /^id=[0-9a-f-]{36}$/.test(q.body)))
  t.equal(new Set(seen.map((q) => q.url)).size, 3)

  seen.length = 0
  const har = path.join(dir, 'a.har')
  fs.writeFileSync(har, JSON.stringify({ log: { entries: [{ request: { method: 'DELETE', url: `${url}/h/1`, headers: [{ name: ':authority', value: 'x' }, { name: 'x-h', value: 'v' }] } }] } }))
  const h = await run(['-c', '1', '-a', '2', '-j', '-H', 'x-extra: 1', '--har', har, `${url}/`])
  t.equal(h.code, 0, h.stderr)
  t.same(seen.map((q) => `${q.method} ${q.url} ${q.headers['x-h']} ${q.headers['x-extra']}`), ['DELETE /h/1 v 1', 'DELETE /h/1 v 1'])
  const otherOrigin = await run(['-a', '1', '--har', har, 'http://127.0.0.1:1/'])
  t.equal(otherOrigin.code, 2)
  t.match(otherOrigin.stderr, /--har: no entry goes to http:\/\/127\.0\.0\.1:1/)

  seen.length = 0
  const f = await run(['-c', '1', '-a', '1', '-j', '-F', '{"a": {"type": "text", "value": "b"}}', `${url}/form`])
  t.equal(f.code, 0, f.stderr)
  t.equal(seen[0].method, 'POST')
  t.match(seen[0].body, /name="a"\r\n\r\nb\r\n--/)
  const badForm = await run(['-F', '{"a": {"type": "blob"}}', `${url}/`])
  t.equal(badForm.code, 2)
  t.match(badForm.stderr, /-F\/--form field "a": "type" must be "text" or "file"/)

  for (const extra of [[], ['-w', '2']]) {
    seen.length = 0
    const s = await run(['-c', '2', '-a', '8', '-j', '--script', SCRIPT, ...extra, `${url}/`])
    t.equal(s.code, 0, s.stderr)
    t.equal(JSON.parse(s.stdout).requests.total, 8)
    // -a is one budget shared by the connections (as autocannon's), so one
    // connection may run more steps than the other: check each connection's
    // own sequence: login, item with the token that login got, login, ...
    t.equal(seen.length, 8)
    const byConnection = new Map()
    seen.forEach((q, i) => {
      if (!byConnection.has(q.socket)) byConnection.set(q.socket, [])
      byConnection.get(q.socket).push({ ...q, token: `tok${i + 1}` })
    })
    t.ok(byConnection.size >= 1 && byConnection.size <= 2, `${byConnection.size} connections ${extra.join(' ')}`)
    for (const steps of byConnection.values()) {
      const expected = steps.map((q, i) => i % 2 === 0 ? 'POST /login' : `GET /item/${steps[i - 1].token}`)
      t.same(steps.map((q) => `${q.method} ${q.url}`), expected, 'each item request used its own connection\'s token')
    }
  }
  const missing = await run(['--script', path.join(dir, 'nope.js'), `${url}/`])
  t.equal(missing.code, 2)
  t.match(missing.stderr, /cannot load --script ".*nope\.js": no such file/)
})

t.test('hooks: bad values are usage errors; a hook that throws ends the run with its message', async (t) => {
  const { url } = await echoServer(t)
  await t.rejects(load({ url, workers: 2, connections: 2, setupClient: () => {} }), UsageError)
  await t.rejects(load({ url, workers: 2, connections: 2, setupClient: () => {} }), /with -w\/--workers, give setupClient as the path of a module/)
  await t.rejects(load({ url, idReplacement: true }), /no request has \[<id>\]/)
  await t.rejects(load({ url, requests: [{ path: 'no-slash' }] }), /requests\[0\]\.path "no-slash"/)
  await t.rejects(load({ url, verifyBody: 42 }), /invalid verifyBody/)
  const err = await load({
    url,
    connections: 1,
    duration: 5,
    requests: [{ onResponse: () => { throw new Error('boom') } }]
  }).catch((e) => e)
  t.match(err.message, /onResponse threw: boom/)
  t.equal(err.code, 'BENCHRIG_ERR_HOOK')
})

t.test('pipelined sequences: responses go to the hooks of their own requests; setupRequest can restart the sequence', async (t) => {
  const { url, seen } = await echoServer(t)
  const got = []
  let calls = 0
  const r = await load({
    url,
    connections: 1,
    pipelining: 3,
    amount: 12,
    requests: [
      { path: '/a', onResponse: (status, body) => got.push(body) },
      { path: '/b', onResponse: (status, body) => got.push(body) },
      // every other time, /c sends the sequence back to /a
      { path: '/c', setupRequest: (req) => (++calls % 2 === 0 ? null : req), onResponse: (status, body) => got.push(body) }
    ]
  })
  t.equal(r.requests.total, 12)
  t.same(got, seen.map((q) => `GET ${q.url}`), 'every body reached the hook of the request it answered')
  t.ok(seen.some((q, i) => i > 0 && q.url === '/a' && seen[i - 1].url === '/b'), 'a restart went from /b straight to /a')
})
