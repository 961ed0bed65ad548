'use strict'
// Live runs of the real tools against local servers (127.0.0.1, port 0):
// what each tool sends reaches the server, and what it reports has the
// right shape and counts. Never throughput.
const { test } = require('tap')
const http = require('node:http')
const https = require('node:https')
const http2 = require('node:http2')
const benchmarkers = require('../../_http-benchmarkers.js')
const { normalizeOptions } = require('../../lib/harness/bench-http.js')
const { testCert } = require('../../http/_serve.js')
const { needTool } = require('../helpers/tools.js')

function recorder () {
  const seen = { methods: new Set(), bodies: new Set(), tokens: new Set(), requests: 0 }
  const handler = (req, res) => {
    seen.requests++
    seen.methods.add(req.method)
    seen.tokens.add(req.headers['x-token'])
    let body = ''
    req.on('data', (c) => { body += c })
    req.on('end', () => {
      if (body) seen.bodies.add(body)
      if (req.url === '/missing') {
        res.statusCode = 404
        res.end('no')
      } else {
        res.end('hello')
      }
    })
  }
  return { seen, handler }
}

async function listen (t, server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.close()
    if (server.closeAllConnections) server.closeAllConnections()
  })
  return server.address().port
}

function checkShape (t, r, name) {
  t.equal(r.benchmarker, name)
  t.type(r.version, 'string')
  t.ok(r.requests > 0, 'completed requests')
  t.ok(r.rate > 0, 'a rate')
  t.ok(r.duration > 0, 'a duration')
  for (const k of ['p50', 'p90', 'p99', 'max']) {
    t.ok(r.latency[k] === undefined || (Number.isFinite(r.latency[k]) && r.latency[k] >= 0), `latency.${k}`)
  }
  t.ok(r.latency.max >= 0, 'latency.max known')
}

async function exercise (t, name, { protocol = 'http/1.1', h2 = false } = {}) {
  const body = JSON.stringify({ tool: name, n: 1 })
  const plain = recorder()
  const server = h2 ? http2.createServer(plain.handler) : http.createServer(plain.handler)
  const port = await listen(t, server)
  const base = { port, connections: 2, duration: 0.2, protocol }

  const post = await benchmarkers.run(name, normalizeOptions({ ...base, path: '/echo', method: 'POST', body, headers: { 'x-token': `t-${name}`, 'content-type': 'application/json' } }, { benchmarker: name }))
  checkShape(t, post, name)
  t.same([...plain.seen.methods], ['POST'], 'the method reached the server')
  t.same([...plain.seen.bodies], [body], 'the body reached the server')
  t.same([...plain.seen.tokens], [`t-${name}`], 'the header reached the server')
  t.equal(post.non2xx, 0)
  t.equal(post.errors, 0)

  const missing = await benchmarkers.run(name, normalizeOptions({ ...base, path: '/missing' }, { benchmarker: name }))
  checkShape(t, missing, name)
  t.equal(missing.non2xx, missing.requests, 'every 404 counted as non-2xx')

  if (h2) return
  const tls = recorder()
  const port2 = await listen(t, https.createServer(testCert(), tls.handler))
  const secure = await benchmarkers.run(name, normalizeOptions({ ...base, port: port2, scheme: 'https', path: '/' }, { benchmarker: name }))
  checkShape(t, secure, name)
  t.ok(tls.seen.requests >= secure.requests, 'the https server answered them')
}

test('wrk', async (t) => {
  if (!needTool(t, 'wrk')) return
  await exercise(t, 'wrk')
})

test('autocannon', async (t) => {
  await exercise(t, 'autocannon')
})

test('h2load over h2c', async (t) => {
  if (!needTool(t, 'h2load')) return
  await exercise(t, 'h2load', { protocol: 'h2', h2: true })
})

test('h2load over HTTP/1.1', async (t) => {
  if (!needTool(t, 'h2load')) return
  await exercise(t, 'h2load')
})

test('builtin (benchrig load)', async (t) => {
  if (!benchmarkers.detect('builtin').present) {
    const reason = 'the built-in engine (lib/engine, lib/cli/load.js) is not in this tree yet'
    if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail(reason)
    else t.skip(reason)
    return
  }
  await exercise(t, 'builtin')
})
