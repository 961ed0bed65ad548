'use strict'
// --scenarios (issue 27, part 3): k6's executors on the engine, against a
// real node http server on 127.0.0.1 (and an http2 one): counts that are
// exact by construction (shared-iterations, per-vu-iterations, sequences),
// a later startTime starts later on the run's own t0, each scenario's
// thresholds and the overall ones, the result's shape (each scenario a
// whole result, the whole their exact merge), and `merge` by scenario.
// The arrival-rate plans are asserted on an injected clock in
// scenarios-clock.test.js; bad input in scenarios-input.test.js.
const t = require('tap')
const http = require('node:http')
const http2 = require('node:http2')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { wsServer } = require('../helpers/ws-servers.js')
const { load } = require('../../lib/engine/index.js')
const { merge } = require('../../lib/engine/result/merge.js')
const { decode } = require('../../lib/engine/measure/hdr-codec.js')

/** A server that logs each request's path, socket and arrival (epoch ms). */
async function logServer (t) {
  const log = []
  const sockets = new Set()
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      log.push({ path: req.url, port: req.socket.remotePort, at: Date.now(), method: req.method, a: req.headers['x-a'], body })
      res.end('ok')
    })
  })
  server.on('connection', (s) => sockets.add(s))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
  return { url: `http://127.0.0.1:${server.address().port}`, log, sockets }
}

const countBy = (xs, key) => xs.reduce((m, x) => m.set(key(x), (m.get(key(x)) ?? 0) + 1), new Map())

t.test('iteration executors: exact counts, per VU and shared, with a sequence and across workers', async (t) => {
  const s = await logServer(t)
  const result = await load({
    url: s.url + '/',
    scenarios: {
      // 3 VUs share 50 iterations over two worker threads: 50 requests in all
      shared: { executor: 'shared-iterations', vus: 3, iterations: 50, url: s.url + '/shared' },
      // 4 VUs, 5 iterations each of a two-request sequence: 40 requests, 10 per connection
      each: {
        executor: 'per-vu-iterations',
        vus: 4,
        iterations: 5,
        requests: [{ path: '/each/a' }, { path: '/each/b' }]
      }
    },
    workers: 2
  })
  const byPath = countBy(s.log, (r) => r.path)
  t.equal(byPath.get('/shared'), 50, 'shared-iterations: exactly `iterations` requests')
  t.equal(byPath.get('/each/a'), 20, 'per-vu-iterations: vus x iterations passes of the sequence')
  t.equal(byPath.get('/each/b'), 20)
  const perSocket = countBy(s.log.filter((r) => r.path.startsWith('/each')), (r) => r.port)
  t.equal(perSocket.size, 4, 'one socket per VU: an exhausted connection stops, it does not reconnect')
  t.ok([...perSocket.values()].every((n) => n === 10), 'each VU made its 5 passes (10 requests)')
  t.equal(result.scenarios.shared.requests.total, 50)
  t.equal(result.scenarios.each.requests.total, 40)
  t.equal(result.scenarios.each.stoppedBy, 'max-connection-requests', 'per-vu-iterations ends when every VU is done')
  t.equal(result.scenarios.shared.stoppedBy, 'amount', 'shared-iterations ends when the budget is done')
  t.equal(result.requests.total, 90, 'the whole is their sum')
  t.same(result.scenarios.each.scenario, {
    name: 'each', executor: 'per-vu-iterations', startTime: 0, duration: 600000, params: { vus: 4, iterations: 5, maxDuration: 600000, gracefulStop: 30000 }
  }, 'scenario: name, executor, startTime and planned duration (ms), normalized params')
})

t.test('the result: each scenario a whole result, the whole their exact merge; startTime on the shared t0', async (t) => {
  const s = await logServer(t)
  const run = load({
    url: s.url + '/',
    interval: 250,
    sampleInt: 100, // ticks every 100 ms
    scenarios: {
      early: { executor: 'constant-vus', vus: 2, duration: '300ms', url: s.url + '/early', thresholds: ['requests>0', 'errors==0'] },
      late: { executor: 'shared-iterations', vus: 2, iterations: 30, startTime: '1s', url: s.url + '/late', thresholds: ['requests<10'], tags: { team: 'b' } },
      // every field a scenario may give of its request
      post: { executor: 'per-vu-iterations', vus: 1, iterations: 3, url: s.url + '/post', method: 'POST', headers: { 'x-a': '1' }, body: 'hi', timeout: '5s' },
      tail: { executor: 'constant-vus', vus: 1, duration: '300ms', startTime: '1s', url: s.url + '/tail' }
    },
    thresholds: ['non2xx==0', 'requests<5']
  })
  // the run's events: each scenario's, named
  const rows = []
  let responses = 0
  let starts = 0
  run.on('interval', (row) => rows.push(row))
  run.on('response', () => responses++)
  run.on('start', () => starts++)
  const ticks = []
  run.on('tick', (tick) => ticks.push(tick))
  const result = await run
  t.same(Object.keys(result.scenarios), ['early', 'late', 'post', 'tail'], 'keyed by name in the file\'s order')
  t.equal(starts, 1, 'one start, at the shared t0')
  t.equal(responses, result.requests.total, 'a response event for every response of every scenario')
  for (const name of Object.keys(result.scenarios)) {
    const own = rows.filter((r) => r.scenario === name)
    t.equal(own.reduce((a, r) => a + r.count, 0), result.scenarios[name].requests.total, `${name}: its interval rows, named, add up to its total`)
    t.same(result.scenarios[name].intervals.map((r) => r.start), own.map((r) => r.start), 'the same rows as in its result')
  }
  t.ok(rows.every((r) => (r.start - result.perSecond.start) % 250 === 0), 'every row on the run\'s 250 ms grid (startTime 1s is on it)')
  t.ok(ticks.some((k) => k.scenario === 'early') && ticks.some((k) => k.scenario === 'tail'), 'ticks of the scenarios that ran a sample long, named')
  t.ok(ticks.filter((k) => k.scenario === 'tail').every((k) => k.second > 10), 'counted from the shared t0: the later scenario\'s first sample ends after 1000 ms / 100 ms')
  t.ok(ticks.every((k, i) => i === 0 || k.total >= ticks[i - 1].total), 'running totals of all scenarios, never falling')
  t.ok(ticks.every((k) => k.requests >= k.scenarioRequests), 'a tick\'s requests: its sample of every scenario so far')
  const t0 = result.perSecond.start
  const late = result.scenarios.late
  t.equal(late.perSecond.start - t0, 1000, 'the late scenario\'s seconds start 1000 ms after the run\'s t0, exactly')
  const lateLog = s.log.filter((r) => r.path === '/late')
  t.equal(lateLog.length, 30)
  t.ok(lateLog.every((r) => r.at >= t0 + 1000), 'the server saw no request of it before t0 + startTime')
  t.same(late.scenario.tags, { team: 'b' }, 'tags are kept in the result, nothing else')
  t.equal(late.scenario.startTime, 1000)
  // the whole is the merge of the parts
  const parts = Object.values(result.scenarios)
  t.equal(result.requests.total, parts.reduce((a, r) => a + r.requests.total, 0))
  t.equal(result['2xx'], parts.reduce((a, r) => a + r['2xx'], 0))
  t.equal(decode(result.histogram).totalCount, parts.reduce((a, r) => a + decode(r.histogram).totalCount, 0), 'histograms added')
  t.equal(result.statusCodeStats['200'].count, result.requests.total)
  t.equal(result.merge, undefined, 'no merge note on a run\'s own result')
  // thresholds: each scenario on its own figures, the overall ones on the whole
  t.same(result.scenarios.early.thresholds.map((c) => c.ok), [true, true])
  t.same(late.thresholds, [{ expr: 'requests<10', value: 30, ok: false }], 'a scenario threshold fails on its own count')
  t.equal(result.scenarios.post.thresholds, undefined, 'a scenario without thresholds has none')
  t.same(s.log.filter((r) => r.path === '/post').map((r) => [r.method, r.a, r.body]), Array(3).fill(['POST', '1', 'hi']), 'the scenario\'s own method, headers and body')
  t.same(result.thresholds.map((c) => [c.expr, c.ok]), [['non2xx==0', true], ['requests<5', false]], 'the overall ones on the whole run')
  // exact merge across machines: the same run twice is every count doubled, per scenario too
  const json = JSON.parse(JSON.stringify(result))
  const two = merge([json, json], { names: ['a.json', 'b.json'] })
  for (const name of Object.keys(result.scenarios)) {
    t.equal(two.scenarios[name].requests.total, 2 * result.scenarios[name].requests.total, `merge: scenario ${name} summed`)
    t.equal(decode(two.scenarios[name].histogram).totalCount, 2 * decode(result.scenarios[name].histogram).totalCount)
    t.same(two.scenarios[name].scenario, json.scenarios[name].scenario, 'its plan kept')
  }
  t.equal(two.requests.total, 2 * result.requests.total)
  t.same(two.scenarios.late.thresholds, [{ expr: 'requests<10', value: 60, ok: false }], 'thresholds checked again on the merged figures')
  t.same(two.thresholds.map((c) => c.value), [0, 2 * result.requests.total])
  t.equal(two.merge.runs, 2)
  const otherThresholds = { ...json, thresholds: [{ expr: 'p99<1s', value: 1, ok: true }] }
  const mixed = merge([json, otherThresholds], { names: ['a.json', 'd.json'] })
  t.equal(mixed.thresholds, undefined, 'different threshold lists are not merged')
  t.ok(mixed.merge.ignored.includes('thresholds'), 'and are listed as such')
  // different scenario sets do not merge
  const other = JSON.parse(JSON.stringify(result))
  delete other.scenarios.post
  t.throws(() => merge([json, other], { names: ['a.json', 'c.json'] }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /c\.json has no scenario "post" that a\.json has: merge results of runs of the same scenarios file/ })
  t.throws(() => merge([json, { ...json, scenarios: undefined }], { names: ['a.json', 'p.json'] }), /p\.json has no "scenarios" but a\.json has/)
})

t.test('a scenario\'s own data feed; a plain run loads none of lib/engine/scenarios/', async (t) => {
  const s = await logServer(t)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-scenario-feed-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const rows = path.join(dir, 'ids.csv')
  fs.writeFileSync(rows, 'id\n7\n8\n9\n')
  const result = await load({
    url: s.url + '/',
    scenarios: {
      fed: { executor: 'per-vu-iterations', vus: 1, iterations: 3, url: s.url + '/fed?id={{id}}', feed: rows },
      plain: { executor: 'per-vu-iterations', vus: 1, iterations: 2 }
    }
  })
  t.same(s.log.filter((r) => r.path.startsWith('/fed')).map((r) => r.path), ['/fed?id=7', '/fed?id=8', '/fed?id=9'], 'a row per iteration, in order')
  t.same(s.log.filter((r) => r.path === '/').length, 2, 'the other scenario untouched by it')
  t.equal(result.requests.total, 5)
  const child = await spawnOutput(process.execPath, ['-e', `
    const { load } = require('./lib/engine/index.js')
    require('./lib/cli/load.js')
    load({ url: '${s.url}/', amount: 3, connections: 1 }).then(() => console.log(Object.keys(require.cache).map((k) => k.slice(process.cwd().length)).filter((k) => k.includes('/engine/scenarios/') || k.endsWith('-scenarios.js')).join(',')))
  `], { cwd: path.join(__dirname, '..', '..') })
  t.equal(child.stdout.trim(), '/lib/cli/load-scenarios.js', 'only the CLI\'s flag spec (' + child.stderr + ')')
})

t.test('protocol-agnostic: HTTP/2 and WebSocket scenarios beside an HTTP/1.1 one', async (t) => {
  const s = await logServer(t)
  const ws = await wsServer(t)
  const h2Paths = []
  const h2 = http2.createServer((req, res) => { h2Paths.push(req.url); res.end('ok') })
  await new Promise((resolve) => h2.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => h2.close(resolve)))
  const result = await load({
    url: s.url + '/',
    scenarios: {
      streams: { executor: 'shared-iterations', vus: 2, iterations: 25, h2: true, maxStreams: 4, url: `http://127.0.0.1:${h2.address().port}/h2` },
      plain: { executor: 'per-vu-iterations', vus: 2, iterations: 3 },
      messages: { executor: 'shared-iterations', vus: 2, iterations: 40, url: ws.url + '/', body: 'hi' }
    }
  })
  t.equal(h2Paths.length, 25, 'the HTTP/2 scenario: 25 streams')
  t.equal(ws.stats.messages, 40, 'the WebSocket scenario: 40 messages')
  t.equal(result.scenarios.messages.requests.total, 40)
  t.equal(result.scenarios.messages.ws.match, 'order', 'its ws figures are its own')
  t.equal(s.log.length, 6, 'the HTTP/1.1 one: 2 x 3')
  t.equal(result.scenarios.streams.requests.total, 25)
  t.equal(result.requests.total, 71)
})

t.test('stop() before a scenario\'s startTime: it reports nothing sent; a scenario that cannot connect fails the run by name', async (t) => {
  const s = await logServer(t)
  const run = load({
    url: s.url + '/',
    scenarios: {
      now: { executor: 'per-vu-iterations', vus: 1, iterations: 5 },
      never: { executor: 'constant-vus', vus: 1, duration: '1s', startTime: '1h', thresholds: ['requests==0'] }
    }
  })
  // the first scenario finishes (5 requests), then the run is stopped long before the second's hour
  await new Promise((resolve) => { const poll = () => (s.log.length >= 5 ? setTimeout(resolve, 50) : setTimeout(poll, 10)); poll() })
  run.stop()
  const result = await run
  t.equal(result.scenarios.now.requests.total, 5)
  t.equal(result.scenarios.never.requests.total, 0)
  t.equal(result.scenarios.never.stoppedBy, 'stopped')
  t.equal(result.scenarios.never.perSecond.start - result.perSecond.start, 3600000, 'placed where it would have started')
  t.same(result.scenarios.never.thresholds, [{ expr: 'requests==0', value: 0, ok: true }])
  t.equal(result.requests.total, 5)

  const closed = http.createServer()
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const port = closed.address().port
  await new Promise((resolve) => closed.close(resolve))
  const failing = load({
    url: s.url + '/',
    scenarios: {
      ok: { executor: 'constant-vus', vus: 1, duration: '30s', startTime: '1s' },
      gone: { executor: 'per-vu-iterations', vus: 1, iterations: 1, url: `http://127.0.0.1:${port}/` }
    }
  })
  await t.rejects(failing, { code: 'BENCHRIG_ERR_UNREACHABLE', message: /^scenario "gone": cannot connect to 127\.0\.0\.1:/ })
})

t.test('startAt (--start-at): the shared t0 waits for it, and every startTime counts from it', async (t) => {
  const s = await logServer(t)
  const startAt = Date.now() + 300
  const result = await load({
    url: s.url + '/',
    startAt,
    scenarios: {
      first: { executor: 'per-vu-iterations', vus: 1, iterations: 2 },
      second: { executor: 'per-vu-iterations', vus: 1, iterations: 2, startTime: '100ms' }
    }
  })
  t.ok(result.perSecond.start >= startAt, 'the run\'s t0 is not before the instant')
  t.ok(s.log.every((r) => r.at >= startAt), 'nothing was sent before it')
  t.equal(result.scenarios.second.perSecond.start - result.perSecond.start, 100)
})

t.test('stop() right after load(): nothing sent; a dozen scenarios share one event listener each way', async (t) => {
  const s = await logServer(t)
  const stopped = load({ url: s.url + '/', scenarios: { a: { executor: 'constant-vus', vus: 2, duration: '5s' }, b: { executor: 'per-vu-iterations', vus: 1, iterations: 3 } } })
  stopped.stop()
  const r = await stopped
  t.same([r.scenarios.a.stoppedBy, r.scenarios.b.stoppedBy, r.requests.total], ['stopped', 'stopped', 0])
  t.equal(s.sockets.size, 0, 'no connection was made')

  const warnings = []
  const onWarning = (w) => warnings.push(w.name)
  process.on('warning', onWarning)
  t.teardown(() => process.removeListener('warning', onWarning))
  const scenarios = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`s${i}`, { executor: 'per-vu-iterations', vus: 1, iterations: 2 }]))
  const run = load({ url: s.url + '/', scenarios })
  let responses = 0
  run.on('response', () => responses++)
  run.on('reqError', () => {})
  const result = await run
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(result.requests.total, 24)
  t.equal(responses, 24)
  t.equal(run.opts.duration, 0, 'iteration executors: no planned end for the live line\'s bar')
  const timed = load({ url: s.url + '/', scenarios: { a: { executor: 'constant-vus', duration: '1s', startTime: '2s' } } })
  timed.stop()
  t.equal(timed.opts.duration, 3, 'else the last scenario\'s end')
  t.equal((await timed).requests.total, 0)
  t.same(warnings, [], 'no MaxListenersExceededWarning')
})
