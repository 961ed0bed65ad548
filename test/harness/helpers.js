'use strict'
// Shared by the harness tests: the fixture benchmark directory and a runner
// that collects everything runBenchmarkFile streams.
const path = require('node:path')
const { PassThrough } = require('node:stream')
const { runBenchmarkFile } = require('../../lib/harness/run-file.js')

const ROOT = path.join(__dirname, '..', 'fixtures', 'harness', 'root')
const REPO = path.join(__dirname, '..', '..')

/**
 * Runs one fixture file and collects its messages and output.
 * @param {string} rel "alpha/ok.js"
 * @param {object} [opts] more runBenchmarkFile options
 */
async function collect (rel, opts = {}) {
  const reports = []
  const errors = []
  const configs = []
  const output = new PassThrough()
  let text = ''
  output.on('data', (d) => { text += d })
  const result = await runBenchmarkFile({
    file: path.isAbsolute(rel) ? rel : path.join(ROOT, rel),
    output,
    onReport: (r) => reports.push(r),
    onError: (e) => errors.push(e),
    onConfig: (c) => configs.push(c),
    ...opts
  })
  return { ...result, reports, errors, configs, output: text }
}

/**
 * A launcher for another node binary without tap's hooks. tap's process-info
 * plugin adds an --import of its own to NODE_OPTIONS of every process a test
 * spawns; Node 18 cannot load it. The launcher drops NODE_OPTIONS and execs
 * the real binary, so the benchmark root and its children run plain Node 18.
 * @param {import('tap').Test} t
 * @param {string} bin
 */
function plainNode (t, bin) {
  const fs = require('node:fs')
  const dir = t.testdir({})
  const launcher = path.join(dir, 'node')
  fs.writeFileSync(launcher, `#!/bin/sh\nunset NODE_OPTIONS\nexec "${bin}" "$@"\n`, { mode: 0o755 })
  return launcher
}

module.exports = { ROOT, REPO, collect, plainNode }
