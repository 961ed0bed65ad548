'use strict'
// The engine against a real nginx (our bench config): pipelined, exact
// amounts, every refill mode, bodies compared.
const t = require('tap')
const { needTool } = require('../helpers/tools.js')
const { startNginx } = require('../../bench/lib/nginx.js')
const { load } = require('../../lib/engine/index.js')

t.test('nginx: exact amounts, pipelined, every refill mode', async (t) => {
  if (!needTool(t, 'nginx')) return
  const nginx = await startNginx({ body: 'from nginx' })
  t.teardown(() => nginx.stop())
  for (const refill of ['window', 'half', 'batch']) {
    const r = await load({ url: nginx.url, connections: 4, pipelining: 10, refill, amount: 2000, expectBody: 'from nginx' })
    t.equal(r.requests.total, 2000, refill)
    t.equal(r.requests.sent, 2000)
    t.equal(r.errors, 0)
    t.equal(r.mismatches, 0)
    t.same(r.statusCodeStats, { 200: { count: 2000 } })
  }
  const head = await load({ url: nginx.url, method: 'HEAD', connections: 2, pipelining: 5, amount: 100 })
  t.equal(head.requests.total, 100)
  t.equal(head.errors, 0)
  const post = await load({ url: nginx.url + 'x', method: 'POST', body: 'abc', connections: 1, pipelining: 4, amount: 20 })
  t.equal(post.requests.total, 20)
  t.equal(post.errors, 0, 'pipelined requests with bodies are framed right for nginx')
  t.same(post.statusCodeStats, { 200: { count: 20 } })
})

t.test('bench/node-floor-client.js: counts whole batches of nginx responses', async (t) => {
  if (!needTool(t, 'nginx')) return
  const { execFile } = require('node:child_process')
  const path = require('node:path')
  const nginx = await startNginx()
  t.teardown(() => nginx.stop())
  const floor = path.join(__dirname, '..', '..', 'bench', 'node-floor-client.js')
  const out = await new Promise((resolve, reject) => {
    execFile(process.execPath, [floor, nginx.url, '-c', '2', '-d', '0.5', '-p', '3'], { timeout: 20000 }, (err, stdout) => err ? reject(err) : resolve(stdout))
  })
  const total = JSON.parse(out).requests.total
  t.ok(total > 0, `${total} responses`)
  t.equal(total % 3, 0, 'responses are counted by whole batches of -p')
})
