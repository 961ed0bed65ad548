'use strict'
// The registry: one place for spawn, timeouts and the errors a user sees.
const { test } = require('tap')
const http = require('node:http')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const benchmarkers = require('../../_http-benchmarkers.js')
const { normalizeOptions } = require('../../lib/harness/bench-http.js')
const { UsageError, RunError } = require('../../lib/errors.js')
const { needTool } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, '..', '..')

function opts (name, extra = {}) {
  return normalizeOptions({ connections: 2, duration: 0.2, port: 1, ...extra }, { benchmarker: name })
}

test('an unknown benchmarker names itself and the known ones', async (t) => {
  t.throws(() => benchmarkers.getBenchmarker('wrkk'), UsageError)
  const err = await benchmarkers.run('wrkk', {}).catch((e) => e)
  t.equal(err.code, 'BENCHRIG_ERR_UNKNOWN_BENCHMARKER')
  t.match(err.message, /unknown benchmarker "wrkk"/)
  t.match(err.message, /builtin, wrk, autocannon, h2load/)
  t.same(benchmarkers.list(), ['builtin', 'wrk', 'autocannon', 'h2load', 'test-double-http', 'test-double-https', 'test-double-http2'])
})

test('HTTP/2 is refused by the HTTP/1.1-only tools, naming the able ones', async (t) => {
  for (const name of ['wrk', 'autocannon']) {
    const err = await benchmarkers.run(name, opts(name, { protocol: 'h2' })).catch((e) => e)
    t.equal(err.code, 'BENCHRIG_ERR_UNSUPPORTED_PROTOCOL', name)
    t.match(err.message, /cannot send HTTP\/2 requests.*--set benchmarker=builtin \(able: builtin, h2load\)/)
  }
  t.ok(benchmarkers.getBenchmarker('builtin').protocols.includes('h2'), 'the built-in engine speaks HTTP/2 (--h2)')
})

test('a missing tool names its Debian package and the builtin way out', async (t) => {
  // A real lookup with an empty PATH: wrk and h2load cannot be found.
  const script = `
    const b = require(${JSON.stringify(path.join(ROOT, '_http-benchmarkers.js'))})
    const { normalizeOptions } = require(${JSON.stringify(path.join(ROOT, 'lib/harness/bench-http.js'))})
    ;(async () => {
      for (const name of ['wrk', 'h2load']) {
        const o = normalizeOptions({ port: 1, duration: 0.1, protocol: name === 'h2load' ? 'h2' : undefined }, { benchmarker: name })
        await b.run(name, o).catch((e) => console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })))
      }
    })()`
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, PATH: '/nonexistent' } })
  const [wrk, h2load] = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
  t.equal(wrk.name, 'ToolMissingError')
  t.equal(wrk.code, 'BENCHRIG_ERR_TOOL_MISSING')
  t.match(wrk.message, /^wrk is not installed: install the Debian package "wrk".*--set benchmarker=builtin/)
  t.match(h2load.message, /^h2load is not installed: install the Debian package "nghttp2-client".*--set benchmarker=builtin/)
})

test('a non-zero exit carries the tool\'s stderr', async (t) => {
  if (!needTool(t, 'wrk')) return
  const err = await benchmarkers.run('wrk', opts('wrk')).catch((e) => e)
  t.type(err, RunError)
  t.equal(err.code, 'BENCHRIG_ERR_BENCHMARKER_FAILED')
  t.match(err.message, /wrk failed with exit code 1/)
  t.match(err.message, /unable to connect to 127\.0\.0\.1:1/)
})

test('zero completed requests is an error, not a rate of 0', async (t) => {
  // autocannon against a closed port: it exits 0 with errors and no responses.
  const err = await benchmarkers.run('autocannon', opts('autocannon')).catch((e) => e)
  t.type(err, RunError)
  t.equal(err.code, 'BENCHRIG_ERR_NO_REQUESTS')
  t.match(err.message, /^autocannon: no request completed against http:\/\/127\.0\.0\.1:1\//)
})

test('h2load against a closed port (exit 0, nothing done) is a zero-requests error', async (t) => {
  if (!needTool(t, 'h2load')) return
  const err = await benchmarkers.run('h2load', opts('h2load', { protocol: 'h2' })).catch((e) => e)
  t.equal(err.code, 'BENCHRIG_ERR_NO_REQUESTS')
  t.match(err.message, /^h2load: no request completed/)
})

test('unparseable output is shown; an overrunning tool is killed', async (t) => {
  // A registered tool of our own, run for real (node -e).
  benchmarkers.register({
    name: 'talker',
    protocols: ['http/1.1'],
    minDuration: 0,
    executable: () => process.execPath,
    detect: () => ({ present: true, version: '1.0' }),
    args: (o) => ['-e', o.path === '/hang' ? 'setTimeout(() => {}, 60000)' : 'console.log("this is no result")'],
    parse: () => undefined
  })
  t.teardown(() => { delete benchmarkers.ADAPTERS.talker })
  const bad = await benchmarkers.run('talker', opts('talker')).catch((e) => e)
  t.equal(bad.code, 'BENCHRIG_ERR_BENCHMARKER_OUTPUT')
  t.match(bad.message, /could not read the output of talker 1\.0/)
  t.match(bad.message, /this is no result/)

  const slow = await benchmarkers.run('talker', { ...opts('talker', { path: '/hang' }), duration: 0.1, graceMs: 200 }).catch((e) => e)
  t.equal(slow.code, 'BENCHRIG_ERR_BENCHMARKER_TIMEOUT')
  t.match(slow.message, /talker did not finish within 300 ms and was killed/)

  t.throws(() => benchmarkers.register({ name: 'half' }), /missing: executable, detect, args, parse/)
})

test('cpuset_client runs the generator under taskset', async (t) => {
  if (!needTool(t, 'taskset')) return
  const server = http.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const o = normalizeOptions({ port: server.address().port, connections: 2, duration: 0.2 }, { benchmarker: 'autocannon', cpuset_client: '0' })
  const r = await benchmarkers.run('autocannon', o)
  t.equal(r.command[0], 'taskset')
  t.same(r.command.slice(1, 3), ['-c', '0'])
  t.ok(r.requests > 0)
})
