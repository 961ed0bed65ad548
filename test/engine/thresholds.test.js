'use strict'
// --threshold: the grammar, the figures it reads, when --threshold-abort may
// stop a run, and passing and failing runs in every form (API, CLI text, CLI
// JSON) against a real node http server on loopback. Runs are bounded by
// request count (-a), so what passes and fails does not depend on speed.
const { test } = require('tap')
const http = require('node:http')
const path = require('node:path')
const { load } = require('../../lib/engine/index.js')
const { main, reportThresholds } = require('../../lib/cli/load.js')
const { runMain } = require('../../lib/cli/dispatch.js')
const { Histogram } = require('../../lib/engine/measure/histogram.js')
const C = require('../../lib/engine/counters.js')
const { parseThreshold, parseThresholds, measure, evaluate, failsEarly, TickWatch, GRACE_MS } = require('../../lib/engine/thresholds.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

async function server (t, { delayMs = 0, status = 200 } = {}) {
  let hits = 0
  const srv = http.createServer((req, res) => {
    hits++
    res.statusCode = status
    if (delayMs > 0) setTimeout(() => res.end('ok'), delayMs)
    else res.end('ok')
  })
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => srv.close())
  return { url: `http://127.0.0.1:${srv.address().port}/`, hits: () => hits }
}

function cli (args) {
  return spawnOutput(process.execPath, [BIN, 'load', ...args])
}

test('the grammar: metrics, operators and units, to one unit per kind', (t) => {
  const pick = (s) => { const th = parseThreshold(s); return [th.metric, th.kind, th.op, th.bound, th.percentile] }
  t.same(pick('p99<50ms'), ['p99', 'latency', '<', 50, 99])
  t.same(pick('p50 <= 10ms'), ['p50', 'latency', '<=', 10, 50])
  t.same(pick('p99.9<2s'), ['p99.9', 'latency', '<', 2000, 99.9])
  t.same(pick('mean<500us'), ['mean', 'latency', '<', 0.5, undefined])
  t.same(pick('max<=20'), ['max', 'latency', '<=', 20, undefined], 'latency in ms by default')
  t.same(pick('errors<0.1%'), ['errors', 'share', '<', 0.1, undefined])
  t.same(pick('errors<5'), ['errors', 'count', '<', 5, undefined])
  t.same(pick('non2xx==0'), ['non2xx', 'count', '==', 0, undefined])
  t.same(pick('2xx>1000'), ['2xx', 'count', '>', 1000, undefined])
  t.same(pick('timeouts!=3'), ['timeouts', 'count', '!=', 3, undefined])
  t.same(pick('rps>10000'), ['rps', 'rate', '>', 10000, undefined])
  t.same(parseThresholds(undefined), [])
  t.equal(parseThresholds('p99<1s').length, 1, 'one string or a list')
  const bad = [
    ['p99<<5', /invalid --threshold "p99<<5": give METRIC OP VALUE/],
    ['p99', /give METRIC OP VALUE/],
    ['latency<5ms', /unknown metric "latency"; the metrics are p50, p99/],
    ['p0<5ms', /the percentile of p0 must be above 0/],
    ['p101<5ms', /the percentile of p101/],
    ['p99<5%', /p99 is a latency: give it in ms, us or s/],
    ['errors<5ms', /errors is a count: give a number, or a share with %/],
    ['errors<2.5', /errors is a count: give a whole number/],
    ['errors<101%', /a share is at most 100%/],
    ['rps>5%', /rps is responses per second/]
  ]
  for (const [expr, re] of bad) t.throws(() => parseThreshold(expr), { exitCode: 2, message: re }, expr)
  t.end()
})

test('the figures: counts, shares of what ended, rps over the run, latency from the histogram', (t) => {
  const counters = new Float64Array(C.SIZE)
  counters[C.COMPLETED] = 990
  counters[C.S2XX] = 980
  counters[C.S5XX] = 10
  counters[C.ERR_TIMEOUT] = 6
  counters[C.ERR_CONNECT] = 4
  const histogram = new Histogram()
  for (let ms = 1; ms <= 1000; ms++) histogram.record(ms * 1000)
  const s = { counters, histogram, elapsedMs: 2000 }
  const m = (e) => measure(parseThreshold(e), s)
  t.equal(m('requests>0'), 990)
  t.equal(m('errors<1'), 10, 'errors: connect + read + write + timeout + parse ... (not non-2xx)')
  t.equal(m('errors<1%'), 1, 'a share of the 1000 requests that ended (990 responses + 10 errors)')
  t.equal(m('timeouts<1%'), 0.6)
  t.equal(m('non2xx<1'), 10)
  t.equal(m('5xx<1%'), 1.01, '5xx: a share of the 990 responses')
  t.equal(m('rps>1'), 495, 'responses per second over the run')
  t.ok(Math.abs(m('p50<1s') - 500) <= 0.5, 'p50 of 1..1000 ms')
  t.ok(Math.abs(m('p99.9<1s') - 999) <= 1, 'p99.9')
  t.ok(Math.abs(m('max<1s') - 1000) <= 1, 'max')
  t.ok(Math.abs(m('min>0') - 1) <= 0.01, 'min')
  t.same(evaluate(parseThresholds(['errors<11', 'errors<10', 'rps>=495']), s).map((c) => c.ok), [true, false, true], '< is strict, >= is not')
  t.end()
})

test('--threshold-abort: what a running value may decide, and when', (t) => {
  const early = (expr, value, ms) => failsEarly(parseThreshold(expr), value, ms)
  t.ok(early('errors<5', 5, 0), 'a growing count at its upper bound: at once, no grace')
  t.notOk(early('errors<5', 4, 0))
  t.ok(early('non2xx==0', 1, 0), 'an == on a growing count, once past it')
  t.notOk(early('2xx==100', 50, 5000), 'but not before it reaches it')
  t.notOk(early('requests>1000', 10, 60000), 'a lower bound on a growing count can still pass: left to the end')
  t.ok(early('max<50ms', 60, 0), 'max only grows')
  t.ok(early('min>1ms', 0.5, 0), 'min only falls')
  t.notOk(early('p99<50ms', 80, GRACE_MS - 1), 'a percentile waits for the grace period')
  t.ok(early('p99<50ms', 80, GRACE_MS), 'then fails on its running value (k6\'s abortOnFail)')
  t.ok(early('errors<1%', 5, GRACE_MS), 'so does a share')
  t.notOk(early('rps>100', 500, GRACE_MS), 'a passing running value does not stop the run')
  t.end()
})

const PASSING = ['requests==40', 'non2xx==0', 'errors<1', 'errors<0.1%', 'p99<60s', '2xx>=40']
const FAILING = ['requests<40', 'non2xx==0', 'max<1us']

test('API: result.thresholds of a passing and of a failing run', async (t) => {
  const { url } = await server(t)
  const ok = await load({ url, connections: 2, amount: 40, thresholds: PASSING })
  t.same(ok.thresholds.map((c) => [c.expr, c.ok]), PASSING.map((e) => [e, true]), 'every threshold passed')
  t.same(ok.thresholds.slice(0, 3).map((c) => c.value), [40, 0, 0], 'with the measured values')
  const bad = await load({ url, connections: 2, amount: 40, thresholds: FAILING })
  t.same(bad.thresholds.map((c) => c.ok), [false, true, false])
  t.equal(bad.thresholds[0].value, 40)
  t.ok(bad.thresholds[2].value >= 0.001, 'max is measured')
  t.equal(bad.stoppedBy, 'amount', 'failing thresholds do not stop a run without --threshold-abort')
  const none = await load({ url, connections: 1, amount: 5 })
  t.equal(none.thresholds, undefined, 'no thresholds, no key')
})

test('API: --threshold-abort stops the run once a threshold can no longer pass, and says so', async (t) => {
  const { url } = await server(t)
  const r = await load({ url, connections: 2, duration: 30, thresholds: ['requests<50', 'non2xx==0'], thresholdAbort: true })
  t.equal(r.stoppedBy, 'threshold')
  t.equal(r.thresholdAbort.expr, 'requests<50')
  t.ok(r.thresholdAbort.value >= 50, `it had ${r.thresholdAbort.value} responses when checked`)
  t.ok(r.duration < 30, 'the run ended early')
  t.same(r.thresholds.map((c) => c.ok), [false, true], 'the final check still lists every threshold')
  // what the CLI prints of it, under the result
  const io = { stdout: { text: '', write (s) { this.text += s } }, stderr: { text: '', write (s) { this.text += s } } }
  t.equal(reportThresholds(r, false, io), true, 'a failed threshold: exit 1')
  t.equal(io.stdout.text, '', 'stdout is left to -j')
  t.match(io.stderr.text, /^Thresholds:\n {2}FAIL {2}requests<50 +requests = \d+\n {2}pass {2}non2xx==0 +non2xx = 0\n/)
  t.match(io.stderr.text, /benchrig load: aborted by --threshold-abort after [\d.]+ s: "requests<50" could no longer pass \(\d+ then\); the result above covers that time only\nbenchrig load: threshold "requests<50" failed: requests was \d+\n$/)
  // a percentile waits for the grace period, then fails on its running value
  const slow = await server(t, { delayMs: 5 })
  const p = await load({ url: slow.url, connections: 2, duration: 30, thresholds: ['p50<1us'], thresholdAbort: true })
  t.equal(p.stoppedBy, 'threshold')
  t.ok(p.thresholdAbort.at >= GRACE_MS / 1000, `not before the grace period (${p.thresholdAbort.at} s)`)
  t.throws(() => load({ url, thresholdAbort: true }), /--threshold-abort stops a run on a failing threshold: add at least one --threshold/)
})

test('TickWatch: the combined tick of several runners, counters summed and a running histogram', (t) => {
  const fails = []
  const w = new TickWatch(parseThresholds(['p50<2ms', 'errors<3']), (f) => fails.push(f))
  const counters = new Float64Array(C.SIZE)
  counters[C.COMPLETED] = 100
  // one runner's second: 60 responses at 1 ms; another's: 40 at 5 ms (p50 1 ms, passing)
  const second = new Histogram()
  for (let i = 0; i < 60; i++) second.record(1000)
  for (let i = 0; i < 40; i++) second.record(5000)
  w.feed(counters, second.counts, 1000)
  t.same(fails, [], 'p50 of both runners together is 1 ms: passing')
  t.equal(w.histogram.totalCount, 100, 'the running histogram holds the second')
  // the next second: 80 slow ones; the running p50 moves past 2 ms
  const next = new Histogram()
  for (let i = 0; i < 80; i++) next.record(5000)
  counters[C.COMPLETED] = 180
  w.feed(counters, next.counts, 2000)
  t.equal(fails.length, 1, 'fails once')
  t.equal(fails[0].expr, 'p50<2ms')
  t.ok(fails[0].value >= 5 && fails[0].value < 5.1, `running p50 over 180 responses (${fails[0].value} ms)`)
  t.equal(fails[0].atMs, 2000)
  counters[C.ERR_CONNECT] = 9
  w.feed(counters, undefined, 3000)
  t.equal(fails.length, 1, 'a watch that has decided stays quiet')
  const counts = new TickWatch(parseThresholds(['errors<3']), (f) => fails.push(f))
  counts.feed(counters, undefined, 1000)
  t.same(fails[1], { expr: 'errors<3', value: 9, atMs: 1000 }, 'counts need no latency')

  t.end()
})

test('API: --threshold-abort over -w 2 and over two origins, passing and aborting', async (t) => {
  const a = await server(t)
  const b = await server(t)
  const slow = await server(t, { delayMs: 5 })
  // passing: bounded by -a, the combined watch never fires
  const ok = await load({ url: a.url, connections: 2, workers: 2, amount: 40, thresholds: ['requests<=40', 'p99<10s'], thresholdAbort: true })
  t.equal(ok.stoppedBy, 'amount', '-w 2: a passing run ends on its amount')
  t.same(ok.thresholds.map((c) => c.ok), [true, true])
  t.equal(ok.thresholdAbort, undefined)
  // aborting on a percentile: the main thread's histogram, fed by both workers' seconds
  const p = await load({ url: slow.url, connections: 2, workers: 2, amount: 1e6, thresholds: ['p50<1us'], thresholdAbort: true })
  t.equal(p.stoppedBy, 'threshold', '-w 2: aborted')
  t.equal(p.thresholdAbort.expr, 'p50<1us')
  t.ok(p.thresholdAbort.value >= 5, `the combined running p50 (${p.thresholdAbort.value} ms)`)
  t.ok(p.thresholdAbort.at >= GRACE_MS / 1000, 'not before the grace period')
  t.ok(p.requests.total < 1e6, 'the run ended before its amount')
  const urls = [a.url, b.url]
  const two = await load({ url: urls, connections: 2, amount: 40, thresholds: ['requests<=40', 'non2xx==0'], thresholdAbort: true })
  t.equal(two.stoppedBy, 'amount', 'two origins: a passing run ends on its amount')
  t.same(two.thresholds.map((c) => c.ok), [true, true])
  const before = a.hits() + b.hits()
  const cut = await load({ url: urls, connections: 2, amount: 1e6, thresholds: ['requests<50'], thresholdAbort: true })
  t.equal(cut.stoppedBy, 'threshold', 'two origins: aborted')
  t.equal(cut.thresholdAbort.expr, 'requests<50')
  t.ok(cut.thresholdAbort.value >= 50, `the summed count of both origins (${cut.thresholdAbort.value})`)
  t.ok(a.hits() + b.hits() - before < 1e6, 'the run ended before its amount')
})

test('CLI: passing and failing runs as text and as JSON; exit 1 names each failed threshold', async (t) => {
  const { url } = await server(t)
  const flags = (list) => list.flatMap((e) => ['--threshold', e])
  const textOk = await cli(['-c', '2', '-a', '40', ...flags(PASSING), url])
  t.equal(textOk.code, 0, 'a passing run exits 0')
  t.match(textOk.stderr, /Thresholds:\n {2}pass {2}requests==40 +requests = 40\n/, 'and lists its thresholds as passed')
  t.notMatch(textOk.stderr, /threshold/)
  const textBad = await cli(['-c', '2', '-a', '40', ...flags(FAILING), url])
  t.equal(textBad.code, 1, 'a failing run exits 1')
  t.match(textBad.stderr, / {2}FAIL {2}requests<40 +requests = 40\n {2}pass {2}non2xx==0 +non2xx = 0\n {2}FAIL {2}max<1us/)
  const lines = textBad.stderr.split('\n').filter((l) => l.includes('threshold'))
  t.same(lines.length, 2, 'one stderr line per failed threshold')
  t.match(lines[0], /^benchrig load: threshold "requests<40" failed: requests was 40$/)
  t.match(lines[1], /^benchrig load: threshold "max<1us" failed: max was [\d.]+ ms$/)
  const jsonOk = await cli(['-j', '-c', '2', '-a', '40', ...flags(PASSING), url])
  t.equal(jsonOk.code, 0)
  t.ok(JSON.parse(jsonOk.stdout).thresholds.every((c) => c.ok), 'the JSON has thresholds [{expr, value, ok}]')
  const jsonBad = await cli(['-j', '-c', '2', '-a', '40', ...flags(FAILING), url])
  t.equal(jsonBad.code, 1)
  const r = JSON.parse(jsonBad.stdout)
  t.same(Object.keys(r.thresholds[0]), ['expr', 'value', 'ok'])
  t.same(r.thresholds.map((c) => c.ok), [false, true, false])
  t.match(jsonBad.stderr, /threshold "requests<40" failed: requests was 40/, 'stdout holds only the JSON')
})

test('CLI: a bad expression stops with exit 2 before any request', async (t) => {
  const { url, hits } = await server(t)
  await t.rejects(main(['--threshold', 'p99<5', '--threshold', 'p95<>5', url]), { exitCode: 2, message: /invalid --threshold "p95<>5"/ })
  await t.rejects(main(['--threshold-abort', url]), { exitCode: 2, message: /add at least one --threshold/ })
  // as bin/benchrig.js runs it: one line to stderr, exit code 2
  const printed = []
  const origError = console.error
  console.error = (m) => printed.push(String(m))
  let code
  try {
    code = await runMain(main, ['--threshold', 'lat<5ms', url], 'benchrig load')
  } finally {
    console.error = origError
  }
  t.equal(code, 2)
  t.same(printed, ['benchrig load: invalid --threshold "lat<5ms": unknown metric "lat"; the metrics are p50, p99, p99.9, mean, min, max, stddev, requests, errors, timeouts, non2xx, mismatches, 2xx (or 1xx..5xx), rps, interrupted, dropped_iterations'], 'one line, no stack')
  t.equal(hits(), 0, 'no request was sent')
})
