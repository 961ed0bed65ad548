'use strict'
// A server in its own process that freezes its event loop for S ms at the
// start of every T ms window of the wall clock (Atomics.wait: a stall like a
// long GC pause), for the coordinated-omission tests of the engine. Because
// the windows sit on the wall clock, a test knows when every freeze was and
// can compute the exact latency a request planned at time t should see.
const { spawn } = require('node:child_process')
const { loadUntil } = require('./steady.js')

const SERVERS = {
  http1: `
const server = require('node:http').createServer((req, res) => res.end('ok'))
server.keepAliveTimeout = 30000`,
  h2c: `
const server = require('node:http2').createServer()
server.on('session', (s) => s.on('error', () => {}))
server.on('stream', (stream) => {
  stream.on('error', () => {})
  stream.respond({ ':status': 200 })
  stream.end('ok')
})`
}

const FREEZE = `
const S = Number(process.argv[1]), T = Number(process.argv[2])
const lock = new Int32Array(new SharedArrayBuffer(4))
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'))
// check every millisecond; inside a window's first S ms, block until it ends
setInterval(() => {
  const into = Date.now() % T
  if (into < S) Atomics.wait(lock, 0, 0, S - into)
}, 1)
process.on('disconnect', () => process.exit(0))
`

/**
 * Starts the freezing server; it is killed in teardown.
 * @param {import('tap').Test} t
 * @param {number} freezeMs S
 * @param {number} periodMs T
 * @param {'http1'|'h2c'} [protocol]
 * @returns {Promise<number>} its port on 127.0.0.1
 */
function startFreezer (t, freezeMs, periodMs, protocol = 'http1') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SERVERS[protocol] + FREEZE, String(freezeMs), String(periodMs)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
    t.teardown(() => child.kill())
    child.once('error', reject)
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())))
  })
}

/**
 * The exact latencies (ms) of a plan at `rate` from start to finish against
 * the freezer: a request planned u ms into a freeze waits S - u ms.
 */
function expectedLatencies (startMs, finishMs, rate, freezeMs, periodMs) {
  const out = []
  for (let t = startMs; t <= finishMs; t += 1000 / rate) {
    const into = t % periodMs
    const wait = into < freezeMs ? freezeMs - into : 0
    // a response due after the end of the run is not recorded by the run either
    if (t + wait <= finishMs) out.push(wait)
  }
  return out.sort((a, b) => a - b)
}

/** The p-th percentile of sorted values (nearest rank). */
const percentileOf = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

/**
 * Runs a rate-mode load against a freezer and returns it with the analytic
 * latencies for its actual start and finish. The model leaves out the drain
 * of the requests queued in a freeze, a few ms on an idle machine but over
 * 100 ms on one that gives the test a third of a core; so when a corrected
 * p90/p95/p99 is off by more than `tolerance`, the run is repeated (visibly,
 * once) and the last run is what the test asserts on.
 * @param {import('tap').Test} t
 * @param {object} opts load() options with overallRate
 * @param {{freezeMs: number, periodMs: number, tolerance?: number}} o
 */
async function loadAgainstModel (t, opts, { freezeMs, periodMs, tolerance = 0.1 }) {
  const model = (r) => expectedLatencies(r.start.getTime(), r.finish.getTime(), opts.overallRate, freezeMs, periodMs)
  const offModel = (r) => {
    const expected = model(r)
    const off = [90, 95, 99].filter((p) => Math.abs(r.latency[`p${p}`] - percentileOf(expected, p)) > tolerance * percentileOf(expected, p))
    return off.length === 0 || !r.latencyCorrected ? '' : `p${off.join('/p')} off the model by more than ${tolerance * 100}% (max lag ${r.rate.lag.max} ms: a slow machine)`
  }
  const r = await loadUntil(t, opts, offModel)
  return { r, expected: model(r) }
}

module.exports = { startFreezer, expectedLatencies, percentileOf, loadAgainstModel }
