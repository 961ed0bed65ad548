#!/usr/bin/env node
'use strict'
// The long form of test/engine/stages.test.js: a --stages ramp against a node
// http server in its own process (on another CPU with taskset when there are
// two), repeated, with how far each interval's sends and answers were from
// the ramp's plan and how far the totals were from its integral. The issue's
// bounds (on an idle machine): 5% per interval, 2% in total.
//
//   node bench/stages-ramp.js [--stages 2s:2000,4s:2000,2s:0] [--interval 500] [--rounds 3] [-c 50]
const { spawn } = require('node:child_process')
const os = require('node:os')
const { load } = require('../lib/engine/index.js')
const { Ramp, parseStages } = require('../lib/engine/stages.js')
const { parseDuration } = require('../lib/engine/options/options.js')

const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def }
const STAGES = arg('--stages', '2s:2000,4s:2000,2s:0')
const INTERVAL = Number(arg('--interval', 500))
const ROUNDS = Number(arg('--rounds', 3))
const CONNECTIONS = Number(arg('-c', 50))

const SERVER = "require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { process.send(this.address().port) })"

function startServer () {
  const pin = os.availableParallelism() > 1
  const child = pin
    ? spawn('taskset', ['-c', '1', process.execPath, '-e', SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    : spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve) => child.once('message', (port) => resolve({ child, port })))
}

async function main () {
  const ramp = new Ramp(parseStages(STAGES, '--stages', parseDuration))
  const total = Math.floor(ramp.total + 1e-7)
  const { child, port } = await startServer()
  console.log(`--stages ${STAGES}: ${total} requests planned over ${ramp.endMs / 1000} s, -c ${CONNECTIONS}, rows of ${INTERVAL} ms, ${ROUNDS} rounds, ${process.version}, load ${os.loadavg()[0].toFixed(1)}`)
  const worst = []
  for (let r = 0; r < ROUNDS; r++) {
    const res = await load({ url: `http://127.0.0.1:${port}/`, connections: CONNECTIONS, stages: STAGES, interval: INTERVAL })
    // full rows only, and only those the plan fills (>= 20 planned): 5% of fewer is under one request
    const rows = res.intervals.filter((row) => row.elapsedMs === undefined && row.planned >= 20)
    const dev = (a, b) => Math.abs(a - b) / b
    const sentDev = Math.max(...rows.map((row) => dev(row.sent, row.planned)))
    const answeredDev = Math.max(...rows.map((row) => dev(row.count, row.planned)))
    console.log(`  round ${r + 1}: planned ${res.rate.planned}, sent ${res.requests.sent} (${(dev(res.requests.sent, total) * 100).toFixed(2)}%), ` +
      `answered ${res.requests.total} (${(dev(res.requests.total, total) * 100).toFixed(2)}%); worst of ${rows.length} rows: ` +
      `sent ${(sentDev * 100).toFixed(1)}%, answered ${(answeredDev * 100).toFixed(1)}%; send lag p99 ${res.rate.lag.p99} ms, max ${res.rate.lag.max} ms`)
    worst.push(Math.max(sentDev, answeredDev))
  }
  child.kill()
  const sorted = worst.slice().sort((a, b) => a - b)
  console.log(`worst row deviation per round: min ${(sorted[0] * 100).toFixed(1)}%, median ${(sorted[(sorted.length - 1) >> 1] * 100).toFixed(1)}%, max ${(sorted.at(-1) * 100).toFixed(1)}%`)
}

main().catch((err) => { console.error(err); process.exitCode = 1 })
