'use strict'
// What autocannon's own test suite found (npm run test:autocannon runs it;
// docs/load.md, "autocannon's own test suite"), checked here on our side
// with real servers on 127.0.0.1: parseArguments never crashes and reads
// autocannon's forms, printResult takes results built by hand, and the events
// and refusals autocannon code relies on.
const t = require('tap')
const http = require('node:http')
const fs = require('node:fs')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { load, printResult } = require('../../lib/engine/autocannon/api.js')
const { parseArguments } = require('../../lib/cli/autocannon-start.js')
const { UsageError } = require('../../lib/errors.js')

const CLI = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

/** A server answering `body`; /never never answers. */
function server (t, body = 'hello world') {
  const s = http.createServer((req, res) => { if (req.url !== '/never') res.end(body) })
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => {
    t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
    resolve(`http://127.0.0.1:${s.address().port}`)
  }))
}

t.test('parseArguments: no input crashes it', async (t) => {
  const dir = t.testdir({ 'a.pem': 'A', 'b.pem': 'B', 'body.txt': 'the body' })
  const f = (n) => path.join(dir, n)
  // numbers in argv (autocannon's parser takes them), an input file, workers
  const a = parseArguments(['-m', 'POST', '-w', 2, '-a', 10, '-i', f('body.txt'), 'http://localhost/x'])
  t.same([a.amount, a.workers, a.body, a.url], [10, 2, 'the body', 'http://localhost/x'])
  // several URLs, one without a scheme
  t.same(parseArguments(['localhost/foo', 'http://localhost/bar']).url, ['http://localhost/foo', 'http://localhost/bar'])
  // --cert, --key, --ca [ a b ]: the contents in tlsOptions, the paths kept
  const tls = parseArguments(['--cert', f('a.pem'), '--key', f('b.pem'), '--ca', '[', f('a.pem'), f('b.pem'), ']', 'https://localhost/'])
  t.same(tls.tlsOptions, { cert: Buffer.from('A'), key: Buffer.from('B'), ca: [Buffer.from('A'), Buffer.from('B')] })
  t.same(tls.ca, [f('a.pem'), f('b.pem')])
  t.same(parseArguments(['--ca', f('a.pem'), 'https://localhost/']).tlsOptions, { ca: [Buffer.from('A')] })
  t.same(parseArguments(['http://localhost/']).tlsOptions, {}, 'no TLS files: an empty tlsOptions, as autocannon')
  t.throws(() => parseArguments(['--cert', f('none.pem'), 'https://localhost/']), { constructor: UsageError, message: /^--cert .*none\.pem: cannot read the file \(ENOENT\)/ })
  t.throws(() => parseArguments(['--ca', '[', f('a.pem'), 'https://localhost/']), { constructor: UsageError, message: /--ca: the \[ has no closing \]/ })
  t.throws(() => parseArguments('-c 1 http://localhost/'), { constructor: UsageError, message: /argv must be an array/ })
  t.throws(() => parseArguments(undefined), { constructor: UsageError })
})

t.test('parseArguments: -H as autocannon reads it', async (t) => {
  const h = (...flags) => parseArguments([...flags.flatMap((x) => ['-H', x]), 'http://localhost/']).headers
  t.same(h('a: 1', 'b: 2'), { a: ' 1', b: ' 2' }, 'standard notation: the value as typed after the colon')
  t.same(h('a:1;x=y'), { a: '1;x=y' })
  t.same(h('a=foo=bar '), { a: 'foo=bar ' }, 'a value ending in a space keeps it')
  t.same(h('a=foo:bar'), { a: 'foo:bar' })
  t.throws(() => h('novalue'), { constructor: UsageError, message: /^An HTTP header was not correctly formatted: novalue \(-H\/--headers/ })
  t.throws(() => h(':x'), { constructor: UsageError }, 'no name')
})

t.test('parseArguments: -- node … implies --on-port (not with --script)', async (t) => {
  const o = parseArguments(['-c', '1', '/', '--', 'node', 'server.js'])
  t.equal(o.onPort, true)
  t.same(o.spawn, ['node', 'server.js'])
  t.match(o.url, /^http:\/\/localhost(:\d+)?\/$/, 'the path on localhost, whose port the command gives')
  const s = parseArguments(['--script', 'x.js', 'http://localhost/', '--', 'node'])
  t.notOk(s.onPort, 'after --script, what follows -- is its arguments')
})

t.test('printResult: results built by hand, verbose false', async (t) => {
  const r = { connections: 10, pipelining: 2, latency: {}, requests: { sent: 20 }, throughput: { total: 3318 } }
  const full = printResult(r, { outputStream: { isTTY: false } })
  t.match(full, /^\n┌/, 'the tables after a blank line')
  t.match(full, /\n20 requests in /)
  const short = printResult(r, { verbose: false })
  t.equal(short.split('\n').length, 2, 'one line and its newline')
  t.match(short, /^20 requests in 0\.00s, /)
})

t.test('events and refusals autocannon code relies on', async (t) => {
  const url = await server(t)
  const mismatch = load({ url, connections: 1, duration: 5, expectBody: 'other' })
  const body = await new Promise((resolve) => mismatch.once('reqMismatch', resolve))
  mismatch.stop()
  t.equal(body, 'hello world', 'reqMismatch: the body that did not match')
  t.ok((await mismatch).mismatches >= 1)

  const slow = load({ url: `${url}/never`, connections: 1, duration: 5, timeout: 0.2 })
  const err = await new Promise((resolve) => slow.once('reqError', resolve))
  slow.stop()
  await slow
  t.equal(err.message, 'request timed out', 'a timeout in autocannon\'s words')
  t.equal(err.kind, 'timeout')

  const seen = []
  await new Promise((resolve) => {
    const run = load({ url, connections: 1, amount: 2, requests: [{ method: 'POST', path: '/a', body: 'b' }] }, resolve)
    run.on('response', (client) => seen.push(client.requestIterator.currentRequest))
  })
  t.equal(seen.length, 2)
  t.match(seen[0], { method: 'POST', path: '/a' }, 'requestIterator.currentRequest: the request the connection sends')

  const refused = await new Promise((resolve) => load({ url, connections: 10, amount: 1 }, (e, r) => resolve({ e, r })))
  t.match(refused.e, { constructor: UsageError, message: /connections \(10\) cannot be greater than amount \(1\)/ })
  t.equal(refused.r, undefined)
})

t.test('nothing listens: the callback gets the error and what was counted; debug prints request errors', async (t) => {
  const port = await new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) })
  })
  const printed = []
  const error = console.error
  console.error = (e) => printed.push(e)
  let got
  try {
    got = await new Promise((resolve) => load({ url: `http://127.0.0.1:${port}/`, connections: 1, duration: 1, debug: true }, (err, result) => resolve({ err, result })))
  } finally {
    console.error = error
  }
  t.equal(got.err.code, 'BENCHRIG_ERR_UNREACHABLE')
  t.equal(got.result.requests.min, 0)
  t.ok(got.result.errors >= 1, `${got.result.errors} errors counted`)
  t.equal(got.err.result, got.result, 'also err.result (not enumerable)')
  t.notOk(Object.keys(got.err).includes('result'))
  t.ok(printed.length >= 1 && printed[0] instanceof Error, 'debug: the errors on console.error')
})

t.test('the CLI: -- node server.js is started as with --on-port', async (t) => {
  const dir = t.testdir({ 'server.js': "require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1')\n" })
  const out = await new Promise((resolve) => execFile(process.execPath, [CLI, 'load', '-c', '1', '-a', '3', '-j', '/', '--', 'node', path.join(dir, 'server.js')],
    { env: { ...process.env, PORT: '', BENCHRIG_PROGRESS: 'none' } }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr })))
  t.equal(out.code, 0, out.stderr)
  t.equal(JSON.parse(out.stdout).requests.total, 3)
  t.ok(fs.existsSync(dir))
})

t.test('parseArguments: 400 seeded random argv, each an options object, undefined or a UsageError', async (t) => {
  const { isUserFacing } = require('../../lib/errors.js')
  const dir = t.testdir({ 'f.txt': 'x' })
  const tokens = ['-c', '-d', '-a', '-p', '-w', '-H', '-m', '-i', '-L', '-t', '-b', '-F', '-S', '-E', '-R', '-r', '-W', '--ca', '--cert', '--key',
    '--har', '--on-port', '-j', '-n', '-l', '-f', '-x', '-I', '--', '[', ']', 'node', '1', '0', '-1', '2000', 'abc', '', ' ', 'a: b', 'a=b', 'novalue',
    'http://localhost/', 'localhost:3000/x', '/path', 'ftp://x/', path.join(dir, 'f.txt'), path.join(dir, 'none'), '{"a":1}', 10, 2.5, null, true]
  let seed = 42
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n }
  const log = console.log
  const error = console.error
  console.log = console.error = () => {}
  let refused = 0
  let parsed = 0
  const crashes = []
  try {
    for (let k = 0; k < 400; k++) {
      const argv = Array.from({ length: 1 + rand(8) }, () => tokens[rand(tokens.length)])
      if (rand(2) === 1) argv.push('http://localhost/') // most runs have a URL
      try {
        const o = parseArguments(argv)
        if (o !== undefined) parsed++
      } catch (err) {
        if (isUserFacing(err)) refused++
        else crashes.push(`${JSON.stringify(argv)}: ${err.stack.split('\n').slice(0, 2).join(' ')}`)
      }
    }
  } finally {
    console.log = log
    console.error = error
  }
  t.same(crashes, [], 'no TypeError or other crash')
  t.ok(parsed > 0 && refused > 0, `${parsed} parsed, ${refused} refused with a clear error`)
})
