'use strict'
// Every event of autocannon's README (the instance's: start, tick, done,
// response, reqError, error; the Client's API and events: setHeaders, setBody,
// setHeadersAndBody, setRequest, setRequests, headers, body, response, reset),
// one row each, run on the real autocannon and on benchrig's drop-in side by
// side; the row's check applies to each side.
const t = require('tap')
const { FAST, both } = require('./_side-by-side.js')

const base = (srv) => ({ url: `${srv.url}/`, connections: 1, amount: 4, ...FAST })

/** Runs opts, calling on(instance) first; resolves with {result, log} or {err, log}. */
function watch (lib, opts, on) {
  const log = []
  const instance = lib(opts)
  on(instance, log)
  return Promise.resolve(instance).then((result) => ({ result, log }), (err) => ({ err, log }))
}

/** @type {{event: string, run: (lib: any, srv: any) => Promise<any>, check: (t: any, name: string, out: any, srv: any) => void}[]} */
const ROWS = [
  {
    event: 'start, response, done: once each in that order, done with the result',
    run: (lib, srv) => watch(lib, base(srv), (i, log) => {
      i.on('start', () => log.push(['start']))
      i.on('response', () => log.push(['response']))
      i.on('done', (r) => log.push(['done', r.requests.total]))
    }),
    check: (t, n, { result, log }) => {
      t.same(log.map((e) => e[0]).filter((e, k, a) => e !== a[k - 1]), ['start', 'response', 'done'], `${n}: the order`)
      t.equal(log.filter((e) => e[0] === 'done').length, 1, `${n}: one done`)
      t.same(log.at(-1), ['done', result.requests.total], `${n}: done carries the result`)
    }
  },
  {
    event: 'tick: {counter, bytes} each second',
    run: (lib, srv) => watch(lib, { url: srv.url, connections: 1, duration: 1.2 }, (i, log) => i.on('tick', (x) => log.push(x))),
    // what a tick counts depends on the machine's load: only that it is
    // consistent with the result (a loaded machine may answer nothing in a second)
    check: (t, n, { result, log }) => {
      t.ok(log.length >= 1, `${n}: ${log.length} ticks`)
      t.ok(log.every((x) => Number.isInteger(x.counter) && Number.isInteger(x.bytes) && x.counter >= 0), `${n}: counter and bytes`)
      t.ok(log.reduce((a, x) => a + x.counter, 0) <= result.requests.total, `${n}: no more than the result's responses`)
      t.ok(log.every((x) => x.counter > 0 || x.bytes === 0), `${n}: bytes only with responses`)
    }
  },
  {
    event: 'response: (client, statusCode, resBytes, responseTime)',
    run: (lib, srv) => watch(lib, { ...base(srv), url: [`${srv.url}/`, `${srv.url}/404`], connections: 2 }, (i, log) => i.on('response', (...a) => log.push(a))),
    check: (t, n, { log }) => {
      t.equal(log.length, 4, `${n}: per response`)
      t.same(log.map((a) => a[1]).sort(), [200, 200, 404, 404], `${n}: the status codes`)
      t.ok(log.every(([client, , resBytes, responseTime]) => typeof client.setHeaders === 'function' && resBytes > 'hello'.length && responseTime >= 0), `${n}: a Client, the whole response's bytes, a time`)
    }
  },
  {
    event: 'reqError: an Error, on a timeout',
    run: (lib, srv) => watch(lib, { url: `${srv.url}/never`, connections: 1, duration: 2, timeout: 1, ...FAST }, (i, log) => i.on('reqError', (e) => log.push(e))),
    check: (t, n, { result, log }) => {
      t.ok(log.length >= 1 && log.every((e) => e instanceof Error), `${n}: ${log.length} reqError`)
      t.ok(result.timeouts >= 1, n)
    }
  },
  {
    event: 'error: invalid options of a forever instance',
    run: (lib, srv) => new Promise((resolve) => {
      const i = lib({ ...base(srv), connections: 0, forever: true })
      i.on('error', (err) => resolve({ err }))
      setTimeout(() => resolve({}), 3000).unref()
    }),
    check: (t, n, { err }, srv) => { t.ok(err instanceof Error, `${n}: emitted`); t.equal(srv.seen.length, 0, `${n}: nothing sent`) }
  },
  {
    event: 'Client: setBody, setHeadersAndBody',
    run: (lib, srv) => Promise.all([
      lib({ ...base(srv), url: `${srv.url}/echo/1`, method: 'POST', setupClient: (c) => c.setBody('from-setBody') }),
      lib({ ...base(srv), url: `${srv.url}/echo/2`, method: 'POST', setupClient: (c) => c.setHeadersAndBody({ 'x-hb': '1' }, 'from-both') })
    ]),
    check: (t, n, out, srv) => {
      const one = srv.seen.filter((q) => q.url === '/echo/1')
      const two = srv.seen.filter((q) => q.url === '/echo/2')
      t.ok(one.length === 4 && one.every((q) => q.body === 'from-setBody'), `${n}: setBody`)
      t.ok(two.length === 4 && two.every((q) => q.body === 'from-both' && q.headers['x-hb'] === '1'), `${n}: setHeadersAndBody`)
    }
  },
  {
    event: 'Client: setRequest, setRequests',
    run: (lib, srv) => Promise.all([
      lib({ ...base(srv), setupClient: (c) => c.setRequest({ method: 'PUT', path: '/echo/req', headers: { 'x-q': '1' }, body: 'r' }) }),
      lib({ ...base(srv), setupClient: (c) => c.setRequests([{ path: '/echo/s1' }, { method: 'DELETE', path: '/echo/s2' }]) })
    ]),
    check: (t, n, out, srv) => {
      const req = srv.seen.filter((q) => q.url === '/echo/req')
      t.ok(req.length >= 1 && req.every((q) => q.method === 'PUT' && q.body === 'r' && q.headers['x-q'] === '1'), `${n}: setRequest`)
      // by design (docs/load.md): autocannon's iterator goes back to its list
      // after one request; benchrig's setRequest replaces the current request
      t.equal(req.length, n === 'autocannon' ? 1 : 4, `${n}: setRequest holds for ${n === 'autocannon' ? 'the next request' : 'every request'}`)
      t.same(srv.seen.filter((q) => q.url.startsWith('/echo/s')).map((q) => `${q.method} ${q.url}`), ['GET /echo/s1', 'DELETE /echo/s2', 'GET /echo/s1', 'DELETE /echo/s2'], `${n}: setRequests`)
    }
  },
  {
    event: 'Client events: headers, body, response, reset',
    run: async (lib, srv) => {
      const log = { headers: [], body: [], response: [], reset: 0 }
      let calls = 0
      await lib({
        ...base(srv),
        amount: 6,
        requests: [{ path: '/a' }, { path: '/b', setupRequest: (r) => (++calls === 1 ? null : r) }],
        setupClient: (c) => {
          c.on('headers', (h) => log.headers.push(h))
          c.on('body', (b) => log.body.push(b))
          c.on('response', (...a) => log.response.push(a))
          c.on('reset', () => log.reset++)
        }
      })
      return log
    },
    check: (t, n, log) => {
      t.ok(log.headers.length >= 6 && log.headers.every((h) => h !== null && typeof h === 'object'), `${n}: headers, an object per response`)
      t.ok(log.body.length >= 6 && log.body.every((b) => Buffer.isBuffer(b)), `${n}: body, a Buffer`)
      t.ok(log.response.length >= 6 && log.response.every(([s, bytes, time]) => s === 200 && bytes > 0 && time >= 0), `${n}: response(statusCode, resBytes, responseTime)`)
      t.ok(log.reset >= 1, `${n}: reset when setupRequest returned nothing (${log.reset})`)
    }
  }
]

const runs = ROWS.map((row) => {
  const p = both(t, row.run)
  p.catch(() => {}) // awaited by the row's test, which reports the failure
  return p
})

ROWS.forEach((row, i) => {
  t.test(row.event, async (t) => {
    const r = await runs[i]
    for (const [name, { out, srv }] of Object.entries(r)) row.check(t, name, out, srv)
  })
})
