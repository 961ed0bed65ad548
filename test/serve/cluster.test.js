'use strict'
// --cluster N: N worker processes answer on one port, and all of them stop.
const t = require('tap')
const cluster = require('node:cluster')
const { serve } = require('../../lib/serve/index.js')
const { request, h2request, h2connect, startCli, alive } = require('../helpers/serve.js')

/** New connections until `want` distinct pids answered (bounded). */
async function pidsSeen (url, want, max = 60) {
  const pids = new Set()
  for (let i = 0; i < max && pids.size < want; i++) {
    const r = await request(url + '/pid') // agent: false, a new connection each time
    if (r.status < 200 || r.status > 299) throw new Error(`status ${r.status}`)
    if (r.headers['x-benchrig-pid'] !== r.body.toString().trim()) throw new Error('x-benchrig-pid differs from /pid')
    pids.add(Number(r.headers['x-benchrig-pid']))
  }
  return pids
}

t.test('CLI --cluster 2: two worker processes answer on one port; SIGTERM stops them all, exit 0', async (t) => {
  const srv = await startCli(t, ['--cluster', '2'])
  const pids = await pidsSeen(srv.url, 2)
  t.equal(pids.size, 2, 'two different processes answered')
  t.notOk(pids.has(srv.child.pid), 'the primary does not serve')
  srv.child.kill('SIGTERM')
  t.same(await srv.exited, { code: 0, signal: null })
  for (const pid of pids) t.notOk(alive(pid), `worker ${pid} is gone`)
  t.match(srv.stderr(), /2 worker processes \(pids \d+ \d+\)/)
})

t.test('CLI --cluster 2: a worker that dies is reported and the other goes on serving', async (t) => {
  const srv = await startCli(t, ['--cluster', '2'])
  const pids = [...await pidsSeen(srv.url, 2)]
  process.kill(pids[0], 'SIGKILL')
  const start = Date.now()
  while (!/exited/.test(srv.stderr()) && Date.now() - start < 10000) await new Promise((resolve) => setTimeout(resolve, 20))
  t.match(srv.stderr(), new RegExp(`benchrig serve: worker ${pids[0]} exited \\(SIGKILL\\); 1 left`))
  for (let i = 0; i < 3; i++) {
    const r = await request(srv.url + '/pid')
    t.equal(r.body.toString(), `${pids[1]}\n`, 'the live worker answers')
  }
  srv.child.kill('SIGTERM')
  t.same(await srv.exited, { code: 0, signal: null })
  t.notOk(alive(pids[1]), 'the other worker is gone too')
})

t.test('CLI --cluster 2: Ctrl+C (SIGINT to the whole process group) exits 0', async (t) => {
  const srv = await startCli(t, ['--cluster', '2', '--h2c'], { detached: true })
  const pids = await pidsSeen(srv.url, 2)
  t.equal(pids.size, 2)
  process.kill(-srv.child.pid, 'SIGINT')
  t.same(await srv.exited, { code: 0, signal: null })
  for (const pid of pids) t.notOk(alive(pid), `worker ${pid} is gone`)
  t.notMatch(srv.stderr(), /exited \(/, 'no worker died on its own')
})

t.test('serve({cluster: 2}) in-process: pids, h2c and HTTP/1.1 from the workers, close()', async (t) => {
  const s = await serve({ cluster: 2, h2c: true, status: 201 })
  t.teardown(() => s.close())
  t.equal(s.pids.length, 2)
  t.notOk(s.pids.includes(process.pid))
  const seen = await pidsSeen(s.url, 2)
  t.same([...seen].sort(), [...s.pids].sort(), 'the workers of pids answered')
  const session = h2connect(t, s.url)
  const r = await h2request(session, '/bytes/100')
  t.equal(r.status, 201, 'workers got the options')
  t.ok(s.pids.includes(Number(r.headers['x-benchrig-pid'])))
  session.close()
  await s.close()
  for (const pid of s.pids) t.notOk(alive(pid), `worker ${pid} is gone`)
  await t.rejects(request(s.url + '/'), { code: 'ECONNREFUSED' })
})

t.test('a cluster worker that cannot listen: the error reaches the caller, no worker is left', async (t) => {
  const first = await serve()
  t.teardown(() => first.close())
  const logs = []
  await t.rejects(serve({ cluster: 2, port: first.port }, { log: (l) => logs.push(l) }), {
    name: 'UsageError',
    message: new RegExp(`^--port ${first.port}: .* is already in use`)
  })
  t.same(logs, [], 'stopping after a failed start is not reported as a worker death')
  t.same(Object.keys(cluster.workers), [], 'every forked worker has exited')
})
