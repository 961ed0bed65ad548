#!/usr/bin/env node
'use strict'
// What the live view and gocannon's forms cost, off the request path:
//  - the live view's tick: one LastSecond.take() (the difference of two
//    snapshots of a runner's histogram) and secondLatency() (p50/p99 of it),
//    once a second per runner; CPU µs per tick, median over rounds;
//  - --reqlog-format gocannon against the default layout: the writer
//    thread's time from the first chunk to the end of the file, for N rows
//    of synthetic requests (the same chunks for both);
//  - --hist-raw: writing the 1 µs bins of a histogram whose slowest request
//    took 1 s (a million lines).
//
//   node bench/live-and-formats.js [--rows 1000000] [--rounds 201]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { performance } = require('node:perf_hooks')
const { Histogram } = require('../lib/engine/measure/histogram.js')
const { LastSecond, secondLatency } = require('../lib/engine/measure/live.js')
const { openRequestLog, RequestLogBuffer } = require('../lib/engine/measure/reqlog.js')
const { writeHistRaw } = require('../lib/engine/measure/hist-raw.js')
const { encode } = require('../lib/engine/measure/hdr-codec.js')

const arg = (name, dflt) => {
  const at = process.argv.indexOf(name)
  return at < 0 ? dflt : Number(process.argv[at + 1])
}
const ROWS = arg('--rows', 1e6)
const ROUNDS = arg('--rounds', 201)
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-live-formats-'))

async function main () {
  // the tick: a histogram with a realistic spread, new values between ticks
  const h = new Histogram()
  const last = new LastSecond(h)
  const tickUs = []
  let seed = 1
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < 20000; i++) h.record(200 + 50000 * rnd() ** 4)
    const t0 = process.cpuUsage()
    const lat = secondLatency(last.take())
    const t1 = process.cpuUsage(t0)
    if (lat === null || lat.count !== 20000) throw new Error('the second lost requests')
    tickUs.push(t1.user + t1.system)
  }
  console.log(`live view tick (take + p50/p99 over ${h.length} buckets): median ${median(tickUs)} µs CPU per second per runner`)

  // the request log: the same rows, both layouts
  for (const format of ['default', 'gocannon']) {
    const file = path.join(dir, `reqlog-${format}.csv`)
    const log = openRequestLog(file, format)
    const buf = new RequestLogBuffer(Date.now(), (chunk, rows, offsetMs) => log.write(chunk, rows, offsetMs))
    const start = performance.now()
    // out of order by end, as chunks of several workers interleave
    for (let i = 0; i < ROWS; i++) buf.add(200, (i % 4) * 1000 + i * 0.01, (i % 4) * 1000 + i * 0.01 + 0.2, i % 50)
    buf.flush()
    const rows = await log.end()
    const ms = performance.now() - start
    console.log(`--reqlog-format ${format}: ${rows} rows, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms (${(ms * 1e3 / rows).toFixed(2)} µs a row)`)
  }

  // --hist-raw of a histogram reaching 1 s
  const slow = new Histogram()
  for (let i = 0; i < 100000; i++) slow.record(100 + 1e6 * rnd() ** 8)
  slow.record(1e6)
  const file = path.join(dir, 'hist.txt')
  const t0 = performance.now()
  const lines = writeHistRaw(file, encode(slow))
  console.log(`--hist-raw up to 1 s: ${lines} lines, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB in ${(performance.now() - t0).toFixed(0)} ms`)
}

main().finally(() => fs.rmSync(dir, { recursive: true, force: true }))
