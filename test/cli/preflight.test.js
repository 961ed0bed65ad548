'use strict'
// Validate before working: mistakes that would fail every configuration are
// one usage error (exit 2) before the first one starts; an invalid value is
// recorded once and never retried; a configuration has a default time limit.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { checkBenchmarkers } = require('../../lib/harness/preflight.js')
const { configurationTimeout, DEFAULT_TIMEOUT_S } = require('../../lib/harness/root.js')
const { runCompare } = require('../compare/fixtures/helpers.js')
const { needTool } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, '..', '..')
const KNOWN = require('../../_http-benchmarkers.js').list().join(', ')

function cli (entry, args, input) {
  return spawnSync(process.execPath, [path.join(ROOT, entry), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60000, input })
}

t.test('an unknown benchmarker is one usage error in run, compare and scatter, before any configuration', async (t) => {
  for (const [entry, args] of [
    ['run.js', ['--set', 'benchmarker=wrkk', 'http']],
    ['compare.js', ['--old', process.execPath, '--new', process.execPath, '--set', 'benchmarker=wrkk', 'http']],
    ['scatter.js', ['--set', 'benchmarker=wrkk', 'http/simple.js']]
  ]) {
    const r = cli(entry, args)
    t.equal(r.status, 2, entry)
    t.equal(r.stderr, `${entry}: --set benchmarker=wrkk: unknown benchmarker (did you mean benchmarker=wrk?); use one of ${KNOWN}\n`)
    t.notMatch(r.stdout, /http\//, 'no configuration ran')
  }
})

t.test('a benchmarker a selected file names in a string (its own registered tool) is let through', async (t) => {
  const dir = t.testdir({ 'own.js': "require('benchrig/_http-benchmarkers.js').register({ name: 'mytool' })\n", 'other.js': 'mytool without quotes\n' })
  t.doesNotThrow(() => checkBenchmarkers(['benchmarker=mytool'], [path.join(dir, 'own.js')]))
  t.throws(() => checkBenchmarkers(['benchmarker=mytool'], [path.join(dir, 'other.js')]), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /unknown benchmarker; use one of/ })
  t.doesNotThrow(() => checkBenchmarkers(['n=1', 'benchmarker=wrk'], []), 'known names and other keys pass')
})

t.test('an --old/--new binary that cannot run "BIN -e 0" is one usage error naming the flag', async (t) => {
  const dir = t.testdir()
  const bad = path.join(dir, 'broken-node')
  fs.writeFileSync(bad, '#!/bin/sh\necho "missing libnode.so" >&2\nexit 127\n', { mode: 0o755 })
  for (const entry of ['compare.js']) {
    const r = cli(entry, ['--old', bad, '--new', process.execPath, 'buffers'])
    t.equal(r.status, 2)
    t.equal(r.stderr, `${entry}: --old ${bad}: "${bad} -e 0" exited with code 127 (missing libnode.so); give a node binary, or a wrapper that passes its arguments to node\n`)
    t.equal(r.stdout, '', 'no CSV header, nothing ran')
  }
  const r = cli('scatter.js', ['--binary', bad, 'buffers/buffer-concat.js'])
  t.equal(r.status, 2)
  t.match(r.stderr, /^scatter\.js: --binary .*broken-node: ".*broken-node -e 0" exited with code 127/)
})

t.test('an invalid configuration value is recorded once per run, never retried', async (t) => {
  const dir = t.testdir()
  const out = path.join(dir, 'v.csv')
  const r = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--seed', '3', '--output', out, 'invalid'], { env: { FLAKY_DIR: dir } })
  t.equal(r.code, 1, 'a failed configuration makes the exit code 1')
  const attempts = fs.readFileSync(path.join(dir, 'attempts'), 'utf8').trim().split('\n')
  t.equal(attempts.filter((v) => v === 'bad').length, 2, 'once with each binary: no retry')
  t.equal(attempts.filter((v) => v === 'ok').length, 2, 'the valid configuration ran with each binary')
  t.equal(r.stderr.match(/FAILED invalid\/value\.js/g)?.length, 2, r.stderr)
  t.notMatch(r.stderr, new RegExp(path.join(ROOT, 'test').replace(/[/.]/g, '\\$&')), 'the file is named relative to the benchmark directory')
})

t.test('every configuration has a time limit by default; --timeout 0 lifts it', async (t) => {
  t.equal(configurationTimeout(undefined), DEFAULT_TIMEOUT_S)
  t.equal(DEFAULT_TIMEOUT_S, 300)
  t.equal(configurationTimeout(''), DEFAULT_TIMEOUT_S)
  t.equal(configurationTimeout('0'), 0, 'no limit')
  t.equal(configurationTimeout('2.5'), 2.5)
  for (const [entry, args] of [
    ['run.js', ['buffers']],
    ['compare.js', ['--old', process.execPath, '--new', process.execPath, 'buffers']],
    ['scatter.js', ['buffers/buffer-concat.js']]
  ]) {
    const r = cli(entry, ['--timeout', 'soon', ...args])
    t.equal(r.status, 2, `${entry} checks --timeout`)
    t.equal(r.stderr, `${entry}: --timeout soon: give a number of seconds (0: no limit)\n`)
    t.equal(r.stdout, '', 'nothing ran')
  }
})

t.test('compare.R, bar.R and scatter.R refuse a --plot name without a known extension before reading', async (t) => {
  if (!needTool(t, 'Rscript')) return
  for (const [script, extra] of [['compare.R', []], ['bar.R', []], ['scatter.R', ['--xaxis', 'len']]]) {
    const r = spawnSync('Rscript', [path.join(ROOT, script), ...extra, '--plot', 'box'], { encoding: 'utf8', input: '' })
    t.equal(r.status, 2, script)
    t.equal(r.stderr, `${script}: --plot box: give a file name ending in .png, .pdf, .svg or .jpg (the extension picks the format)\n`)
  }
})
