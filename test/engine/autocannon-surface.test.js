'use strict'
// The parts of the autocannon surface the side-by-side suite (test/parity)
// does not reach: when printResult colours its tables (the color-support
// rules), the "Running" lines of track(), a refused forever run, start() with
// --on-port, and wrk's response hook still getting a repeated header as one
// string (the array is autocannon's hooks' form).
const t = require('tap')
const http = require('node:http')
const path = require('node:path')
const { showsColor } = require('../../lib/engine/autocannon/print-result.js')
const { runningLines } = require('../../lib/engine/autocannon/track.js')
const { load, RefusedRun } = require('../../lib/engine/autocannon/api.js')
const { parseArguments, start } = require('../../lib/cli/autocannon-start.js')

function server (t, handler = (req, res) => res.end('ok')) {
  const s = http.createServer(handler)
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => {
    t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
    resolve(`http://127.0.0.1:${s.address().port}`)
  }))
}

t.test('showsColor: the rules of color-support, NO_COLOR and FORCE_COLOR', async (t) => {
  const tty = { isTTY: true }
  t.equal(showsColor({ isTTY: false }, { TERM: 'xterm' }), false, 'not a TTY')
  t.equal(showsColor(tty, { TERM: 'xterm-256color' }), true, 'xterm')
  t.equal(showsColor(tty, { TERM: 'dumb' }), false, 'dumb')
  t.equal(showsColor(tty, { TERM: 'dumb', COLORTERM: 'truecolor' }), true, 'dumb with COLORTERM')
  t.equal(showsColor(tty, { TERM: 'xterm', CI: '1' }), false, 'CI')
  t.equal(showsColor(tty, { TERM: 'xterm', CI: '1', TRAVIS: '1' }), true, 'Travis')
  t.equal(showsColor(tty, { TMUX: '1' }), true, 'tmux')
  t.equal(showsColor(tty, { TERM_PROGRAM: 'iTerm.app' }), true, 'a terminal program')
  t.equal(showsColor(tty, {}), false, 'no TERM')
  t.equal(showsColor(tty, { TERM: 'xterm', NO_COLOR: '1' }), false, 'NO_COLOR')
  t.equal(showsColor({ isTTY: false }, { FORCE_COLOR: '1' }), true, 'FORCE_COLOR')
  t.equal(showsColor(undefined, {}), false, 'no stream')
})

t.test('runningLines: amount or duration, socket, pipelining, workers, our extras', async (t) => {
  t.equal(runningLines({ amount: 4, urls: ['http://h/'], connections: 1, pipelining: 1, workers: 0 }), 'Running 4 requests test @ http://h/\n1 connections\n\n')
  t.equal(runningLines({ amount: 0, duration: 10, urls: ['http://a/', 'http://b/'], target: { socketPath: '/s' }, connections: 2, pipelining: 3, workers: 2 }, ' over 2 origins'),
    'Running 10s test @ http://a/,http://b/ (/s)\n2 connections with 3 pipelining factor over 2 origins\n2 workers\n\n')
})

t.test('a refused forever run: no promise, an error event for a listener, stop() does nothing', async (t) => {
  const run = load({ url: 'http://127.0.0.1:9/', connections: 0, forever: true })
  t.ok(run instanceof RefusedRun)
  t.equal(run.then(), undefined, 'not a promise')
  t.equal(run.catch(), undefined)
  t.equal(run.finally(), undefined)
  run.stop()
  const err = await new Promise((resolve) => run.on('error', resolve))
  t.equal(err.code, 'BENCHRIG_ERR_INVALID_ARG')
  const promised = load({ url: 'http://127.0.0.1:9/', connections: 0 })
  await t.rejects(promised.finally(() => {}), { code: 'BENCHRIG_ERR_INVALID_ARG' }, 'finally() passes the rejection on')
})

t.test('parseArguments: -i, --har, -V, -h; start prints an error as its message', async (t) => {
  const dir = t.testdir({
    'body.txt': 'from a file',
    'a.har': JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: 'http://other.invalid/x', headers: [] } }, { request: { method: 'GET', url: 'http://127.0.0.1:9/y', headers: [] } }] } })
  })
  const err = console.error
  const log = console.log
  const printed = []
  console.error = (...a) => printed.push(['err', a.join(' ')])
  console.log = (...a) => printed.push(['log', a.join(' ')])
  try {
    const a = parseArguments(['-i', path.join(dir, 'body.txt'), '--har', path.join(dir, 'a.har'), 'http://127.0.0.1:9/'])
    t.equal(a.body, 'from a file', '-i is read into body')
    t.equal(a.bodyFile, undefined)
    t.type(a.har, 'object', 'the HAR parsed')
    t.same(printed, [['err', "Warning: skipping requests to 'http://other.invalid' as the target is http://127.0.0.1:9"]], 'a warning per skipped origin')
    printed.length = 0
    t.equal(parseArguments(['-V']), undefined)
    t.match(printed[0], ['log', /^benchrig v\d/])
    printed.length = 0
    t.equal(parseArguments(['-h', 'http://x/']), undefined)
    t.match(printed[0], ['err', /benchrig load \[options\] <url\.\.\.>/], 'the help')
    printed.length = 0
    await start({ url: 'http://127.0.0.1:9/', connections: 0 })
    t.same(printed, [['err', 'connections can not be less than 1']], 'a bad option: its message, in autocannon\'s words')
    printed.length = 0
    await start({ url: 'http://127.0.0.1:9/', connections: 1, timeout: 'abc' })
    t.match(printed, [['err', /^invalid -t\/--timeout "abc"/]], 'one autocannon has no words for: benchrig\'s')
  } finally {
    console.error = err
    console.log = log
  }
})

t.test('start with onPort: the command starts, the run goes to the port it listens on', async (t) => {
  const dir = t.testdir({ 'server.js': 'require("http").createServer((q, r) => r.end(q.url)).listen(0, "127.0.0.1")\n' })
  const env = process.env.PORT
  delete process.env.PORT
  let argv
  try {
    argv = parseArguments(['-a', '3', '-c', '1', '-j', '--on-port', '/p', '--', process.execPath, path.join(dir, 'server.js')])
  } finally {
    if (env !== undefined) process.env.PORT = env
  }
  t.equal(argv.onPort, true)
  t.same(argv.spawn, [process.execPath, path.join(dir, 'server.js')])
  const log = console.log
  let out = ''
  console.log = (s) => { out += s }
  let result
  try {
    result = await start({ ...argv, renderProgressBar: false })
  } finally {
    console.log = log
  }
  t.match(result.url, /^http:\/\/localhost:\d+\/p$/, 'the port found')
  t.equal(result.requests.total, 3)
  t.equal(JSON.parse(out).requests.total, 3, '-j: the result on stdout')
})

t.test('wrk\'s response hook gets a repeated header as one string', async (t) => {
  const url = await server(t, (req, res) => { res.setHeader('set-cookie', ['a=1', 'b=2']); res.end('ok') })
  const dir = t.testdir({ 'hook.js': 'const got = []\nmodule.exports = { got, response (status, headers) { got.push(headers["set-cookie"]) } }\n' })
  const file = path.join(dir, 'hook.js')
  await load({ url, connections: 1, amount: 2, script: file })
  t.same(require(file).got, ['a=1, b=2', 'a=1, b=2'], 'joined with ", " as the table of a wrk script holds it')
})

t.test('printResult on a result without errorsByKind (autocannon\'s): errors, timeouts, mismatches, resets as autocannon words them', async (t) => {
  const { printResult } = require('../../lib/engine/autocannon/print-result.js')
  const h = { min: 1, max: 1, average: 1, stddev: 0, p1: 1, p2_5: 1, p50: 1, p97_5: 1, p99: 1, total: 3, sent: 4 }
  const text = printResult({ latency: h, requests: h, throughput: h, duration: 1, samples: 1, sampleInt: 1000, statusCodeStats: {}, errors: 2, timeouts: 1, mismatches: 3, resets: 1 }, null)
  t.match(text, /\n4 requests in 1\.00s, 3 B read\n2 errors \(1 timeouts\)\n3 requests with mismatched body\nrequest pipeline was reset 1 time\n$/)
  t.notMatch(text, /connections open at once/, 'no line about what the result does not know')
})
