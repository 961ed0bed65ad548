'use strict'
// --measure instructions for real: one configuration of a tiny n under
// valgrind (node's start-up under callgrind alone costs ~10 s of CPU, so
// this file runs nothing else).
const tap = require('tap')
const { test } = tap

// valgrind's start-up of node is ~10 s of CPU; on a 2-core machine shared by
// other jobs that can be minutes of wall time, which is not a failure here.
tap.setTimeout(900e3)
const path = require('node:path')
const { PassThrough } = require('node:stream')
const { runBenchmarkFile } = require('../../lib/harness/run-file.js')
const { needTool } = require('../helpers/tools.js')
const { plainNode } = require('../harness/fixtures/helpers.js')

const WORK = path.join(__dirname, '..', '..', 'bench', 'noise-suite', 'loop', 'work.js')

test('instructions: one configuration under valgrind counts its measured section only', async (t) => {
  if (!needTool(t, 'valgrind')) return
  const n = 2000
  const reports = []
  const errors = []
  // Without the test runner's NODE_OPTIONS (its --import hooks reach every
  // node it spawns): callgrind counts every thread of the process, and the
  // hooks' work is not the benchmark's.
  const launcher = plainNode(t, process.execPath)
  await runBenchmarkFile({ file: WORK, execPath: launcher, args: [`n=${n}`], measure: 'instructions', output: new PassThrough(), onReport: (x) => reports.push(x), onError: (e) => errors.push(e) })
  const r = { reports, errors }
  t.same(r.errors, [])
  t.equal(r.reports.length, 1)
  const { rate, time } = r.reports[0]
  const count = time * 1e9
  t.ok(Math.abs(count - Math.round(count)) < 1e-3, `a whole number of instructions: ${count}`)
  t.ok(Math.abs(rate * time - n) < 1e-6, 'rate = n per 10^9 instructions')
  // node's own start-up is over 10^8 instructions; 2000 short toString calls
  // are far below: the count covers the section, not the process.
  t.ok(count > n * 50 && count < 5e7, `${count} instructions for ${n} operations`)
})
