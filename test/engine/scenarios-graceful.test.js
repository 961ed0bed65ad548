'use strict'
// --scenarios: k6's gracefulStop and gracefulRampDown, and arrival-rate VUs
// that grow from preAllocatedVUs up to maxVUs (dropped_iterations beyond),
// against a real node http server on 127.0.0.1 that holds every response
// for a fixed time, so that requests are in flight at a scenario's end and
// at a ramp down whatever the machine's load. Counts and shapes only: what
// was sent is completed or interrupted, never lost; the server's own log of
// requests whose connection closed before their response says which were cut.
const t = require('tap')
const http = require('node:http')
const { load } = require('../../lib/engine/index.js')
const { formatScenarios } = require('../../lib/engine/result/format-scenarios.js')
const { prometheusText } = require('../../lib/engine/result/prometheus.js')
const { renderHtml } = require('../../lib/report/html/index.js')
const { merge } = require('../../lib/engine/result/merge.js')

const HOLD_MS = 300

/**
 * A server that answers each request HOLD_MS after it arrived, logging per
 * path the requests answered, those whose connection closed first (cut),
 * and the sockets that sent them.
 */
async function holdServer (t, holdMs = HOLD_MS) {
  const by = new Map()
  const of = (p) => { if (!by.has(p)) by.set(p, { answered: 0, cut: 0, sockets: new Set() }); return by.get(p) }
  const server = http.createServer((req, res) => {
    const log = of(req.url)
    log.sockets.add(req.socket)
    const timer = setTimeout(() => { log.answered++; res.end('ok') }, holdMs)
    res.on('close', () => { if (!res.writableFinished) { clearTimeout(timer); log.cut++ } })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve) }))
  return { url: `http://127.0.0.1:${server.address().port}`, of }
}

/**
 * Waits until the server has answered or seen cut every request of `path`
 * (a cut arrives as a socket close, after the run's end).
 */
async function settled (srv, path, sent) {
  const log = srv.of(path)
  for (let i = 0; i < 500 && log.answered + log.cut < sent; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  return log
}

/**
 * What the server saw of requests the client interrupted: each was cut, or
 * answered in the instant the client cut it (a response written as the
 * socket closed: on a loaded machine the two can meet), so the cut ones are
 * at least one and the rest were answered.
 */
async function sawCut (t, srv, path, s) {
  const log = await settled(srv, path, s.requests.sent)
  t.equal(log.answered + log.cut, s.requests.sent, `${path}: the server answered or saw cut every request sent`)
  t.ok(log.cut >= 1 && log.cut <= s.interrupted, `${path}: it saw ${log.cut} of the ${s.interrupted} interrupted cut`)
}

// every request the scenario sent is completed (and counted) or interrupted
const accounted = (t, s, name) => t.equal(s.requests.total + s.interrupted, s.requests.sent, `${name}: completed + interrupted = sent`)

t.test('gracefulStop: in flight at the end, completed and counted within it, interrupted without it', async (t) => {
  const srv = await holdServer(t)
  const result = await load({
    url: srv.url + '/',
    scenarios: {
      waits: { executor: 'constant-vus', vus: 2, duration: '1s', gracefulStop: '2s', url: srv.url + '/waits' },
      cuts: { executor: 'constant-vus', vus: 2, duration: '1s', gracefulStop: '0s', url: srv.url + '/cuts' }
    }
  })
  const waits = result.scenarios.waits
  const cuts = result.scenarios.cuts
  accounted(t, waits, 'waits')
  accounted(t, cuts, 'cuts')
  t.equal(waits.interrupted, 0, 'gracefulStop 2s: none interrupted')
  t.equal(waits.requests.total, waits.requests.sent, 'every request sent is counted')
  t.equal(waits.requests.total, srv.of('/waits').answered, 'as many as the server answered')
  t.equal(srv.of('/waits').cut, 0, 'the server saw none cut')
  t.equal(waits.statusCodeStats['200'].count, waits.requests.total, 'their statuses are counted')
  t.equal(waits.latency.totalCount, waits.requests.total, 'and their latencies')
  t.ok(waits.latency.min >= HOLD_MS - 1, 'each waited for the server')
  // a closed-loop VU always has its one request in flight: both are cut at the end
  t.equal(cuts.interrupted, 2, 'gracefulStop 0: the request in flight on each of the 2 VUs is interrupted')
  await sawCut(t, srv, '/cuts', cuts)
  t.ok(waits.duration > cuts.duration, 'the drained scenario lasted longer than the cut one')
  t.equal(result.interrupted, 2, 'the run\'s interrupted is the scenarios\' sum')
  t.same(waits.scenario.params.gracefulStop, 2000, 'gracefulStop in params (ms)')
})

t.test('gracefulRampDown: a ramp down lets the retired VUs finish, or cuts them', async (t) => {
  const srv = await holdServer(t)
  // 3 VUs, then down to 1 at 0.4-0.5 s: the 2 retired each have a request in flight
  const stages = [{ duration: '100ms', target: 3 }, { duration: '300ms', target: 3 }, { duration: '100ms', target: 1 }, { duration: '500ms', target: 1 }]
  const result = await load({
    url: srv.url + '/',
    scenarios: {
      soft: { executor: 'ramping-vus', startVUs: 0, stages, gracefulRampDown: '2s', gracefulStop: '2s', url: srv.url + '/soft' },
      hard: { executor: 'ramping-vus', startVUs: 0, stages, gracefulRampDown: '0s', gracefulStop: '2s', url: srv.url + '/hard' }
    }
  })
  const soft = result.scenarios.soft
  const hard = result.scenarios.hard
  accounted(t, soft, 'soft')
  accounted(t, hard, 'hard')
  t.equal(soft.interrupted, 0, 'gracefulRampDown 2s: nothing interrupted')
  t.equal(srv.of('/soft').cut, 0, 'the server saw none cut')
  t.equal(soft.requests.total, srv.of('/soft').answered, 'every answer counted')
  t.equal(soft.openConnectionsMax, 3, 'the ramp opened 3')
  t.equal(hard.interrupted, 2, 'gracefulRampDown 0: the 2 retired VUs\' requests are cut and counted')
  await sawCut(t, srv, '/hard', hard)
  t.equal(result.interrupted, 2)
})

t.test('arrival-rate VUs grow from preAllocatedVUs to maxVUs; beyond, iterations are dropped', async (t) => {
  const srv = await holdServer(t)
  // 20 arrivals/s of 300 ms each need 6 VUs: 4 are not enough, 1 far from it
  const base = { executor: 'constant-arrival-rate', rate: 20, duration: '1s', preAllocatedVUs: 1, gracefulStop: '2s' }
  const result = await load({
    url: srv.url + '/',
    scenarios: {
      grows: { ...base, maxVUs: 4, url: srv.url + '/grows', thresholds: ['dropped_iterations<1'] },
      one: { ...base, maxVUs: 1, url: srv.url + '/one', thresholds: { dropped_iterations: ['count>0'] } },
      // an arrival at 0 and at 1 s, each answered in 300 ms: one VU is enough
      idle: { ...base, rate: 1, maxVUs: 4, url: srv.url + '/idle' }
    }
  })
  const { grows, one, idle } = result.scenarios
  for (const [name, s] of Object.entries(result.scenarios)) {
    accounted(t, s, name)
    t.equal(s.rate.sent + s.dropped_iterations + s.rate.unsent, s.rate.planned, `${name}: planned = sent + dropped + unsent`)
  }
  t.ok(grows.vus_max > 1 && grows.vus_max <= 4, `grew past preAllocatedVUs, to at most maxVUs (${grows.vus_max})`)
  t.ok(srv.of('/grows').sockets.size <= 4, 'the server saw at most maxVUs connections')
  t.equal(grows.interrupted, 0, 'gracefulStop: none interrupted')
  t.ok(grows.dropped_iterations > 0, '4 VUs cannot carry 6 VUs\' work: some dropped')
  t.equal(one.vus_max, 1, 'maxVUs 1: it stays at 1')
  t.equal(srv.of('/one').sockets.size, 1, 'one connection')
  t.ok(one.dropped_iterations > 0, `maxVUs 1: iterations dropped (${one.dropped_iterations})`)
  t.equal(idle.vus_max, 1, 'a VU is added only when none is free')
  t.equal(idle.dropped_iterations, 0, 'none dropped')
  t.ok(one.requests.sent <= 5, 'one VU sends at most one per 300 ms in its second (and the one at its end)')
  t.equal(result.dropped_iterations, grows.dropped_iterations + one.dropped_iterations + idle.dropped_iterations, 'the run\'s dropped_iterations is their sum')
  t.equal(result.vus_max, grows.vus_max + one.vus_max + idle.vus_max, 'and vus_max')

  // thresholds on dropped iterations, ours and k6's form
  t.same(grows.thresholds.map((th) => [th.expr, th.value, th.ok]), [['dropped_iterations<1', grows.dropped_iterations, false]], 'a threshold on dropped_iterations fails')
  t.same(one.thresholds.map((th) => [th.expr, th.ok]), [['dropped_iterations>0', true]], 'k6\'s dropped_iterations: ["count>0"]')

  // the outputs that show per-scenario counts
  const text = formatScenarios(result).split('\n')
  const at = text.findIndex((l) => l.startsWith('Sent and interrupted'))
  t.ok(at > 0, 'text: a block of how each scenario ended')
  t.equal(text[at + 1], `  grows  sent ${grows.requests.sent}, interrupted 0, dropped_iterations ${grows.dropped_iterations}, VUs ${grows.vus_max} of maxVUs 4 (preAllocatedVUs 1)`)
  t.ok(text.slice(at).every((l) => l.length <= 100), 'text: the block fits 100 columns')
  const prom = prometheusText(result, { version: '0' })
  t.match(prom, `benchrig_load_dropped_iterations_total{scenario="one"} ${one.dropped_iterations}\n`, 'prometheus: dropped iterations by scenario')
  t.match(prom, `benchrig_load_vus_max{scenario="grows"} ${grows.vus_max}\n`, 'prometheus: VUs by scenario')
  t.match(prom, `benchrig_load_interrupted_total ${result.interrupted}\n`, 'prometheus: the overall interrupted')
  const html = renderHtml(result, { version: '0' })
  for (const key of ['interrupted', 'dropped_iterations', 'vus_max']) t.match(html, `data-json="scenarios.one.${key}">${one[key]}<`, `html: scenarios.one.${key}`)
  // merge of two generators' results: the counts add up, per scenario too
  const m = merge([result, result])
  t.same([m.dropped_iterations, m.scenarios.one.dropped_iterations, m.scenarios.grows.vus_max, m.interrupted],
    [2 * result.dropped_iterations, 2 * one.dropped_iterations, 2 * grows.vus_max, 2 * result.interrupted], 'merge sums them')
})
