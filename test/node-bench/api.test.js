'use strict'
// benchrig's node:bench implementation in-process: declaration forms, hook
// order, skip/only, record(), done(), and the records it emits.
const { test } = require('tap')
const { createHarness, canonicalParams } = require('../../lib/node-bench/api.js')
const { runDeclared } = require('../../lib/node-bench/run-declared.js')
const { recordToReport } = require('../../lib/node-bench/records.js')

async function runAll (harness, opts = {}) {
  const records = []
  await harness.settled()
  const counts = await runDeclared(harness.root, { file: '/x/cat/f.js', emit: (r) => { records.push(r) }, ...opts })
  return { counts, plans: records.filter((r) => r.type === 'bench:plan').map((r) => r.data), done: records.filter((r) => r.type === 'bench:complete').map((r) => r.data) }
}

const work = (n) => (b) => { b.start(); for (let i = 0; i < n; i++) Math.sqrt(i); b.end(n) }

test('the four declaration forms, params sorted like Node, one sample each with --bench-samples=1', async (t) => {
  const h = createHarness()
  function named (b) { work(10)(b) }
  h.api.bench(named)
  h.api.bench({ params: { z: 1, a: 'x' } }, named)
  h.api.bench('two', work(10))
  h.api.bench('three', { params: { b: true } }, work(10))
  const { done, counts } = await runAll(h, { samples: 1, warmup: 2 })
  t.same(done.map((d) => d.name), ['named', 'named', 'two', 'three'])
  t.same(Object.keys(done[1].params), ['a', 'z'], 'keys sorted')
  t.same(done.map((d) => d.samples.length), [1, 1, 1, 1], 'warm-up samples are not reported')
  t.same(counts, { completed: 4, failed: 0, skipped: 0 })
  t.equal(typeof done[0].samples[0].duration_ns, 'bigint')
  t.equal(done[0].samples[0].operations, 10)
})

test('params must be strings, finite numbers or booleans', async (t) => {
  t.throws(() => canonicalParams({ n: Infinity }), { code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => canonicalParams({ o: {} }), { code: 'ERR_INVALID_ARG_TYPE' })
  t.throws(() => createHarness().api.bench('', work(1)), { code: 'ERR_INVALID_ARG_VALUE' })
})

test('hooks: before/after once per suite, beforeEach/afterEach around each benchmark, inner after outer', async (t) => {
  const h = createHarness()
  const log = []
  h.api.suite('outer', () => {
    h.api.before(() => log.push('before outer'))
    h.api.after(() => log.push('after outer'))
    h.api.beforeEach((ctx) => log.push(`beforeEach outer ${ctx.name}`))
    h.api.afterEach((ctx) => log.push(`afterEach outer ${ctx.name}`))
    h.api.describe('inner', () => {
      h.api.beforeEach((ctx) => log.push(`beforeEach inner ${ctx.name}`))
      h.api.bench('a', (b) => { log.push('run a'); work(1)(b) })
    })
    h.api.bench('b', (b) => { log.push(`run b ${b.phase} ${b.index}`); work(1)(b) })
  })
  const { done } = await runAll(h, { samples: 1, warmup: 1 })
  t.same(done.map((d) => d.namePath), [['outer', 'inner', 'a'], ['outer', 'b']])
  t.same(log, [
    'before outer',
    'beforeEach outer a', 'beforeEach inner a', 'run a', 'run a', 'afterEach outer a',
    'beforeEach outer b', 'run b warmup 0', 'run b measurement 0', 'afterEach outer b',
    'after outer'
  ])
})

test('skip and only select like Node; skipped benchmarks give no report', async (t) => {
  const h = createHarness()
  h.api.bench('a', work(1))
  h.api.bench.only('b', work(1))
  h.api.suite.only('s', () => { h.api.bench('c', work(1)); h.api.bench.skip('d', work(1)) })
  const { done, plans, counts } = await runAll(h, { samples: 1, warmup: 0 })
  t.same(plans.map((p) => [p.name, p.selected]), [['a', false], ['b', true], ['c', true], ['d', false]])
  t.same(done.map((d) => [d.name, d.skip ?? null]), [['a', 'only'], ['b', null], ['c', null], ['d', true]])
  t.same(counts, { completed: 2, failed: 0, skipped: 2 })
  t.equal(recordToReport(done[0], { name: 'cat/f.js', several: true, pairs: [] }), undefined)
})

test('record() and done(): a sample given by the benchmark, and an early end of the measured samples', async (t) => {
  const h = createHarness()
  h.api.bench('rec', (b) => { b.record({ operations: 50, duration_ns: 2000000n }) })
  let calls = 0
  h.api.bench('early', (b) => { calls++; work(5)(b); if (b.phase === 'measurement' && b.index === 1) b.done() })
  const { done } = await runAll(h, { samples: 5, warmup: 1 })
  t.same(done[0].samples.map((s) => [s.operations, s.duration_ns, s.rate]), Array(5).fill([50, 2000000n, 25000]))
  t.equal(done[1].samples.length, 2, 'done() at the second measured sample keeps two')
  t.equal(calls, 3, 'one warm-up and two measured calls')
  const rep = recordToReport(done[0], { name: 'cat/f.js', several: true, pairs: [] })
  t.same(rep, { type: 'report', name: 'cat/f.js', conf: { bench: 'rec' }, rate: 25000, time: 0.01 }, 'rate = operations / seconds over the samples')
})

test('contract breaches fail the benchmark with Node\'s codes', async (t) => {
  const h = createHarness()
  h.api.bench('nothing', () => {})
  h.api.bench('twice', (b) => { b.start(); b.start() })
  h.api.bench('mixed', (b) => { b.start(); b.record({ operations: 1, duration_ns: 1n }) })
  h.api.bench('no end', (b) => { b.start() })
  h.api.bench('fraction', (b) => { b.start(); b.end(1.5) })
  const { done, counts } = await runAll(h, { samples: 1, warmup: 0 })
  t.same(done.map((d) => d.error.code), ['ERR_INVALID_STATE', 'ERR_INVALID_STATE', 'ERR_INVALID_STATE', 'ERR_INVALID_STATE', 'ERR_OUT_OF_RANGE'])
  t.equal(counts.failed, 5)
  const err = recordToReport(done[0], { name: 'cat/f.js', several: true, pairs: [] })
  t.match(err, { type: 'error', conf: { bench: 'nothing' }, code: 'ERR_INVALID_STATE', message: /did not call start\(\) or record\(\)/ })
})

test('key=value narrowings: a param must match, a key no benchmark has passes through', async (t) => {
  const data = { name: 'x', params: { len: 64 }, samples: [{ operations: 1, duration_ns: '1000' }] }
  t.ok(recordToReport(data, { name: 'c/f.js', several: false, pairs: [['len', '64']] }))
  t.equal(recordToReport(data, { name: 'c/f.js', several: false, pairs: [['len', '8']] }), undefined)
  t.ok(recordToReport(data, { name: 'c/f.js', several: false, pairs: [['benchmarker', 'wrk']] }))
  t.same(recordToReport(data, { name: 'c/f.js', several: false, pairs: [] }).conf, { len: 64 }, 'a single name is left out of the configuration')
})
