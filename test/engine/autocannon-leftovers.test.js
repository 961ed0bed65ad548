'use strict'
// The last of autocannon's surface: -L/sampleInt, the `warmup` sub-result,
// track()'s progressBarString, a path-only URL with PORT, and --on-port
// without a port (the port the command listens on, from /proc). -V/--version
// on the subcommand is in test/cli/help.test.js.
const t = require('tap')
const http = require('node:http')
const net = require('node:net')
const path = require('node:path')
const { EventEmitter } = require('node:events')
const { execFile } = require('node:child_process')
const { load, printResult, track } = require('../../lib/engine/autocannon/api.js')
const { progressBar } = require('../../lib/engine/autocannon/track.js')
const { resolveUrls, withPort } = require('../../lib/cli/load-request-flags.js')
const { parse, loadOptions } = require('../../lib/cli/load.js')
const { startOnPort, listeningPort } = require('../../lib/engine/on-port.js')
const { UsageError } = require('../../lib/errors.js')

const CLI = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

function server (t) {
  let count = 0
  const s = http.createServer((req, res) => { count++; res.end('ok') })
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => {
    t.teardown(() => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) }))
    resolve({ url: `http://127.0.0.1:${s.address().port}/`, port: s.address().port, count: () => count })
  }))
}

t.test('-L/sampleInt: samples (and ticks) every N ms', async (t) => {
  const s = await server(t)
  const ticks = []
  const run = load({ url: s.url, connections: 1, duration: 0.5, sampleInt: 50 })
  run.on('tick', (tk) => ticks.push(tk.second))
  const result = await run
  t.equal(result.sampleInt, 50, 'result.sampleInt')
  t.equal(result.perSecond.ms, 50, 'the raw samples say their length (merge refuses to mix lengths)')
  // at least the first 50 ms sample closes before a 500 ms run ends (timers fire in due order)
  t.ok(result.perSecond.requests.length >= 1, `${result.perSecond.requests.length} whole samples`)
  t.ok(result.perSecond.requests.reduce((a, b) => a + b, 0) <= result.requests.total, 'the samples hold no more than the total')
  t.same(ticks, ticks.map((_, i) => i + 1), 'one tick per sample, numbered')
  t.match(printResult(result), 'Req/Bytes counts sampled every 0.05 seconds.')
  await t.rejects(load({ url: s.url, sampleInt: 5 }), UsageError, 'under 10 ms is refused (a rejected run, as autocannon reports bad options)')
  const { args } = parse(['-L', '250', s.url])
  t.equal(loadOptions(args, [], undefined, [s.url]).sampleInt, '250', '-L reaches the options')
})

t.test('the warmup\'s own result is result.warmup, outside the measured one', async (t) => {
  const s = await server(t)
  const result = await load({ url: s.url, connections: 1, amount: 5, warmup: { connections: 1, duration: 0.2 } })
  t.equal(result.requests.total, 5, 'the measured run: its 5 requests')
  t.ok(result.warmup.requests.total > 0, `the warmup: ${result.warmup.requests.total} requests`)
  t.equal(result.warmup.connections, 1)
  t.ok(result.warmup.latency.p50 >= 0 && result.warmup['2xx'] === result.warmup.requests.total, 'with the keys of a result')
  // the warmup's last request may reach the server unanswered when it ends
  t.ok(s.count() >= 5 + result.warmup.requests.total && s.count() <= 5 + result.warmup.requests.sent,
    `the server saw both (${s.count()}: 5 + ${result.warmup.requests.total} answered of ${result.warmup.requests.sent} sent)`)
})

t.test('track(): progressBarString with the progress package\'s tokens', async (t) => {
  let text = ''
  const stream = { isTTY: true, write: (s) => { text += s } }
  const run = new EventEmitter()
  run.opts = { duration: 4, amount: 0, urls: ['http://h/'], connections: 1, pipelining: 1 }
  track(run, { outputStream: stream, progressBarString: 'running [:bar] :percent :elapsed/:total s' })
  run.emit('tick', { second: 1, requests: 10 })
  run.emit('tick', { second: 2, requests: 10 })
  t.match(text, 'running [=====---------------] 25% 1.0/4 s')
  t.match(text, 'running [==========----------] 50% 2.0/4 s')
  // an amount: the bar follows the requests
  t.equal(progressBar(':current/:total :percent :eta', { current: 30, total: 120 }, 3), '30/120 25% 9.0')
  t.throws(() => track(new EventEmitter(), { progressBarString: 3 }), TypeError)
})

t.test('a path-only URL takes PORT (autocannon), else a clear usage error', async (t) => {
  t.same(resolveUrls(['/a?b', 'http://h:1/'], {}, { PORT: '3000' }), ['http://localhost:3000/a?b', 'http://h:1/'])
  t.same(resolveUrls(['/a'], { onPort: true }, {}), ['http://localhost/a'], '--on-port finds the port')
  t.throws(() => resolveUrls(['/a'], {}, {}), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /set PORT/ })
  t.throws(() => resolveUrls(['/a'], {}, { PORT: 'x' }), /not a port number/)
  t.equal(withPort('http://localhost/a', 4000), 'http://localhost:4000/a')
  t.equal(withPort('http://h:1/a', 4000), 'http://h:1/a', 'a given port stays')
})

t.test('--on-port without a port: the port the command listens on', async (t) => {
  // this process: a listening socket is found through its inode
  const s = await server(t)
  t.equal(listeningPort(process.pid), s.port, 'this process\'s listening port, from /proc')
  // a child that picks its own port
  const started = await startOnPort([process.execPath, '-e', 'require("http").createServer((q, r) => r.end()).listen(0, "127.0.0.1")'], { hostname: '127.0.0.1', port: undefined })
  t.teardown(() => started.stop())
  t.ok(started.port > 0, `found port ${started.port}`)
  const ok = await new Promise((resolve) => net.connect(started.port, '127.0.0.1').once('connect', function () { this.destroy(); resolve(true) }).once('error', () => resolve(false)))
  t.ok(ok, 'the command accepts connections there')
  await started.stop()
  // the CLI, end to end: a path-only URL and no PORT
  const env = { ...process.env }
  delete env.PORT
  const out = await new Promise((resolve, reject) => execFile(process.execPath, [CLI, 'load', '-a', '5', '-c', '1', '-j', '--on-port', '/hello', '--',
    process.execPath, '-e', 'require("http").createServer((q, r) => r.end(q.url)).listen(0, "127.0.0.1")'], { env }, (err, stdout, stderr) => err ? reject(new Error(stderr)) : resolve(stdout)))
  const result = JSON.parse(out)
  t.match(result.url, /^http:\/\/localhost:\d+\/hello$/, 'the URL with the port found')
  t.equal(result['2xx'], 5)
})
