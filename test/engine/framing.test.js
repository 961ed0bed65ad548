'use strict'
// The engine against raw servers that write exact bytes: every framing case
// over real sockets, pipelining order, and Connection: close mid-pipeline.
const t = require('tap')
const { load } = require('../../lib/engine/index.js')
const { rawServer, response, writeBytewise } = require('../helpers/raw-server.js')

async function serve (t, onRequest) {
  const srv = await rawServer(onRequest)
  t.teardown(() => srv.close())
  return srv
}

t.test('responses written byte by byte', async (t) => {
  const srv = await serve(t, (s) => writeBytewise(s, response('split body', 200, 'X-A: b\r\n')))
  const r = await load({ url: srv.url, connections: 1, amount: 3, timeout: 5 })
  t.equal(r.requests.total, 3)
  t.equal(r.errors, 0)
  t.same(r.statusCodeStats, { 200: { count: 3 } })
})

t.test('several responses in one write, answered in order (pipelining)', async (t) => {
  const srv = await serve(t, (s, req) => {
    // hold answers until three requests arrived, then write all at once
    req.conn.queue = (req.conn.queue ?? '') + response(`#${req.n}`, 200 + ((req.n - 1) % 3))
    if (req.n % 3 === 0) {
      s.write(req.conn.queue)
      req.conn.queue = ''
    }
  })
  const run = load({ url: srv.url, connections: 2, pipelining: 3, amount: 12, timeout: 5 })
  const seen = new Map()
  run.on('response', (client, status, resBytes, latencyMs) => {
    const id = client.id
    t.ok(resBytes > 0, 'the response\'s byte length')
    const list = seen.get(id) ?? []
    list.push(status)
    seen.set(id, list)
    t.ok(latencyMs >= 0)
  })
  const r = await run
  t.equal(r.requests.total, 12)
  t.equal(r.requests.sent, 12, 'the amount is exact: nothing extra is sent')
  t.same(r.statusCodeStats, { 200: { count: 4 }, 201: { count: 4 }, 202: { count: 4 } })
  for (const list of seen.values()) {
    t.same(list, [200, 201, 202, 200, 201, 202], 'responses match requests in order')
  }
  t.equal(srv.stats.connections, 2)
})

t.test('chunked bodies with trailers, split across writes', async (t) => {
  const srv = await serve(t, (s) => {
    s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab')
    setTimeout(() => s.write('cd\r\n3;x=y\r\nefg\r\n0\r\nTrailer-A: 1\r\n\r\n'), 5)
  })
  const r = await load({ url: srv.url, connections: 2, amount: 10, expectBody: 'abcdefg' })
  t.equal(r.requests.total, 10)
  t.equal(r.mismatches, 0)
  t.equal(r.errors, 0)
})

t.test('HEAD, 204 and 304 have no body; 1xx is skipped', async (t) => {
  const srv = await serve(t, (s, req) => {
    const i = req.total % 3
    if (i === 0) s.write('HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n')
    else if (i === 1) s.write('HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n')
    else s.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n' + response('ok'))
  })
  const r = await load({ url: srv.url, connections: 1, pipelining: 3, amount: 9 })
  t.equal(r.requests.total, 9)
  t.same(r.statusCodeStats, { 200: { count: 3 }, 204: { count: 3 }, 304: { count: 3 } })
  t.equal(r.informational, 6, 'two interim responses per third request')
  t.equal(r['1xx'], 0, '1xx counts final responses only')
  t.equal(r.non2xx, 3)

  const head = await serve(t, (s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n'))
  const h = await load({ url: head.url, method: 'HEAD', connections: 1, pipelining: 4, amount: 8 })
  t.equal(h.requests.total, 8)
  t.equal(h.errors, 0)
})

t.test('a 1xx with no request in flight is not counted: after the run\'s last response it is ignored, mid-run it is a response without a request', async (t) => {
  // the last answer and an interim response nobody asked for, in one write
  const last = await serve(t, (s, req) => { if (req.n === 2) s.write(response('a') + response('b') + 'HTTP/1.1 100 Continue\r\n\r\n') })
  const r = await load({ url: last.url, connections: 1, pipelining: 2, amount: 2, timeout: 5 })
  t.equal(r.requests.total, 2)
  t.equal(r.informational, 0, 'not one of the run\'s')
  t.equal(r.errors, 0)
  // mid-run (one request at a time): the first answer carries an interim
  // response after it, while nothing is in flight
  const mid = await serve(t, (s, req) => s.write(response('a') + (req.total === 1 ? 'HTTP/1.1 103 Early Hints\r\n\r\n' : '')))
  const m = await load({ url: mid.url, connections: 1, pipelining: 1, amount: 3, timeout: 5 })
  t.equal(m.informational, 0)
  t.equal(m.errorsByKind.parse, 1, 'a response without a request, as a final one would be')
  t.equal(m.requests.total, 3, 'the connection is re-opened and the run goes on')
  t.equal(m.reconnects, 1)
})

t.test('close-delimited bodies: the response ends when the server closes', async (t) => {
  const srv = await serve(t, (s) => {
    s.write('HTTP/1.0 200 OK\r\nServer: raw\r\n\r\nbody until ')
    setTimeout(() => s.end('close'), 5)
  })
  const r = await load({ url: srv.url, connections: 2, amount: 6, expectBody: 'body until close' })
  t.equal(r.requests.total, 6)
  t.equal(r.mismatches, 0)
  t.equal(r.errors, 0)
  t.ok(srv.stats.connections >= 6, 'one connection per response')
})

t.test('Connection: close mid-pipeline: reconnect and re-send what was not answered', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.n === 1) s.write(response('one'))
    else if (req.n === 2) s.end(response('two', 200, 'Connection: close\r\n'))
    // later requests on this connection are never answered
  })
  const r = await load({ url: srv.url, connections: 1, pipelining: 4, amount: 20, timeout: 5 })
  t.equal(r.requests.total, 20)
  t.equal(r.errors, 0)
  t.ok(r.reconnects >= 9, `reconnects: ${r.reconnects}`)
  t.ok(r.resent >= 9, `re-sent: ${r.resent}`)
  t.equal(r.resets, 0, 'resets counts sequence restarts (autocannon), not reconnects')
})

t.test('server closes mid-pipeline without saying so', async (t) => {
  const srv = await serve(t, (s, req) => {
    if (req.n === 1) s.end(response('only one')) // FIN after one of several
  })
  const r = await load({ url: srv.url, connections: 1, pipelining: 3, amount: 5, timeout: 5 })
  t.equal(r.requests.total, 5)
  t.ok(r.resent >= 4)
})

t.test('refill modes: window, half and batch', async (t) => {
  for (const [refill, answeredBeforeFifth] of [['window', 1], ['half', 2], ['batch', 4]]) {
    // answers one response every 20 ms, and notes how many it had written
    // when request 5 arrived
    let written = 0
    let atFifth = -1
    const queue = []
    const srv = await serve(t, (s, req) => {
      if (req.n === 5) atFifth = written
      queue.push(s)
      if (queue.length === 1) drain()
    })
    const drain = () => {
      const s = queue[0]
      setTimeout(() => {
        queue.shift()
        written++
        if (!s.destroyed) s.write(response('x'))
        if (queue.length) drain()
      }, 20)
    }
    const r = await load({ url: srv.url, connections: 1, pipelining: 4, amount: 8, refill })
    t.equal(r.requests.total, 8, refill)
    t.equal(atFifth, answeredBeforeFifth, `${refill}: request 5 is sent after ${answeredBeforeFifth} responses`)
  }
})
