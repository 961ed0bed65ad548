'use strict'
// --measure instructions for real: one configuration of a tiny n under
// valgrind, run through calibrate (node's start-up under valgrind costs ~3 s
// of CPU even with instrumentation off until bench.start(), so this file
// runs nothing else).
const tap = require('tap')
const { test } = tap

// On a 2-core machine shared by other jobs valgrind's start-up can take
// minutes of wall time, which is not a failure here.
tap.setTimeout(900e3)
const path = require('node:path')
const { PassThrough } = require('node:stream')
const { runBenchmarkFile } = require('../../lib/harness/run-file.js')
const { main: calibrate } = require('../../lib/cli/calibrate.js')
const { needTool } = require('../helpers/tools.js')
const { plainNode } = require('../harness/fixtures/helpers.js')

const WORK = path.join(__dirname, '..', '..', 'bench', 'noise-suite', 'loop', 'work.js')

function sink () {
  const s = new PassThrough()
  s.text = ''
  s.on('data', (d) => { s.text += d })
  return s
}

test('instructions: one configuration under valgrind counts its measured section only (run through calibrate)', async (t) => {
  if (!needTool(t, 'valgrind')) return
  const n = 2000
  const reports = []
  const errors = []
  const stdout = sink()
  // Without the test runner's NODE_OPTIONS (its --import hooks reach every
  // node it spawns): callgrind counts every thread of the process, and the
  // hooks' work is not the benchmark's.
  const launcher = plainNode(t, process.execPath)
  // calibrate runs the file through the driver API; this sees what it gets.
  const runFile = (opts) => runBenchmarkFile({
    ...opts,
    onReport: (r) => { reports.push(r); opts.onReport(r) },
    onError: (e) => { errors.push(e); opts.onError(e) }
  })
  const code = await calibrate(['--measure', 'instructions', '--runs=1', '--max-increases=0', `--start-n=${n}`, '--binary', launcher, '--json', WORK],
    { stdout, stderr: sink(), runFile })

  t.same(errors, [])
  t.equal(reports.length, 1)
  const { rate, time } = reports[0]
  const count = time * 1e9
  t.ok(Math.abs(count - Math.round(count)) < 1e-3, `a whole number of instructions: ${count}`)
  t.ok(Math.abs(rate * time - n) < 1e-6, 'rate = n per 10^9 instructions')
  // node's own start-up is over 10^8 instructions; 2000 short toString calls
  // are far below: the count covers the section, not the process.
  t.ok(count > n * 50 && count < 5e7, `${count} instructions for ${n} operations`)

  t.equal(code, 0)
  const out = JSON.parse(stdout.text)
  t.same([out.measure, out.converge, out.runs], ['instructions', 0.01, 1])
  t.same([out.results[0].n, out.results[0].reason], [n, 'max-increases'])
  t.ok(out.results[0].steps[0].configs[0].seconds > 0, 'the time limit uses the wall time of the run')
})
