'use strict'
// Every key of autocannon's result (README "Results", and the keys its
// result objects carry besides), one row each, checked on a run of the real
// autocannon and one of benchrig's drop-in: 20 requests over 2 connections to
// two URLs, one answering 404, with a title.
const t = require('tap')
const { FAST, both } = require('./_side-by-side.js')

const HIST = ['min', 'max', 'average', 'stddev', 'p2_5', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']
const num = (x) => typeof x === 'number' && Number.isFinite(x)

/** @type {[string, (v: any, r: any, srv: any) => boolean][]} */
const KEYS = [
  ['title', (v) => v === 'results'],
  ['url', (v, r, srv) => Array.isArray(v) && v[0] === `${srv.url}/` && v[1] === `${srv.url}/404`],
  ['socketPath', (v) => v === undefined],
  ['requests', (v) => HIST.every((k) => num(v[k])) && v.total === 20 && v.sent >= 20],
  ['latency', (v) => HIST.every((k) => num(v[k])) && v.totalCount === 20 && v.p2_5 <= v.p50 && v.p50 <= v.p99 && v.p99 <= v.max],
  ['throughput', (v) => HIST.every((k) => num(v[k])) && v.total > 20 * 'hello'.length],
  ['duration', (v) => num(v) && v > 0 && v < 10],
  ['errors', (v) => v === 0],
  ['timeouts', (v) => v === 0],
  ['mismatches', (v) => v === 0],
  ['start', (v, r) => v instanceof Date && v <= r.finish],
  ['finish', (v, r) => v instanceof Date && v >= r.start],
  ['connections', (v) => v === 2],
  ['pipelining', (v) => v === 1],
  ['non2xx', (v) => v === 10],
  ['resets', (v) => v === 0],
  ['statusCodeStats', (v) => Number(v[200].count) === 10 && Number(v[404].count) === 10 && Object.keys(v).length === 2],
  // not in the README's list, in autocannon's result all the same
  ['samples', (v) => Number.isInteger(v) && v >= 1],
  ['sampleInt', (v) => v === 50],
  ['workers', (v) => v === 0 || v === undefined],
  ['1xx', (v) => v === 0],
  ['2xx', (v) => v === 10],
  ['3xx', (v) => v === 0],
  ['4xx', (v) => v === 10],
  ['5xx', (v) => v === 0]
]

const run = both(t, (lib, srv) => lib({ url: [`${srv.url}/`, `${srv.url}/404`], connections: 2, amount: 20, title: 'results', ...FAST }))
run.catch(() => {})

for (const [key, ok] of KEYS) {
  t.test(key, async (t) => {
    const r = await run
    for (const [name, { out, srv }] of Object.entries(r)) {
      t.ok(Object.hasOwn(out, key), `${name}: has ${key}`)
      t.ok(ok(out[key], out, srv), `${name}: ${key} = ${JSON.stringify(out[key])?.slice(0, 120)}`)
    }
  })
}

t.test('the histograms\' keys are the same on both sides', async (t) => {
  const r = await run
  for (const g of ['requests', 'latency', 'throughput']) {
    const missing = Object.keys(r.autocannon.out[g]).filter((k) => !Object.hasOwn(r.benchrig.out[g], k))
    t.same(missing, [], `${g}: every key of autocannon's is in benchrig's`)
  }
  const top = Object.keys(r.autocannon.out).filter((k) => !Object.hasOwn(r.benchrig.out, k))
  t.same(top, [], 'every top-level key of autocannon\'s result is in benchrig\'s')
})
