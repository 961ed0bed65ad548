'use strict'
// Traffic shapes and what a run records beside its latency: --connection
// close, -D, -M, -O, the highest number of open connections, warmup,
// --breakout, --interval, --reqlog and --local-address, against a real
// node http server that counts what it sees.
const { test } = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { execFile } = require('node:child_process')
const { load } = require('../../lib/engine/index.js')
const { decode } = require('../../lib/engine/measure/hdr-codec.js')
const { parseLocalAddresses } = require('../../lib/engine/options/shape-options.js')
const { extractWarmup } = require('../../lib/cli/load-shape-flags.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const BIG = Buffer.alloc(1 << 20, 'x')

async function countingServer (t) {
  const seen = { requests: 0, sockets: 0, perSocket: [], remotes: new Set(), openMax: 0, open: 0 }
  const server = http.createServer((req, res) => {
    seen.requests++
    req.socket.served = (req.socket.served ?? 0) + 1
    seen.remotes.add(req.socket.remoteAddress)
    if (req.url === '/big') return res.end(BIG)
    res.end('ok')
  })
  server.on('connection', (s) => {
    seen.sockets++
    if (++seen.open > seen.openMax) seen.openMax = seen.open
    s.on('close', () => { seen.open--; seen.perSocket.push(s.served ?? 0) })
  })
  await new Promise((resolve) => server.listen(0, '0.0.0.0', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  return { url: `http://127.0.0.1:${server.address().port}/`, port: server.address().port, seen }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100))

test('--connection close: a new connection for every request', async (t) => {
  const { url, seen } = await countingServer(t)
  const r = await load({ url, connections: 3, amount: 60, connection: 'close' })
  await settle()
  t.equal(r.requests.total, 60)
  t.equal(seen.requests, 60)
  t.equal(seen.sockets, 60, 'one socket per request')
  t.ok(seen.perSocket.every((n) => n === 1), 'no socket served two requests')
  t.equal(r.errors, 0)
  t.ok(r.plannedReconnects >= 57, `planned reconnects counted (${r.plannedReconnects})`)
  t.throws(() => load({ url, connection: 'close', pipelining: 2 }), /--connection close .* cannot pipeline/)
  t.throws(() => load({ url, connection: 'sometimes' }), /invalid --connection "sometimes"/)
})

test('-D/--reconnect-rate N: each connection reconnects after N requests', async (t) => {
  const { url, seen } = await countingServer(t)
  const r = await load({ url, connections: 2, amount: 100, reconnectRate: 10, pipelining: 3 })
  await settle()
  t.equal(r.requests.total, 100)
  // -a is one budget shared by the two connections, so each may end on a
  // partial socket: sockets of 10, at most one short one per connection
  const sizes = seen.perSocket.slice().sort((a, b) => a - b)
  t.equal(sizes.reduce((a, b) => a + b, 0), 100, `100 requests in sockets ${sizes}`)
  t.ok(sizes.every((n) => n <= 10), 'no socket served more than 10')
  t.ok(sizes.filter((n) => n < 10).length <= 2, 'at most one short socket per connection')
  const one = await countingServer(t)
  const single = await load({ url: one.url, connections: 1, amount: 100, reconnectRate: 10, pipelining: 3 })
  await settle()
  t.equal(single.requests.total, 100)
  t.same(one.seen.perSocket, new Array(10).fill(10), 'one connection: exactly 10 sockets of 10')
})

test('-M/--max-connection-requests: each connection sends M, then the run ends', async (t) => {
  const { url, seen } = await countingServer(t)
  const r = await load({ url, connections: 4, maxConnectionRequests: 25, duration: 30, pipelining: 2 })
  await settle()
  t.equal(r.requests.total, 100, 'c x M requests')
  t.equal(seen.requests, 100)
  t.equal(r.stoppedBy, 'max-connection-requests', 'the run ended when every connection was done, long before -d')
  t.ok(r.duration < 10)
  t.same(seen.perSocket.sort((a, b) => a - b), [25, 25, 25, 25])
})

test('-O/--max-overall-requests: at most O in all, split over workers', async (t) => {
  const { url, seen } = await countingServer(t)
  const r = await load({ url, connections: 4, workers: 2, maxOverallRequests: 301, duration: 30 })
  t.equal(r.requests.total, 301)
  t.equal(seen.requests, 301)
  t.throws(() => load({ url, amount: 5, maxOverallRequests: 5 }), /either -a\/--amount or -O/)
})

test('the highest number of open connections is reported', async (t) => {
  const { url, seen } = await countingServer(t)
  const r = await load({ url, connections: 7, amount: 200 })
  t.equal(r.openConnectionsMax, 7)
  t.equal(seen.openMax, 7)
})

test('-W/--warmup: a run before the measured one, not counted', async (t) => {
  const { url, seen } = await countingServer(t)
  const run = load({ url, connections: 2, amount: 50, warmup: { connections: 1, duration: 0.3 } })
  let warm
  run.on('warmup', (w) => { warm = w })
  const r = await run
  t.same(warm, { connections: 1, duration: 0.3 })
  t.equal(r.requests.total, 50, 'only the measured requests')
  t.ok(seen.requests > 60, `the server saw the warmup too (${seen.requests})`)
  t.throws(() => load({ url, warmup: { connections: 1 } }), /-W\/--warmup: give its duration/)
  t.throws(() => load({ url, warmup: 'soon' }), /invalid -W\/--warmup "soon"/)
})

test('-W [ -c N -d S ]: autocannon\'s sub-argument form', async (t) => {
  t.same(extractWarmup(['-c', '5', '-W', '[', '-c', '1', '-d', '3', ']', 'http://x/']),
    { argv: ['-c', '5', 'http://x/'], warmup: { connections: '1', duration: '3' } })
  t.same(extractWarmup(['-W', '2', 'u']), { argv: ['-W', '2', 'u'], warmup: undefined })
  t.throws(() => extractWarmup(['-W', '[', '-c', '1']), /no closing \]/)
  t.throws(() => extractWarmup(['-W', '[', '-x', '1', ']']), /"-x" is not a warmup option/)
  const { url, seen } = await countingServer(t)
  const out = await new Promise((resolve) => execFile(process.execPath,
    [BIN, 'load', '-j', '-a', '40', '-c', '2', '-W', '[', '-c', '1', '-d', '0.3', ']', url], (err, stdout, stderr) => resolve({ err, stdout, stderr })))
  t.error(out.err)
  t.equal(JSON.parse(out.stdout).requests.total, 40)
  t.match(out.stderr, /warming up: 1 connections for 0.3s/)
  t.ok(seen.requests > 40)
})

test('--breakout: connect, first byte and last byte, each with its histogram row', async (t) => {
  const { url } = await countingServer(t)
  const r = await load({ url: url + 'big', connections: 2, amount: 40, breakout: true })
  t.ok(r.breakout, 'breakout rows')
  const { connect, firstByte, lastByte } = r.breakout
  t.equal(connect.totalCount, 2, 'one connect time per connection')
  t.equal(firstByte.totalCount, 40)
  t.equal(lastByte.totalCount, 40)
  // last byte counts from the first (wrk-cmm's TTLB), so the two add up to the latency
  const sum = firstByte.average + lastByte.average
  t.ok(Math.abs(sum - r.latency.average) <= 0.02 * r.latency.average + 0.05,
    `first byte + first-to-last byte = the latency (${firstByte.average} + ${lastByte.average} vs ${r.latency.average} ms)`)
  t.ok(lastByte.max > 0, `a 1 MiB body takes more than one read (first to last byte up to ${lastByte.max} ms)`)
  const plain = await load({ url, connections: 1, amount: 5 })
  t.equal(plain.breakout, undefined, 'no breakout unless asked')
  t.equal(plain.connectLatency.totalCount, 1, 'connect times are always kept')
})

test('--interval: rows on absolute time, adding up to the run, with histograms', async (t) => {
  const { url } = await countingServer(t)
  const run = load({ url, connections: 4, workers: 2, duration: 1.1, interval: 250 })
  const live = []
  run.on('interval', (row) => live.push(row))
  const r = await run
  t.same(r.intervals, live, 'the JSON holds the rows emitted live')
  t.ok(r.intervals.length >= 4, `${r.intervals.length} rows`)
  const t0 = r.intervals[0].start
  for (const [i, row] of r.intervals.entries()) {
    t.equal(row.start, t0 + i * 250, 'aligned on the interval')
    t.equal(decode(row.histogram).totalCount, row.count, 'the row histogram holds its count')
    t.ok(row.p50 <= row.p75 && row.p75 <= row.p90 && row.p90 <= row.p99)
  }
  const sum = r.intervals.reduce((a, row) => a + row.count, 0)
  t.equal(sum, r.requests.total, 'the rows add up to every response')
  t.throws(() => load({ url, interval: 5 }), /--interval "5": at least 10 ms/)
})

test('--reqlog: one line per request, written off the load threads', async (t) => {
  const { url } = await countingServer(t)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-reqlog-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  for (const workers of [0, 2]) {
    const file = path.join(dir, `log-${workers}.txt`)
    const r = await load({ url, connections: 4, workers, amount: 20000, reqlog: file })
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n')
    t.equal(lines.length, 20000, `workers=${workers}: a line per request`)
    t.same(r.reqlog, { file, rows: 20000 })
    const conns = new Set()
    let ok = true
    for (const line of lines) {
      const [code, start, end, conn] = line.split(';').map(Number)
      if (!(code === 200 && Number.isInteger(start) && end >= start && start >= 0 && end < 60e9)) ok = false
      conns.add(conn)
    }
    t.ok(ok, 'code;start;end;connection with ns since the start')
    t.same([...conns].sort(), [0, 1, 2, 3], 'every connection appears')
  }
  t.throws(() => load({ url, reqlog: path.join(dir, 'missing', 'x.txt') }), /cannot write --reqlog/)
})

test('--local-address: connections take the source addresses in turn', async (t) => {
  const { port, seen } = await countingServer(t)
  const r = await load({ url: `http://127.0.0.1:${port}/`, connections: 6, amount: 60, localAddress: '127.0.0.2-4' })
  t.equal(r.requests.total, 60)
  t.same([...seen.remotes].sort(), ['127.0.0.2', '127.0.0.3', '127.0.0.4'])
  t.same(parseLocalAddresses('127.0.0.0/30'), ['127.0.0.1', '127.0.0.2'])
  t.same(parseLocalAddresses(['127.0.0.5,127.0.0.6']), ['127.0.0.5', '127.0.0.6'])
  t.same(parseLocalAddresses('::1'), ['::1'])
  t.throws(() => parseLocalAddresses('127.0.0.9-2'), /invalid --local-address "127.0.0.9-2"/)
  t.throws(() => parseLocalAddresses('nothere'), /not an IP address/)
  t.throws(() => parseLocalAddresses('10.0.0.0/8'), /prefix of \/16 to \/32/)
})
