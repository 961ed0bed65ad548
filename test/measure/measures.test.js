'use strict'
// --measure wall|cpu|instructions on the child side and in run.js, scatter.js
// and compare.js: the meters, the check every driver makes before any work,
// the labels of each format, HTTP benchmarks refused, test modes ignoring the
// measure, compare.R refusing mixed measures. instructions.test.js runs a
// real configuration under valgrind.
const { test } = require('tap')
const path = require('node:path')
const { checkMeasure } = require('../../lib/harness/measure.js')
const { measureNote, MEASURE_NAMES } = require('../../lib/record/measures.js')
const { createMeter } = require('../../lib/harness/meter.js')
const { callgrindCommand, readCount, switchOn } = require('../../lib/harness/callgrind.js')
const { runBenchmarkFile } = require('../../lib/harness/run-file.js')
const { runIn, sink } = require('../helpers/run-in-process.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { UsageError, ToolMissingError, RunError } = require('../../lib/errors.js')
const { needTool } = require('../helpers/tools.js')

const SUITE = path.join(__dirname, '..', '..', 'bench', 'noise-suite')

const run = runIn(SUITE)

/** Runs one benchmark file under a measure and collects its messages. */
async function runFile (file, measure, args = []) {
  const reports = []
  const errors = []
  const res = await runBenchmarkFile({ file, args, measure, output: sink(), onReport: (r) => reports.push(r), onError: (e) => errors.push(e) })
  return { res, reports, errors }
}

test('checkMeasure: the five names, wall by default, a clear error for anything else', async (t) => {
  t.same(MEASURE_NAMES, ['wall', 'cpu', 'instructions', 'server-cpu', 'heap'])
  t.equal(checkMeasure(undefined), 'wall')
  t.equal(checkMeasure(''), 'wall')
  t.equal(checkMeasure('cpu'), 'cpu')
  t.equal(checkMeasure('instructions', { probe: () => true }), 'instructions')
  t.throws(() => checkMeasure('cycles'), { constructor: UsageError, exitCode: 2, code: 'BENCHRIG_ERR_MEASURE', message: /--measure cycles: use one of wall, cpu, instructions, server-cpu, heap/ })
  t.throws(() => checkMeasure('instructions', { probe: () => false }), { constructor: ToolMissingError, message: /valgrind is not installed: --measure instructions runs each configuration under valgrind; install the Debian package "valgrind"/ })
  t.match(measureNote('instructions'), 'measure: instructions (rate = operations per 10^9 instructions)')
})

test('meters: wall and cpu return seconds of the section; cpu does not count sleeping', async (t) => {
  // Each loop runs until its own clock passed 30 ms (on a loaded machine a
  // wall-clock 30 ms may hold almost no CPU time).
  const wall = createMeter('wall')
  wall.start()
  const until = process.hrtime.bigint() + 30_000_000n
  while (process.hrtime.bigint() < until) { /* busy */ }
  const w = wall.stop()
  t.ok(w >= 0.03 && w < 3600, `wall: ${w} s`)
  const cpuBusy = createMeter('cpu')
  cpuBusy.start()
  const u0 = process.cpuUsage()
  for (;;) {
    const d = process.cpuUsage(u0)
    if (d.user + d.system >= 30000) break
  }
  const c = cpuBusy.stop()
  t.ok(c >= 0.03 && c < 3600, `cpu: ${c} s`)
  const cpu = createMeter('cpu')
  cpu.start()
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.ok(cpu.stop() < 0.15, 'a 200 ms sleep uses (almost) no CPU time')
})

test('callgrind: the command marks the section, the count is read from the newest dump', async (t) => {
  const cmd = callgrindCommand({ nodePath: '/x/node', outPrefix: '/tmp/d/cg' })
  t.equal(cmd.execPath, 'valgrind')
  t.same(cmd.execArgv.slice(0, 8), ['--tool=callgrind', '-q', '--instr-atstart=no', '--vgdb=yes', '--vgdb-prefix=/tmp/d/cg-vgdb',
    '--callgrind-out-file=/tmp/d/cg.%p', '--zero-before=getgroups', '--dump-before=getpriority'])
  t.equal(cmd.execArgv[8], '/x/node', 'node follows the valgrind options, then the deterministic V8 flags')
  const dir = t.testdir({
    'cg.42.1': 'events: Ir\nsummary: 111\n',
    'cg.42.2': 'events: Ir\nsummary: 222\n',
    'cg.42.10': 'events: Ir\nsummary: 1010\n',
    'cg.43.11': 'events: Ir\nsummary: 9\n',
    'cg.42': 'summary: 5\n'
  })
  t.equal(readCount(path.join(dir, 'cg'), 42), 1010, 'part 10 is newer than part 2 (numeric order)')
  t.throws(() => readCount(path.join(dir, 'cg'), 44), { code: 'BENCHRIG_ERR_MEASURE', message: /no callgrind dump found/ })
  t.throws(() => readCount(undefined, 42), { message: /not running under valgrind/ })
})

test('callgrind: switching instrumentation on fails with a message, never a hang', async (t) => {
  const dir = t.testdir({})
  t.throws(() => switchOn(undefined), { constructor: UsageError, code: 'BENCHRIG_ERR_MEASURE', message: /^bench\.start\(\): the child is not running under valgrind/ })
  // Outside valgrind vgdb finds no gdbserver for this pid and exits non-zero.
  if (needTool(t, 'valgrind')) {
    t.throws(() => switchOn(path.join(dir, 'cg')), { constructor: RunError, code: 'BENCHRIG_ERR_MEASURE', message: /instrumentation on failed \(exit status [1-9]\d*\): the child is not running under callgrind/ })
  }
  // A vgdb that never answers: its answer would go to a folder that does not
  // exist, so only the injected clock (past the limit at the second check)
  // ends the wait. (The real vgdb, failing at once next to a prefix that
  // exists, answered first under a CPU hog: 1 of 3 runs of this file, 4 of
  // 150 calls.)
  let clock = 0
  t.throws(() => switchOn(path.join(dir, 'never', 'slow'), { limitMs: 1000, now: () => (clock += 600) }), { constructor: RunError, message: /was not switched on within 1 s/ })
})

test('run.js --measure cpu: every format says what the rate counts; wall keeps Node core\'s formats', async (t) => {
  const simple = await run(['--measure', 'cpu', '--set', 'n=20000', 'loop'])
  t.equal(simple.code, 0, simple.stderr)
  t.match(simple.stdout, /^measure: cpu \(rate = operations per CPU-second, user \+ system\)\n\nloop\/work\.js\nloop\/work\.js len=64 n=20000: [\d,]+(\.\d+)?\n$/)
  const csv = await run(['--measure', 'cpu', '--format', 'csv', '--set', 'n=20000', 'loop'])
  const parsed = parseCsvRecords(csv.stdout)
  t.same(parsed.header, ['filename', 'configuration', 'rate', 'time', 'measure'])
  t.equal(parsed.records.length, 1)
  const row = parsed.records[0]
  t.equal(row.measure, 'cpu')
  t.ok(Math.abs(Number(row.rate) * Number(row.time) - 20000) < 1e-6, 'rate = n / CPU seconds')
  const nd = await run(['--measure', 'cpu', '--format', 'ndjson', '--set', 'n=20000', 'loop'])
  const rec = JSON.parse(nd.stdout.split('\n')[0])
  t.equal(rec.measure, 'cpu')
  const wall = await run(['--format', 'csv', '--set', 'n=20000', 'loop'])
  t.equal(wall.stdout.split('\n')[0], '"filename", "configuration", "rate", "time"', 'wall: Node core\'s run.js header as it is')
  const bad = await run(['--measure', 'ticks', 'loop'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /^run\.js: --measure ticks: use one of wall, cpu, instructions, server-cpu, heap\n$/)
})

test('test modes ignore the measure: --test --measure instructions runs without valgrind', async (t) => {
  const r = await run(['--test', '--measure', 'instructions', 'loop'])
  t.equal(r.code, 0, r.stderr)
  t.notMatch(r.stdout, /measure:/, 'no measure label: the rates are plain wall time')
  t.match(r.stdout, /loop\/work\.js len=\d+ n=\d+: [\d,]+(\.\d+)?\n/)
})

test('HTTP benchmarks refuse cpu and instructions with a message naming the way out, before any load', async (t) => {
  const r = await runFile(path.join(SUITE, 'http', 'refused.js'), 'cpu')
  t.equal(r.reports.length, 0)
  t.equal(r.errors.length, 1)
  t.match(r.errors[0].message, /^bench\.http\(\): --measure cpu does not apply to HTTP benchmarks: .*run HTTP benchmarks with --measure wall/)
  t.equal(r.errors[0].code, 'BENCHRIG_ERR_MEASURE')
})

test('a bench.report() benchmark under --measure cpu is refused (its rate is not measured by the harness)', async (t) => {
  const file = path.join(__dirname, '..', 'compare', 'fixtures', 'bench', 'cpu', 'spin.js')
  const r = await runFile(file, 'cpu', ['n=1000', 'kind=sqrt'])
  t.equal(r.reports.length, 0)
  t.match(r.errors[0].message, /bench\.report\(\)\/bench\.http\(\): .*--measure cpu cannot count it; run this benchmark with --measure wall/)
})

test('scatter.js --measure cpu: a last "measure" column; a bad value stops it before any run', async (t) => {
  const scatter = require('../../lib/cli/scatter.js')
  const stdout = sink()
  const code = await scatter.main(['--runs', '1', '--measure', 'cpu', '--set', 'n=20000', '--no-progress', path.join(SUITE, 'loop', 'work.js')], { stdout, stderr: sink() })
  t.equal(code, 0)
  const parsed = parseCsvRecords(stdout.text)
  t.same(parsed.header, ['filename', 'len', 'n', 'rate', 'time', 'measure'], "Node's key order")
  t.equal(parsed.records[0].measure, 'cpu')
  t.throws(() => scatter.parseScatterArgs(['--measure', 'ops', path.join(SUITE, 'loop', 'work.js')]), { code: 'BENCHRIG_ERR_MEASURE' })
})

test('compare.js --measure cpu: every row names its measure in column 12', async (t) => {
  const compare = require('../../lib/cli/compare.js')
  const stdout = sink()
  const code = await compare.main(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--seed', '4', '--measure', 'cpu',
    '--root', SUITE, '--set', 'n=20000', '--no-progress', 'loop'], { stdout, stderr: sink(), handleSigint: false })
  t.equal(code, 0)
  const parsed = parseCsvRecords(stdout.text)
  t.equal(parsed.header[11], 'measure')
  t.equal(parsed.records.length, 2)
  t.same(parsed.records.map((r) => r.measure), ['cpu', 'cpu'])
})

test('compare.R refuses rows of two measures, as analyze does', async (t) => {
  if (!needTool(t, 'Rscript')) return
  const { spawnSync } = require('node:child_process')
  const csv = '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure"\n' +
    '"old","a.js","n=1",5,1,1,1,1,1,,1,"wall"\n"new","a.js","n=1",5,1,1,2,2,1,,1,"instructions"\n'
  const r = spawnSync('Rscript', [path.join(__dirname, '..', '..', 'compare.R')], { input: csv, encoding: 'utf8' })
  t.equal(r.status, 2)
  t.match(r.stderr, /compare\.R: the CSV holds rows of more than one measure \(wall, instructions\)/)
})

test('compare.js --resume keeps the file\'s measure: another --measure is refused before any run', async (t) => {
  const compare = require('../../lib/cli/compare.js')
  const dir = t.testdir({
    'out.csv': '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure"\n' +
      '"old","loop/work.js","n=20000 len=64",1000,20,1,1,1,4,"2026-01-01T00:00:00.000Z",1,"cpu"\n' +
      // a whole pair: resume drops a pair's lone run (it is run again whole)
      '"new","loop/work.js","n=20000 len=64",1000,20,1,2,2,4,"2026-01-01T00:00:01.000Z",1,"cpu"\n'
  })
  await t.rejects(compare.main(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--measure', 'wall',
    '--root', SUITE, '--resume', path.join(dir, 'out.csv'), '--no-progress', 'loop'], { stdout: sink(), stderr: sink(), handleSigint: false }),
  { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--measure wall: .*out\.csv holds rows measured as cpu; resume with --measure cpu/ })
})
