'use strict'
// pipelining=N really pipelines: a raw net server counts how many complete
// requests arrive in one read and answers each with fixed bytes. With
// pipelining 4 some read must carry more than one request; with 1, none.
const { test } = require('tap')
const net = require('node:net')
const benchmarkers = require('../../_http-benchmarkers.js')
const { normalizeOptions } = require('../../lib/harness/bench-http.js')
const { needTool } = require('../helpers/tools.js')

const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')

async function rawServer (t) {
  const stats = { maxPerRead: 0, requests: 0 }
  const server = net.createServer((socket) => {
    let pending = ''
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1')
      let n = 0
      let at
      // GET requests without bodies: each ends at the blank line.
      while ((at = pending.indexOf('\r\n\r\n')) >= 0) {
        pending = pending.slice(at + 4)
        n++
      }
      stats.requests += n
      if (n > stats.maxPerRead) stats.maxPerRead = n
      if (n > 0) socket.write(Buffer.concat(Array(n).fill(RESPONSE)))
    })
    socket.on('error', () => {})
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  return { port: server.address().port, stats, server }
}

async function check (t, name) {
  for (const pipelining of [1, 4]) {
    const { port, stats, server } = await rawServer(t)
    const r = await benchmarkers.run(name, normalizeOptions({ port, connections: 1, pipelining, duration: 0.3 }, { benchmarker: name }))
    server.close()
    t.ok(r.requests > 0, `${name} pipelining=${pipelining}: requests completed`)
    t.ok(stats.requests >= r.requests, 'the server saw at least what the tool counted')
    if (pipelining === 1) t.equal(stats.maxPerRead, 1, 'one request per read without pipelining')
    else t.ok(stats.maxPerRead > 1, `several requests in one read (max ${stats.maxPerRead})`)
  }
}

test('wrk pipelines through its generated script', async (t) => {
  if (!needTool(t, 'wrk')) return
  await check(t, 'wrk')
})

test('autocannon -p', async (t) => {
  await check(t, 'autocannon')
})

test('builtin -p', async (t) => {
  if (!benchmarkers.detect('builtin').present) {
    t.skip('the built-in engine is not in this tree yet')
    return
  }
  await check(t, 'builtin')
})
