'use strict'
// --stages on an injected clock: the send times of a ramp are asserted
// exactly against the closed-form inverse of its integral, computed here
// independently of lib/engine/stages.js, and so are the counts per 100 ms.
const { test } = require('tap')
const { ManualClock, pacedRun } = require('../helpers/manual-clock.js')
const { parseStages, Ramp } = require('../../lib/engine/stages.js')
const { parseRate } = require('../../lib/engine/options/shape-options.js')
const { parseDuration } = require('../../lib/engine/options/options.js')

// 0 -> 1000 req/s over 1 s, 1000 req/s for 0.5 s, 1000 -> 0 over 1 s:
// I(t) = t²/2000 (t ms), then t - 500, then 1000 + u - u²/2000 (u = t - 1500); 1500 in all
const STAGES = '1s:1000,500ms:1000,1s:0'
const END = 2500
const TOTAL = 1500
/** When request n (1-based) is due: where I reaches n. */
function plannedAt (n) {
  if (n <= 500) return Math.sqrt(2000 * n)
  if (n <= 1000) return 1000 + (n - 500)
  return 1500 + 1000 - Math.sqrt(1e6 - 2000 * (n - 1000))
}
/** Requests due before t ms (I(t) scaled by 2000 is a whole number at whole ms). */
function dueBefore (t) {
  const u = t - 1500
  const i2 = t <= 1000 ? t * t : (t <= 1500 ? 2000 * (t - 500) : 2000 * (1000 + u) - u * u)
  return i2 > 0 ? Math.floor((i2 - 1) / 2000) : 0
}

function stagesRate () {
  return parseRate({ stages: STAGES }, parseDuration)
}

test('--stages: every send at the time the integral of the ramp reaches its number, per 100 ms exactly', async (t) => {
  const clock = new ManualClock()
  const run = pacedRun(clock, stagesRate(), { connections: 4, durationMs: END })
  clock.advanceTo(3000, run.answer)
  t.equal(run.runner.reason, 'duration', 'the run lasts the sum of the stages')
  const stats = await run.runner.done
  t.equal(stats.elapsedMs, END)
  t.ok(run.writes.every((w) => w.n === 1), 'one request per write (the connections keep up)')
  let worst = 0
  run.writes.forEach((w, i) => { worst = Math.max(worst, Math.abs(w.at - plannedAt(i + 1))) })
  t.ok(worst < 1e-6, `request n sent at I⁻¹(n) (largest difference ${worst} ms)`)
  // per 100 ms (a send at a boundary belongs to the interval it opens)
  const got = new Array(END / 100).fill(0)
  for (const w of run.writes) got[Math.floor((w.at + 1e-6) / 100)]++
  const want = got.map((_, k) => dueBefore(100 * (k + 1)) - dueBefore(100 * k))
  t.same(got, want, 'the count of each 100 ms interval is the ramp\'s integral over it')
  t.same(want.slice(0, 3), [4, 15, 25], 'which ramps up (not a constant rate)')
  t.same(want.slice(10, 15), [100, 100, 100, 100, 100], 'holds at 100 per 100 ms')
  t.equal(want.at(-1), 5, 'and ramps down to the end')
  t.equal(stats.rate.planned, TOTAL, 'the plan held the integral of the ramp, 1500')
  t.equal(run.writes.length, TOTAL - 1, 'all but the last were sent: it is due at the very end, which ends the run')
  t.equal(run.runner.lag.maxValue, 0, 'no send was late')
})

test('--stages with a busy server: a late send keeps its planned time during the ramp', async (t) => {
  const clock = new ManualClock()
  // one connection, answered every 50 ms, while the plan ramps to 1000 req/s
  const run = pacedRun(clock, stagesRate(), { connections: 1, durationMs: END })
  for (let at = 50; at <= 400; at += 50) {
    clock.advanceTo(at)
    run.answer()
  }
  const stats = await run.end()
  const us = (ms) => Math.round(ms * 1000)
  t.same(run.writes.map((w) => us(w.at)), [plannedAt(1), plannedAt(2), 100, 150, 200, 250, 300, 350, 400].map(us), 'on the plan while the connection is free, then as it becomes free')
  // the k-th answer (at 50k ms) is for request k, planned at sqrt(2000 k)
  const h = run.runner.histogram
  t.equal(h.totalCount, 8)
  t.equal(Math.round(h.maxValue / 1000), Math.round(400 - plannedAt(8)), 'the latency of the last answer counts from its planned send')
  t.equal(Math.round(run.runner.uncorrected.maxValue / 1000), 50, 'the uncorrected one from its actual send')
  t.equal(stats.rate.planned, dueBefore(400) + 1, 'the plan kept going meanwhile (the request due at 400 ms included)')
})

test('Ramp: integral, value and inverse of a plan that starts at 0 and changes slope', (t) => {
  const r = new Ramp([{ durationMs: 2000, target: 100 }, { durationMs: 1000, target: 300 }, { durationMs: 1000, target: 300 }])
  t.equal(r.endMs, 4000)
  t.equal(r.total, 100 + 200 + 300, 'the area under 0->100 (2 s), 100->300 (1 s), 300 (1 s)')
  t.equal(r.valueAt(1000), 50)
  t.equal(r.valueAt(2500), 200)
  t.equal(r.valueAt(4000), 300)
  for (const m of [1, 50, 100, 101, 250, 300, 301, 599, 600]) {
    t.ok(Math.abs(r.integral(r.timeOf(m)) - m) < 1e-9, `I(I⁻¹(${m})) = ${m}`)
  }
  t.equal(r.timeOf(601), Infinity, 'nothing is due after the plan')
  t.end()
})

test('parseStages: the plan, and one message naming --stages and the bad part', (t) => {
  t.same(parseStages('30s:1000,1m:1000,10s:0', '--stages', parseDuration),
    [{ durationMs: 30000, target: 1000 }, { durationMs: 60000, target: 1000 }, { durationMs: 10000, target: 0 }])
  t.same(parseStages(['500ms:10', { duration: '1s', target: 20 }], '--stages', parseDuration),
    [{ durationMs: 500, target: 10 }, { durationMs: 1000, target: 20 }], 'repeated flags and API objects')
  const bad = [
    ['30s', /invalid --stages "30s": each stage is DURATION:TARGET/],
    ['30s:1000,xs:5', /invalid --stages "xs:5": the duration before ":" must be positive/],
    ['0s:5', /invalid --stages "0s:5": the duration/],
    ['10s:-5', /invalid --stages "10s:-5": the target after ":" must be a rate >= 0/],
    ['10s:abc', /invalid --stages "10s:abc": the target/],
    ['10s:0,5s:0', /every target is 0/],
    ['', /invalid --stages "": each stage/]
  ]
  for (const [value, re] of bad) t.throws(() => parseStages(value, '--stages', parseDuration), re, JSON.stringify(value))
  t.throws(() => parseStages('10s:2.5', '--stages-connections', parseDuration, { integer: true }), /whole number of connections/)
  t.end()
})

/**
 * A closed-loop Runner on `clock` whose open connections follow a
 * --stages-connections ramp, on stand-in sockets that connect and close on
 * the clock a step after asked; `opened` logs each connect's time.
 */
function rampRunner (clock, stagesText, connections, durationMs) {
  const { Runner } = require('../../lib/engine/runner.js')
  const stages = parseStages(stagesText, '--stages-connections', parseDuration, { integer: true })
  const runner = new Runner({
    requests: [{ method: 'GET', path: '/', host: '127.0.0.1:1', headers: {}, body: undefined }],
    target: { protocol: 'http:', hostname: '127.0.0.1', port: 1 },
    connections,
    pipelining: 1,
    refill: 'window',
    durationMs,
    amount: 0,
    timeoutMs: 60000,
    bailout: 0,
    t0: Date.now(),
    idOffset: 0,
    rate: null,
    connectionStages: stages,
    clock
  })
  const opened = []
  runner.transport = {
    readyEvent: 'connect',
    connect: () => {
      const handlers = {}
      const socket = {
        setNoDelay () {},
        once (ev, fn) { if (ev === 'connect') clock.setTimeout(() => fn.call(socket), 0) },
        on (ev, fn) { handlers[ev] = fn },
        destroy () { clock.setTimeout(() => handlers.close.call(socket), 0) },
        write () { return true }
      }
      opened.push(clock.now())
      return socket
    }
  }
  return { runner, opened }
}

test('--stages-connections: the open connections follow floor(ramp) at every step, then close', async (t) => {
  const { STEP_MS } = require('../../lib/engine/connection-stages.js')
  const clock = new ManualClock()
  clock.t = 500 // the ramp's clock starts with the runner
  const { runner, opened } = rampRunner(clock, '100ms:10,100ms:10,100ms:4', 10, 300)
  runner.start()
  const seen = []
  for (let at = 500; at <= 800; at += STEP_MS) {
    clock.advanceTo(at)
    seen.push(runner.openNow)
  }
  // 0 -> 10 over 100 ms (one more every 10 ms), 10 for 100 ms, 10 -> 4 over 100 ms
  const want = Array.from({ length: 31 }, (_, k) => {
    const ms = k * STEP_MS
    const v = ms <= 100 ? ms / 10 : ms <= 200 ? 10 : 10 - 6 * (ms - 200) / 100
    return Math.floor(v + 1e-9)
  })
  want[30] = 0 // the run ends at 300 ms: every connection closes
  t.same(seen, want, 'open connections at each step')
  t.equal(runner.reason, 'duration')
  t.equal(opened.length, 10, 'each connection opened once (the ramp down closes, never reopens)')
  t.same(opened.slice(0, 3), [510, 520, 530], 'one more every 10 ms on the way up')
  const stats = await runner.done
  t.equal(stats.elapsedMs, 300, 'the duration counts from the runner\'s start (the ramp starts at 0 connections)')
  t.equal(stats.openMax, 10)
})

test('--stages-connections: a step that comes late still goes through the dip it slept over', async (t) => {
  const { STEP_MS } = require('../../lib/engine/connection-stages.js')
  const clock = new ManualClock()
  // 0 -> 4 over 100 ms, 4 for 100 ms, down to 0 over 20 ms, 0 for 30 ms, back to 4 over 20 ms, 4 for 200 ms
  const { runner, opened } = rampRunner(clock, '100ms:4,100ms:4,20ms:0,30ms:0,20ms:4,200ms:4', 4, 470)
  runner.start()
  clock.advanceTo(190)
  t.equal(runner.openNow, 4)
  // the event loop is held up: the step due at 200 ms runs at 290 ms, past the whole dip
  const late = clock.timers.find((tm) => tm.at === 200 && tm.fn.name === 'stepRamp')
  t.ok(late, 'the ramp\'s next step is due at 200 ms')
  late.at = 290
  const seen = []
  for (let at = 290; at <= 330; at += STEP_MS) {
    clock.advanceTo(at)
    seen.push(runner.openNow)
  }
  t.same(opened.slice(4), [300, 300, 300, 300], 'all 4 closed at the late step and opened again at the next')
  t.same(seen, [0, 4, 4, 4, 4], 'the dip\'s 0 connections, then the plan\'s 4')
  clock.advanceTo(470)
  const stats = await runner.done
  t.equal(stats.openMax, 4)
  t.equal(opened.length, 8, 'each connection opened twice: once on the way up, once after the dip')
})
