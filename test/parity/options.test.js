'use strict'
// Every option of autocannon's README (autocannon(opts), track's, printResult's
// and aggregateResult's), one row each: the same options on the real
// autocannon and on benchrig's drop-in, each against its own server on
// 127.0.0.1, and the row's check applied to each side: what the server saw
// and what the result says. Rows run a few requests (`amount`) and sample
// every 50 ms, so each side ends within ~50 ms of its last response.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { spawnSync } = require('node:child_process')
const { SIDES, FAST, both, sink, shape } = require('./_side-by-side.js')

const HOOK = path.join(__dirname, '..', 'fixtures', 'hooks', 'set-header.js')
const base = (srv) => ({ url: `${srv.url}/`, connections: 1, amount: 4, ...FAST })
const urls = (srv) => srv.seen.map((q) => q.url)
const count = (list) => list.reduce((m, k) => ({ ...m, [k]: (m[k] ?? 0) + 1 }), {})

/**
 * Each row: the options (from the side's server), and check(t, name, result, srv).
 * `run` replaces the plain `lib(opts)` where the option needs more.
 * @type {{option: string, opts?: (srv: any) => object, run?: (lib: any, srv: any) => Promise<any>, check: (t: any, name: string, r: any, srv: any) => void, tls?: boolean}[]}
 */
const ROWS = [
  { option: 'url (one)', opts: (srv) => ({ url: `${srv.url}/one?q=1` }), check: (t, n, r, srv) => t.same(urls(srv), ['/one?q=1', '/one?q=1', '/one?q=1', '/one?q=1'], n) },
  {
    option: 'url (several)',
    opts: (srv) => ({ url: [`${srv.url}/a`, `${srv.url}/b`], connections: 2 }),
    check: (t, n, r, srv) => t.same(count(urls(srv)), { '/a': 2, '/b': 2 }, `${n}: each URL as often`)
  },
  { option: 'connections', opts: () => ({ connections: 3, amount: 6 }), check: (t, n, r, srv) => { t.equal(new Set(srv.seen.map((q) => q.remotePort)).size, 3, `${n}: 3 connections`); t.equal(r.connections, 3) } },
  {
    option: 'duration',
    opts: () => ({ amount: undefined, duration: 0.6 }),
    // requests sent, not answered: on a loaded machine a short run may end before an answer
    check: (t, n, r) => { t.ok(r.duration >= 0.55 && r.duration < 5, `${n}: ran ${r.duration} s`); t.ok(r.requests.sent > 0, `${n}: requests sent`) }
  },
  { option: 'amount', opts: () => ({ amount: 7 }), check: (t, n, r, srv) => { t.equal(srv.seen.length, 7, n); t.equal(r.requests.total, 7, n) } },
  { option: 'sampleInt', opts: () => ({ sampleInt: 50 }), check: (t, n, r) => t.equal(r.sampleInt, 50, n) },
  {
    option: 'timeout',
    opts: (srv) => ({ url: `${srv.url}/never`, amount: undefined, duration: 2, timeout: 1 }),
    check: (t, n, r) => { t.ok(r.timeouts >= 1, `${n}: timeouts ${r.timeouts}`); t.ok(r.errors >= r.timeouts, `${n}: counted as errors`) }
  },
  { option: 'pipelining', opts: () => ({ pipelining: 2, amount: 6 }), check: (t, n, r, srv) => { t.equal(r.pipelining, 2, n); t.ok(srv.seen.length >= 6, `${n}: ${srv.seen.length} requests`) } },
  {
    option: 'bailout',
    opts: (srv) => ({ url: `${srv.url}/never`, amount: undefined, duration: 10, timeout: 1, bailout: 1 }),
    check: (t, n, r) => { t.ok(r.errors >= 1, `${n}: ${r.errors} errors`); t.ok(r.duration < 5, `${n}: stopped after the first (${r.duration} s)`) }
  },
  {
    option: 'url that nothing listens on',
    run: (lib) => lib({ url: 'http://127.0.0.1:1/', connections: 1, duration: 0.3, ...FAST }).then((r) => ({ r }), (err) => ({ err })),
    // by design (docs/load.md): benchrig rejects a run in which no connection
    // ever succeeded, autocannon resolves with the errors counted
    check: (t, n, { r, err }) => (n === 'autocannon'
      ? t.ok(r.errors >= 1 && r.requests.total === 0, `${n}: resolves, ${r.errors} errors`)
      : t.match(err, { code: 'BENCHRIG_ERR_UNREACHABLE', message: /cannot connect to 127\.0\.0\.1:1/ }, `${n}: rejects, naming the target`))
  },
  { option: 'method', opts: () => ({ method: 'DELETE' }), check: (t, n, r, srv) => t.ok(srv.seen.every((q) => q.method === 'DELETE'), n) },
  { option: 'title', opts: () => ({ title: 'a title' }), check: (t, n, r) => t.equal(r.title, 'a title', n) },
  {
    option: 'body',
    opts: (srv) => ({ url: `${srv.url}/echo`, method: 'POST', body: 'the body' }),
    check: (t, n, r, srv) => t.ok(srv.seen.every((q) => q.body === 'the body' && q.headers['content-length'] === '8'), n)
  },
  {
    option: 'body (Buffer)',
    opts: (srv) => ({ url: `${srv.url}/echo`, method: 'PUT', body: Buffer.from('buf') }),
    check: (t, n, r, srv) => t.ok(srv.seen.every((q) => q.body === 'buf'), n)
  },
  {
    option: 'form',
    opts: (srv) => ({ url: `${srv.url}/echo`, form: { field: { type: 'text', value: 'v1' } } }),
    check: (t, n, r, srv) => {
      const q = srv.seen[0]
      t.equal(q.method, 'POST', `${n}: POST`)
      t.match(q.headers['content-type'], /^multipart\/form-data; boundary=/, n)
      t.match(q.body, /name="field"\r\n\r\nv1\r\n/, n)
    }
  },
  { option: 'headers', opts: () => ({ headers: { 'x-a': '1', 'x-b': 'two' } }), check: (t, n, r, srv) => t.ok(srv.seen.every((q) => q.headers['x-a'] === '1' && q.headers['x-b'] === 'two'), n) },
  {
    option: 'initialContext',
    opts: () => ({ initialContext: { n: 5 }, requests: [{ setupRequest: (req, ctx) => ({ ...req, path: `/c${ctx.n++}` }) }] }),
    // the context starts again from initialContext with each loop of the sequence
    check: (t, n, r, srv) => t.same(urls(srv), ['/c5', '/c5', '/c5', '/c5'], n)
  },
  { option: 'setupClient', opts: () => ({ setupClient: (client) => client.setHeaders({ 'x-client': 'yes' }) }), check: (t, n, r, srv) => t.ok(srv.seen.every((q) => q.headers['x-client'] === 'yes'), n) },
  { option: 'verifyBody', opts: () => ({ verifyBody: (body) => body === 'nope' }), check: (t, n, r) => t.equal(r.mismatches, 4, n) },
  {
    option: 'maxConnectionRequests',
    opts: () => ({ amount: undefined, duration: 10, connections: 2, maxConnectionRequests: 3 }),
    check: (t, n, r, srv) => { t.equal(srv.seen.length, 6, `${n}: 3 per connection`); t.ok(r.duration < 5, n) }
  },
  {
    option: 'maxOverallRequests',
    opts: () => ({ amount: undefined, duration: 10, connections: 1, maxOverallRequests: 5 }),
    check: (t, n, r, srv) => { t.equal(srv.seen.length, 5, n); t.ok(r.duration < 5, n) }
  },
  { option: 'connectionRate', opts: () => ({ connectionRate: 200, amount: 5 }), check: (t, n, r, srv) => { t.equal(srv.seen.length, 5, n); t.equal(r.requests.total, 5, n) } },
  { option: 'overallRate', opts: () => ({ overallRate: 200, amount: 5 }), check: (t, n, r, srv) => { t.equal(srv.seen.length, 5, n); t.equal(r.requests.total, 5, n) } },
  { option: 'ignoreCoordinatedOmission', opts: () => ({ overallRate: 200, amount: 5, ignoreCoordinatedOmission: true }), check: (t, n, r) => t.equal(r.requests.total, 5, n) },
  {
    option: 'ignoreCoordinatedOmission without a rate',
    run: (lib, srv) => lib({ ...base(srv), ignoreCoordinatedOmission: true }).then(() => null, (e) => e),
    check: (t, n, err, srv) => { t.ok(err instanceof Error, `${n}: refused`); t.match(err?.message, /rate/i, n); t.equal(srv.seen.length, 0, `${n}: nothing sent`) }
  },
  { option: 'reconnectRate', opts: () => ({ reconnectRate: 2, amount: 6 }), check: (t, n, r, srv) => t.ok(new Set(srv.seen.map((q) => q.remotePort)).size >= 2, `${n}: the connection was renewed`) },
  {
    option: 'requests (body, headers, method, path)',
    opts: (srv) => ({ url: `${srv.url}/echo`, requests: [{ method: 'POST', path: '/echo/a', body: 'x', headers: { 'x-r': '1' } }, { path: '/echo/b' }] }),
    check: (t, n, r, srv) => {
      t.same(srv.seen.map((q) => `${q.method} ${q.url} ${q.body}`), ['POST /echo/a x', 'GET /echo/b ', 'POST /echo/a x', 'GET /echo/b '], n)
      t.equal(srv.seen[0].headers['x-r'], '1', n)
    }
  },
  {
    option: 'requests: setupRequest (falsy restarts the sequence) and onResponse',
    run: async (lib, srv) => {
      const got = []
      let calls = 0
      const r = await lib({
        ...base(srv),
        amount: 6,
        requests: [
          { path: '/a', onResponse: (status, body, context, headers) => got.push([status, body, typeof context, typeof headers]) },
          { path: '/b', setupRequest: (req) => (++calls === 2 ? null : req) }
        ]
      })
      return { r, got }
    },
    check: (t, n, { r, got }, srv) => {
      t.ok(r.resets >= 1, `${n}: resets counts the restart (${r.resets})`)
      t.ok(urls(srv).filter((u) => u === '/a').length > urls(srv).filter((u) => u === '/b').length, `${n}: /b skipped once`)
      t.same(got[0], [200, 'hello', 'object', 'object'], `${n}: onResponse(status, body, context, headers)`)
    }
  },
  {
    option: 'har',
    opts: (srv) => ({ har: { log: { entries: [{ request: { method: 'POST', url: `${srv.url}/echo/h`, headers: [{ name: 'x-h', value: '1' }], postData: { mimeType: 'text/plain', text: 'hb' } } }] } } }),
    check: (t, n, r, srv) => t.ok(srv.seen.every((q) => q.method === 'POST' && q.url === '/echo/h' && q.body === 'hb' && q.headers['x-h'] === '1'), n)
  },
  {
    option: 'idReplacement',
    opts: (srv) => ({ url: `${srv.url}/echo`, method: 'POST', body: 'id=[<id>]', idReplacement: true }),
    check: (t, n, r, srv) => {
      const ids = srv.seen.map((q) => q.body.slice(3))
      t.equal(new Set(ids).size, 4, `${n}: a fresh id each`)
      t.notOk(ids.some((id) => id.includes('[<id>]')), n)
    }
  },
  {
    // a duration, not an amount: autocannon's second round of an amount runs
    // for the (default) duration, its clients' end no longer counted
    option: 'forever',
    run: (lib, srv) => new Promise((resolve) => {
      const rounds = []
      const instance = lib({ ...base(srv), amount: undefined, duration: 0.2, forever: true })
      instance.on('done', (r) => { rounds.push(r.requests.total); if (rounds.length === 2) { instance.stop(); setTimeout(() => resolve(rounds), 200) } })
    }),
    check: (t, n, rounds, srv) => { t.ok(rounds.length >= 2 && rounds.every((x) => x > 0), `${n}: a result per round (${rounds})`); t.ok(srv.seen.length >= rounds[0] + rounds[1], n) }
  },
  { option: 'excludeErrorStats', opts: (srv) => ({ url: [`${srv.url}/`, `${srv.url}/404`], connections: 2, excludeErrorStats: true }), check: (t, n, r) => { t.equal(r.non2xx, 2, n); t.equal(r.latency.totalCount, 2, `${n}: only the 2xx latencies`) } },
  { option: 'expectBody', opts: () => ({ expectBody: 'nope' }), check: (t, n, r) => t.equal(r.mismatches, 4, n) },
  {
    option: 'skipAggregateResult (then aggregateResult)',
    run: async (lib, srv) => {
      const a = await lib({ ...base(srv), skipAggregateResult: true })
      const b = await lib({ ...base(srv), amount: 6, skipAggregateResult: true })
      return lib.aggregateResult([a, b], { url: srv.url, title: 'agg', connections: 1 })
    },
    check: (t, n, agg) => { t.equal(agg.requests.total, 10, n); t.equal(agg.latency.totalCount, 10, n); t.equal(agg.title, 'agg', n) }
  },
  {
    option: 'socketPath',
    run: async (lib, srv) => {
      const sock = path.join(os.tmpdir(), `benchrig-parity-opt-${process.pid}-${Math.random().toString(36).slice(2)}.sock`)
      const seen = []
      const s = http.createServer((req, res) => { seen.push(req.url); res.end('ok') })
      await new Promise((resolve) => s.listen(sock, resolve))
      try {
        const r = await lib({ ...base(srv), url: 'http://localhost/sock', socketPath: sock })
        return { r, seen }
      } finally {
        s.closeAllConnections()
        await new Promise((resolve) => s.close(resolve))
      }
    },
    check: (t, n, { r, seen }) => { t.same(seen, ['/sock', '/sock', '/sock', '/sock'], n); t.equal(r.requests.total, 4, n) }
  },
  {
    option: 'workers (with a hook module)',
    opts: () => ({ workers: 2, connections: 2, amount: 10, requests: [{ setupRequest: HOOK }] }),
    check: (t, n, r, srv) => { t.ok(r.requests.total >= 10, n); t.ok(srv.seen.every((q) => /^worker-\d+$/.test(q.headers['x-hook'])), `${n}: the module ran in the workers`) }
  },
  { option: 'servername', tls: true, opts: () => ({ servername: 'sni.example' }), check: (t, n, r, srv) => t.ok(srv.seen.every((q) => q.servername === 'sni.example'), n) },
  { option: 'tlsOptions', tls: true, opts: () => ({ tlsOptions: { key: TLS.key, cert: TLS.cert } }), check: (t, n, r, srv) => t.ok(srv.seen.length === 4 && srv.seen.every((q) => q.peer === 'parity'), `${n}: the client certificate was sent`) }
]

/** A self-signed EC certificate (fast to make), for the server and as a client certificate. */
const TLS = (() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-parity-tls-'))
  try {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', 'k.pem', '-out', 'c.pem', '-days', '1', '-subj', '/CN=parity'], { cwd: dir, stdio: 'ignore' })
    if (made.status !== 0) return null
    return { key: fs.readFileSync(path.join(dir, 'k.pem')), cert: fs.readFileSync(path.join(dir, 'c.pem')) }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})()

/**
 * Starts at most n tasks at a time; each call returns its task's promise.
 * The rows run four at a time (the slow ones, workers and timeouts, beside
 * the quick ones), so the file takes about its slowest row, not the sum.
 * @param {number} n
 */
function pool (n) {
  let active = 0
  const queue = []
  const next = () => {
    if (active >= n || queue.length === 0) return
    active++
    const { task, resolve, reject } = queue.shift()
    task().then(resolve, reject).finally(() => { active--; next() })
  }
  return (task) => new Promise((resolve, reject) => { queue.push({ task, resolve, reject }); next() })
}

const limit = pool(4)
const runs = ROWS.map((row) => {
  if (row.tls && TLS === null) return null
  const p = limit(() => both(t, (lib, srv) => (row.run ? row.run(lib, srv) : lib({ ...base(srv), ...row.opts(srv) })), row.tls ? { tls: TLS } : {}))
  p.catch(() => {}) // awaited by the row's test, which reports the failure
  return p
})

ROWS.forEach((row, i) => {
  t.test(row.option, async (t) => {
    if (runs[i] === null) {
      if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail('openssl could not make a certificate; BENCHRIG_REQUIRE_TOOLS=1 requires it')
      else t.skip('openssl could not make a certificate')
      return
    }
    const r = await runs[i]
    for (const [name, { out, srv }] of Object.entries(r)) row.check(t, name, out, srv)
  })
})

t.test('track options: outputStream, renderProgressBar, renderResultsTable, renderLatencyTable, progressBarString', async (t) => {
  const variants = {
    plain: {},
    noBar: { renderProgressBar: false },
    noTable: { renderResultsTable: false },
    latency: { renderLatencyTable: true },
    barString: { progressBarString: 'go [:bar] :percent' }
  }
  const r = await both(t, async (lib, srv) => {
    const out = {}
    for (const [k, v] of Object.entries(variants)) {
      const stream = sink(false)
      const instance = lib({ ...base(srv) })
      lib.track(instance, { outputStream: stream, ...v })
      await instance
      await new Promise((resolve) => setImmediate(resolve))
      out[k] = stream.text
    }
    return out
  })
  for (const [name, { out }] of Object.entries(r)) {
    t.match(out.plain, /^Running 4 requests test @ http:\/\/127\.0\.0\.1:\d+\/\n1 connections\n\n\n┌/, `${name}: "Running" and the tables on outputStream`)
    t.notMatch(out.noBar, /Running/, `${name}: renderProgressBar false: no "Running" lines`)
    t.match(out.noBar, /Latency/, `${name}: but the tables`)
    t.notMatch(out.noTable, /Latency/, `${name}: renderResultsTable false: no tables`)
    t.match(out.noTable, /^Running/, `${name}: but the "Running" lines`)
    t.match(out.latency, /│ Percentile +│ Latency \(ms\) +│/, `${name}: renderLatencyTable: the percentile table`)
    t.notMatch(out.barString, /go \[/, `${name}: progressBarString: no bar on a non-TTY stream`)
  }
  for (const k of Object.keys(variants)) t.same(shape(r.benchrig.out[k]), shape(r.autocannon.out[k]), `${k}: the same text by shape`)
})

t.test('printResult options: outputStream, renderResultsTable, renderLatencyTable', async (t) => {
  const r = await both(t, (lib, srv) => lib(base(srv)))
  for (const [name, lib] of SIDES) {
    const result = r[name].out
    const latency = lib.printResult(result, { renderLatencyTable: true, outputStream: sink(false) })
    t.match(latency, /│ Percentile +│ Latency \(ms\) +│/, `${name}: renderLatencyTable`)
    t.notMatch(lib.printResult(result, { outputStream: sink(false) }), /Percentile/, `${name}: not by default`)
    t.notMatch(lib.printResult(result, { outputStream: sink(false) }), /\x1b\[/, `${name}: outputStream not a TTY: no colour`) // eslint-disable-line no-control-regex
  }
  t.same(shape(SIDES[1][1].printResult(r.benchrig.out, { renderLatencyTable: true, outputStream: sink(false) })),
    shape(SIDES[0][1].printResult(r.autocannon.out, { renderLatencyTable: true, outputStream: sink(false) })), 'renderLatencyTable: the same shape')
  // renderResultsTable: false leaves the tables out as autocannon's README says
  // (autocannon's code reads only `verbose`; docs/load.md lists the difference)
  t.notMatch(SIDES[1][1].printResult(r.benchrig.out, { renderResultsTable: false }), /Latency/, 'benchrig: renderResultsTable false: no tables')
  for (const [name, lib] of SIDES) t.notMatch(lib.printResult(r[name].out, { verbose: false }), /Latency/, `${name}: verbose false: no tables`)
})

t.test('aggregateResult options: url, title, socketPath, connections, sampleInt, pipelining, workers', async (t) => {
  const r = await both(t, async (lib, srv) => {
    const one = await lib({ ...base(srv), skipAggregateResult: true })
    return lib.aggregateResult([one], { url: 'http://x/', title: 'T', socketPath: '/s', connections: 7, sampleInt: 50, pipelining: 3, workers: 2 })
  })
  for (const [name, { out }] of Object.entries(r)) {
    t.match(out, { url: 'http://x/', title: 'T', socketPath: '/s', connections: 7, sampleInt: 50, pipelining: 3, workers: 2 }, `${name}: taken from opts`)
    t.equal(out.requests.total, 4, name)
  }
})
