'use strict'
// `benchrig serve` as a real process: the URL line, signals, the freeze,
// and flags that must fail with exit code 2.
const t = require('tap')
const http = require('node:http')
const { request, startCli, runCli } = require('../helpers/serve.js')

t.test('prints one URL line on stdout, serves, and exits 0 on SIGTERM', async (t) => {
  const srv = await startCli(t, [])
  t.match(srv.stdout(), /^benchrig serve: listening on http:\/\/127\.0\.0\.1:\d+\n$/)
  const r = await request(srv.url + '/pid')
  t.equal(r.status, 200)
  t.equal(r.body.toString(), `${srv.child.pid}\n`)
  srv.child.kill('SIGTERM')
  t.same(await srv.exited, { code: 0, signal: null })
  t.match(srv.stderr(), /^benchrig serve: HTTP\/1\.1, pid \d+; Ctrl\+C stops\nbenchrig serve: stopped \(SIGTERM\); http:\/\/127\.0\.0\.1:\d+ is closed\n$/, 'details on stderr, and that it stopped')
})

t.test('exits 0 on SIGINT, also with a keep-alive connection open', async (t) => {
  const srv = await startCli(t, ['--h2c', '--port', '0', '--host', '127.0.0.1'])
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  t.equal((await request(srv.url + '/', { agent })).status, 200)
  srv.child.kill('SIGINT')
  t.same(await srv.exited, { code: 0, signal: null })
  t.match(srv.stderr(), /benchrig serve: stopped \(SIGINT\)/, 'says it stopped')
})

t.test('--freeze S/T delays the requests that arrive during a freeze', async (t) => {
  const FREEZE_MS = 300
  const srv = await startCli(t, ['--freeze', `${FREEZE_MS}/0.6`])
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  t.teardown(() => agent.destroy())
  // back-to-back requests for ~2 periods: one request is always in flight,
  // so every freeze stalls one of them for about FREEZE_MS
  const slow = []
  const start = performance.now()
  let n = 0
  while (performance.now() - start < 2000 && n < 20000) {
    const r = await request(srv.url + '/', { agent })
    n++
    if (r.ms >= FREEZE_MS * 0.8) slow.push(Math.round(r.ms))
  }
  t.ok(n > 2, `${n} requests sent`)
  t.ok(slow.length >= 2, `at least two stalled requests in 2 s with a freeze every 0.6 s: ${slow.join(', ')} ms`)
  srv.child.kill('SIGTERM')
  t.equal((await srv.exited).code, 0)
})

t.test('?block=MS stalls the whole process: a request on another connection waits too', async (t) => {
  const srv = await startCli(t, [])
  const blocker = request(srv.url + '/?block=1500')
  // the second request leaves after the first has arrived (300 ms is ample
  // even on a starved machine), on its own connection
  await new Promise((resolve) => setTimeout(resolve, 300))
  const other = await request(srv.url + '/bytes/10')
  const first = await blocker
  t.equal(first.status, 200)
  t.equal(other.status, 200)
  t.ok(first.ms >= 1490, `the blocking request took ${first.ms.toFixed(0)} ms`)
  t.ok(other.ms >= 500, `the other request waited ${other.ms.toFixed(0)} ms for the block to end`)
  srv.child.kill('SIGTERM')
  t.equal((await srv.exited).code, 0)
})

t.test('--help prints the usage and exits 0', async (t) => {
  const r = await runCli(['--help'])
  t.equal(r.code, 0)
  t.match(r.stdout, /^Usage: benchrig serve \[options\]/)
  for (const flag of ['--host', '--port', '--h2c', '--cluster', '--size', '--status', '--delay', '--chunked', '--close', '--freeze', '--max-streams', '/stats', 'reset=1', 'block=MS']) {
    t.match(r.stdout, flag)
  }
})

t.test('bad flags: a message naming the flag on stderr, nothing on stdout, exit 2', async (t) => {
  // every rule is checked in-process in options.test.js; these prove the
  // process side: message on stderr, no stack, exit code 2
  const cases = [
    [['--bogus'], /^benchrig serve: unknown option --bogus; see benchrig serve --help\n$/],
    [['stray'], /^benchrig serve: unexpected argument "stray"/],
    [['--cluster', '0'], /^benchrig serve: --cluster 0: give a whole number from 1 to 256\n$/],
    [['--freeze', '2000/1'], /^benchrig serve: --freeze 2000\/1: give S\/T/]
  ]
  for (const [args, re] of cases) {
    const r = await runCli(args)
    t.equal(r.code, 2, `${args.join(' ')}: exit 2`)
    t.match(r.stderr, re, `${args.join(' ')}: message`)
    t.notMatch(r.stderr, /\n\s+at /, `${args.join(' ')}: no stack trace`)
    t.equal(r.stdout, '', `${args.join(' ')}: nothing on stdout`)
  }
})

t.test('a port in use: exit 2 naming --port', async (t) => {
  const first = await startCli(t, [])
  const port = new URL(first.url).port
  const r = await runCli(['--port', port])
  t.equal(r.code, 2)
  t.match(r.stderr, new RegExp(`^benchrig serve: --port ${port}: 127\\.0\\.0\\.1:${port} is already in use; pick another port or --port 0`))
  first.child.kill('SIGTERM')
  t.equal((await first.exited).code, 0)
})
