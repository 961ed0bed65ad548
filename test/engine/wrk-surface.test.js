'use strict'
// wrk's script surface of --script (scripting/wrk-script.js): init's
// arguments and its awaiting, delay() kept out of latency and its Promise
// awaited, done()'s arguments and result keys, stop() with workers, hook
// failures and the usage errors. In process, against a recording server,
// bounded by request counts; one `benchrig load` run for the arguments after --.
const t = require('tap')
const http = require('node:http')
const path = require('node:path')
const fs = require('node:fs')
const { execFile } = require('node:child_process')
const { load } = require('../../lib/engine/autocannon/api.js')
const { UsageError } = require('../../lib/errors.js')

const CLI = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

function recorder (t) {
  const log = []
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => { log.push({ method: req.method, url: req.url, n: req.headers['x-n'] }); res.end('ok') })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
    resolve({ log, url: `http://127.0.0.1:${server.address().port}/` })
  }))
}

/** Writes a script module into the test's folder; returns its path. */
function script (t, name, source) {
  const dir = t.testdir()
  const file = path.join(dir, `${name}.js`)
  fs.writeFileSync(file, source)
  return file
}

t.test('init(args, thread) gets the script arguments and is awaited before the first request', async (t) => {
  const s = await recorder(t)
  const file = script(t, 'init', `
    let path = null
    module.exports = {
      async init (args, thread) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        path = '/' + args.join('/') + '/' + thread.id
      },
      request (req) { req.path = path; return req }
    }`)
  const result = await load({ url: s.url, connections: 1, amount: 3, script: file, scriptArgs: ['a', 'b'] })
  t.equal(result.requests.total, 3)
  t.same(s.log.map((r) => r.url), ['/a/b/0', '/a/b/0', '/a/b/0'], 'every request, the first too, has init\'s path')
})

t.test('request/response get the connection\'s context: one pass of the sequence; module scope outlives it', async (t) => {
  const s = await recorder(t)
  const file = script(t, 'context', `
    let total = 0 // module scope: the thread's, across passes
    module.exports = {
      requests: [{ path: '/a' }, { path: '/b' }],
      request (req, context) {
        context.n = (context.n ?? 0) + 1
        req.headers['x-n'] = context.n + '.' + ++total
        return req
      },
      response (status, headers, body, context) { context.last = status }
    }`)
  await load({ url: s.url, connections: 1, amount: 4, script: file })
  t.same(s.log.map((r) => `${r.url} ${r.n}`), ['/a 1.1', '/b 2.2', '/a 1.3', '/b 2.4'], 'context starts again with each pass, the module count goes on')
})

t.test('delay(): the pause comes before the write and is no part of latency', async (t) => {
  const s = await recorder(t)
  const file = script(t, 'delay', 'module.exports = { delay: () => 250 }')
  const result = await load({ url: s.url, connections: 1, amount: 3, script: file })
  t.equal(s.log.length, 3)
  // had the pause counted, every latency would be at least 250 ms
  t.ok(result.latency.min < 250, `the fastest of 3 took ${result.latency.min} ms`)
})

t.test('delay() may return a Promise: nothing is sent until it settles', async (t) => {
  const s = await recorder(t)
  const file = script(t, 'delay-promise', `
    const pending = []
    module.exports = { pending, delay: () => new Promise((resolve) => pending.push(resolve)) }`)
  const { pending } = require(file)
  const run = load({ url: s.url, connections: 1, amount: 2, script: file })
  const until = async (cond) => { while (!cond()) await new Promise((resolve) => setTimeout(resolve, 5)) }
  await until(() => pending.length === 1)
  t.equal(s.log.length, 0, 'paused: no request yet')
  pending[0]()
  await until(() => pending.length === 2)
  t.equal(s.log.length, 1, 'one request, then the next pause')
  pending[1]()
  const result = await run
  t.equal(result.requests.total, 2)
  t.equal(s.log.length, 2)
})

t.test('done(summary, latency, requests): wrk\'s arguments; its value is result.done', async (t) => {
  const s = await recorder(t)
  const file = script(t, 'done', `
    module.exports = {
      async done (summary, latency, requests) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        return {
          summary,
          p50: latency.percentile(50),
          ordered: latency.min <= latency.percentile(50) && latency.percentile(50) <= latency.max && latency.mean > 0,
          requests: typeof requests.percentile(90) === 'number' && requests.max >= requests.min
        }
      }
    }`)
  const result = await load({ url: s.url, connections: 2, amount: 20, script: file })
  t.equal(result.done.summary.requests, 20, 'summary.requests')
  t.ok(result.done.summary.duration > 0, 'summary.duration in µs')
  t.ok(result.done.summary.bytes > 0, 'summary.bytes')
  t.same(result.done.summary.errors, { connect: 0, read: 0, write: 0, status: 0, timeout: 0 })
  t.equal(result.done.p50, result.latencyUs.p50, 'latency in µs, the result\'s histogram')
  t.ok(result.done.ordered, 'min <= p50 <= max, mean')
  t.ok(result.done.requests, 'requests: per-sample statistics')
  t.same(result.summary, result.done.summary, 'the summary is in the result too')
  t.same(JSON.parse(JSON.stringify(result)).done.summary.requests, 20, 'and in its JSON')
})

t.test('thread.stop() with workers ends every worker; the result is kept', async (t) => {
  const s = await recorder(t)
  const file = script(t, 'stop', `
    let me = null
    let n = 0
    module.exports = {
      init (args, thread) { me = thread },
      response () { if (++n === 5) me.stop() }
    }`)
  // 60 s unless the stop works
  const result = await load({ url: s.url, connections: 2, workers: 2, duration: 60, script: file })
  t.equal(result.stoppedBy, 'script')
  t.ok(result.requests.total >= 5 && result.requests.total <= 10, `${result.requests.total} responses: each worker stops at its 5th at the latest`)
})

t.test('a hook that fails stops the run with its name', async (t) => {
  const s = await recorder(t)
  const init = script(t, 'init-throws', 'module.exports = { async init () { throw new Error(\'no config\') } }')
  await t.rejects(load({ url: s.url, connections: 1, amount: 5, script: init }), { code: 'BENCHRIG_ERR_HOOK', message: /init threw: no config/ })
  const setup = script(t, 'setup-throws', 'module.exports = { setup () { throw new Error(\'bad thread\') } }')
  await t.rejects(load({ url: s.url, connections: 1, amount: 5, script: setup }), { code: 'BENCHRIG_ERR_HOOK', message: /setup threw: bad thread/ })
  const delay = script(t, 'delay-rejects', 'module.exports = { delay: () => Promise.reject(new Error(\'late\')) }')
  await t.rejects(load({ url: s.url, connections: 1, amount: 5, script: delay }), { code: 'BENCHRIG_ERR_HOOK', message: /delay rejected: late/ })
  t.equal(s.log.length, 0, 'none of them sent a request')
})

t.test('usage errors, before any work', async (t) => {
  const both = script(t, 'both', 'module.exports = { request: (r) => r, setupRequest: (r) => r }')
  await t.rejects(load({ url: 'http://127.0.0.1:9/', script: both }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /either request \(wrk's\) or setupRequest/ })
  const delay = script(t, 'delay-rate', 'module.exports = { delay: () => 10 }')
  await t.rejects(load({ url: 'http://127.0.0.1:9/', script: delay, overallRate: 100 }), UsageError, 'delay() with a rate')
  await t.rejects(load({ url: 'http://127.0.0.1:9/', script: delay, h2: true }), /delay\(\) works over HTTP\/1.1/)
  await t.rejects(load({ url: 'http://127.0.0.1:9/', scriptArgs: ['x'] }), /arguments after -- go to the --script module/)
  const notFn = script(t, 'not-fn', 'module.exports = { done: 3 }')
  await t.rejects(load({ url: 'http://127.0.0.1:9/', script: notFn }), /done must be a function/)
})

t.test('benchrig load --script FILE URL -- ARGS: init gets ARGS, done() is printed after the tables', async (t) => {
  const s = await recorder(t)
  const file = script(t, 'cli', `
    let seen = null
    module.exports = {
      init (args) { seen = args },
      done (summary) { return 'args ' + JSON.stringify(seen) + ', ' + summary.requests + ' requests' }
    }`)
  const stdout = await new Promise((resolve, reject) => execFile(process.execPath, [CLI, 'load', '-a', '4', '-c', '1', '--no-progress', '--script', file, s.url, '--', 'one', '--two'],
    (err, out, errOut) => err ? reject(new Error(errOut)) : resolve(out + '\n' + errOut)))
  t.match(stdout, /^args \["one","--two"\], 4 requests\n\n[\s\S]*Latency/, 'the report on stdout, the tables on stderr')
})
