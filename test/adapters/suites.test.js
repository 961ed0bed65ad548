'use strict'
// The acceptance runs: `node run.js --test --set benchmarker=NAME http`
// for builtin, wrk and autocannon, and builtin and h2load on http2; every result names
// its tool, in the configuration and in the NDJSON extra fields.
const { test } = require('tap')
const path = require('node:path')
const fs = require('node:fs')
const { spawn } = require('node:child_process')
const benchmarkers = require('../../_http-benchmarkers.js')
const { needTool } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, '..', '..')
const RUN = path.join(ROOT, 'run.js')
const filesOf = (dir) => fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.js') && !f.startsWith('_')).map((f) => `${dir}/${f}`).sort()

function runJs (args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUN, ...args], { cwd: ROOT })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => { stdout += c })
    child.stderr.on('data', (c) => { stderr += c })
    child.on('close', (code) => {
      const records = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))
      resolve({ code, stderr, records })
    })
  })
}

// On a saturated machine a 0.25 s load may complete no request. That is the
// machine, not the adapters: such a run is retried once, visibly.
const NO_REQUEST = /no request completed/

async function runSuite (t, args) {
  const first = await runJs(args)
  const errors = first.records.filter((r) => r.type === 'error')
  if (first.code === 0 || errors.length === 0 || !errors.every((e) => NO_REQUEST.test(e.message))) return first
  t.comment(`retrying ${args.join(' ')} once: ${errors.map((e) => e.message).join('; ')}`)
  return runJs(args)
}

async function suite (t, name, category) {
  const { code, stderr, records } = await runSuite(t, ['--test', '--set', `benchmarker=${name}`, '--format', 'ndjson', category])
  t.equal(code, 0, `exit 0 (stderr: ${stderr.trim()})`)
  const results = records.filter((r) => r.type === 'result')
  const failed = records.filter((r) => r.type === 'error').map((r) => `${r.filename}: ${r.message}`)
  t.same(results.map((r) => r.filename).sort(), filesOf(category), `one result per benchmark file (failures: ${failed.join('; ') || 'none'})`)
  for (const r of results) {
    t.match(r.configuration, `benchmarker='${name}'`, `${r.filename} names its tool in the configuration`)
    t.equal(r.conf.benchmarker, name)
    t.equal(r.benchmarker, name)
    t.type(r.benchmarker_version, 'string')
    t.ok(r.rate > 0, `${r.filename} has a rate`)
    t.ok(Number.isFinite(r.latency_max), 'latency_max')
    const counts = `requests/s ${r.rate}, latency_max ${r.latency_max} ms, errors ${r.errors}, non2xx ${r.non2xx}`
    t.equal(r.errors, 0, `${r.filename} without errors (${counts})`)
    t.equal(r.non2xx, 0, `${r.filename} without non-2xx (${counts})`)
  }
}

test('http with wrk', async (t) => {
  if (!needTool(t, 'wrk')) return
  await suite(t, 'wrk', 'http')
})

test('http with autocannon', async (t) => {
  await suite(t, 'autocannon', 'http')
})

test('http with builtin', async (t) => {
  if (!benchmarkers.detect('builtin').present) {
    const reason = 'the built-in engine (lib/engine, lib/cli/load.js) is not in this tree yet'
    if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail(reason)
    else t.skip(reason)
    return
  }
  await suite(t, 'builtin', 'http')
})

test('http2 with h2load', async (t) => {
  if (!needTool(t, 'h2load')) return
  await suite(t, 'h2load', 'http2')
})

test('http2 with builtin (--h2: h2c and TLS with ALPN h2)', async (t) => {
  await suite(t, 'builtin', 'http2')
})

test('http2 with wrk is refused, naming the able tools; an unknown name is named', async (t) => {
  const refused = await runJs(['--test', '--set', 'benchmarker=wrk', '--format', 'ndjson', '--filter', 'simple', 'http2'])
  t.equal(refused.code, 1)
  const err = refused.records.find((r) => r.type === 'error')
  t.match(err.message, /benchmarker "wrk" cannot send HTTP\/2 requests.*--set benchmarker=builtin \(able: builtin, h2load\)/)

  // an unknown name is a usage error before any configuration runs
  const unknown = await runJs(['--test', '--set', 'benchmarker=nope', '--format', 'ndjson', '--filter', 'simple', 'http'])
  t.equal(unknown.code, 2)
  t.same(unknown.records, [], 'nothing ran')
  t.match(unknown.stderr, /^run\.js: --set benchmarker=nope: unknown benchmarker; use one of builtin, wrk, autocannon, h2load/)
})

test('cpuset_server and cpuset_client pin the server and the generator apart', async (t) => {
  if (!needTool(t, 'taskset')) return
  const ok = await runJs(['--test', '--set', 'benchmarker=autocannon', '--set', 'cpuset_server=1', '--set', 'cpuset_client=0', '--format', 'ndjson', '--filter', 'simple', 'http'])
  t.equal(ok.code, 0, ok.stderr)
  t.equal(ok.records.filter((r) => r.type === 'result').length, 1)
  const bad = await runJs(['--test', '--set', 'benchmarker=autocannon', '--set', 'cpuset_server=4096', '--format', 'ndjson', '--filter', 'simple', 'http'])
  t.equal(bad.code, 1)
  t.match(bad.records.find((r) => r.type === 'error').message, /^cpuset_server=4096: taskset could not pin the server .*give a CPU list of this machine/)
})
