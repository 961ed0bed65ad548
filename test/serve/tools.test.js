'use strict'
// benchrig serve as the target of real load generators: benchrig load (the
// quick start of docs/serve.md), h2load over h2c and HTTP/1.1, wrk,
// autocannon. /stats tells how many requests the server itself answered.
const t = require('tap')
const path = require('node:path')
const { needTool } = require('../helpers/tools.js')
const { request, startCli, BIN } = require('../helpers/serve.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

function run (cmd, args, timeout = 30000) {
  return spawnOutput(cmd, args, { timeout })
}

async function served (url) {
  return JSON.parse((await request(url + '/stats')).body).requests
}

t.test('serve --h2c as a real process, hit by real load generators', async (t) => {
  const srv = await startCli(t, ['--h2c'])
  t.teardown(() => srv.child.kill('SIGTERM'))

  t.test('benchrig load -a 400: every request answered, counted on both sides', async (t) => {
    const before = await served(srv.url)
    const r = await run(process.execPath, [BIN, 'load', '-a', '400', '-c', '4', '-p', '4', '-j', `${srv.url}/?status=503`])
    t.equal(r.code, 0, r.stderr)
    const result = JSON.parse(r.stdout)
    t.equal(result.requests.total, 400)
    t.equal(result.non2xx, 400, 'the query status is what the engine counted')
    t.equal(result.errors, 0)
    t.equal(await served(srv.url) - before, 400, 'the server answered exactly 400')
  })

  t.test('h2load over h2c: exact count, all 2xx', async (t) => {
    if (!needTool(t, 'h2load')) return
    const before = await served(srv.url)
    const r = await run('h2load', ['-n', '1000', '-c', '2', '-m', '10', `${srv.url}/bytes/100`])
    t.equal(r.code, 0, r.stderr)
    t.match(r.stdout, /requests: 1000 total, 1000 started, 1000 done, 1000 succeeded, 0 failed/)
    t.match(r.stdout, /status codes: 1000 2xx/)
    t.match(r.stdout, /application protocol: h2c/i)
    t.equal(await served(srv.url) - before, 1000)
  })

  t.test('h2load --h1 on the same port', async (t) => {
    if (!needTool(t, 'h2load')) return
    const before = await served(srv.url)
    const r = await run('h2load', ['--h1', '-n', '300', '-c', '3', `${srv.url}/`])
    t.equal(r.code, 0, r.stderr)
    t.match(r.stdout, /requests: 300 total, 300 started, 300 done, 300 succeeded, 0 failed/)
    t.match(r.stdout, /application protocol: http\/1\.1/i)
    t.equal(await served(srv.url) - before, 300)
  })

  t.test('wrk for one second', async (t) => {
    if (!needTool(t, 'wrk')) return
    const before = await served(srv.url)
    const r = await run('wrk', ['-t', '1', '-c', '4', '-d', '1', `${srv.url}/bytes/1k?chunked=1`])
    t.equal(r.code, 0, r.stderr)
    const m = /(\d+) requests in/.exec(r.stdout)
    t.ok(m && Number(m[1]) > 0, 'wrk completed requests')
    t.notMatch(r.stdout, /Socket errors|Non-2xx/)
    t.ok(await served(srv.url) - before >= Number(m[1]), 'the server answered at least what wrk counted')
  })

  t.test('autocannon -a 200', async (t) => {
    const bin = path.join(__dirname, '..', '..', 'node_modules', 'autocannon', 'autocannon.js')
    const r = await run(process.execPath, [bin, '-a', '200', '-c', '2', '-j', `${srv.url}/?delay=1-3`])
    t.equal(r.code, 0, r.stderr)
    const result = JSON.parse(r.stdout)
    t.ok(result['2xx'] >= 200, `${result['2xx']} 2xx`)
    t.equal(result.errors, 0)
    t.equal(result.non2xx, 0)
  })
})
