'use strict'
// --scenarios: what each executor plans, on an injected clock (no wall-clock
// windows): a scenario's options go through the engine's own planRunners
// into a Runner on a ManualClock whose stand-in sockets log each write, so
// the arrival-rate plans (k6's rate per timeUnit, startRate, stages, a
// sequence's k requests per iteration) and the VU ramp (startVUs) are
// asserted exactly.
const t = require('tap')
const { planScenarios } = require('../../lib/engine/scenarios/plan.js')
const { planRunners } = require('../../lib/engine/index.js')
const { Runner } = require('../../lib/engine/runner.js')
const { ManualClock, standInTransport, scenarioRunner } = require('../helpers/manual-clock.js')

t.test('constant-arrival-rate: rate per timeUnit, maxVUs connections, the plan sent on time', async (t) => {
  const clock = new ManualClock()
  // 30 iterations per minute... per 100 ms: timeUnit scales the rate (300/s)
  const s = scenarioRunner(t, clock, { executor: 'constant-arrival-rate', rate: 30, timeUnit: '100ms', duration: '1s', preAllocatedVUs: 2, maxVUs: 3 })
  t.equal(s.runner.connections.length, 3, 'connections = maxVUs')
  s.runner.start()
  s.ready()
  clock.advanceTo(999, s.answer)
  t.equal(s.writes.length, 300, '300 iterations due in [0, 1000) ms')
  t.same(s.writes.slice(0, 4).map((w) => Math.round(w.at * 1000) / 1000), [0, 3.333, 6.667, 10], 'every 3.33 ms, each sent at its due time')
  clock.advanceTo(1000, s.answer)
  t.equal(s.runner.reason, 'duration', 'the run ends at its duration, on the same clock')
  const stats = await s.runner.done
  t.equal(stats.rate.planned, 301, 'the plan holds rate x duration, and the point at its very end')
  t.equal(s.runner.lag.maxValue, 0, 'none late')
})

t.test('constant-arrival-rate with a sequence: an iteration is k requests', async (t) => {
  const clock = new ManualClock()
  const s = scenarioRunner(t, clock, {
    executor: 'constant-arrival-rate', rate: 10, duration: '1s', preAllocatedVUs: 2, requests: [{ path: '/a' }, { path: '/b' }]
  })
  s.runner.start()
  s.ready()
  clock.advanceTo(999, s.answer)
  t.equal(s.writes.length, 20, '10 iterations of 2 requests in the first second')
  t.same(s.plan.params, { rate: 10, timeUnit: 1000, duration: 1000, preAllocatedVUs: 2, maxVUs: 2, gracefulStop: 30000 }, 'maxVUs defaults to preAllocatedVUs')
  s.runner.stop('test')
  await s.runner.done
})

t.test('ramping-arrival-rate: from startRate along the stages, in iterations per timeUnit', async (t) => {
  const clock = new ManualClock()
  // 600/min = 10/s at the start, 1800/min = 30/s after 1 s, then 30/s for 1 s:
  // (10 + 30) / 2 + 30 = 50 iterations over the 2 s
  const s = scenarioRunner(t, clock, {
    executor: 'ramping-arrival-rate', startRate: 600, timeUnit: '1m', preAllocatedVUs: 4, stages: [{ duration: '1s', target: 1800 }, { duration: '1s', target: 1800 }]
  })
  s.runner.start()
  s.ready()
  clock.advanceTo(1000, s.answer)
  t.equal(s.writes.length, 20, 'the integral of the ramp by 1 s: (10 + 30) / 2')
  // the first is due when 10t + 10t² reaches 1: t = 0.0916 s
  t.equal(Math.round(s.writes[0].at * 10) / 10, 91.6, 'the first due where the ramp from startRate reaches one request (10t + 10t² = 1)')
  clock.advanceTo(1999.9, s.answer)
  t.equal(s.writes.length, 49, 'all but the last by the end: (10 + 30) / 2 + 30 = 50 reaches its 50th at 2 s exactly')
  clock.advanceTo(2500, s.answer)
  t.equal(s.runner.reason, 'duration')
  const stats = await s.runner.done
  t.equal(stats.rate.planned, 50, 'the plan holds 50 iterations (the last one due as the run ends)')
})

t.test('ramping-vus: open connections from startVUs along the stages', async (t) => {
  const clock = new ManualClock()
  const s = scenarioRunner(t, clock, { executor: 'ramping-vus', startVUs: 2, stages: [{ duration: '1s', target: 6 }, { duration: '1s', target: 0 }] })
  t.equal(s.runner.connections.length, 6, 'the peak of the ramp')
  t.equal(s.plan.durationMs, 2000)
  s.runner.start()
  const open = () => s.runner.connectionRamp.active
  const at = []
  for (const ms of [0, 250, 500, 1000, 1500, 1990]) {
    clock.advanceTo(ms)
    at.push(open())
  }
  t.same(at, [2, 3, 4, 6, 3, 0], 'floor of the ramp from 2 up to 6 and down to 0')
  s.runner.stop('test')
  await s.runner.done
})

t.test('ramping-vus down from startVUs: all of them open at the start, on a clock that moves between reads', async (t) => {
  // each read of this clock is a microsecond later, as a real one is
  class MovingClock extends ManualClock {
    now () { this.t += 0.001; return this.t }
  }
  const clock = new MovingClock()
  const s = scenarioRunner(t, clock, { executor: 'ramping-vus', startVUs: 4, stages: [{ duration: '400ms', target: 0 }] })
  s.runner.start()
  t.equal(s.runner.connectionRamp.active, 4, 'startVUs connections at the start (floor of 4 - a moment\'s ramp would be 3)')
  clock.advanceTo(150)
  t.equal(s.runner.connectionRamp.active, 2, 'then the ramp: floor(4 - 4 x 0.15 / 0.4) at 150 ms')
  s.runner.stop('test')
  await s.runner.done
})

t.test('constant-vus, shared- and per-vu-iterations: connections, budget and allowance as the engine takes them', async (t) => {
  const plan = planScenarios({
    url: 'http://127.0.0.1:1/',
    scenarios: {
      c: { executor: 'constant-vus', vus: 7, duration: '1m30s' },
      s: { executor: 'shared-iterations', vus: 3, iterations: 100, maxDuration: '20s', requests: [{ path: '/x' }, { path: '/y' }] },
      p: { executor: 'per-vu-iterations', vus: 2, iterations: 9 }
    },
    workers: 2
  })
  const [c, s, p] = plan.scenarios.map((x) => x.opts)
  t.match(c, { connections: 7, durationMs: 90000, pipelining: 1, rate: null })
  t.match(s, { connections: 3, maxOverallRequests: 200, durationMs: 20000 }, 'a shared budget of iterations x k requests, maxDuration as the duration')
  t.match(p, { connections: 2, maxConnectionRequests: 9, durationMs: 600000 }, 'each connection\'s allowance, maxDuration 10m by default')
  t.same(planRunners(s).map((r) => r.amount), [100, 100], 'the budget split over the workers, nothing dropped')
  t.equal(plan.durationMs, 600000, 'the run lasts at most its longest scenario')
})

t.test('--shard I/N: each generator runs its part of every scenario, and the parts add up to the file', async (t) => {
  const scenarios = {
    car: { executor: 'constant-arrival-rate', rate: 90, duration: '1s', preAllocatedVUs: 2, maxVUs: 3 },
    rar: { executor: 'ramping-arrival-rate', startRate: 30, preAllocatedVUs: 3, stages: [{ duration: '1s', target: 60 }] },
    cv: { executor: 'constant-vus', vus: 5, duration: '1s' },
    si: { executor: 'shared-iterations', vus: 4, iterations: 101 },
    pvi: { executor: 'per-vu-iterations', vus: 3, iterations: 7 },
    rv: { executor: 'ramping-vus', startVUs: 1, stages: [{ duration: '1s', target: 5 }] }
  }
  const shards = [0, 1, 2].map((index) => planScenarios({ url: 'http://127.0.0.1:1/', scenarios, shard: { index, count: 3 } }))
  const of = (name) => shards.map((p) => p.scenarios.find((s) => s.name === name).opts)
  const sum = (xs) => xs.reduce((a, b) => a + b, 0)
  t.same(of('car').map((o) => o.connections), [1, 1, 1])
  t.equal(sum(of('car').map((o) => o.rate.rate)), 90, 'constant-arrival-rate: the rates add up')
  t.equal(sum(of('rar').map((o) => o.rate.stages[0].target)), 60, 'ramping-arrival-rate: the targets add up')
  t.equal(sum(of('rar').map((o) => o.rate.stages[0].from)), 30, 'and the start rates')
  t.same(of('cv').map((o) => o.connections), [2, 2, 1], 'constant-vus: the VUs split as -c is')
  t.same(of('si').map((o) => o.maxOverallRequests), [34, 34, 33], 'shared-iterations: the iterations split, none lost')
  t.same(of('pvi').map((o) => [o.connections, o.maxConnectionRequests]), [[1, 7], [1, 7], [1, 7]], 'per-vu-iterations: the VUs split, each keeps its iterations')
  t.same(of('rv').map((o) => o.connections), [2, 2, 1], 'ramping-vus: each holds its part of the peak')
  t.same(shards[0].scenarios.find((s) => s.name === 'si').params, { vus: 4, iterations: 101, maxDuration: 600000, gracefulStop: 30000 }, 'params stay the file\'s (so the shards\' results merge with them)')
  // ramping-vus on the clock: the shards' open connections add up to the whole ramp at every step
  const runners = of('rv').map((o) => {
    const clock = new ManualClock()
    const runner = new Runner({ ...planRunners(o)[0], t0: Date.now(), clock })
    runner.transport = standInTransport(() => 0, clock, [])
    runner.start()
    return { clock, runner }
  })
  for (const ms of [0, 250, 500, 750, 990]) {
    const open = runners.map(({ clock, runner }) => { clock.advanceTo(ms); return runner.connectionRamp.active })
    t.equal(sum(open), Math.floor(1 + 4 * ms / 1000), `${ms} ms: ${open.join(' + ')} open, the whole ramp's floor(1 + 4t)`)
  }
  for (const { runner } of runners) runner.stop('test')
  t.throws(() => planScenarios({ url: 'http://127.0.0.1:1/', scenarios: { cv: scenarios.cv }, shard: { index: 5, count: 6 } }),
    { code: 'BENCHRIG_ERR_SCENARIO', message: 'scenario "cv": vus 5 over 6 shards leaves shard 5 none: give vus 6 or more, or fewer shards' })
  t.throws(() => planScenarios({ url: 'http://127.0.0.1:1/', scenarios: { cv: scenarios.cv }, shard: { index: 2, count: 2 } }), { message: /invalid shard/ })
})

t.test('--stages-start, the option under startRate and startVUs: in the plan, the JSON, and refused without a ramp', async (t) => {
  const { normalizeOptions } = require('../../lib/engine/options/options.js')
  const { describeStages } = require('../../lib/engine/stages.js')
  const rate = normalizeOptions({ url: 'http://127.0.0.1:1/', stages: '1s:300', stagesStart: 100 })
  t.same(describeStages(rate.rate.stages), [{ duration: 1, target: 300, from: 100 }], 'the JSON\'s stages carry from')
  t.equal(rate.rate.rate, 200, 'the mean rate of the plan: (100 + 300) / 2')
  const conns = normalizeOptions({ url: 'http://127.0.0.1:1/', stagesConnections: '2s:0', stagesStart: '4' })
  t.equal(conns.connections, 4, 'a ramp down from 4 connections needs 4')
  t.equal(conns.durationMs, 2000)
  t.throws(() => normalizeOptions({ url: 'http://127.0.0.1:1/', stagesStart: 5 }), { message: '--stages-start is where a ramp begins: add --stages or --stages-connections' })
  t.throws(() => normalizeOptions({ url: 'http://127.0.0.1:1/', stagesConnections: '1s:5', stagesStart: 1.5 }), { message: /invalid --stages-start "1.5"/ })
  t.throws(() => normalizeOptions({ url: 'http://127.0.0.1:1/', stagesConnections: '1s:0' }), { message: /every target is 0/ }, 'all zero without a start is still refused')
})
