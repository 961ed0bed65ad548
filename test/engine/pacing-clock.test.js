'use strict'
// The send plan on an injected clock: a Runner of a rate or burst run, its
// paced connections on a stand-in socket, and a clock whose timers fire at
// exactly their due time. The schedule is then asserted exactly, whatever the
// machine's speed (the wall-clock proofs, the freeze test and the
// coordinated-omission model, stay in rate.test.js).
const { test } = require('tap')
const C = require('../../lib/engine/counters.js')
// timers that run only when the test advances the clock, at their due time, and
// paced runners on stand-in sockets that log each write with the clock's time
const { ManualClock, pacedRun, pacedRunner, standInTransport } = require('../helpers/manual-clock.js')

test('-R: one request every 1000/R ms, exactly, none late, the plan all sent', async (t) => {
  const clock = new ManualClock()
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 4 })
  clock.advanceTo(100, run.answer)
  const stats = await run.end()
  t.same(run.writes.map((w) => w.at), Array.from({ length: 101 }, (_, i) => i), 'a write at every ms from 0 to 100')
  t.ok(run.writes.every((w) => w.n === 1), 'each of one request')
  t.equal(stats.counters[C.SENT], 101)
  t.equal(stats.rate.planned, 101, 'the plan held 101 requests by 100 ms')
  t.equal(stats.rate.issued, 101, 'and all were sent')
  t.equal(run.runner.lag.maxValue, 0, 'no send was late')
  t.equal(new Set(run.writes.map((w) => w.id)).size, 4, 'the requests spread over the free connections')
})

test('-R with a busy server: late sends keep their planned time (coordinated omission)', async (t) => {
  const clock = new ManualClock()
  // one connection, planned every 2 ms, answered only every 10 ms
  const run = pacedRun(clock, { mode: 'overall', rate: 500, burst: 1, intervalMs: 0 }, { connections: 1 })
  for (let at = 10; at <= 50; at += 10) {
    clock.advanceTo(at)
    run.answer()
  }
  const stats = await run.end()
  t.same(run.writes.map((w) => w.at), [0, 10, 20, 30, 40, 50], 'sent as the connection became free')
  t.equal(stats.rate.planned, 26, 'the plan held 26 requests by 50 ms')
  t.equal(stats.rate.issued, 6)
  // request i was planned at 2i ms and answered at 10(i + 1) ms
  const h = run.runner.histogram
  t.equal(h.totalCount, 5)
  t.equal(Math.round(h.maxValue / 1000), 50 - 2 * 4, 'the last latency counts from its planned send (42 ms)')
  t.equal(Math.round(run.runner.uncorrected.maxValue / 1000), 10, 'the uncorrected one from its actual send (10 ms)')
})

test('--burst: N requests at once every interval, on the interval', async (t) => {
  const clock = new ManualClock()
  const run = pacedRun(clock, { mode: 'burst', rate: 0, burst: 5, intervalMs: 200 }, { connections: 5 })
  clock.advanceTo(1000, run.answer)
  const stats = await run.end()
  const byTime = new Map()
  for (const w of run.writes) byTime.set(w.at, (byTime.get(w.at) ?? 0) + w.n)
  t.same([...byTime], [[0, 5], [200, 5], [400, 5], [600, 5], [800, 5], [1000, 5]], '5 at each 200 ms point, none between')
  t.equal(stats.rate.planned, 30)
  t.equal(stats.rate.issued, 30)
})

test('-r: each connection its own plan, their first sends spread over one interval', async (t) => {
  const clock = new ManualClock()
  // 4 connections at 250 req/s each: every 4 ms, phases 0, 1, 2, 3 ms
  const run = pacedRun(clock, { mode: 'connection', rate: 250, burst: 1, intervalMs: 0 }, { connections: 4 })
  clock.advanceTo(40, run.answer)
  await run.end()
  for (const conn of run.runner.connections) {
    const at = run.writes.filter((w) => w.id === conn.id).map((w) => w.at)
    const phase = conn.id
    t.same(at, Array.from({ length: 11 }, (_, i) => phase + 4 * i).filter((x) => x <= 40), `connection ${conn.id}: every 4 ms from ${phase} ms`)
  }
  t.same(run.writes.map((w) => w.at), Array.from({ length: 41 }, (_, i) => i), 'together, one request every ms')
})

test('-R with -a: the run ends when the amount is answered', async (t) => {
  const clock = new ManualClock()
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 2, amount: 20 })
  clock.advanceTo(100, run.answer)
  t.equal(run.runner.reason, 'amount')
  const stats = await run.runner.done
  t.equal(stats.counters[C.SENT], 20)
  t.equal(run.writes.at(-1).at, 19, 'the last request went out at 19 ms, on the plan')
})

test('-R with -a under the API (endAtSample): the run ends at the end of the sample in progress', async (t) => {
  const clock = new ManualClock()
  clock.t = 1000 // the samples count from the first connection
  // 20 requests at 1000 req/s in samples of 50 ms: the plan's last goes at 1019 ms
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 2, amount: 20, sampleIntMs: 50, endAtSample: true })
  clock.advanceTo(1049, run.answer)
  t.equal(run.writes.length, 20, 'the amount sent')
  t.equal(run.writes.at(-1).at, 1019, 'on the plan, the first at the start')
  t.equal(run.runner.finished, 20, 'and answered')
  t.notOk(run.runner.stopping, 'the run holds until the sample ends')
  clock.advanceTo(1100, run.answer)
  t.equal(run.runner.reason, 'amount')
  const stats = await run.runner.done
  t.equal(stats.elapsedMs, 50, 'it ended at 1050 ms: one whole sample')
  t.same(Array.from(stats.samplesReq), [20], 'the sample holds the 20 responses (its tick had not fired)')
  t.equal(stats.counters[C.SENT], 20, 'nothing more sent while it held')
  t.equal(stats.rate.planned, 20)
})

test('-R with -a under the API: responses after the last tick join the sample that ends with the run', async (t) => {
  const clock = new ManualClock()
  // the ticks run on real time from t0 (every 200 ms), the plan on the injected clock
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 1, amount: 20, sampleIntMs: 200, endAtSample: true })
  clock.advanceTo(18, run.answer)
  t.equal(run.runner.finished, 19)
  // the first tick fires (real time), 19 responses in it
  await new Promise((resolve) => setTimeout(resolve, 250))
  t.same(run.runner.samplesReq, [19], 'the tick took its sample')
  clock.advanceTo(300, run.answer)
  const stats = await run.runner.done
  t.equal(stats.elapsedMs, 200, 'one whole sample on the run\'s clock')
  t.same(Array.from(stats.samplesReq), [20], 'the 20th response joined it')
  t.equal(stats.partial.requests, 0, 'nothing left over')
})

test('-R with -a under the API: the end is the first sample boundary after the last response', async (t) => {
  const clock = new ManualClock()
  // 25 requests at 1000 req/s in samples of 10 ms: the last at 24 ms, the end at 30 ms
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 1, amount: 25, sampleIntMs: 10, endAtSample: true })
  clock.advanceTo(100, run.answer)
  const stats = await run.runner.done
  t.equal(run.runner.reason, 'amount')
  t.equal(stats.elapsedMs, 30)
  t.equal(stats.counters[C.SENT], 25)
})

test('-r with -a under the API: the plan of each connection, then the end of the sample', async (t) => {
  const clock = new ManualClock()
  // 2 connections at 100 req/s each (phases 0 and 5 ms), 40 requests: the last at 195 ms
  const run = pacedRun(clock, { mode: 'connection', rate: 100, burst: 1, intervalMs: 0 }, { connections: 2, amount: 40, sampleIntMs: 100, endAtSample: true })
  clock.advanceTo(1000, run.answer)
  const stats = await run.runner.done
  t.same(run.writes.map((w) => w.at), Array.from({ length: 40 }, (_, i) => 5 * i), 'one request every 5 ms from 0')
  t.equal(stats.elapsedMs, 200, 'N requests at R/s: N/R s, two whole samples')
})

test('-R with -a under the API: a last response after the sample\'s end ends the run at once, in that sample', async (t) => {
  const clock = new ManualClock()
  // 10 requests at 1000 req/s in samples of 50 ms: the last is due at 9 ms and answered at 70 ms
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 1, amount: 10, sampleIntMs: 50, endAtSample: true })
  clock.advanceTo(8, run.answer)
  clock.advanceTo(70)
  t.notOk(run.runner.stopping, 'still waiting for the last response')
  run.answer()
  t.equal(run.runner.reason, 'amount')
  const stats = await run.runner.done
  t.equal(stats.elapsedMs, 70, 'ended at the last response, not at the next sample\'s end (100 ms)')
  t.same(Array.from(stats.samplesReq), [10], 'one sample, with every response')
})

test('-R with -a under the API: an amount R does not divide ends at the end of the sample of its last due request', async (t) => {
  const clock = new ManualClock()
  // 15 requests at 1000 req/s in samples of 10 ms: the last due at 14 ms, in the second sample
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 1, amount: 15, sampleIntMs: 10, endAtSample: true })
  clock.advanceTo(100, run.answer)
  const stats = await run.runner.done
  t.equal(stats.elapsedMs, 20)
})

test('-R with -a under the API: stop() while the sample runs out ends the run at once', async (t) => {
  const clock = new ManualClock()
  const run = pacedRun(clock, { mode: 'overall', rate: 1000, burst: 1, intervalMs: 0 }, { connections: 2, amount: 10, sampleIntMs: 50, endAtSample: true })
  clock.advanceTo(30, run.answer)
  t.notOk(run.runner.stopping, 'holding')
  run.runner.stop('stopped')
  const stats = await run.runner.done
  t.equal(run.runner.reason, 'stopped')
  t.equal(stats.elapsedMs, 30)
  t.equal(clock.timers.length, 0, 'no timer of the run left')
})

test('-R with -d: the duration counts on the same clock, from the first connection', async (t) => {
  const clock = new ManualClock()
  clock.t = 1000 // the plan starts when the connections are ready, not at 0
  const run = pacedRun(clock, { mode: 'overall', rate: 500, burst: 1, intervalMs: 0 }, { connections: 2, durationMs: 50 })
  clock.advanceTo(2000, run.answer)
  t.equal(run.runner.reason, 'duration')
  const stats = await run.runner.done
  t.equal(stats.elapsedMs, 50)
  t.same(run.writes.map((w) => w.at), Array.from({ length: 25 }, (_, i) => 1000 + 2 * i), 'every 2 ms from 1000 ms until the end at 1050 ms')
})

// --- HTTP/2: the same plans over streams -------------------------------------

const H = require('../../lib/engine/http2/frames.js')
// the server's side of a connection: its (empty) SETTINGS, and a final
// response to a stream (HEADERS with END_STREAM, `:status: 200` as HPACK
// static index 8)
const SERVER_SETTINGS = H.frame(H.T.SETTINGS, 0, 0, Buffer.alloc(0))
const h2Response = (sid) => H.frame(H.T.HEADERS, H.F.END_HEADERS | H.F.END_STREAM, sid, Buffer.from([0x88]))

/** The HEADERS frames of one write of the client (the preface's write has none). */
function headersFrames (buf) {
  const sids = []
  let p = buf.subarray(0, H.PREFACE.length).equals(H.PREFACE) ? H.PREFACE.length : 0
  while (p + H.FRAME_HEADER <= buf.length) {
    const length = buf.readUIntBE(p, 3)
    if (buf[p + 3] === H.T.HEADERS) sids.push(buf.readUInt32BE(p + 5) & 0x7fffffff)
    p += H.FRAME_HEADER + length
  }
  return sids
}

/**
 * pacedRun over --h2: `connections` connections of `maxStreams` streams on
 * `clock`; every write with HEADERS is logged with the clock's time and its
 * stream count, and the open streams are answered when `answer()` runs.
 */
function h2PacedRun (clock, rate, { maxStreams, ...shape }) {
  const writes = []
  const runner = pacedRunner(clock, rate, { ...shape, h2: { maxStreams, window: 65535 } })
  const transport = standInTransport((buf) => headersFrames(buf).length, clock, writes)
  for (const conn of runner.connections) conn.settings.transport = transport
  runner.start()
  for (const conn of runner.connections) {
    conn.socket.conn = conn
    conn.ready() // the preface
    conn.read(SERVER_SETTINGS.length, SERVER_SETTINGS) // established: the plan starts
  }
  /** the server answers every stream open now */
  const answer = () => {
    for (const conn of runner.connections) {
      const { table } = conn
      const parts = []
      for (let slot = 0; slot < table.slots; slot++) if (table.isOpen(slot)) parts.push(h2Response(table.streamIds[slot]))
      if (parts.length > 0 && !runner.stopping) {
        const buf = Buffer.concat(parts)
        conn.read(buf.length, buf)
      }
    }
  }
  return { runner, writes, answer, end: () => { runner.stop('test'); return runner.done } }
}

test('--h2 -R: one stream every 1000/R ms over the free streams, exactly, none late', async (t) => {
  const clock = new ManualClock()
  // 2 connections x 10 streams at 500 req/s, the server answers at once
  const run = h2PacedRun(clock, { mode: 'overall', rate: 500, burst: 1, intervalMs: 0 }, { connections: 2, maxStreams: 10 })
  clock.advanceTo(1500, run.answer)
  const stats = await run.end()
  t.same(run.writes.map((w) => w.at), Array.from({ length: 751 }, (_, i) => 2 * i), 'a write every 2 ms from 0 to 1500 ms')
  t.ok(run.writes.every((w) => w.n === 1), 'each of one stream: no bursts')
  t.equal(stats.counters[C.SENT], 751)
  t.equal(stats.rate.planned, 751)
  t.equal(run.runner.lag.maxValue, 0, 'no send was late')
  t.equal(run.runner.histogram.maxValue, 0, 'answered at once: latency 0 on the injected clock')
})

test('--h2 -R with a busy server: a stream that waited for a free one keeps its planned time', async (t) => {
  const clock = new ManualClock()
  // one connection of 2 streams, planned every 2 ms, answered every 10 ms
  const run = h2PacedRun(clock, { mode: 'overall', rate: 500, burst: 1, intervalMs: 0 }, { connections: 1, maxStreams: 2 })
  for (let at = 10; at <= 50; at += 10) {
    clock.advanceTo(at)
    run.answer()
  }
  const stats = await run.end()
  t.same(run.writes.map((w) => [w.at, w.n]), [[0, 1], [2, 1], [10, 2], [20, 2], [30, 2], [40, 2], [50, 2]], 'two streams free at each answer')
  t.equal(stats.rate.planned, 26)
  t.equal(stats.rate.issued, 12)
  // requests 8 and 9 were planned at 16 and 18 ms, sent at 40 and answered at 50 ms
  const h = run.runner.histogram
  t.equal(h.totalCount, 10)
  t.equal(Math.round(h.maxValue / 1000), 50 - 16, 'the latency counts from the planned send (34 ms)')
  t.equal(Math.round(run.runner.uncorrected.maxValue / 1000), 10, 'the uncorrected one from the actual send (10 ms)')
})

test('--h2 --burst: N streams at once every interval, on the interval', async (t) => {
  const clock = new ManualClock()
  const run = h2PacedRun(clock, { mode: 'burst', rate: 0, burst: 10, intervalMs: 200 }, { connections: 2, maxStreams: 5 })
  clock.advanceTo(1000, run.answer)
  const stats = await run.end()
  const byTime = new Map()
  for (const w of run.writes) byTime.set(w.at, (byTime.get(w.at) ?? 0) + w.n)
  t.same([...byTime], [[0, 10], [200, 10], [400, 10], [600, 10], [800, 10], [1000, 10]], '10 at each 200 ms point, none between')
  t.equal(stats.rate.planned, 60)
  t.equal(stats.rate.issued, 60)
})
