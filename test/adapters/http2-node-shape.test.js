'use strict'
// http2 benchmark files in Node core's shape: bench.http({ path, requests,
// maxConcurrentStreams, clients, threads, duration }) with no protocol, run
// over HTTP/2 by h2load and by the built-in engine, each option honoured as
// the server counts it. (test/adapters/suites.test.js runs the repository's
// http2/ files with h2load and builtin.) Plus Node's test double benchmarkers.
const { test } = require('tap')
const path = require('node:path')
const fs = require('node:fs')
const http = require('node:http')
const http2 = require('node:http2')
const { spawn } = require('node:child_process')
const { collect, REPO } = require('../harness/fixtures/helpers.js')
const { needTool } = require('../helpers/tools.js')
const { normalizeOptions } = require('../../lib/harness/bench-http.js')
const benchmarkers = require('../../_http-benchmarkers.js')
const { UsageError } = require('../../lib/errors.js')

const COUNTING = path.join(REPO, 'test', 'fixtures', 'http2-node-shape', 'http2', 'counting.js')

async function runCounting (t, args) {
  const countsFile = path.join(t.testdir({}), 'counts.json')
  const r = await collect(COUNTING, { args, env: { ...process.env, COUNTS_FILE: countsFile } })
  t.same(r.errors, [], 'no failure')
  t.equal(r.reports.length, 1, 'one result')
  return { report: r.reports[0], seen: JSON.parse(fs.readFileSync(countsFile, 'utf8')) }
}

test("Node's h2load mapping: an http2/ file gets HTTP/2, requests is -n, clients -c, threads -t, maxConcurrentStreams -m", async (t) => {
  const node = { path: '/', port: 9, requests: 40, maxConcurrentStreams: 4, clients: 2, threads: 2, duration: 5 }
  const h2 = normalizeOptions(node, {}, { category: 'http2' })
  t.equal(h2.protocol, 'h2', 'a file in http2/ is HTTP/2 without a protocol option')
  t.equal(h2.benchmarker, 'h2load', 'and h2load is its default, as in Node')
  const args = benchmarkers.getBenchmarker('h2load').args({ ...h2, files: {} })
  t.same(args, ['-c', '2', '-t', '2', '-m', '4', '-n', '40', 'http://127.0.0.1:9/'], 'a request-count run: -n, no -D, no --h1')
  const timed = benchmarkers.getBenchmarker('h2load').args({ ...normalizeOptions({ ...node, requests: undefined }, {}, { category: 'http2' }), files: {} })
  t.ok(timed.includes('-D') && !timed.includes('-n'), 'without requests, a timed run (-D)')

  t.equal(normalizeOptions({ port: 9 }, { benchmarker: 'h2load' }).protocol, 'h2', 'h2load alone means HTTP/2, wherever the file is')
  const h1 = benchmarkers.getBenchmarker('h2load').args({ ...normalizeOptions({ port: 9, protocol: 'http/1.1' }, { benchmarker: 'h2load' }), files: {} })
  t.ok(h1.includes('--h1'), 'HTTP/1.1 through h2load only when asked (--h1)')

  const b = normalizeOptions(node, { benchmarker: 'builtin' }, { category: 'http2' })
  t.equal(b.protocol, 'h2', 'the built-in engine too speaks HTTP/2 for an http2/ file')
  const bargs = benchmarkers.getBenchmarker('builtin').args(b)
  for (const [flag, value] of [['-c', '2'], ['--max-streams', '4'], ['-a', '40'], ['-w', '2']]) {
    t.equal(bargs[bargs.indexOf(flag) + 1], value, `builtin ${flag} ${value}`)
  }
  t.ok(bargs.includes('--h2'), 'builtin --h2')

  t.equal(normalizeOptions({ port: 9 }, {}, { category: 'http' }).protocol, 'http/1.1', 'an http/ file stays HTTP/1.1 on the built-in engine')
  t.throws(() => normalizeOptions({ ...node, requests: 1 }, {}, { category: 'http2' }), UsageError, 'requests below clients is refused before any work')
  t.throws(() => normalizeOptions({ ...node, requests: 1 }, {}, { category: 'http2' }), /requests \(1\) must be at least clients \(2\)/)
})

for (const benchmarker of ['h2load', 'builtin']) {
  test(`${benchmarker}: the server sees 2 HTTP/2 sessions, exactly 40 streams, at most 4 open per session`, async (t) => {
    if (benchmarker === 'h2load' && !needTool(t, 'h2load')) return
    const { report, seen } = await runCounting(t, [`benchmarker=${benchmarker}`])
    t.equal(report.extra?.benchmarker ?? report.benchmarker ?? report.conf.benchmarker, benchmarker)
    t.ok(report.rate > 0, 'a rate')
    t.same(seen, { sessions: 2, streams: 40, maxOpen: 4 }, 'clients = sessions, requests = streams, maxConcurrentStreams = most open at once')
  })

  test(`${benchmarker}: without requests the run is timed by duration`, async (t) => {
    if (benchmarker === 'h2load' && !needTool(t, 'h2load')) return
    const { report, seen } = await runCounting(t, [`benchmarker=${benchmarker}`, 'requests=0', 'duration=0.5', 'streams=1'])
    t.equal(seen.sessions, 2, 'two sessions')
    t.ok(seen.streams > 0 && seen.maxOpen === 1, 'streams one at a time per session')
    t.ok(report.time >= 0.45, `the tool measured for the duration (${report.time} s)`)
  })
}

test('the test doubles: test-double-http, -https and -http2 run the http and http2 files', async (t) => {
  for (const [file, name] of [['http/simple.js', 'test-double-http'], ['http/https.js', 'test-double-https'], ['http2/simple.js', 'test-double-http2']]) {
    const r = await collect(path.join(REPO, file), { args: ['--test', `benchmarker=${name}`] })
    t.same(r.errors, [], `${file} with ${name}: no failure`)
    t.equal(r.reports.length, 1, `${file} with ${name}: one result`)
    t.equal(r.reports[0]?.conf.benchmarker, name)
  }
  const wrong = await collect(path.join(REPO, 'http2/simple.js'), { args: ['--test', 'benchmarker=test-double-http'] })
  t.match(wrong.errors[0]?.message, /benchmarker "test-double-http" cannot send HTTP\/2 requests: pass --set benchmarker=builtin \(able: builtin, h2load\)/, 'the HTTP/1.1 double refuses an http2 file and suggests real tools only')
})

function runClient (args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, 'lib', 'adapters', 'test-double-client.js'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { err += d })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out, err }))
  })
}

test("the test double client: Node's contract (test_url and duration from the environment, {\"throughput\": N})", async (t) => {
  let h1 = 0
  let h2 = 0
  const s1 = http.createServer((req, res) => { h1++; res.end('ok') })
  const s2 = http2.createServer()
  s2.on('stream', (stream) => { h2++; stream.respond({ ':status': 200 }); stream.end('ok') })
  await new Promise((resolve) => s1.listen(0, '127.0.0.1', resolve))
  await new Promise((resolve) => s2.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { s1.close(); s2.close() })
  const a = await runClient(['http'], { test_url: `http://127.0.0.1:${s1.address().port}/`, duration: '0' })
  t.equal(a.code, 0)
  t.equal(JSON.parse(a.out).throughput, 1, 'duration 0: exactly one request')
  t.equal(h1, 1, 'the server saw one request')
  const b = await runClient(['http2', `http://127.0.0.1:${s2.address().port}/x`, '0'])
  t.equal(JSON.parse(b.out).throughput, 1)
  t.equal(h2, 1, 'one HTTP/2 stream')
  const bad = await runClient(['ftp', 'u', '0'])
  t.equal(bad.code, 2, 'a wrong type exits 2')
  t.match(bad.err, /TYPE must be one of http, https, http2/)
  const old = process.env.duration
  process.env.duration = '0'
  t.teardown(() => { if (old === undefined) delete process.env.duration; else process.env.duration = old })
  const args = benchmarkers.getBenchmarker('test-double-http2').args(normalizeOptions({ port: 9, duration: 5 }, { benchmarker: 'test-double-http2' }))
  t.equal(args.at(-1), '0', "the environment's duration wins over the file's, as in Node")
})
