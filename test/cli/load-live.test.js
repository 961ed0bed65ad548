'use strict'
/* eslint-disable no-control-regex -- the terminal's escape sequences are what these tests read */
// The live view of `benchrig load` (lib/cli/load-live.js): on a TTY one line
// with running totals and the last second's req/s, p50 and p99, within 80
// columns whatever the numbers; the tick figures behind it from real runs (in
// this thread and over workers); the rate-mode tables within 80 columns at
// their widest numbers; and Ctrl-C on a real pseudo-terminal.
const t = require('tap')
const path = require('node:path')
const { EventEmitter } = require('node:events')
const { spawn } = require('node:child_process')
const { liveLine, attachLiveView, shortMs } = require('../../lib/cli/load-live.js')
const { load } = require('../../lib/engine/index.js')
const { formatResult } = require('../../lib/engine/result/format.js')
const { PERCENTILES, pkey } = require('../../lib/engine/result/result.js')
const { rawServer, response } = require('../helpers/raw-server.js')
const { startServe, request } = require('../helpers/serve.js')
const { needTool } = require('../helpers/tools.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const widest = (text) => Math.max(...text.split('\n').map((l) => [...l].length))

t.test('the live line: every figure, within the columns, the bar in what is left', async (t) => {
  const tick = { second: 12, requests: 45213, total: 1234567, errors: 3, non2xx: 1520, latency: { p50: 1.234, p99: 12.34 } }
  const line = liveLine(tick, { duration: 30, amount: 0, columns: 80 })
  t.match(line, /^\[=+ +\] 12s\/30s 1\.23M req 45\.2k req\/s p50 1\.23ms p99 12\.3ms err 3 non2xx 1\.52k$/)
  t.ok(line.length <= 79, `${line.length} columns: the cursor stays on the line`)
  const bar = /^\[(=*)( *)\]/.exec(line)
  t.equal(bar[1].length, Math.round(12 / 30 * (bar[1].length + bar[2].length)), 'the bar shows 12 s of 30')

  // the widest numbers still fit 80 columns, the bar gives way
  const huge = { second: 3600, requests: 999e6, total: 999e9, errors: 999e6, non2xx: 999e6, latency: { p50: 99999, p99: 3600000 } }
  const wide = liveLine(huge, { duration: 3600, amount: 0, columns: 80 })
  t.ok(wide.length <= 79, `widest: ${wide.length} columns: ${wide}`)
  t.match(wide, /^(\[[= ]{5}\] )?3600s\/3600s 999G req 999M req\/s p50 100s p99 3600s err 999M non2xx 999M$/)

  // -a runs: the bar is the share of the amount; no latency in the second: "-"
  const amount = liveLine({ second: 3, requests: 0, total: 250, errors: 0, non2xx: 0, latency: null }, { duration: 0, amount: 1000, columns: 80 })
  t.match(amount, /^\[=+ +\] 3s 250 req 0 req\/s p50 - p99 - err 0 non2xx 0$/)
  t.equal(/^\[(=*)/.exec(amount)[1].length, Math.round(0.25 * Math.min(30, 79 - 3 - amount.replace(/^\[[= ]+\] /, '').length)))
  // a narrow terminal: no bar, cut to its width
  const narrow = liveLine(tick, { duration: 30, amount: 0, columns: 40 })
  t.equal(narrow.length, 39)
  t.match(narrow, /^12s\/30s 1\.23M req/)
  t.same([0.123, 9.994, 9.996, 99.94, 99.96, 999.4, 999.6, 12345, 123456].map(shortMs),
    ['0.12ms', '9.99ms', '10.0ms', '99.9ms', '100ms', '999ms', '1.00s', '12.3s', '123s'])
})

t.test('attachLiveView redraws in place on each tick and clears before the result', async (t) => {
  const run = Object.assign(new EventEmitter(), { opts: { duration: 10, amount: 0 } })
  const writes = []
  const stream = { isTTY: true, columns: 80, write: (s) => writes.push(s) }
  const view = attachLiveView(run, stream)
  view.clear()
  t.same(writes, [], 'nothing to clear before the first tick')
  run.emit('tick', { second: 1, requests: 100, total: 100, errors: 0, non2xx: 0, latency: { p50: 1, p99: 2 } })
  stream.columns = 60 // the terminal was resized
  run.emit('tick', { second: 2, requests: 90, total: 190, errors: 1, non2xx: 0, latency: { p50: 1, p99: 3 } })
  view.clear()
  t.equal(writes.length, 3)
  t.match(writes[0], /^\r\[=+ +\] 1s\/10s 100 req 100 req\/s p50 1\.00ms p99 2\.00ms err 0 non2xx 0\x1b\[K$/)
  t.ok(writes[1].length - '\r\x1b[K'.length <= 59, 'the second line fits the narrower terminal')
  t.equal(writes[2], '\r\x1b[K')
})

t.test('ticks carry running totals and the last second\'s p50/p99, in this thread and over workers', async (t) => {
  // each run its own server, a 503 for every fifth request it receives
  const server = async () => {
    let n = 0
    const srv = await rawServer((s) => s.write(++n % 5 === 0 ? 'HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n' : response('ok')))
    t.teardown(() => srv.close())
    return srv
  }
  // at least one tick: ticks count from the start, the 1.1 s from the first
  // connection, and timers fire in the order they are due. Three runs at
  // once: in this thread, over two workers, and one without liveLatency
  const runTicks = async (opts) => {
    const run = load({ url: (await server()).url, connections: 2, duration: '1100ms', ...opts })
    const ticks = []
    run.on('tick', (x) => ticks.push(x))
    return { r: await run, ticks }
  }
  const runs = await Promise.all([runTicks({ workers: 0, liveLatency: true }), runTicks({ workers: 2, liveLatency: true }), runTicks({ connections: 1 })])
  for (const [i, { r, ticks }] of runs.slice(0, 2).entries()) {
    const where = i ? 'two workers' : 'this thread'
    t.ok(ticks.length >= 1, `${where}: ${ticks.length} ticks`)
    t.same(ticks.map((x) => x.second), ticks.map((_, k) => k + 1), 'one a second')
    let sum = 0
    for (const x of ticks) {
      sum += x.requests
      t.equal(x.total, sum, `${where}, second ${x.second}: the running total is the sum of the seconds`)
      t.equal(x.errors, 0)
      if (i === 0) {
        // one reading of the counters, two requests in flight: the completed
        // ones are the server's first total + f (f <= 2) but those f, so the
        // 503s are within 2.4 of a fifth. (Workers read theirs at their own
        // instants, which no such bound covers.)
        t.ok(Math.abs(x.non2xx - x.total / 5) <= 3, `non-2xx so far: ${x.non2xx} of ${x.total}`)
      } else {
        t.ok(x.non2xx >= 0 && x.non2xx <= x.total, `non-2xx so far: ${x.non2xx} of ${x.total}`)
      }
      if (x.requests === 0) {
        t.equal(x.latency, null, 'no response in the second: no percentiles')
      } else {
        t.equal(x.latency.count, x.requests, 'the second\'s histogram holds the second\'s responses')
        // a live percentile is its bucket's highest value (3 significant
        // digits: 1/1024 wide), which may lie just above the exact max
        const maxBucketTop = r.latency.max * (1 + 1 / 1024) + 0.001
        t.ok(x.latency.p50 > 0 && x.latency.p50 <= x.latency.p99 && x.latency.p99 <= maxBucketTop, `p50 <= p99 <= the run's max, to the bucket: ${x.latency.p50} ${x.latency.p99} ${r.latency.max}`)
      }
    }
    t.ok(sum <= r.requests.total && ticks[ticks.length - 1].non2xx <= r.non2xx, 'no more than the result holds')
  }
  const plain = runs[2].ticks[0]
  t.equal(plain.latency, undefined, 'without liveLatency no histogram is taken')
  t.type(plain.total, 'number', 'the totals cost nothing and are always there')
})

t.test('the rate-mode tables fit 80 columns at their widest numbers', async (t) => {
  const srv = await rawServer((s) => s.write(response('ok')))
  t.teardown(() => srv.close())
  const r = await load({ url: srv.url, connections: 2, overallRate: 200, amount: 40, breakout: true })
  // the widest cells each table can get: hour-long latencies, millions per second, every status class
  const big = (x) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, typeof v === 'number' ? 3599999.999 : v]))
  const fake = {
    ...r,
    latency: big(r.latency),
    uncorrectedLatency: big(r.uncorrectedLatency),
    breakout: { connect: big(r.breakout.connect), firstByte: big(r.breakout.firstByte), lastByte: big(r.breakout.lastByte) },
    requests: { ...r.requests, p1: 9.99e9, p2_5: 9.99e9, p50: 9.99e9, p97_5: 9.99e9, average: 9.99e9, stddev: 9.99e9, min: 9.99e9, total: 9.99e12 },
    throughput: { ...r.throughput, p1: 999e12, p2_5: 999e12, p50: 999e12, p97_5: 999e12, average: 999e12, stddev: 999e12, min: 999e12, total: 999e12 },
    statusCodeStats: { 200: { count: 9.99e12 }, 503: { count: 9.99e12 } },
    non2xx: 9.99e12,
    rate: { ...r.rate, target: 9.99e9, achieved: 9.99e9, unsent: 9.99e12, lag: { p50: 3599999, p99: 3599999, max: 3599999 } },
    errorsByKind: { connect: 9e12, read: 9e12, write: 9e12, timeout: 9e12, parse: 9e12, reset: 0, goaway: 0, status: 0 },
    errors: 4.5e13
  }
  for (const p of PERCENTILES) fake.latency[pkey(p)] = 3599999.999
  const text = formatResult(fake, { latency: true, statusCodes: true })
  t.ok(widest(text) <= 80, `widest line: ${widest(text)} columns\n${text}`)
  t.ok(widest(formatResult(r, { latency: true, statusCodes: true })) <= 80, 'and at the run\'s own numbers')
})

t.test('on a pseudo-terminal, in rate mode: the live line, then Ctrl-C prints the result, says so and exits 130', async (t) => {
  if (!needTool(t, 'script')) return
  const target = await startServe(t)
  // script(1) gives the command a real pty of 80 columns; ^C written to it is
  // turned into SIGINT by the terminal, as a user's key press is
  const cmd = `stty cols 80 rows 24; exec '${process.execPath}' '${BIN}' load -c 2 -R 200 -d 60 ${target.url}/`
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] })
  t.teardown(() => child.kill('SIGKILL'))
  let out = ''
  const exited = new Promise((resolve) => child.on('close', (code) => resolve(code)))
  const sawLine = new Promise((resolve) => child.stdout.on('data', (d) => {
    out += d
    if (/\r\[=* *\] \d+s\/60s .* req\/s p50 \S+ p99 \S+ err \d+ non2xx \d+\x1b\[K/.test(out)) resolve()
  }))
  await sawLine
  // a request the server answered after the line: the run is going
  await request(target.url + '/')
  child.stdin.write('\x03')
  const code = await exited
  t.equal(code, 130, out)
  const lines = out.split(/\r\n|\n/)
  const live = out.match(/\r(\[=* *\] \d+s\/60s [^\r\x1b]*)\x1b\[K/)[1]
  t.ok(live.length <= 79, `the live line fits 80 columns: ${JSON.stringify(live)}`)
  t.match(out, /\r\x1b\[K[^]*│ Latency, ms │/, 'the line is erased before the tables (rate mode\'s)')
  t.match(out, /requests in \d+\.\d+s/, 'the result is printed')
  t.match(out, /benchrig load: cut short by Ctrl-C after \d+\.\d s; the result covers that span/)
  t.notMatch(out, /\n\s+at /, 'no stack trace')
  const shown = lines.map((l) => l.replace(/\x1b\[K/g, '').split('\r').pop())
  // rate mode: every line, the tables included (the closed-loop latency
  // table keeps autocannon's layout, 81 columns with a unit in each cell)
  t.same(shown.filter((l) => [...l].length > 80), [], 'every line of the screen fits 80 columns')
})

t.test('the second\'s p50/p99 are the histogram\'s own percentiles of that second', async (t) => {
  const { Histogram } = require('../../lib/engine/measure/histogram.js')
  const { LastSecond, secondLatency } = require('../../lib/engine/measure/live.js')
  const run = new Histogram()
  const last = new LastSecond(run)
  let seed = 7
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
  for (let second = 0; second < 3; second++) {
    const alone = new Histogram() // what this second alone recorded
    for (let i = 0; i < 5000; i++) {
      const us = 100 + 200000 * rnd() ** 3
      run.record(us)
      alone.record(us)
    }
    const x = secondLatency(last.take())
    t.same(x, { p50: alone.percentile(50) / 1000, p99: alone.percentile(99) / 1000, count: 5000 }, `second ${second + 1}`)
  }
  t.equal(secondLatency(last.take()), null, 'a second without responses')
})
