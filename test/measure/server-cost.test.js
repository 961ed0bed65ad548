'use strict'
// --measure server-cpu and heap, and the cost fields every bench.http() run
// reports: a real node http server loaded by the built-in generator, a real
// allocating loop, and compare calling a server that does twice the work per
// request (server-cpu) and a loop that allocates twice as much (heap)
// slower. The 20% proof, with server-cpu against wall and an A/A, needs
// longer loads than a test may take: bench/server-cpu.js.
const tap = require('tap')
const { test } = tap
// 480 s, not tap's 240 s a file: the two compares run 24 benchmark processes
// one after another, each with a generator process, and the file took 176 s
// at load 16-18 under a CPU hog; each process has the harness's own limit.
tap.setTimeout(480e3)
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { needTool } = require('../helpers/tools.js')
const { runBenchmarkFile } = require('../../lib/harness/run-file.js')
const { childrenCpuSeconds, serverCost, GENERATOR_BOUND } = require('../../lib/harness/bench-http.js')
const { sumGcs } = require('../../lib/harness/heap-count.js')
const { checkMeasure } = require('../../lib/harness/measure.js')
const { MEASURE_NAMES } = require('../../lib/record/measures.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { sink } = require('../helpers/run-in-process.js')

const ROOT = path.join(__dirname, '..', '..')
const SUITE = path.join(__dirname, '..', 'fixtures', 'measure-cost')

async function runFile (file, measure, env) {
  const reports = []
  const errors = []
  await runBenchmarkFile({ file: path.join(SUITE, file), measure, env: env && { ...process.env, ...env }, output: sink(), onReport: (r) => reports.push(r), onError: (e) => errors.push(e) })
  return { reports, errors }
}

/** A wrapper "binary": this node with extra environment (more work per request, more allocation). */
function wrapper (dir, name, env) {
  const file = path.join(dir, name)
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')
  fs.writeFileSync(file, `#!/bin/sh\n${vars} exec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
  return file
}

function compare (args) {
  return spawnOutput(process.execPath, [path.join(ROOT, 'compare.js'), '--root', SUITE, '--no-progress', ...args])
}

test('the measures: server-cpu and heap are known; heap needs v8.GCProfiler', async (t) => {
  t.same(MEASURE_NAMES, ['wall', 'cpu', 'instructions', 'server-cpu', 'heap'])
  t.equal(checkMeasure('server-cpu'), 'server-cpu')
  t.equal(checkMeasure('heap'), 'heap')
  t.throws(() => checkMeasure('heap', { heapProbe: () => false }), { code: 'BENCHRIG_ERR_MEASURE', message: /--measure heap counts allocations with v8\.GCProfiler, which this node \(v[\d.]+\) lacks: use node >= 18\.15/ })
})

test('childrenCpuSeconds reads cutime + cstime of /proc/self/stat, past a command name with spaces', async (t) => {
  const stat = '4242 (node (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 150 20 37 13 20 0 11 0 100 0 0'
  t.equal(childrenCpuSeconds(() => stat), 0.5, '(37 + 13) ticks of 1/100 s')
  t.equal(childrenCpuSeconds(() => { throw new Error('ENOENT') }), undefined, 'no /proc: no figure')
  const own = childrenCpuSeconds()
  t.ok(own === undefined || own >= 0, 'the real file reads as a number (or is absent)')
})

test('serverCost: the rate of each measure, and the generator flagged when it used its CPUs', async (t) => {
  const result = { requests: 1000, duration: 2, rate: 500 }
  const cost = { cpuS: 0.5, maxRssKb: 50000, generatorCpuS: 1.9, heap: { bytes: 4e6, gcMs: 1.5, gcs: 3, maxRssKb: 50000 } }
  const wall = serverCost(result, cost, 'wall')
  t.equal(wall.rate, 500)
  t.equal(wall.time, 2)
  t.equal(wall.fields.server_cpu_us_per_req, 500)
  t.equal(wall.fields.generator_cores, 0.95)
  t.equal(wall.fields.generator_bound, true, `0.95 of one core >= ${GENERATOR_BOUND}`)
  t.equal(serverCost(result, cost, 'wall', 2).fields.generator_bound, false, 'two threads: 0.95 of two cores is not the limit')
  const cpu = serverCost(result, cost, 'server-cpu')
  t.equal(cpu.rate, 2000, 'requests per server CPU-second')
  t.equal(cpu.time, 0.5)
  const heap = serverCost(result, cost, 'heap')
  t.equal(heap.rate, 250, 'requests per MB allocated by the server')
  t.equal(heap.fields.server_alloc_bytes, 4e6)
  t.equal(heap.fields.server_gc_count, 3)
  t.notOk('generator_cores' in serverCost(result, { ...cost, generatorCpuS: undefined }, 'wall').fields, 'no /proc: no generator figures')
})

test('sumGcs adds what each GC freed and its cost', async (t) => {
  const gc = (before, after, cost) => ({ cost, beforeGC: { heapStatistics: { usedHeapSize: before } }, afterGC: { heapStatistics: { usedHeapSize: after } } })
  t.same(sumGcs({ statistics: [gc(100, 40, 500), gc(90, 80, 1500)] }), { freed: 70, gcMs: 2, gcs: 2 })
  t.same(sumGcs(undefined), { freed: 0, gcMs: 0, gcs: 0 })
})

test('a real http server under wall: every bench.http run reports the server\'s cost beside the rate', async (t) => {
  const wall = await runFile('http/work.js', 'wall', { BENCHRIG_TEST_MODE: '1' })
  t.same(wall.errors, [])
  const w = wall.reports[0]
  t.ok(w.extra.server_cpu_s > 0 && w.extra.server_cpu_us_per_req > 0 && w.extra.server_max_rss_kb > 1000, JSON.stringify(w.extra))
  t.equal(typeof w.extra.generator_bound, 'boolean')
  t.ok(w.extra.generator_cpu_s >= 0)
  t.ok(w.time >= 0.2 && w.time < 30, 'wall: time is the generator\'s duration (0.25 s asked)')
})

test('the measures refused where they cannot count: server-cpu without a server, cpu over HTTP', async (t) => {
  const own = await runFile('alloc/arrays.js', 'server-cpu')
  t.equal(own.reports.length, 0)
  t.match(own.errors[0], { code: 'BENCHRIG_ERR_MEASURE', message: /bench\.start\(\): --measure server-cpu counts the CPU time of the server that bench\.http\(\) loads; .*use --measure cpu/ })
  const http = await runFile('http/work.js', 'cpu')
  t.match(http.errors[0], { code: 'BENCHRIG_ERR_MEASURE', message: /--measure cpu does not apply to HTTP benchmarks.*server-cpu/ })
})

/** compare's NDJSON measurements. */
function measurements (file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.type === 'measurement')
}

test('compare --measure heap: bytes, GC time and max RSS per run; twice the allocation is called slower', async (t) => {
  const dir = t.testdir()
  const alloc = wrapper(dir, 'node-alloc', { BENCHRIG_EXTRA_ALLOC: '1' })
  const nd = path.join(dir, 'heap.ndjson')
  const r = await compare(['--old', process.execPath, '--new', alloc, '--runs', '6', '--seed', '3', '--measure', 'heap', '--ndjson', nd, '--output', path.join(dir, 'heap.csv'), 'alloc'])
  t.equal(r.code, 0, r.stderr)
  const rows = measurements(nd)
  t.equal(rows.length, 12)
  for (const row of rows) {
    t.same(Object.keys(row.extra).sort(), ['alloc_bytes', 'gc_count', 'gc_ms', 'max_rss_kb'])
    t.equal(row.time, row.extra.alloc_bytes / 1e6, 'time: MB allocated in the section')
  }
  // 16 against 32 elements per array, plus each array's header: 176 and 304 bytes.
  const bytes = (b) => rows.filter((x) => x.binary === b).map((x) => x.extra.alloc_bytes).sort((x, y) => x - y)[3]
  const ratio = bytes('new') / bytes('old')
  t.ok(ratio > 1.5 && ratio < 2.2, `allocation ratio ${ratio.toFixed(2)}`)
  const csv = parseCsvRecords(fs.readFileSync(path.join(dir, 'heap.csv'), 'utf8')).records
  t.ok(csv.every((x) => x.measure === 'heap'))
  const [h] = analyze(csv).results
  t.equal(h.verdict, 'slower', `heap: ${h.change.toFixed(1)}%`)
  t.ok(csv.every((x) => Number(x.alloc_bytes) > 0 && Number(x.max_rss_kb) > 0 && x.gc_ms !== ''), 'the CSV carries the memory columns')
  // Node's compare.R reads the file with its exact read.csv call (colClasses recycled over our columns)
  if (needTool(t, 'Rscript')) {
    const r = spawnSync('Rscript', [path.join(__dirname, '..', 'r', 'node-contract.R'), 'compare'], { input: fs.readFileSync(path.join(dir, 'heap.csv'), 'utf8'), encoding: 'utf8' })
    t.equal(r.status, 0, r.stderr)
    const [c] = parseCsvRecords(r.stdout).records
    t.match(c.numeric, /alloc_bytes max_rss_kb/, 'the memory columns are read as numbers')
  }
})

test('compare --measure server-cpu: requests per server CPU-second; twice the work per request is called slower', async (t) => {
  const dir = t.testdir()
  // Twice the spin per request: on this shared machine a 0.25 s load holds
  // a few hundred requests, so a 20% change needs the bench's longer loads.
  const work = wrapper(dir, 'node-work', { BENCHRIG_EXTRA_WORK: '1' })
  const nd = path.join(dir, 'cpu.ndjson')
  // 8 pairs: at 6 the signed-rank test needs every pair of one sign, and one
  // pair turned by a load spell left -46% inconclusive; at 8 one may turn
  const r = await compare(['--old', process.execPath, '--new', work, '--runs', '8', '--seed', '5', '--measure', 'server-cpu', '--set', 'duration=0.25', '--ndjson', nd, '--output', path.join(dir, 'cpu.csv'), 'http'])
  t.equal(r.code, 0, r.stderr)
  const rows = measurements(nd)
  t.equal(rows.length, 16)
  for (const row of rows) {
    t.equal(row.time, row.extra.server_cpu_s, 'time: the server\'s CPU seconds over the measured load')
    t.equal(Math.round(row.rate * row.time * 1e6) / 1e6 % 1, 0, 'rate x time is a whole number of requests')
  }
  const csv = parseCsvRecords(fs.readFileSync(path.join(dir, 'cpu.csv'), 'utf8')).records
  t.ok(csv.every((x) => x.measure === 'server-cpu'))
  const [c] = analyze(csv).results
  t.equal(c.verdict, 'slower', `server-cpu: ${c.change.toFixed(1)}% [${c.ci.map((x) => x.toFixed(1)).join(', ')}]`)
})
