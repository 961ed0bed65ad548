'use strict'
// calibrate-n.js / benchrig calibrate: the CV rule on exact data, the time
// limit, and real runs on buffers/ with a small budget.
const { test } = require('tap')
const path = require('node:path')
const { PassThrough } = require('node:stream')
const { coefficientOfVariation, summarizeStep, decide } = require('../../lib/calibrate/search.js')
const { main, parseCalibrateArgs } = require('../../lib/cli/calibrate.js')

const REPO = path.join(__dirname, '..', '..')
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'harness', 'root')

function sink () {
  const s = new PassThrough()
  s.text = ''
  s.on('data', (d) => { s.text += d })
  return s
}

test('the stopping rule: overall CV below the threshold and every configuration below twice it', async (t) => {
  t.equal(coefficientOfVariation([9, 10, 11]), 0.1)
  t.ok(Number.isNaN(coefficientOfVariation([5])))
  const reports = (cvA, cvB, time = 0.01) => [
    ...[1 - cvA, 1, 1 + cvA].map((f) => ({ configuration: 'a', rate: 100 * f, time })),
    ...[1 - cvB, 1, 1 + cvB].map((f) => ({ configuration: 'b', rate: 100 * f, time }))
  ]
  const opts = { cvThreshold: 0.05, increase: 10, increasesLeft: 3 }
  const stable = summarizeStep(100, reports(0.02, 0.06))
  t.equal(stable.configs.length, 2)
  t.ok(Math.abs(stable.overall - 0.04) < 1e-12, 'overall: the mean CV of the configurations')
  t.same(decide(stable, opts), { action: 'stop', reason: 'stable' })
  t.same(decide(summarizeStep(100, reports(0.01, 0.11)), opts), { action: 'raise', nextN: 1000 }, 'one configuration above twice the threshold')
  t.same(decide(summarizeStep(100, reports(0.06, 0.06)), opts), { action: 'raise', nextN: 1000 }, 'overall above the threshold')
  t.same(decide(summarizeStep(100, reports(0.06, 0.06)), { ...opts, increasesLeft: 0 }), { action: 'stop', reason: 'max-increases' })
  t.same(decide(summarizeStep(100, reports(0.06, 0.06, 0.5)), { ...opts, maxSeconds: 4 }), { action: 'stop', reason: 'time-limit' }, 'n x 10 would run 5 s > 4 s')
  t.same(decide(summarizeStep(100, []), opts), { action: 'stop', reason: 'no-results' })
})

test('Node\'s flags; bad values are usage errors', async (t) => {
  const o = parseCalibrateArgs(['--runs=5', '--cv-threshold=0.02', '--max-increases=2', '--start-n=1000', '--increase=4', path.join(REPO, 'buffers', 'buffer-compare.js')])
  t.same([o.runs, o.cvThreshold, o.maxIncreases, o.startN, o.increase, o.files[0].name], [5, 0.02, 2, 1000, 4, 'buffers/buffer-compare.js'])
  t.same(parseCalibrateArgs(['buffers'], { defaultRoot: REPO }).files.length, 7, 'a category: each of its files')
  t.throws(() => parseCalibrateArgs(['--runs=1', 'buffers'], { defaultRoot: REPO }), { message: '--runs 1: give a whole number >= 2' })
  t.throws(() => parseCalibrateArgs(['--increase=1', 'buffers'], { defaultRoot: REPO }), { message: '--increase 1: give a number > 1' })
  t.throws(() => parseCalibrateArgs(['--set', 'n=5', 'buffers'], { defaultRoot: REPO }), { message: /calibrate chooses n itself/ })
})

test('real runs on buffers/ with a small budget propose an n per file', async (t) => {
  const stdout = sink()
  const stderr = sink()
  const code = await main(['--runs=2', '--max-increases=1', '--start-n=50', '--increase=20', '--json',
    '--set', 'len=16', '--set', 'diff=none', '--set', 'method=equals',
    path.join(REPO, 'buffers', 'buffer-compare.js'), path.join(FIXTURES, 'beta', 'setup.js')], { stdout, stderr })
  const out = JSON.parse(stdout.text)
  t.equal(code, 1, 'a file without n has no proposal')
  const [buf, noN] = out.results
  t.equal(buf.name, 'buffers/buffer-compare.js')
  t.ok(buf.steps.length >= 1 && buf.steps.length <= 2, 'at most one increase')
  t.same(buf.steps.map((s) => s.n), [50, 1000].slice(0, buf.steps.length))
  t.equal(buf.n, buf.steps[buf.steps.length - 1].n, 'the proposal is the last n tried')
  t.ok(['stable', 'max-increases'].includes(buf.reason))
  t.same(buf.steps[0].configs.map((c) => [c.configuration, c.runs]), [["diff='none' len=16 method='equals'", 2]], 'n is left out of the configuration; 2 runs')
  t.same([noN.n, noN.reason, noN.error], [undefined, 'no-n', 'beta/setup.js has no configuration key "n" to calibrate'])
})
