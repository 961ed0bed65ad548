'use strict'
// --stages end to end against a real node http server on loopback: the plan
// the run kept (per interval, from each finished request's planned send in
// --reqlog, and in total), the interval rows, the JSON's `stages`, and bad
// stage strings refused before any work. The exact schedule is proven on an
// injected clock in stages-clock.test.js; here the bounds are the issue's
// (5% per interval, 2% in total).
const { test } = require('tap')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { load } = require('../../lib/engine/index.js')
const { main } = require('../../lib/cli/load.js')
const { formatRow } = require('../../lib/engine/measure/timeline.js')

async function server (t) {
  let hits = 0
  const srv = http.createServer((req, res) => { hits++; res.end('ok') })
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => srv.close())
  return { url: `http://127.0.0.1:${srv.address().port}/`, hits: () => hits }
}

// 0 -> 200 req/s over 300 ms, 200 req/s for 900 ms, 200 -> 0 over 300 ms: 30 + 180 + 30 requests
const STAGES = '300ms:200,900ms:200,300ms:0'
const TOTAL = 240
/** Requests the ramp plans in [0, t) ms (its integral, t ms from the plan's start). */
function integral (t) {
  if (t <= 0) return 0
  if (t <= 300) return t * t / 3000
  if (t <= 1200) return 30 + (t - 300) / 5
  const u = Math.min(t, 1500) - 1200
  return 210 + u / 5 - u * u / 3000
}
/** When request n (1-based) is due. */
function plannedAt (n) {
  if (n <= 30) return Math.sqrt(3000 * n)
  if (n <= 210) return 300 + 5 * (n - 30)
  return 1500 - Math.sqrt(90000 - 3000 * (n - 210))
}

test('--stages: a gentle ramp against a real server keeps its plan per interval and in total', async (t) => {
  const { url } = await server(t)
  const file = path.join(t.testdir(), 'reqlog.txt')
  const r = await load({ url, connections: 8, stages: STAGES, interval: 300, reqlog: file })
  t.same(r.stages, [{ duration: 0.3, target: 200 }, { duration: 0.9, target: 200 }, { duration: 0.3, target: 0 }], 'the JSON has the parsed plan')
  t.equal(r.stoppedBy, 'duration', 'the run ended with its plan')
  t.equal(r.rate.mode, 'stages')
  t.equal(r.rate.planned, TOTAL, 'the plan held the integral of the ramp, exactly')
  // A request sent by an idle connection goes out when the pace timer runs,
  // which a busy machine makes late (rate.lag says by how much): that moves
  // up to rate × lag requests over an interval's boundary, or past the end.
  // On an idle machine that is about none, leaving the bounds.
  const moved = Math.ceil(200 * r.rate.lag.max / 1000)
  t.ok(TOTAL - r.requests.sent <= 0.02 * TOTAL + moved, `sent ${r.requests.sent} of ${TOTAL}: within 2% (+ ${moved} for ${r.rate.lag.max} ms of send lag)`)
  t.ok(r.requests.total >= r.requests.sent - 8, `answered ${r.requests.total}: all but those in flight at the end (one per connection)`)
  // per 300 ms of the plan, by each finished request's planned send (ns since t0 in --reqlog)
  const starts = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => Number(l.split(';')[1]) / 1e6).sort((a, b) => a - b)
  const origin = starts[0] - plannedAt(1) // the plan's start on the same clock
  const got = [0, 0, 0, 0, 0]
  for (const s of starts) got[Math.min(4, Math.floor((s - origin) / 300))]++
  const want = got.map((_, k) => integral(300 * (k + 1)) - integral(300 * k))
  t.same(want, [30, 60, 60, 60, 30], 'the ramp: up, hold, down')
  // (--reqlog logs a request sent by an idle connection at its send: see above)
  got.forEach((n, k) => t.ok(Math.abs(n - want[k]) <= Math.max(1, 0.05 * want[k]) + moved,
    `interval ${k}: ${n} requests, ${want[k]} planned (within 5%, + ${moved} for ${r.rate.lag.max} ms of send lag)`))
  // the timeline rows carry the plan beside what was sent and answered
  t.ok(r.intervals.length >= 5, `${r.intervals.length} rows`)
  t.equal(r.intervals.reduce((a, row) => a + row.planned, 0), TOTAL, 'the rows\' planned counts add up to the plan')
  t.equal(r.intervals.reduce((a, row) => a + row.sent, 0), r.requests.sent, 'and their sends to the sends')
  const start = new Date(r.start).getTime()
  for (const row of r.intervals.slice(0, -1)) {
    const plannedBy = (at) => Math.floor(integral(at - start) + 1e-9)
    t.ok(Math.abs(row.planned - (plannedBy(row.start + row.ms) - plannedBy(row.start))) <= 1, `row at ${row.start - start} ms: ${row.planned} planned, the ramp's integral over it (±1 for the ms clock)`)
  }
  t.match(formatRow(r.intervals[1], r.intervals[0].start), /^interval 0\.3s \+300ms: \d+ req \(\d+ planned\), mean/, 'the text row shows the plan')
})

test('stage targets take SI counts and durations the compound forms, as every count and duration does', (t) => {
  const { parseStages } = require('../../lib/engine/stages.js')
  const { parseDuration } = require('../../lib/engine/options/units.js')
  const { normalizeOptions } = require('../../lib/engine/options/options.js')
  t.same(parseStages('1m30s:10k,30s:1.5k,1h2m:2.5,500ms:0', '--stages', parseDuration),
    [{ durationMs: 90000, target: 10000 }, { durationMs: 30000, target: 1500 }, { durationMs: 3720000, target: 2.5 }, { durationMs: 500, target: 0 }])
  t.same(parseStages([{ duration: '1m30s', target: '1k' }, { duration: 10, target: 0 }], '--stages', parseDuration),
    [{ durationMs: 90000, target: 1000 }, { durationMs: 10000, target: 0 }], 'the API objects too')
  t.same(parseStages('2m:1k,1m30s:0', '--stages-connections', parseDuration, { integer: true }),
    [{ durationMs: 120000, target: 1000 }, { durationMs: 90000, target: 0 }])
  const url = 'http://127.0.0.1:1/'
  const rate = normalizeOptions({ url, stages: '1m30s:10k,30s:0' })
  t.equal(rate.durationMs, 120000, 'the run lasts the compound durations summed')
  t.same(rate.rate.stages.map((s) => s.target), [10000, 0])
  const conns = normalizeOptions({ url, stagesConnections: '1m:1k,30s:0', connections: '1k' })
  t.equal(conns.connections, 1000, 'the peak of 1k connections, and -c 1k agrees with it')
  t.equal(conns.durationMs, 90000)
  t.throws(() => normalizeOptions({ url, stages: '1s:10m' }), /invalid --stages "1s:10m": the target after ":" must be a rate >= 0/)
  t.end()
})

test('--stages: bad stage strings and clashing flags stop before any request', async (t) => {
  const { url, hits } = await server(t)
  const cases = [
    [['--stages', '30s'], /invalid --stages "30s": each stage is DURATION:TARGET/],
    [['--stages', '1s:100,2x:50'], /invalid --stages "2x:50": the duration before ":" must be positive/],
    [['--stages', '1s:-1'], /invalid --stages "1s:-1": the target after ":" must be a rate >= 0, optionally with k, M or G/],
    [['--stages', '1s:1x'], /invalid --stages "1s:1x": the target after ":" must be a rate >= 0/],
    [['--stages-connections', '1s:2.5'], /invalid --stages-connections "1s:2.5": the target after ":" must be a whole number of connections/],
    [['--stages-connections', '1s:1.0005k'], /invalid --stages-connections "1s:1.0005k": the target after ":" must be a whole number of connections/],
    [['--stages', '1s:100', '-R', '50'], /--stages sets the rate over time; it cannot be combined with -R\/--overall-rate/],
    [['--stages', '1s:100', '-d', '5'], /-d\/--duration 5 disagrees with --stages, whose stages last 1s/],
    [['--stages', '1s:100', '-a', '10'], /--stages runs for the sum of its stages; -a\/--amount cannot end it/],
    [['--stages', '1s:100', '-W', '1'], /-W\/--warmup cannot precede --stages/]
  ]
  for (const [args, re] of cases) {
    await t.rejects(main([...args, url]), { exitCode: 2, message: re }, args.join(' '))
  }
  t.equal(hits(), 0, 'no request was sent')
  t.throws(() => load({ url, stages: '1s:100', duration: 2 }), /-d\/--duration 2 disagrees/, 'the API checks the same')
  t.equal(load({ url, stages: '100ms:10', duration: '100ms' }).opts.durationMs, 100, 'a -d that agrees is taken')
})

test('--stages-connections: connections opened, all closed, and reopened along the ramp against a real server', async (t) => {
  const { url } = await server(t)
  // up to 3, held, down to 0, held, up to 3 again, held: the holds give a
  // loaded machine time to connect and to close before the ramp moves on
  // (with 200/100 ms holds a run in the full suite once saw no reconnect)
  const r = await load({ url, stagesConnections: '50ms:3,300ms:3,50ms:0,300ms:0,50ms:3,1s:3', interval: 150 })
  t.equal(r.stagesOf, 'connections')
  t.same(r.stages.map((s) => s.target), [3, 3, 0, 0, 3, 3])
  t.equal(r.connections, 3, 'the peak of the ramp')
  t.equal(r.stoppedBy, 'duration')
  t.equal(r.openConnectionsMax, 3)
  t.ok(r.connectLatency.totalCount >= 6, `each connection opened on the way up and again after the trough (${r.connectLatency.totalCount} connects)`)
  t.equal(r.errors, 0, 'closing a connection on the way down is no error')
  t.ok(r.requests.total > 0)
  t.ok(r.intervals.every((row) => row.open >= 0 && row.open <= 3), 'each row says how many connections were open')
  t.throws(() => load({ url, stagesConnections: '1s:5', connections: 3 }), /-c\/--connections 3 disagrees with --stages-connections, whose peak is 5/)
  t.throws(() => load({ url, stagesConnections: '1s:5', stages: '1s:5' }), /cannot be combined with --stages/)
})

test('--stages-connections split over runners: their parts always sum to floor(target), and each part reaches what it holds', (t) => {
  const { partOf } = require('../../lib/engine/connection-stages.js')
  const { split } = require('../../lib/engine/split.js')
  for (const [shares, origins, peak] of [[2, 1, 5], [1, 2, 5], [3, 2, 17], [2, 3, 6]]) {
    const n = shares * origins
    const held = split(peak, shares).flatMap((c) => split(c, origins))
    let prev = new Array(n).fill(0)
    for (let w = 0; w <= peak; w++) {
      const parts = Array.from({ length: n }, (_, i) => partOf(w, { index: i, shares, origins }))
      t.equal(parts.reduce((a, b) => a + b, 0), w, `${shares}x${origins}: ${w} open in all`)
      t.ok(parts.every((p, i) => p >= prev[i] && p <= held[i]), `${shares}x${origins} at ${w}: no part shrinks on the way up or passes what it holds`)
      prev = parts
    }
    t.same(prev, held, `${shares}x${origins}: at the peak each runner opens every connection it holds`)
  }
  t.end()
})

test('--stages-connections with -w 2 and with two origins against real servers', async (t) => {
  const a = await server(t)
  const b = await server(t)
  // up to 5, held (time for a loaded machine to connect), down to 0
  const stagesConnections = '50ms:5,1s:5,50ms:0'
  const w = await load({ url: a.url, stagesConnections, workers: 2, interval: 100 })
  t.equal(w.connections, 5, '-w 2: the peak')
  t.equal(w.openConnectionsMax, 5, 'both workers\' parts open at the peak (3 + 2)')
  t.ok(w.connectLatency.totalCount >= 5, `every connection opened (${w.connectLatency.totalCount} connects)`)
  t.equal(w.errors, 0)
  t.ok(w.intervals.every((row) => row.open >= 0 && row.open <= 5), 'the rows sum the workers\' open connections')
  const hitsBefore = [a.hits(), b.hits()]
  const o = await load({ url: [a.url, b.url], stagesConnections })
  t.equal(o.openConnectionsMax, 5, 'two origins: their parts open at the peak (3 + 2)')
  t.equal(o.errors, 0)
  t.ok(a.hits() > hitsBefore[0] && b.hits() > hitsBefore[1], 'both origins got requests')
})

test('--stages-connections on HTTP/2: sessions opened, all closed, and reopened along the ramp', async (t) => {
  const http2 = require('node:http2')
  let sessions = 0
  const live = new Set()
  const srv = http2.createServer()
  srv.on('session', (s) => {
    sessions++
    live.add(s)
    s.on('error', () => {})
    s.on('close', () => live.delete(s))
  })
  srv.on('stream', (stream) => {
    stream.on('error', () => {})
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { for (const s of live) s.destroy(); srv.close() })
  const url = `http://127.0.0.1:${srv.address().port}/`
  // the last hold is long so the reopened sessions finish connecting on a
  // loaded machine (200 ms once saw 5 connects of 6 at load average 18)
  const r = await load({ url, h2: true, stagesConnections: '50ms:3,200ms:3,50ms:0,100ms:0,50ms:3,1s:3' })
  t.equal(r.stagesOf, 'connections')
  t.equal(r.openConnectionsMax, 3)
  t.ok(r.connectLatency.totalCount >= 6, `each session opened on the way up and again after the trough (${r.connectLatency.totalCount} connects)`)
  t.ok(sessions >= 6, `the server saw them (${sessions} sessions)`)
  t.equal(r.errors, 0, 'closing a session on the way down is no error, and nothing left on it is re-sent as one')
  t.ok(r.requests.total > 0)
})
