'use strict'
// HTTP/2 (--h2) with the traffic shapes of HTTP/1.1: constant rate and
// bursts with coordinated-omission correction (and -C), -O, -M, -D,
// --breakout and --local-address, against node:http2 and `benchrig serve
// --h2c`. The freeze test runs an h2c server in its own process that stops
// its event loop on wall-clock windows, so the corrected percentiles have an
// exact expectation. Every load is bounded; assertions are on counts and
// shapes, never on speed.
const t = require('tap')
const http2 = require('node:http2')
const { load } = require('../../lib/engine/index.js')
const { startServe } = require('../helpers/serve.js')
const { startFreezer, percentileOf, loadAgainstModel } = require('../helpers/freezer.js')

/**
 * A node:http2 h2c server closed in teardown, counting what it sees:
 * sessions (connections), streams per session and their source addresses.
 */
async function h2server (t, handler) {
  const seen = { streams: 0, sessions: 0, perSession: [], remotes: new Set() }
  const sessions = new Set()
  const server = http2.createServer()
  server.on('session', (session) => {
    session.on('error', () => {})
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
    seen.sessions++
    seen.remotes.add(session.socket.remoteAddress)
    const i = seen.perSession.push(0) - 1
    session.on('stream', () => { seen.perSession[i]++ })
  })
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {})
    seen.streams++
    if (handler) return handler(stream, headers)
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    server.close(resolve)
    for (const s of sessions) s.destroy()
  }))
  return { url: `http://127.0.0.1:${server.address().port}/`, seen }
}

t.test('constant rate: every planned stream sent or counted, both histograms hold every response', async (t) => {
  // counts, not a wall-clock window: the schedule itself is asserted on an
  // injected clock in pacing-clock.test.js (the pacer is the same object)
  const { url } = await h2server(t)
  for (const [key, value, connections] of [['overallRate', 2000, 4], ['connectionRate', 250, 8]]) {
    const r = await load({ url, h2: true, connections, maxStreams: 5, [key]: value, amount: 400 })
    const target = key === 'overallRate' ? value : value * connections
    t.equal(r.rate.target, target, `${key}: target`)
    t.equal(r.requests.total, 400, `${key}: the amount`)
    t.equal(r.rate.sent + r.rate.unsent, r.rate.planned, `${key}: every planned stream is sent or counted unsent`)
    t.equal(r.errors, 0)
    t.equal(r.latencyCorrected, true)
    t.equal(r.latency.totalCount, r.requests.total, 'corrected: every response')
    t.equal(r.uncorrectedLatency.totalCount, r.requests.total, 'uncorrected: every response')
    t.equal(r.rate.lag.totalCount, r.requests.sent, 'one lag per send')
  }
})

t.test('-C: latency from the actual sends only, no second histogram', async (t) => {
  const { url } = await h2server(t)
  const r = await load({ url, h2: true, connections: 2, maxStreams: 4, overallRate: 500, duration: 1, ignoreCoordinatedOmission: true })
  t.equal(r.latencyCorrected, false)
  t.equal(r.uncorrectedLatency, undefined)
  t.equal(r.uncorrectedHistogram, undefined)
  t.ok(r.requests.total >= 450, `responses (${r.requests.total})`)
  t.equal(r.latency.totalCount, r.requests.total)
})

// the pacing of streams (-R evenly, --burst on the interval, a busy server)
// is asserted exactly on an injected clock in pacing-clock.test.js

t.test('rate mode: a stream that times out still enters both histograms', async (t) => {
  const { url } = await h2server(t, (stream, headers) => {
    if (headers[':path'] === '/never') return
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  const base = url.slice(0, -1)
  const r = await load({ url: [`${base}/never`, `${base}/`], h2: true, connections: 1, maxStreams: 4, overallRate: 40, amount: 10, timeout: 0.3 })
  t.ok(r.errorsByKind.timeout >= 1, `timeouts (${r.errorsByKind.timeout})`)
  t.equal(r.requests.total + r.errorsByKind.timeout, 10, 'every planned request answered or timed out')
  t.equal(r.latency.totalCount, 10, 'timed-out streams are in the corrected histogram')
  t.equal(r.uncorrectedLatency.totalCount, 10, 'and in the uncorrected one')
  t.ok(r.latency.max >= 300, `the largest latency is at least the timeout (${r.latency.max} ms)`)
})

// --- coordinated omission against a freezing h2c server ----------------------

const at = percentileOf

t.test('h2c coordinated omission: corrected percentiles match the analytic expectation', async (t) => {
  const S = 800
  const T = 2000
  const R = 250
  const port = await startFreezer(t, S, T, 'h2c')
  // 5 connections x 5 streams = 25 in flight, as rate.test.js's 25
  // HTTP/1.1 connections: the 200 requests planned in a freeze drain in about
  // 8 round trips after it, small against the 600-800 ms under test, and 25
  // of 500 a period are few enough for the uncorrected figures to miss it
  const { r, expected } = await loadAgainstModel(t, { url: `http://127.0.0.1:${port}/`, h2: true, connections: 5, maxStreams: 5, overallRate: R, duration: 6.2, timeout: 5 }, { freezeMs: S, periodMs: T })
  t.ok(r.latencyCorrected)
  t.ok(r.requests.total > 1200, `most planned requests completed (${r.requests.total})`)
  t.equal(r.errors, 0)
  for (const p of [90, 95, 99]) {
    const want = at(expected, p)
    const got = r.latency[`p${p}`]
    t.ok(want > 500, `the expectation at p${p} lies in the freezes (${want.toFixed(1)} ms)`)
    t.ok(Math.abs(got - want) <= 0.1 * want, `corrected p${p} ${got} ms is within 10% of the expected ${want.toFixed(1)} ms`)
  }
  t.ok(r.uncorrectedLatency.p90 < 0.5 * r.latency.p90,
    `uncorrected p90 ${r.uncorrectedLatency.p90} ms hides the stalls (corrected ${r.latency.p90} ms)`)
  t.equal(r.uncorrectedLatency.totalCount, r.latency.totalCount, 'both histograms hold every response')
  t.ok(r.rate.lag.max > 50, `sends fell behind the plan during the freezes (max lag ${r.rate.lag.max} ms)`)
})

// --- connection lifetimes and counts -----------------------------------------

t.test('-O/--max-overall-requests: exactly N streams', async (t) => {
  const { url, seen } = await h2server(t)
  const r = await load({ url, h2: true, connections: 3, maxStreams: 7, maxOverallRequests: 1001, duration: 10 })
  t.equal(r.requests.total, 1001)
  t.equal(r.requests.sent, 1001)
  t.equal(seen.streams, 1001, 'the server saw exactly N streams')
  const workers = await load({ url, h2: true, workers: 2, connections: 4, maxStreams: 3, maxOverallRequests: 333, duration: 10 })
  t.equal(workers.requests.total, 333, 'split over workers, remainder spread')
})

t.test('-M/--max-connection-requests: c x M streams in total, then the run ends', async (t) => {
  const { url, seen } = await h2server(t)
  const r = await load({ url, h2: true, connections: 3, maxStreams: 4, maxConnectionRequests: 25, duration: 10 })
  t.equal(r.requests.total, 75)
  t.equal(seen.streams, 75)
  t.equal(r.stoppedBy, 'max-connection-requests')
  t.same(seen.perSession, [25, 25, 25], 'each connection opened M streams on one socket')
  t.ok(r.duration < 5, 'ended when all were answered, not at the duration')
  // with a constant rate too
  const paced = await load({ url, h2: true, connections: 2, maxStreams: 4, maxConnectionRequests: 10, overallRate: 200, duration: 10 })
  t.equal(paced.requests.total, 20)
  t.equal(paced.stoppedBy, 'max-connection-requests')
})

t.test('-D/--reconnect-rate: a new connection after N streams (server-side count)', async (t) => {
  const { url, seen } = await h2server(t)
  const r = await load({ url, h2: true, connections: 1, maxStreams: 4, reconnectRate: 10, amount: 100 })
  t.equal(r.requests.total, 100)
  t.equal(r.errors, 0)
  t.equal(seen.sessions, 10, 'the server saw 100 / 10 connections')
  t.same(seen.perSession, new Array(10).fill(10), '10 streams on each')
  t.equal(r.plannedReconnects, 9)
  const { url: url2, seen: seen2 } = await h2server(t)
  const two = await load({ url: url2, h2: true, connections: 2, maxStreams: 3, reconnectRate: 5, amount: 60 })
  t.equal(two.requests.total, 60)
  // -a is one budget shared by the two connections: sessions of 5, and at
  // most one short one per connection (its last)
  t.equal(seen2.perSession.reduce((a, b) => a + b, 0), 60)
  t.ok(seen2.perSession.every((n) => n <= 5), `at most 5 streams on each (${seen2.perSession})`)
  t.ok(seen2.perSession.filter((n) => n < 5).length <= 2, 'at most one short session per connection')
  // -D 1 is one stream per connection (what --connection close means for HTTP/1.1)
  const { url: url3, seen: seen3 } = await h2server(t)
  const one = await load({ url: url3, h2: true, connections: 2, reconnectRate: 1, amount: 20 })
  t.equal(one.requests.total, 20)
  t.equal(seen3.sessions, 20)
})

t.test('--breakout: connect, first byte (HEADERS) and last byte (END_STREAM) rows', async (t) => {
  const { url } = await h2server(t, (stream) => {
    // the headers first, the body 20 ms later: first byte well before the last
    stream.respond({ ':status': 200 })
    setTimeout(() => stream.end('late body'), 20)
  })
  const r = await load({ url, h2: true, connections: 2, maxStreams: 4, amount: 40, breakout: true })
  t.equal(r.requests.total, 40)
  const b = r.breakout
  t.ok(b, 'breakout rows present')
  t.equal(b.connect.totalCount, 2, 'one connect per connection')
  t.equal(b.firstByte.totalCount, 40)
  t.equal(b.lastByte.totalCount, 40)
  // last byte counts from the first (wrk-cmm's TTLB): the 20 ms the body waited
  // (max, not min: on a loaded machine a late read stamps the headers late,
  // or takes headers and body in one read, which shrinks some gaps)
  t.ok(b.lastByte.max >= 15, `the body came about 20 ms after the headers (first to last byte: max ${b.lastByte.max} ms)`)
  const sum = b.firstByte.average + b.lastByte.average
  t.ok(Math.abs(sum - r.latency.average) <= 0.02 * r.latency.average + 0.05,
    `first byte + first-to-last byte = the latency (${b.firstByte.average} + ${b.lastByte.average} vs ${r.latency.average} ms)`)
})

t.test('--local-address: the server sees the connections from 127.0.0.x', async (t) => {
  const { url, seen } = await h2server(t)
  const r = await load({ url, h2: true, connections: 3, maxStreams: 2, amount: 60, localAddress: '127.0.0.2-4' })
  t.equal(r.requests.total, 60)
  t.same([...seen.remotes].sort(), ['127.0.0.2', '127.0.0.3', '127.0.0.4'])
})

t.test('benchrig serve --h2c: rate, -M and --breakout together', async (t) => {
  const target = await startServe(t, { h2c: true })
  const r = await load({ url: target.url, h2: true, connections: 2, maxStreams: 5, overallRate: 400, maxConnectionRequests: 100, breakout: true, duration: 10 })
  t.equal(r.requests.total, 200)
  t.equal(r.stoppedBy, 'max-connection-requests')
  t.equal(r.errors, 0)
  t.equal(r.uncorrectedLatency.totalCount, 200)
  t.equal(r.breakout.firstByte.totalCount, 200)
})

t.test('--connection close is refused with --h2, naming -D 1', async (t) => {
  t.throws(() => load({ url: 'http://127.0.0.1:1/', h2: true, connection: 'close' }), /--connection close is HTTP\/1\.1 .*-D 1/)
})

t.test('the \'response\' event over HTTP/2, attached before or during the run', async (t) => {
  const { url } = await h2server(t)
  let early = 0
  const run = load({ url, h2: true, connections: 2, maxStreams: 3, amount: 30 })
  run.on('response', (client, status) => { if (status === 200) early++ })
  t.equal((await run).requests.total, 30)
  t.equal(early, 30)
  let late = 0
  const run2 = load({ url, h2: true, connections: 1, maxStreams: 3, amount: 300 })
  setImmediate(() => run2.on('response', () => { late++ }))
  const r2 = await run2
  t.equal(r2.requests.total, 300)
  t.ok(late > 0 && late <= 300, `a listener attached during the run hears the rest (${late})`)
})

t.test('request bodies over 64 KiB: sent as the server\'s windows allow, byte for byte', async (t) => {
  const crypto = require('node:crypto')
  const body = crypto.randomBytes(300 * 1024)
  const digest = crypto.createHash('sha1').update(body).digest('hex')
  for (const settings of [{}, { initialWindowSize: 16384 }, { initialWindowSize: 1 << 20 }]) {
    let good = 0
    let bad = 0
    const server = http2.createServer({ settings })
    server.on('session', (s) => s.on('error', () => {}))
    server.on('stream', (stream) => {
      stream.on('error', () => {})
      const hash = crypto.createHash('sha1')
      stream.on('data', (c) => hash.update(c))
      stream.on('end', () => {
        if (stream.destroyed) return
        if (hash.digest('hex') === digest) good++
        else bad++
        stream.respond({ ':status': 200 })
        stream.end('ok')
      })
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    t.teardown(() => server.close())
    const url = `http://127.0.0.1:${server.address().port}/`
    const r = await load({ url, h2: true, method: 'POST', body, connections: 2, maxStreams: 4, amount: 40, timeout: 5 })
    const w = settings.initialWindowSize ?? 65535
    t.equal(r.requests.total, 40, `window ${w}: every stream answered`)
    t.equal(r.errors, 0)
    t.equal(good, 40, `window ${w}: the server read every body whole`)
    t.equal(bad, 0)
    const paced = await load({ url, h2: true, method: 'POST', body, connections: 2, maxStreams: 4, overallRate: 100, amount: 50, timeout: 5 })
    t.equal(paced.requests.total, 50, `window ${w}: at a constant rate too`)
    t.equal(paced.errors, 0)
  }
  // a server that answers before reading the body: the rest is cancelled
  const { url } = await h2server(t, (stream) => {
    stream.respond({ ':status': 413 })
    stream.end('too large')
  })
  const early = await load({ url, h2: true, method: 'POST', body, connections: 1, maxStreams: 4, amount: 30, timeout: 5 })
  t.equal(early.requests.total, 30)
  t.same(early.statusCodeStats, { 413: { count: 30 } })
  t.equal(early.errors, 0)
})
