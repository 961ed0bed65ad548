#!/usr/bin/env node
'use strict'
// gRPC unary calls per client CPU-second: `benchrig load --proto --call`
// (one connection, --max-streams N calls in flight) against a plain
// @grpc/grpc-js client loop (bench/grpc-client-loop.js: one channel, N
// calls in flight), both against one @grpc/grpc-js echo server
// (bench/lib/grpc-echo-server.js) pinned to CPU 1, each client pinned to
// CPU 0, alternating (the first one rotates each round), repeated; CPU is
// the client's rusage (bench/lib/pinned-cpu.js), start-up included and
// taken out (a one-call run of each, every round). Issue 27's target: 1.5x.
//
//   node bench/grpc-vs-grpc-js.js [--rounds 5] [--duration 5] [--inflight 10]
const { spawn } = require('node:child_process')
const path = require('node:path')
const { measurePinned } = require('./lib/pinned-cpu.js')

const ROOT = path.join(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')
const LOOP = path.join(__dirname, 'grpc-client-loop.js')
const SERVER = path.join(__dirname, 'lib', 'grpc-echo-server.js')
const PROTO = path.join(ROOT, 'test', 'fixtures', 'grpc', 'echo.proto')
const NODE = process.execPath
const FLAGS = { rounds: '5', duration: '5', inflight: '10' }

function parseArgs (argv) {
  const o = { ...FLAGS }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, '')
    if (!argv[i]?.startsWith('--') || !(name in FLAGS) || argv[i + 1] === undefined || !(Number(argv[i + 1]) > 0)) return null
    o[name] = argv[i + 1]
  }
  return o
}

function median (xs) {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
  const n = s.length
  return n === 0 ? NaN : (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2)
}

function calls (out) {
  const line = out.split('\n').find((l) => l.startsWith('{'))
  return line ? JSON.parse(line).requests.total : NaN
}

async function main () {
  const o = parseArgs(process.argv.slice(2))
  if (o === null) {
    console.error('usage: node bench/grpc-vs-grpc-js.js [--rounds N] [--duration S] [--inflight N]')
    process.exitCode = 2
    return
  }
  const port = 20000 + Math.floor(Math.random() * 10000) // below the ephemeral range
  const server = spawn('taskset', ['-c', '1', NODE, SERVER, String(port)], { stdio: ['ignore', 'ignore', 'pipe'] })
  await new Promise((resolve, reject) => {
    server.stderr.on('data', (d) => { if (/serving/.test(String(d))) resolve() })
    server.on('exit', (code) => reject(new Error(`the server exited (${code})`)))
  })
  const grpcArgs = ['--proto', PROTO, '--call', 'bench.Echo/Say', '--data', '{"text":"hi"}', `http://127.0.0.1:${port}`]
  const peers = [
    { name: 'benchrig load', argv: [NODE, BIN, 'load', '-j', '-c', '1', '--max-streams', o.inflight, '-d', o.duration, ...grpcArgs], startup: [NODE, BIN, 'load', '-j', '-c', '1', '-a', '1', ...grpcArgs] },
    { name: 'grpc-js loop', argv: [NODE, LOOP, '-n', o.inflight, '-d', o.duration, `127.0.0.1:${port}`], startup: [NODE, LOOP, '-n', '1', '-d', '0.001', `127.0.0.1:${port}`] }
  ]
  const rates = Object.fromEntries(peers.map((p) => [p.name, { all: [], steady: [] }]))
  try {
    for (let r = 0; r < Number(o.rounds); r++) {
      for (const p of peers.map((_, i) => peers[(i + r) % peers.length])) {
        const m = measurePinned(p.argv)
        const up = measurePinned(p.startup).cpu
        const total = calls(m.out)
        rates[p.name].all.push(total / m.cpu)
        rates[p.name].steady.push(m.cpu - up > 0.25 * m.cpu ? total / (m.cpu - up) : NaN)
        console.log(`round ${r + 1} ${p.name.padEnd(14)} ${total} calls, ${m.cpu.toFixed(2)} CPU-s (start-up ${up.toFixed(2)})`)
      }
    }
  } finally {
    server.kill()
  }
  console.log(`\n${o.inflight} calls in flight, ${o.duration} s per run, ${o.rounds} rounds; calls per client CPU-second (median; start-up excluded)`)
  for (const p of peers) console.log(`  ${p.name.padEnd(14)} ${Math.round(median(rates[p.name].all))}; ${Math.round(median(rates[p.name].steady))}`)
  const a = rates[peers[0].name]
  const b = rates[peers[1].name]
  console.log(`  benchrig / grpc-js: ${(median(a.all) / median(b.all)).toFixed(2)} (start-up excluded ${(median(a.steady) / median(b.steady)).toFixed(2)}; target >= 1.5)`)
}

main().catch((err) => {
  console.error(err.message)
  process.exitCode = 1
})
