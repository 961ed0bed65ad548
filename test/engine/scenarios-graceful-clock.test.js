'use strict'
// gracefulStop, gracefulRampDown and the arrival-rate VU pool on an injected
// clock (ManualClock: timers run only when the test moves it; stand-in
// sockets log each write): when the plan ends, what the drain waits for and
// when it stops, what is interrupted, when a pool opens a connection and
// when it drops an arrival, asserted exactly. The same against a real
// server is scenarios-graceful.test.js.
const t = require('tap')
const C = require('../../lib/engine/counters.js')
const { POLL_MS } = require('../../lib/engine/graceful-stop.js')
const { ManualClock, scenarioRunner } = require('../helpers/manual-clock.js')

/** A scenario's Runner on its own ManualClock, started, its first sockets connected. */
function started (t, spec) {
  const clock = new ManualClock()
  const s = scenarioRunner(t, clock, spec)
  s.runner.start()
  s.ready()
  return { ...s, clock }
}

const vus = (gracefulStop) => ({ executor: 'constant-vus', vus: 2, duration: '1s', gracefulStop })

t.test('gracefulStop: the plan ends at the duration, the drain waits for the grace, the rest is interrupted', async (t) => {
  const s = started(t, vus('500ms'))
  const clock = s.clock
  t.equal(s.writes.length, 2, 'a request on each VU at 0')
  clock.advanceTo(1000)
  t.equal(s.runner.stopping, false, 'at the duration the run drains rather than stops')
  t.equal(s.runner.planEndedAt, 1000, 'the plan ended at the duration')
  clock.advanceTo(1100, () => s.answer([0]))
  t.equal(s.writes.length, 2, 'an answer during the drain sends nothing more')
  clock.advanceTo(1499)
  t.equal(s.runner.stopping, false, 'the other is still given its grace')
  clock.advanceTo(1500)
  t.equal(s.runner.reason, 'duration', 'stopped at duration + gracefulStop')
  const stats = await s.runner.done
  t.equal(stats.counters[C.COMPLETED], 1, 'the one answered in the grace is counted')
  t.equal(stats.counters[C.INTERRUPTED], 1, 'the one still in flight is interrupted')
  t.equal(stats.elapsedMs, 1500, 'the run lasted its duration and the grace')
  t.equal(stats.sendMs, 1000, 'its plan, the duration')
})

t.test('gracefulStop: the run stops within a poll of the last answer', async (t) => {
  const s = started(t, vus('30s'))
  const clock = s.clock
  clock.advanceTo(1100)
  t.equal(s.runner.stopping, false, 'draining')
  s.answer()
  clock.advanceTo(1200)
  t.equal(s.runner.stopping, true, 'all answered: stopped at the next poll')
  const stats = await s.runner.done
  t.ok(stats.elapsedMs > 1100 && stats.elapsedMs <= 1100 + POLL_MS, `at ${stats.elapsedMs} ms`)
  t.equal(stats.counters[C.INTERRUPTED], 0)
  t.equal(stats.counters[C.COMPLETED], 2)
})

t.test('gracefulStop: nothing in flight at the duration stops at once; 0 cuts what is', async (t) => {
  const idle = started(t, { executor: 'constant-arrival-rate', rate: 1, duration: '1s', preAllocatedVUs: 1, gracefulStop: '10s' })
  const clock = idle.clock
  clock.advanceTo(999, () => idle.answer())
  clock.advanceTo(1000)
  t.equal(idle.runner.reason, 'duration', 'stopped at the duration: nothing was in flight')
  t.equal((await idle.runner.done).counters[C.INTERRUPTED], 0)

  const cut = started(t, vus('0s'))
  const clock2 = cut.clock
  clock2.advanceTo(1000)
  t.equal(cut.runner.reason, 'duration', 'gracefulStop 0: stopped at the duration')
  t.equal((await cut.runner.done).counters[C.INTERRUPTED], 2, 'both requests in flight interrupted')
})

t.test('a VU pool opens preAllocatedVUs, adds one when an arrival finds none free, drops at maxVUs', async (t) => {
  const clock = new ManualClock()
  // 10 arrivals/s, never answered: each takes a VU for good
  const s = scenarioRunner(t, clock, { executor: 'constant-arrival-rate', rate: 10, duration: '1s', preAllocatedVUs: 1, maxVUs: 3, gracefulStop: '0s' })
  t.equal(s.runner.connections.length, 3, 'maxVUs connections held')
  s.runner.start()
  t.same(s.runner.connections.map((c) => c.socket !== null), [true, false, false], 'preAllocatedVUs opened at the start')
  s.ready()
  clock.advanceTo(99)
  t.same(s.writes.map((w) => [w.at, w.id]), [[0, 0]], 'the first arrival on the first VU')
  clock.advanceTo(100)
  t.equal(s.runner.connections[1].socket !== null, true, 'the arrival at 100 ms found none free: a VU added')
  t.equal(s.writes.length, 1, 'it is sent once that VU is connected')
  clock.advanceTo(150)
  s.ready()
  t.same(s.writes.map((w) => [w.at, w.id]), [[0, 0], [150, 1]], 'sent when connected')
  t.equal(s.runner.connections[1].plannedTimes[0], 100, 'with its planned time (the connect is in its latency)')
  clock.advanceTo(250)
  s.ready()
  t.same(s.writes.map((w) => [w.at, w.id]), [[0, 0], [150, 1], [250, 2]], 'the third VU for the arrival at 200 ms')
  clock.advanceTo(999, s.ready)
  t.equal(s.writes.length, 3, 'no VU left: the arrivals at 300 .. 900 ms are dropped')
  t.equal(s.runner.pacers[0].skipped, 7, '7 dropped')
  clock.advanceTo(1000)
  const stats = await s.runner.done
  t.equal(stats.vusMax, 3, 'VUs opened: maxVUs')
  t.equal(stats.counters[C.DROPPED_ITERATIONS], stats.rate.dropped, 'dropped iterations counted')
  t.equal(stats.rate.issued + stats.rate.dropped + (stats.rate.planned - stats.rate.issued - stats.rate.dropped), stats.rate.planned)
  t.ok(stats.rate.dropped >= 7 && stats.rate.issued === 3, 'sent 3, dropped the rest of the plan')
  t.equal(stats.counters[C.INTERRUPTED], 3, 'the 3 in flight are interrupted')
})

t.test('a VU pool answered in time stays at preAllocatedVUs', async (t) => {
  const s = started(t, { executor: 'constant-arrival-rate', rate: 10, duration: '1s', preAllocatedVUs: 1, maxVUs: 3, gracefulStop: '0s' })
  const clock = s.clock
  clock.advanceTo(1000, s.answer)
  const stats = await s.runner.done
  t.equal(stats.vusMax, 1, 'one VU carried every arrival')
  t.equal(stats.rate.dropped, 0)
  t.same([stats.rate.planned, stats.rate.issued], [11, 10], 'every arrival sent, but the one due as the run ended (0 .. 1000 ms)')
})

t.test('a pool with a VU still connecting leaves the arrival to it, and drops none', async (t) => {
  const s = started(t, { executor: 'ramping-arrival-rate', startRate: 10, stages: [{ duration: '1s', target: 10 }], preAllocatedVUs: 1, maxVUs: 2, gracefulStop: '0s' })
  const clock = s.clock
  // the first arrival is due at 100 ms (the ramp's integral reaches 1), the second at 200 ms
  clock.advanceTo(250)
  t.equal(s.runner.vuPool.opened, 2, 'a VU added for the arrival at 200 ms')
  t.equal(s.runner.pacers[0].skipped, 0, 'the arrival is left to it while it connects, not dropped')
  t.equal(s.writes.length, 1)
  s.ready()
  t.same(s.writes.map((w) => [w.at, w.id]), [[100, 0], [250, 1]], 'the VU connected takes it')
  clock.advanceTo(300)
  t.equal(s.runner.pacers[0].skipped, 1, 'at maxVUs and none free: the arrival at 300 ms is dropped')
  s.runner.stop('test')
  await s.runner.done
})

// 3 VUs from the start, down to 1 over 100..200 ms, then 1 until 500 ms
const ramp = (gracefulRampDown, up) => ({
  executor: 'ramping-vus',
  startVUs: 3,
  stages: [{ duration: '100ms', target: 3 }, { duration: '100ms', target: 1 }, { duration: '100ms', target: up ? 3 : 1 }, { duration: '200ms', target: up ? 3 : 1 }],
  gracefulRampDown,
  gracefulStop: '0s'
})

t.test('gracefulRampDown: a retired VU sends nothing more, closes once answered, is cut at its grace', async (t) => {
  const s = started(t, ramp('200ms'))
  const clock = s.clock
  t.equal(s.writes.length, 3, 'a request on each of the 3')
  // floor(3 - 2 (t - 100) / 100): 2 from 110 ms, 1 from 160 ms
  clock.advanceTo(130)
  const [, second, third] = s.runner.connections
  t.equal(s.runner.connectionRamp.active, 2, 'one retired by 130 ms')
  t.equal(third.retireBy, 310, 'it is finishing its request, until 110 + 200 ms')
  t.ok(third.finished, 'never reopened')
  clock.advanceTo(170)
  t.equal(second.retireBy, 360, 'the second retired at 160 ms')
  clock.advanceTo(220, () => s.answer([1]))
  t.equal(second.retireBy, 0, 'answered: it closes')
  t.equal(s.writes.length, 3, 'and sent nothing more')
  clock.advanceTo(305)
  t.equal(third.retireBy, 310, 'the unanswered one waits out its grace')
  t.equal(s.runner.counters[C.INTERRUPTED], 0)
  clock.advanceTo(320)
  t.equal(third.retireBy, 0, 'and is cut at its end (the ramp\'s next step)')
  t.equal(s.runner.counters[C.INTERRUPTED], 1, 'its request interrupted')
  t.equal(third.outstanding(), 0, 'and let go (not counted again at the end)')
  clock.advanceTo(500)
  const stats = await s.runner.done
  t.equal(stats.counters[C.INTERRUPTED], 2, 'the end cut the first VU\'s request (gracefulStop 0)')
})

t.test('gracefulRampDown: a ramp back up takes a retiring VU back as it is', async (t) => {
  const s = started(t, ramp('1s', true))
  const clock = s.clock
  clock.advanceTo(210)
  t.equal(s.runner.connectionRamp.active, 1)
  const third = s.runner.connections[2]
  t.ok(third.retireBy > 0, 'retiring')
  clock.advanceTo(300)
  t.equal(s.runner.connectionRamp.active, 3, 'back up to 3')
  t.equal(third.retireBy, 0, 'taken back')
  t.equal(third.finished, false)
  s.answer([2])
  t.equal(s.writes.filter((w) => w.id === 2).length, 2, 'and it sends again')
  t.equal(s.runner.counters[C.INTERRUPTED], 0)
  s.runner.stop('test')
  await s.runner.done
})

t.test('gracefulRampDown 0: a ramp down cuts at once and counts it', async (t) => {
  const s = started(t, ramp('0s'))
  const clock = s.clock
  clock.advanceTo(210)
  t.equal(s.runner.counters[C.INTERRUPTED], 2, 'the 2 retired VUs\' requests')
  s.runner.stop('test')
  await s.runner.done
})

t.test('the VU pool over workers and shards: each holds its part of maxVUs and of preAllocatedVUs, at least one', async (t) => {
  const { planScenarios } = require('../../lib/engine/scenarios/plan.js')
  const { planRunners } = require('../../lib/engine/index.js')
  const spec = { executor: 'constant-arrival-rate', rate: 100, duration: '1s', preAllocatedVUs: 3, maxVUs: 10, gracefulStop: '2s' }
  const one = planScenarios({ url: 'http://127.0.0.1:1/', workers: 2, scenarios: { s: spec } }).scenarios[0].opts
  t.same(one.vus, { pre: 3 })
  t.match(one, { connections: 10, gracefulStopMs: 2000 })
  t.same(planRunners(one).map((r) => [r.connections, r.vus.pre, r.gracefulStopMs]), [[5, 2], [5, 1]].map((x) => [...x, 2000]), 'workers: 10 and 3 split as -c is')
  const shards = [0, 1, 2, 3].map((index) => planScenarios({ url: 'http://127.0.0.1:1/', shard: { index, count: 4 }, scenarios: { s: spec } }).scenarios[0].opts)
  t.same(shards.map((o) => [o.connections, o.vus.pre]), [[3, 1], [3, 1], [2, 1], [2, 1]], 'shards: maxVUs split, preAllocatedVUs split and at least 1')
  const plain = planScenarios({ url: 'http://127.0.0.1:1/', scenarios: { s: { executor: 'constant-vus', duration: '1s' } } }).scenarios[0].opts
  t.equal(plain.vus, undefined, 'a closed-loop scenario has no pool')
  t.equal(plain.gracefulStopMs, 30000, 'gracefulStop defaults to 30s, as k6')
})
