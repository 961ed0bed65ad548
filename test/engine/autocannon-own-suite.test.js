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
})

t.test('option errors in autocannon\'s words under its API, benchrig\'s under startRun and the CLI', async (t) => {
  const url = await server(t)
  const { startRun } = require('../../lib/engine/autocannon/api.js')
  const cases = [
    [{ duration: ['foobar'] }, 'duration entered was in an invalid format', /^invalid -d\/--duration "foobar"/],
    [{ duration: -1 }, 'duration can not be less than 0', /^invalid -d\/--duration "-1"/],
    [{ timeout: -1 }, 'timeout must be greater than 0', /^invalid -t\/--timeout "-1"/],
    [{ connections: -1 }, 'connections can not be less than 1', /^invalid -c\/--connections/],
    [{ pipelining: 0 }, 'pipelining factor can not be less than 1', /^invalid -p\/--pipelining/],
    [{ form: 'u' }, 'Invalid JSON or file where to get form data', /^cannot read -F\/--form file "u"/],
    [{ form: '{bad' }, 'Invalid JSON or file where to get form data', /^invalid -F\/--form: not valid JSON/],
    [{ form: { image: { type: 'file' } } }, 'Missing key \'path\' in form object for key \'image\'', /a file field needs a "path"/],
    [{ form: '{ "image": { "type": "text" }}' }, 'Missing key \'value\' in form object for key \'image\'', /a text field needs a "value"/],
    [{ form: { p: { type: 'string', value: null } } }, 'A \'type\' key with value \'text\' or \'file\' should be specified', /"type" must be "text" or "file"/],
    [{ har: { log: { pages: [] } } }, 'Could not parse HAR content: no entries found', /^invalid --har: no log\.entries/],
    [{ har: { log: { entries: [{}] } } }, 'Could not parse HAR content: invalid request in entry #0', /^invalid --har: entry 0/]
  ]
  for (const [o, words, ours] of cases) {
    const opts = { url, connections: 1, duration: 1, ...o }
    const name = JSON.stringify(o)
    const viaCb = await new Promise((resolve) => load(opts, (err, result) => resolve({ err, result })))
    t.match(viaCb.err, { constructor: UsageError, code: 'BENCHRIG_ERR_INVALID_ARG' }, `${name}: cb(err), a UsageError with benchrig's code`)
    t.equal(viaCb.err.message, words, `${name}: in autocannon's words`)
    t.match(viaCb.err.benchrigMessage, ours, `${name}: benchrig's message kept as benchrigMessage`)
    t.equal(viaCb.result, undefined)
    await t.rejects(load(opts), { code: 'BENCHRIG_ERR_INVALID_ARG', message: words }, `${name}: the promise rejects in the same words`)
    t.throws(() => startRun(opts), { constructor: UsageError, message: ours }, `${name}: startRun (benchrig load's) keeps benchrig's message`)
  }
  // a forever instance: 'error', in autocannon's words
  const forever = load({ url, connections: 1, timeout: 0.1, forever: true, form: { p: { type: 'string', value: null } } })
  const heard = await new Promise((resolve) => forever.once('error', resolve))
  t.equal(heard.message, 'A \'type\' key with value \'text\' or \'file\' should be specified')
  // an error autocannon has no words for keeps benchrig's
  const other = await new Promise((resolve) => load({ url, connections: 1, duration: 1, timeout: 'abc' }, resolve))
  t.match(other.message, /^invalid -t\/--timeout "abc": give a positive number/)
  // forever with a callback: autocannon's words
  const cbForever = await new Promise((resolve) => load({ url, forever: true }, resolve))
  t.match(cbForever.message, /^should not use the callback parameter when the `forever` option is set to true/)

  // connections > amount: thrown at once, as autocannon's run throws it
  t.throws(() => load({ url, connections: 10, amount: 1 }, () => t.fail('no callback')),
    { constructor: UsageError, code: 'BENCHRIG_ERR_INVALID_ARG', message: 'connections cannot be greater than amount' })
  let thrown
  try { load({ url, connections: 3, amount: 2 }) } catch (err) { thrown = err }
  t.match(thrown?.benchrigMessage, /^connections \(3\) cannot be greater than amount \(2\): each connection sends at least one request/)
  const spare = await load({ url, amount: 2 })
  t.equal(spare.requests.total, 2, 'the default connections with a small amount still runs (autocannon throws)')

  // parseArguments: a --har file it cannot read or parse, in autocannon's words
  const dir = t.testdir({ 'bad.har': 'not valid JSON content' })
  t.throws(() => parseArguments(['--har', path.join(dir, 'none.har'), url]), { constructor: UsageError, message: /^Failed to load HAR file content: ENOENT/ })
  t.throws(() => parseArguments(['--har', path.join(dir, 'bad.har'), url]), { constructor: UsageError, message: /^Failed to load HAR file content: Unexpected token/ })

  // benchrig load (the CLI) keeps its own message and exit code 2
  const cli = await new Promise((resolve) => execFile(process.execPath, [CLI, 'load', '-c', '1', '-d', '1', '-t', '-1', url],
    { env: { ...process.env, BENCHRIG_PROGRESS: 'none' } }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stderr })))
  t.equal(cli.code, 2)
  t.match(cli.stderr, /invalid -t\/--timeout "-1": give a positive number/)
  t.notMatch(cli.stderr, /timeout must be greater than 0/)
})

t.test('the Client\'s parser.chunk: the body of the connection\'s last response', async (t) => {
  const url = await server(t, 'from this server')
  const chunks = []
  const run = load({ url, connections: 1, amount: 3 })
  run.on('response', (client) => chunks.push(client.parser.chunk))
  await run
  t.equal(chunks.length, 3)
  for (const c of chunks) t.equal(Buffer.isBuffer(c) ? c.toString() : c, 'from this server')
  const { Client } = require('../../lib/engine/scripting/client.js')
  const idle = new Client(1, null, null)
  t.equal(idle.parser, idle.parser, 'one view per Client')
  t.equal(idle.parser.chunk.length, 0, 'no response yet: empty')
})

t.test('nothing listens: the callback gets the result with the errors counted (autocannon\'s); the instance still rejects; debug prints request errors', async (t) => {
  const port = await new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) })
  })
  const printed = []
  const error = console.error
  console.error = (e) => printed.push(e)
  let got
  let rejected
  try {
    got = await new Promise((resolve) => {
      const run = load({ url: `http://127.0.0.1:${port}/`, connections: 1, duration: 1, debug: true }, (err, result) => resolve({ err, result }))
      rejected = run.then(() => null, (err) => err)
    })
  } finally {
    console.error = error
  }
  t.equal(got.err, null, 'cb(null, result), as autocannon')
  t.equal(got.result.requests.min, 0)
  t.equal(got.result.requests.total, 0)
  t.ok(got.result.errors >= 1, `${got.result.errors} errors counted`)
  t.match(await rejected, { code: 'BENCHRIG_ERR_UNREACHABLE', message: new RegExp(`cannot connect to 127\\.0\\.0\\.1:${port}`) },
    'awaited, the instance rejects as require(\'benchrig\').load() always has')
  await t.rejects(load({ url: `http://127.0.0.1:${port}/`, connections: 1, amount: 1 }), { code: 'BENCHRIG_ERR_UNREACHABLE' }, 'without a callback: rejects')
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
