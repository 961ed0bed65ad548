'use strict'
// calibrate --measure: the convergence rule of instruction counts on exact
// data, the flags, and a real search under cpu (instructions for real is in
// instructions.test.js, with the other valgrind run).
const { test } = require('tap')
const path = require('node:path')
const { PassThrough } = require('node:stream')
const { summarizeStep, decideConverged, largestChange } = require('../../lib/calibrate/search.js')
const { main, parseCalibrateArgs } = require('../../lib/cli/calibrate.js')
const { UsageError } = require('../../lib/errors.js')

const REPO = path.join(__dirname, '..', '..')
const NAP = path.join(__dirname, '..', 'fixtures', 'measure', 'nap.js')

function sink () {
  const s = new PassThrough()
  s.text = ''
  s.on('data', (d) => { s.text += d })
  return s
}

test('instructions: stop at the smaller n once the next n moves no rate by the target', async (t) => {
  // rate(n) = n / (F + c n): F = 1e6 instructions done once, c = 1000 per operation.
  const rate = (n) => n / ((1e6 + 1000 * n) / 1e9)
  const step = (n, configs = ['a', 'b'], runSeconds = 5) => summarizeStep(n, configs.map((configuration) => ({ configuration, rate: rate(n), time: 0 })), runSeconds)
  const opts = { threshold: 0.01, increase: 10, increasesLeft: 5 }
  t.same(decideConverged(step(100), undefined, opts), { action: 'raise', nextN: 1000 }, 'the first n has nothing to compare with')
  // F is 10x the section at n=100, 1x at 1e3, 0.1x at 1e4, 0.01x at 1e5, 0.001x at 1e6.
  t.same(decideConverged(step(1e4), step(1e3), opts), { action: 'raise', nextN: 1e5 }, '1e3 -> 1e4 moves the rate by 45%')
  t.same(decideConverged(step(1e5), step(1e4), opts), { action: 'raise', nextN: 1e6 }, '1e4 -> 1e5 moves it by 8.9%')
  t.same(decideConverged(step(1e6), step(1e5), opts), { action: 'stop', reason: 'converged', n: 1e5 }, '1e5 -> 1e6 moves it by 0.9%: 1e5 is enough')
  t.ok(Math.abs(largestChange(step(1e6), step(1e5)).change - (1.01 / 1.001 - 1)) < 1e-12)
  // One configuration still moving keeps the search going.
  const moving = summarizeStep(1e6, [{ configuration: 'a', rate: rate(1e6), time: 0 }, { configuration: 'b', rate: rate(1e6) * 1.02, time: 0 }], 5)
  t.same(decideConverged(moving, step(1e5), opts), { action: 'raise', nextN: 1e7 })
  t.same(largestChange(moving, step(1e5)).configuration, 'b')
  // Runs that disagree by the target are not a converged count.
  const spread = summarizeStep(1e6, [{ configuration: 'a', rate: rate(1e6) * 0.98, time: 0 }, { configuration: 'a', rate: rate(1e6) * 1.02, time: 0 }], 5)
  t.same(decideConverged(spread, step(1e5, ['a']), opts), { action: 'raise', nextN: 1e7 })
  t.same(decideConverged(step(1e4), step(1e3), { ...opts, increasesLeft: 0 }), { action: 'stop', reason: 'max-increases', n: 1e4 })
  t.same(decideConverged(step(1e4, ['a'], 5), step(1e3, ['a']), { ...opts, maxSeconds: 40 }), { action: 'stop', reason: 'time-limit', n: 1e4 }, 'the wall time of a run (5 s) x 10 > 40 s')
  t.same(decideConverged(summarizeStep(10, [], 1), undefined, opts), { action: 'stop', reason: 'no-results' })
})

test('calibrate --measure: defaults per measure; flags of the other rule are usage errors', async (t) => {
  const file = path.join(REPO, 'buffers', 'buffer-compare.js')
  const wall = parseCalibrateArgs([file])
  t.same([wall.measure, wall.runs, wall.cvThreshold], ['wall', 30, 0.05])
  const instr = parseCalibrateArgs(['--measure', 'instructions', file])
  t.same([instr.measure, instr.runs, instr.converge], ['instructions', 2, 0.01])
  t.equal(parseCalibrateArgs(['--measure', 'instructions', '--runs', '1', '--converge', '0.002', file]).converge, 0.002)
  t.equal(parseCalibrateArgs(['--measure', 'cpu', '--cv-threshold', '0.02', file]).cvThreshold, 0.02)
  t.throws(() => parseCalibrateArgs(['--measure', 'cpu', '--runs', '1', file]), { message: '--runs 1: give a whole number >= 2' })
  t.throws(() => parseCalibrateArgs(['--measure', 'instructions', '--cv-threshold', '0.01', file]), { constructor: UsageError, message: /--cv-threshold with --measure instructions: .* give --converge X/ })
  t.throws(() => parseCalibrateArgs(['--converge', '0.01', file]), { constructor: UsageError, message: '--converge applies to --measure instructions only; with --measure wall give --cv-threshold X' })
  t.throws(() => parseCalibrateArgs(['--measure', 'instructions', '--converge', '0', file]), { message: '--converge 0: give a number > 0' })
  t.throws(() => parseCalibrateArgs(['--measure', 'ticks', file]), { constructor: UsageError, exitCode: 2, code: 'BENCHRIG_ERR_MEASURE', message: /--measure ticks: use one of wall, cpu, instructions/ })
})

test('calibrate --measure cpu: the children count CPU time, so a sleeping section is not counted', async (t) => {
  const stdout = sink()
  const times = []
  const runFile = (opts) => require('../../lib/harness/run-file.js').runBenchmarkFile({
    ...opts, onReport: (r) => { times.push(r.time); opts.onReport(r) }
  })
  const code = await main(['--measure', 'cpu', '--runs=2', '--max-increases=0', '--start-n=100', '--json', NAP], { stdout, stderr: sink(), runFile })
  t.equal(code, 0)
  const out = JSON.parse(stdout.text)
  t.equal(out.measure, 'cpu')
  // One n only (--max-increases=0): it is the proposal whether or not two
  // runs of CPU time happen to agree within 5%.
  t.equal(out.results[0].n, 100)
  t.ok(['stable', 'max-increases'].includes(out.results[0].reason), out.results[0].reason)
  t.same(out.results[0].steps.map((x) => x.n), [100])
  t.equal(times.length, 2, 'two runs of the one configuration')
  // Each section slept 100 ms: wall time would be >= 0.1 s.
  for (const s of times) t.ok(s > 0 && s < 0.1, `CPU seconds of a section that slept 0.1 s: ${s}`)
})
