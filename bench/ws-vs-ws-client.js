#!/usr/bin/env node
'use strict'
// WebSocket messages per client CPU-second: `benchrig load ws://...` (the
// closed loop: one message in flight per connection) against a plain `ws`
// client doing the same loop (bench/ws-client-loop.js), both against one
// `ws` echo server (examples/websocket/echo-server.js) pinned to CPU 1,
// each client pinned to CPU 0. The two alternate (the first one rotates
// each round) and every round runs both, so machine noise falls on both;
// a client's CPU is its rusage as a child of a bash wrapper (`times`),
// start-up included. Issue 27's target: benchrig at least 2x.
//
//   node bench/ws-vs-ws-client.js [--rounds 5] [--duration 5] [--connections 50] [--message hello]
const { spawn } = require('node:child_process')
const { measurePinned } = require('./lib/pinned-cpu.js')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')
const LOOP = path.join(__dirname, 'ws-client-loop.js')
const FLOOR = path.join(__dirname, 'ws-floor-client.js')
const SERVERS = { raw: path.join(__dirname, 'lib', 'ws-raw-echo.js'), ws: path.join(ROOT, 'examples', 'websocket', 'echo-server.js') }
const NODE = process.execPath
const FLAGS = { rounds: '5', duration: '5', connections: '50', message: 'hello', server: 'raw' }

function parseArgs (argv) {
  const o = { ...FLAGS }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, '')
    if (!argv[i]?.startsWith('--') || !(name in FLAGS) || argv[i + 1] === undefined) return null
    o[name] = argv[i + 1]
  }
  for (const k of ['rounds', 'duration', 'connections']) if (!(Number(o[k]) > 0)) return null
  return o.server in SERVERS ? o : null
}

/** Runs argv pinned to CPU 0; messages counted and CPU seconds. */
function measure (argv) {
  const m = measurePinned(argv)
  const line = m.out.split('\n').find((l) => l.startsWith('{'))
  return { total: line ? JSON.parse(line).requests.total : NaN, cpu: m.cpu }
}

function median (xs) {
  const s = xs.slice().sort((a, b) => a - b)
  const n = s.length
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

async function main () {
  const o = parseArgs(process.argv.slice(2))
  if (o === null) {
    console.error('usage: node bench/ws-vs-ws-client.js [--rounds N] [--duration S] [--connections C] [--message TEXT] [--server raw|ws]')
    process.exitCode = 2
    return
  }
  const port = 20000 + Math.floor(Math.random() * 10000) // below the ephemeral range (32768-)
  const server = spawn('taskset', ['-c', '1', NODE, SERVERS[o.server], String(port)], { stdio: ['ignore', 'ignore', 'pipe'] })
  await new Promise((resolve, reject) => {
    server.stderr.on('data', (d) => { if (/echoing/.test(String(d))) resolve() })
    server.on('exit', (code) => reject(new Error(`the echo server exited (${code})`)))
  })
  const url = `ws://127.0.0.1:${port}/`
  const peers = [
    { name: 'benchrig load', argv: [NODE, BIN, 'load', '-j', '-c', o.connections, '-d', o.duration, '-b', o.message, url], startup: [NODE, BIN, 'load', '-j', '-c', '1', '-a', '1', url] },
    { name: 'ws client loop', argv: [NODE, LOOP, '-c', o.connections, '-d', o.duration, '-b', o.message, url], startup: [NODE, LOOP, '-c', '1', '-d', '0.001', url] },
    // what node's net itself costs per message (no parsing, one mask for all): the ceiling of any JS client
    { name: 'node floor', argv: [NODE, FLOOR, '-c', o.connections, '-d', o.duration, '-b', o.message, url], startup: [NODE, FLOOR, '-c', '1', '-d', '0.001', url] }
  ]
  const rates = Object.fromEntries(peers.map((p) => [p.name, []]))
  const steady = Object.fromEntries(peers.map((p) => [p.name, []]))
  const ratios = []
  const steadyRatios = []
  try {
    for (let r = 0; r < Number(o.rounds); r++) {
      const order = peers.map((_, i) => peers[(i + r) % peers.length]) // the first one rotates
      const round = {}
      const without = {}
      for (const p of order) {
        const m = measure(p.argv)
        const up = measure(p.startup).cpu
        round[p.name] = m.total / m.cpu
        // a run too short to outweigh its start-up says nothing without it
        without[p.name] = m.cpu - up > 0.25 * m.cpu ? m.total / (m.cpu - up) : NaN
        rates[p.name].push(round[p.name])
        steady[p.name].push(without[p.name])
        console.log(`round ${r + 1} ${p.name.padEnd(16)} ${m.total} messages, ${m.cpu.toFixed(2)} CPU-s (start-up ${up.toFixed(2)}): ${Math.round(round[p.name])} per CPU-s, ${Math.round(without[p.name])} without start-up`)
      }
      ratios.push(round[peers[0].name] / round[peers[1].name])
      steadyRatios.push(without[peers[0].name] / without[peers[1].name])
    }
  } finally {
    server.kill()
  }
  console.log(`\n${o.server} echo server, c=${o.connections}, ${o.duration} s per run, ${o.rounds} rounds, message "${o.message}"; messages per client CPU-second (min / median / max; start-up excluded: median)`)
  for (const p of peers) {
    const xs = rates[p.name]
    console.log(`  ${p.name.padEnd(16)} ${Math.round(Math.min(...xs))} / ${Math.round(median(xs))} / ${Math.round(Math.max(...xs))}; ${Math.round(median(steady[p.name]))}`)
  }
  console.log(`  benchrig / ws per round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)} (target >= 2)`)
  console.log(`  start-up excluded: ${steadyRatios.map((x) => x.toFixed(2)).join(', ')}; median ${median(steadyRatios).toFixed(2)}`)
  console.log(`  node floor / ws (start-up excluded): ${(median(steady['node floor']) / median(steady['ws client loop'])).toFixed(2)}; benchrig / node floor: ${(median(steady['benchrig load']) / median(steady['node floor'])).toFixed(2)}`)
}

main().catch((err) => {
  console.error(err.message)
  process.exitCode = 1
})
