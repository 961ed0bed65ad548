'use strict'
// The recording chain (lib/engine/measure/recorder.js): with every combination
// of -x, --interval, --reqlog, -R, hooks and --h2, the summary, the interval
// rows, the uncorrected histogram, the request log and the hooks count the same
// responses. The server answers every other request with a 500, so a stage
// that sees the responses -x leaves out (or misses ones it keeps) shows.
const { test } = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const http2 = require('node:http2')
const { load } = require('../../lib/engine/index.js')

function alternate (req, res) {
  const n = alternate.n = (alternate.n ?? 0) + 1
  res.statusCode = n % 2 === 0 ? 500 : 200
  res.end(n % 2 === 0 ? 'failed' : 'ok')
}

async function listen (t, server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { server.close(resolve); server.closeAllConnections?.() }))
  return `http://127.0.0.1:${server.address().port}/`
}

const AMOUNT = 40

test('every combination of -x, --interval, --reqlog, -R, hooks and --h2 counts the same responses', async (t) => {
  const h1 = await listen(t, http.createServer(alternate))
  const h2sessions = new Set()
  const h2s = http2.createServer()
  h2s.on('session', (s) => { h2sessions.add(s); s.on('close', () => h2sessions.delete(s)) })
  h2s.on('stream', (stream) => {
    const n = alternate.n = (alternate.n ?? 0) + 1
    stream.respond({ ':status': n % 2 === 0 ? 500 : 200 })
    stream.end(n % 2 === 0 ? 'failed' : 'ok')
  })
  await new Promise((resolve) => h2s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { for (const s of h2sessions) s.destroy(); return new Promise((resolve) => h2s.close(resolve)) })
  const h2 = `http://127.0.0.1:${h2s.address().port}/`
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-recorder-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))

  for (let mask = 0; mask < 64; mask++) {
    const x = (mask & 1) !== 0
    const interval = (mask & 2) !== 0
    const reqlog = (mask & 4) !== 0
    const rate = (mask & 8) !== 0
    const hooks = (mask & 16) !== 0
    const useH2 = (mask & 32) !== 0
    const name = [x && '-x', interval && '--interval', reqlog && '--reqlog', rate && '-R', hooks && 'hooks', useH2 && '--h2']
      .filter(Boolean).join(' ') || 'none'
    let hookResponses = 0
    let clientResponses = 0
    const file = path.join(dir, `log-${mask}.txt`)
    const opts = { url: useH2 ? h2 : h1, connections: 2, amount: AMOUNT, timeout: 10 }
    if (useH2) Object.assign(opts, { h2: true, maxStreams: 2 })
    if (x) opts.excludeErrorStats = true
    if (interval) opts.interval = 10
    if (reqlog) opts.reqlog = file
    if (rate) opts.overallRate = 2000
    if (hooks) {
      opts.requests = [{ onResponse: () => { hookResponses++ } }]
      opts.setupClient = (client) => client.on('response', () => { clientResponses++ })
    }
    const r = await load(opts)
    const completed = r['2xx'] + r.non2xx
    t.equal(completed, AMOUNT, `${name}: every request answered`)
    t.ok(r['2xx'] > 0 && r.non2xx > 0, `${name}: both 200s and 500s (${r['2xx']}/${r.non2xx})`)
    const inHistogram = x ? r['2xx'] : completed
    t.equal(r.latency.totalCount, inHistogram, `${name}: the summary's latencies`)
    if (rate) t.equal(r.uncorrectedLatency.totalCount, inHistogram, `${name}: the uncorrected latencies`)
    if (interval) {
      const rows = r.intervals.reduce((a, row) => a + row.count, 0)
      t.equal(rows, inHistogram, `${name}: the interval rows' latencies`)
    }
    if (reqlog) {
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n')
      t.equal(lines.length, completed, `${name}: one request-log line per finished request`)
      t.equal(lines.filter((l) => l.startsWith('500;')).length, r.non2xx, `${name}: the 500s in the request log`)
    }
    if (hooks) {
      t.equal(hookResponses, completed, `${name}: onResponse ran for every response`)
      t.equal(clientResponses, completed, `${name}: the Client's 'response' event for every response`)
    }
  }
})

test('--reqlog in rate mode logs the planned send time, with -C too', async (t) => {
  // one connection, one request at a time, each answered after 30 ms, planned
  // every 5 ms: every request after the first waits behind the one before, so
  // its actual send is late and its planned time is on the plan's 5 ms grid
  const url = await listen(t, http.createServer((req, res) => setTimeout(() => res.end('ok'), 30)))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-reqlog-plan-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  for (const ignoreCoordinatedOmission of [false, true]) {
    const file = path.join(dir, `log-${ignoreCoordinatedOmission}.txt`)
    const r = await load({ url, connections: 1, overallRate: 200, amount: 12, reqlog: file, ignoreCoordinatedOmission, timeout: 10 })
    t.equal(r.requests.total, 12)
    const starts = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => Number(l.split(';')[1])).sort((a, b) => a - b)
    t.equal(starts.length, 12)
    const gaps = starts.slice(2).map((s, i) => s - starts[i + 1])
    // ns, from ms floats: exact to well under a microsecond
    t.ok(gaps.every((g) => Math.abs(g - 5e6) < 1000), `-C ${ignoreCoordinatedOmission}: starts 5 ms apart, as planned (${gaps.map((g) => (g / 1e6).toFixed(3))})`)
  }
})
