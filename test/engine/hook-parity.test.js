'use strict'
// autocannon parity of the hooks (issue 14, defect 9): `resets` counts the
// sequence restarts a falsy setupRequest asks for (not reconnects); a hook that
// returns a Promise stops the run with a message saying so (instead of putting
// `UNDEFINED undefined` on the wire); a throwing verifyBody is named as such.
// Each over HTTP/1.1 and HTTP/2.
const { test } = require('tap')
const http = require('node:http')
const http2 = require('node:http2')
const { load } = require('../../lib/engine/index.js')

async function servers (t) {
  const seen = []
  const h1 = http.createServer((req, res) => { seen.push(`${req.method} ${req.url}`); res.end('ok') })
  await new Promise((resolve) => h1.listen(0, '127.0.0.1', resolve))
  const sessions = new Set()
  const h2 = http2.createServer()
  h2.on('session', (s) => { sessions.add(s); s.on('close', () => sessions.delete(s)) })
  h2.on('stream', (stream, headers) => {
    seen.push(`${headers[':method']} ${headers[':path']}`)
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  await new Promise((resolve) => h2.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const s of sessions) s.destroy()
    h1.closeAllConnections?.()
    return Promise.all([new Promise((resolve) => h1.close(resolve)), new Promise((resolve) => h2.close(resolve))])
  })
  return {
    seen,
    h1: { url: `http://127.0.0.1:${h1.address().port}/` },
    h2: { url: `http://127.0.0.1:${h2.address().port}/`, h2: true, maxStreams: 1 }
  }
}

for (const proto of ['h1', 'h2']) {
  test(`${proto}: resets counts the sequence restarts of a falsy setupRequest`, async (t) => {
    const s = await servers(t)
    let calls = 0
    let restarts = 0
    const r = await load({
      ...s[proto],
      connections: 1,
      amount: 30,
      requests: [
        { path: '/a' },
        // every third call sends the sequence back to /a
        { path: '/b', setupRequest: (req) => { if (++calls % 3 === 0) { restarts++; return null } return req } }
      ]
    })
    t.equal(r.requests.total, 30)
    t.ok(restarts > 0, `${restarts} restarts asked for`)
    t.equal(r.resets, restarts, 'resets = the restarts setupRequest asked for')
    t.equal(r.reconnects, 0, 'and no reconnects')
  })

  test(`${proto}: a static run has no resets`, async (t) => {
    const s = await servers(t)
    const r = await load({ ...s[proto], connections: 2, amount: 20 })
    t.equal(r.requests.total, 20)
    t.equal(r.resets, 0)
  })

  test(`${proto}: an async setupRequest is refused with a message, nothing odd sent`, async (t) => {
    const s = await servers(t)
    const err = await load({
      ...s[proto],
      connections: 1,
      duration: 5,
      requests: [{ path: '/a', setupRequest: async (req) => req }]
    }).then(() => null, (e) => e)
    t.ok(err instanceof Error, 'the run rejects')
    t.equal(err?.code, 'BENCHRIG_ERR_HOOK')
    t.match(err?.message, /setupRequest returned a Promise: hooks run synchronously/)
    t.notOk(s.seen.some((l) => /undefined/i.test(l)), `no request built from a Promise: ${s.seen.slice(0, 3)}`)
  })

  test(`${proto}: an async onResponse is refused with a message`, async (t) => {
    const s = await servers(t)
    const err = await load({
      ...s[proto],
      connections: 1,
      duration: 5,
      requests: [{ path: '/a', onResponse: async () => {} }]
    }).then(() => null, (e) => e)
    t.equal(err?.code, 'BENCHRIG_ERR_HOOK')
    t.match(err?.message, /onResponse returned a Promise: hooks run synchronously/)
  })

  test(`${proto}: a throwing verifyBody is reported as verifyBody, with or without sequences`, async (t) => {
    const s = await servers(t)
    const verifyBody = () => { throw new Error('bad body') }
    for (const requests of [undefined, [{ path: '/a', onResponse: () => {} }]]) {
      const err = await load({ ...s[proto], connections: 1, duration: 5, verifyBody, requests }).then(() => null, (e) => e)
      t.equal(err?.code, 'BENCHRIG_ERR_HOOK')
      t.match(err?.message, /verifyBody threw: bad body/, requests ? 'with a sequence' : 'alone')
    }
  })
}
