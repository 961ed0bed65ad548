'use strict'
// Issue 23, section 1, points e, f, g and the CLI side of b: the autocannon
// command and `benchrig load` run as child processes with the same arguments,
// each against its own server on 127.0.0.1; their stdout and stderr compared
// by shape (numbers masked). -L 50: autocannon ends an -a run at its next
// sample, so each run takes ~50 ms instead of a second.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { server, shape, cli, CLIS } = require('./_side-by-side.js')

/**
 * Runs both CLIs with args(url, port) at once; each gets its own server.
 * Every run of this file starts at once (the subtests await their own), so
 * the file's wall time is that of its slowest pair, not their sum.
 */
async function bothCli (t, args, { env } = {}) {
  const out = {}
  await Promise.all(Object.entries(CLIS).map(async ([name, argv]) => {
    const srv = await server(t)
    const r = await cli(argv(args(srv.url, srv.port)), { env })
    out[name] = { ...r, srv, stderr: r.stderr.replaceAll(String(srv.port), 'PORT') }
  }))
  return out
}

/** benchrig's stderr without its own warning lines (generator saturation): autocannon has none. */
const ours = (text) => text.split('\n').filter((l) => !l.startsWith('warning: ')).join('\n')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-parity-'))
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
fs.writeFileSync(path.join(dir, 'server.js'), 'require("http").createServer((q, r) => r.end("ok")).listen(0, "127.0.0.1")\n')
const noPort = { ...process.env }
delete noPort.PORT

const runs = {
  tables: bothCli(t, (url) => ['-a', '20', '-c', '2', '-L', '50', '-l', '--renderStatusCodes', `${url}/`]),
  json: bothCli(t, (url, port) => ['-a', '10', '-c', '1', '-L', '50', '-j', `127.0.0.1:${port}/n`]),
  socket: Promise.all(Object.entries(CLIS).map(async ([name, argv]) => {
    const sock = path.join(dir, `${name}.sock`)
    const seen = []
    const s = http.createServer((req, res) => { seen.push(req.url); res.end('ok') })
    await new Promise((resolve) => s.listen(sock, resolve))
    t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
    const r = await cli(argv(['-a', '4', '-c', '1', '-L', '50', '-S', sock, 'http://localhost/s']))
    return [name, { ...r, stderr: r.stderr.replace(sock, 'SOCK'), seen }]
  })).then(Object.fromEntries),
  onPort: Promise.all(Object.entries(CLIS).map(async ([name, argv]) =>
    [name, await cli(argv(['-a', '4', '-c', '1', '-L', '50', '--on-port', '/hello', '--', process.execPath, path.join(dir, 'server.js')]), { env: noPort })]
  )).then(Object.fromEntries),
  har: bothCli(t, (url) => {
    const entry = (u) => ({ request: { method: 'GET', url: u, headers: [] } })
    const file = path.join(dir, `har-${Math.random().toString(36).slice(2)}.json`)
    fs.writeFileSync(file, JSON.stringify({ log: { entries: [entry(`${url}/a`), entry('http://other.invalid:81/x'), entry('http://other.invalid:81/y'), entry('http://third.invalid/z'), entry(`${url}/b`)] } }))
    return ['-a', '4', '-c', '1', '-L', '50', '--har', file, `${url}`]
  })
}

t.test('e. the tables on stderr, stdout empty; two blank lines before them; a rule between rows; status codes and -l in autocannon\'s places', async (t) => {
  const r = await runs.tables
  for (const [name, x] of Object.entries(r)) {
    t.equal(x.code, 0, `${name}: exit 0 ${x.stderr}`)
    t.equal(x.stdout, '', `${name}: nothing on stdout`)
    t.equal(x.srv.seen.length, 20, `${name}: 20 requests`)
    const lines = shape(x.stderr)
    t.same(lines.slice(0, 5), ['Running # requests test @ http://HOST:PORT/', '# connections', '', '', '┌top┐'], `${name}: "Running", the connections, two blank lines, the tables`)
    const req = lines.findIndex((l) => l.startsWith('│Req/Sec│'))
    t.same(lines.slice(req, req + 3), ['│Req/Sec│#│#│#│#│#│#│#│', '├rule┤', '│Bytes/Sec│#│#│#│#│#│#│#│'], `${name}: a rule between the Req/Sec and Bytes/Sec rows`)
    t.ok(lines.includes('│Percentile│Latency (ms)│') && lines.includes('│#│#│'), `${name}: the percentile table`)
    t.ok(req < lines.indexOf('│Code│Count│') && lines.indexOf('│Code│Count│') < lines.indexOf('│Percentile│Latency (ms)│'), `${name}: the status codes between the Req/Sec and the percentile tables`)
    t.match(x.stderr, /\n20 requests in [\d.]+s, /, `${name}: the summary counts the requests sent`)
  }
  t.same(shape(ours(r.benchrig.stderr)), shape(r.autocannon.stderr), 'the same stderr, line for line, numbers aside')
})

t.test('e. -j: one JSON line alone on stdout, nothing on stderr; b. a URL without a scheme', async (t) => {
  const r = await runs.json
  for (const [name, x] of Object.entries(r)) {
    t.equal(x.code, 0, name)
    const lines = x.stdout.split('\n')
    t.equal(lines.length, 2, `${name}: one line on stdout`)
    const result = JSON.parse(lines[0])
    t.equal(result.requests.total, 10, `${name}: the result`)
    t.equal(result.url, `http://127.0.0.1:${x.srv.port}/n`, `${name}: the URL with http://`)
    t.equal(ours(x.stderr), '', `${name}: nothing on stderr`)
    t.same(new Set(x.srv.seen.map((q) => q.url)), new Set(['/n']), `${name}: the requests`)
  }
})

t.test('f. "Running" with -S names the socket path', async (t) => {
  const r = await runs.socket
  for (const [name, x] of Object.entries(r)) {
    t.equal(x.code, 0, `${name}: -S runs`)
    t.match(x.stderr, /^Running 4 requests test @ http:\/\/localhost\/s \(SOCK\)\n1 connections\n/, `${name}: the socket path after the URL`)
    t.same(x.seen, ['/s', '/s', '/s', '/s'], `${name}: the requests went through the socket`)
  }
})

t.test('f. --on-port: the URL in "Running" has the port the command listens on', async (t) => {
  const r = await runs.onPort
  for (const [name, x] of Object.entries(r)) {
    t.equal(x.code, 0, `${name}: runs`)
    t.match(x.stderr, /^Running 4 requests test @ http:\/\/localhost:\d+\/hello\n/, `${name}: the URL with the port found`)
    t.match(x.stderr, /\n4 requests in /, `${name}: and its requests`)
  }
})

t.test('g. --har: one warning per origin whose entries are skipped', async (t) => {
  const r = await runs.har
  for (const [name, x] of Object.entries(r)) {
    t.equal(x.code, 0, `${name}: runs`)
    const warnings = x.stderr.split('\n').filter((l) => l.startsWith('Warning'))
    t.same(warnings, [
      "Warning: skipping requests to 'http://other.invalid:81' as the target is http://127.0.0.1:PORT",
      "Warning: skipping requests to 'http://third.invalid' as the target is http://127.0.0.1:PORT"
    ], `${name}: once per skipped origin`)
    t.same(x.srv.seen.map((q) => q.url), ['/a', '/b', '/a', '/b'], `${name}: the entries of the target's origin, in order`)
  }
})
