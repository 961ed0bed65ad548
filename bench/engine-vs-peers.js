#!/usr/bin/env node
'use strict'
// The built-in engine against wrk, autocannon and h2load, per generator
// CPU-second. nginx (our config: 1 worker, `return 200`) runs pinned to CPU 1,
// every generator pinned to CPU 0; peers alternate (the starting peer rotates
// each round) and each round repeats every peer, so machine noise spreads
// over all of them. The CPU of a generator is its rusage as a child of a
// bash wrapper (`times`), so it includes every thread of the tool.
//
//   node bench/engine-vs-peers.js [--rounds 3] [--duration 5] [--connections 50] [--only p1|p10|h2] [--peers NAME]
//                                 [--also LABEL=PATH/bin/benchrig.js]
//   --also runs another benchrig checkout's engine beside this one in the same rounds (e.g. the
//   commit before a change to the hot path), named LABEL:benchrig ..., with the ratios of the two.
//   node bench/engine-vs-peers.js --long    60 s, 1000 connections: RSS over time
const { spawn, spawnSync } = require('node:child_process')
const path = require('node:path')
const { startNginx } = require('./lib/nginx.js')
const { measurePinned } = require('./lib/pinned-cpu.js')

const ROOT = path.join(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')
const AUTOCANNON = path.join(ROOT, 'node_modules', 'autocannon', 'autocannon.js')
const LUA = path.join(__dirname, 'wrk-pipeline.lua')
const FLOOR = path.join(__dirname, 'node-floor-client.js')
const NODE = process.execPath

function arg (name, def) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : def
}

const PEERS = (c, d) => ({
  p1: [
    { name: 'benchrig', cmd: [NODE, BIN, 'load', '-c', c, '-d', d, '-j'], parse: json },
    { name: 'wrk', cmd: ['wrk', '-t1', `-c${c}`, `-d${d}s`], parse: wrkCount },
    { name: 'autocannon', cmd: [NODE, AUTOCANNON, '-c', c, '-d', d, '-j'], parse: json },
    { name: 'h2load --h1', cmd: ['h2load', '--h1', '-c', c, '-D', d], parse: h2loadCount },
    { name: 'node-floor', cmd: [NODE, FLOOR, '-c', c, '-d', d], parse: json }
  ],
  p10: [
    // the default refill is batch (wrk's pipelining); half refills at half the window, window is autocannon's sliding window
    { name: 'benchrig -p 10', cmd: [NODE, BIN, 'load', '-c', c, '-d', d, '-p', '10', '-j'], parse: json },
    { name: 'benchrig -p 10 --refill half', cmd: [NODE, BIN, 'load', '-c', c, '-d', d, '-p', '10', '--refill', 'half', '-j'], parse: json },
    { name: 'benchrig -p 10 --refill window', cmd: [NODE, BIN, 'load', '-c', c, '-d', d, '-p', '10', '--refill', 'window', '-j'], parse: json },
    { name: 'wrk lua pipeline 10', cmd: ['wrk', '-t1', `-c${c}`, `-d${d}s`, '-s', LUA], tail: ['--', '10'], parse: wrkCount },
    { name: 'autocannon -p 10', cmd: [NODE, AUTOCANNON, '-c', c, '-d', d, '-p', '10', '-j'], parse: json },
    { name: 'node-floor -p 10', cmd: [NODE, FLOOR, '-c', c, '-d', d, '-p', '10'], parse: json }
  ],
  // HTTP/2 against nginx h2c (its own instance: `listen ... http2`)
  h2: [
    { name: 'benchrig --h2 --max-streams 10', cmd: [NODE, BIN, 'load', '--h2', '-c', c, '-d', d, '--max-streams', '10', '-j'], parse: json },
    { name: 'h2load -m 10', cmd: ['h2load', '-c', c, '-m', '10', '-D', d], parse: h2loadCount }
  ]
})

function json (out) {
  const line = out.split('\n').find((l) => l.startsWith('{'))
  return line ? JSON.parse(line).requests.total : NaN
}
function wrkCount (out) {
  const m = /(\d+) requests in/.exec(out)
  return m ? Number(m[1]) : NaN
}
function h2loadCount (out) {
  const m = /requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded/.exec(out)
  return m ? Number(m[1]) : NaN
}

/** Runs argv pinned to CPU 0 under bash; returns its output and children's CPU seconds. */
function measure (argv) {
  return measurePinned(argv)
}

function summary (xs) {
  const s = xs.slice().sort((a, b) => a - b)
  return { min: s[0], median: s[Math.floor((s.length - 1) / 2)] * (s.length % 2 ? 1 : 0.5) + (s.length % 2 ? 0 : s[s.length / 2] * 0.5), max: s[s.length - 1] }
}

const k = (x) => `${(x / 1000).toFixed(1)}k`

async function compare () {
  const rounds = Number(arg('rounds', '3'))
  const d = arg('duration', '5')
  const c = arg('connections', '50')
  const only = arg('only')
  const groups = PEERS(c, d)
  const nginx = only === 'h2' ? null : await startNginx({ cpus: '1' })
  const nginxH2 = only && only !== 'h2' ? null : await startNginx({ cpus: '1', h2c: true })
  const also = arg('also') // LABEL=BIN: another checkout's engine, alternated with ours
  if (also) {
    const [label, bin] = also.split('=')
    for (const g of ['p1', 'p10']) {
      groups[g] = groups[g].flatMap((p) => p.name.startsWith('benchrig')
        ? [p, { ...p, name: `${label}:${p.name}`, cmd: p.cmd.map((x) => (x === BIN ? bin : x)) }]
        : [p])
    }
  }
  const pick = arg('peers') // a substring: run only the peers whose name holds it
  if (pick) for (const g of Object.keys(groups)) groups[g] = groups[g].filter((p) => p.name.includes(pick))
  const results = {}
  // the fixed cost of starting each node-based generator (process, module
  // loading, JIT warm-up): a one-request run just before each of its runs,
  // so that both see the same machine load
  const STARTUP = {
    benchrig: [NODE, BIN, 'load', '-c', '1', '-a', '1', '-j'],
    h2: [NODE, BIN, 'load', '--h2', '-c', '1', '-a', '1', '-j'],
    autocannon: [NODE, AUTOCANNON, '-c', '1', '-a', '1', '-j'],
    'node-floor': [NODE, FLOOR, '-c', '1', '-d', '0']
  }
  const startups = { benchrig: [], autocannon: [], h2: [], 'node-floor': [] }
  if (also) {
    const [label, bin] = also.split('=')
    STARTUP[`${label}:benchrig`] = [NODE, bin, 'load', '-c', '1', '-a', '1', '-j']
    startups[`${label}:benchrig`] = []
  }
  try {
    for (const [group, peers] of Object.entries(groups)) {
      if (only && only !== group) continue
      for (let r = 0; r < rounds; r++) {
        for (let j = 0; j < peers.length; j++) {
          const peer = peers[(j + r) % peers.length]
          const tool = group === 'h2' && peer.name.startsWith('benchrig') ? 'h2' : peer.name.split(' ')[0]
          const url = group === 'h2' ? nginxH2.url : nginx.url
          const fixed = STARTUP[tool] ? measure([...STARTUP[tool], url]).cpu : 0
          if (STARTUP[tool]) startups[tool].push(fixed)
          const { out, cpu, user, sys } = measure([...peer.cmd, url, ...(peer.tail ?? [])])
          const n = peer.parse(out)
          ;(results[peer.name] ??= []).push({ perCpu: n / cpu, steady: n / Math.max(cpu - fixed, 1e-3), n, cpu, userUs: user / n * 1e6, sysUs: sys / n * 1e6 })
          process.stderr.write(`${group} round ${r + 1} ${peer.name}: ${n} requests, ${cpu.toFixed(2)} CPU-s, ${k(n / cpu)}/CPU-s\n`)
        }
      }
    }
  } finally {
    if (nginx) await nginx.stop()
    if (nginxH2) await nginxH2.stop()
  }
  console.log(`\nc=${c}, ${d}s per run, ${rounds} rounds; requests completed per generator CPU-second (min / median / max)`)
  const med = {}
  for (const [name, rs] of Object.entries(results)) {
    const s = summary(rs.map((x) => x.perCpu))
    med[name] = s.median
    console.log(`  ${name.padEnd(30)} ${k(s.min).padStart(8)} ${k(s.median).padStart(8)} ${k(s.max).padStart(8)}`)
  }
  const su = (xs) => xs.length ? `${summary(xs).min.toFixed(3)} / ${summary(xs).median.toFixed(3)} / ${summary(xs).max.toFixed(3)} s` : 'n/a'
  console.log(`\nstart-up CPU of a one-request run (min / median / max): benchrig ${su(startups.benchrig)}, autocannon ${su(startups.autocannon)}, benchrig --h2 ${su(startups.h2)}, node-floor ${su(startups['node-floor'])}`)
  console.log('the same, excluding each node tool\'s start-up CPU (wrk and h2load start in about a millisecond)')
  const steady = {}
  for (const [name, rs] of Object.entries(results)) {
    const s = summary(rs.map((x) => x.steady))
    steady[name] = s.median
    console.log(`  ${name.padEnd(30)} ${k(s.min).padStart(8)} ${k(s.median).padStart(8)} ${k(s.max).padStart(8)}`)
  }
  // where a request's CPU goes: the kernel's part (system time: the TCP send
  // and receive paths, and on loopback the softirq work of delivering the
  // packets) is what any client pays; the user part is the tool's own
  console.log('\nCPU per completed request, median µs: user + system (the kernel\'s share); 1 / system = the rate if the tool\'s own CPU were zero')
  for (const [name, rs] of Object.entries(results)) {
    const u = summary(rs.map((x) => x.userUs)).median
    const sy = summary(rs.map((x) => x.sysUs)).median
    console.log(`  ${name.padEnd(30)} ${u.toFixed(2).padStart(6)} + ${sy.toFixed(2).padStart(5)} µs (${(100 * sy / (u + sy)).toFixed(0)} % system), ceiling ${k(1e6 / sy)}/CPU-s`)
  }
  const ratio = (a, b, m = med) => (m[a] && m[b] ? (m[a] / m[b]).toFixed(2) : 'n/a')
  console.log('\nratios of medians, excluding start-up')
  console.log(`  benchrig / wrk (p=1)                    ${ratio('benchrig', 'wrk', steady)}`)
  console.log(`  benchrig / autocannon (p=1)             ${ratio('benchrig', 'autocannon', steady)}`)
  console.log(`  benchrig -p 10 / wrk lua pipeline 10    ${ratio('benchrig -p 10', 'wrk lua pipeline 10', steady)}`)
  console.log(`  benchrig -p 10 --refill half / wrk lua pipeline 10   ${ratio('benchrig -p 10 --refill half', 'wrk lua pipeline 10', steady)}`)
  console.log(`  benchrig -p 10 --refill window / wrk lua pipeline 10 ${ratio('benchrig -p 10 --refill window', 'wrk lua pipeline 10', steady)}`)
  // the floor: what node alone costs (no parsing, no measurement); if it is
  // below a peer, no engine on node's net can reach that peer
  console.log(`  node-floor / wrk (p=1)                  ${ratio('node-floor', 'wrk', steady)}`)
  console.log(`  node-floor / autocannon (p=1)           ${ratio('node-floor', 'autocannon', steady)}`)
  console.log(`  node-floor -p 10 / wrk lua pipeline 10  ${ratio('node-floor -p 10', 'wrk lua pipeline 10', steady)}`)
  console.log(`  benchrig / node-floor (p=1)             ${ratio('benchrig', 'node-floor', steady)}`)
  console.log(`  benchrig -p 10 / node-floor -p 10       ${ratio('benchrig -p 10', 'node-floor -p 10', steady)}`)
  console.log('\nratios of medians (start-up included)')
  console.log(`  benchrig / wrk (p=1)                    ${ratio('benchrig', 'wrk')}`)
  console.log(`  benchrig / autocannon (p=1)             ${ratio('benchrig', 'autocannon')}`)
  console.log(`  benchrig / h2load --h1 (p=1)            ${ratio('benchrig', 'h2load --h1')}`)
  console.log(`  benchrig -p 10 / wrk lua pipeline 10    ${ratio('benchrig -p 10', 'wrk lua pipeline 10')}`)
  console.log(`  benchrig -p 10 --refill half / wrk lua pipeline 10   ${ratio('benchrig -p 10 --refill half', 'wrk lua pipeline 10')}`)
  console.log(`  benchrig -p 10 --refill window / wrk lua pipeline 10 ${ratio('benchrig -p 10 --refill window', 'wrk lua pipeline 10')}`)
  console.log(`  benchrig -p 10 / autocannon -p 10       ${ratio('benchrig -p 10', 'autocannon -p 10')}`)
  console.log(`  benchrig --h2 -m 10 / h2load -m 10      ${ratio('benchrig --h2 --max-streams 10', 'h2load -m 10')} (excluding start-up: ${ratio('benchrig --h2 --max-streams 10', 'h2load -m 10', steady)})`)
  if (also) {
    const label = also.split('=')[0]
    console.log(`\nthis checkout / ${label} (ratios of medians, start-up included; excluded)`)
    for (const name of Object.keys(results).filter((n) => n.startsWith(`${label}:`))) {
      const ours = name.slice(label.length + 1)
      console.log(`  ${ours.padEnd(30)} ${ratio(ours, name)}; ${ratio(ours, name, steady)}`)
    }
  }
}

function rssKb (pid) {
  const r = spawnSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' })
  const m = /VmRSS:\s+(\d+)/.exec(r.stdout || '')
  return m ? Number(m[1]) : NaN
}

async function long () {
  const d = Number(arg('duration', '60'))
  const c = arg('connections', '1000')
  const nginx = await startNginx({ cpus: '1' })
  try {
    const child = spawn('taskset', ['-c', '0', NODE, BIN, 'load', '-c', c, '-d', String(d), '-j', nginx.url], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (b) => { out += b })
    const samples = []
    const timer = setInterval(() => {
      const kb = rssKb(child.pid)
      samples.push(kb)
      process.stderr.write(`t=${samples.length * 5}s RSS ${(kb / 1024).toFixed(1)} MB\n`)
    }, 5000)
    await new Promise((resolve) => child.on('exit', resolve))
    clearInterval(timer)
    const res = JSON.parse(out)
    const mb = samples.filter(Number.isFinite).map((x) => x / 1024)
    console.log(`${c} connections, ${d}s: ${res.requests.total} requests, ${res.errors} errors`)
    console.log(`RSS every 5 s (MB): ${mb.map((x) => x.toFixed(1)).join(' ')}`)
    if (mb.length >= 4) console.log(`RSS at 10 s ${mb[1].toFixed(1)} MB, at the end ${mb[mb.length - 1].toFixed(1)} MB, max ${Math.max(...mb).toFixed(1)} MB`)
  } finally {
    await nginx.stop()
  }
}

/** Every argument is a known flag with a value (or --long): else one line of usage, exit 2. */
function checkArgs (argv) {
  const WITH_VALUE = ['--rounds', '--duration', '--connections', '--only', '--peers', '--also']
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--long') continue
    if (!WITH_VALUE.includes(argv[i]) || argv[i + 1] === undefined) return argv[i]
    i++
  }
  const only = arg('only')
  if (only !== undefined && !['p1', 'p10', 'h2'].includes(only)) return `--only ${only}`
  return null
}

const bad = checkArgs(process.argv.slice(2))
if (bad !== null) {
  console.error(`engine-vs-peers: unknown or incomplete argument '${bad}'; usage: node bench/engine-vs-peers.js ` +
    '[--rounds 3] [--duration 5] [--connections 50] [--only p1|p10|h2] [--peers NAME] [--also LABEL=PATH/bin/benchrig.js] | --long')
  process.exit(2)
}

(process.argv.includes('--long') ? long() : compare()).catch((err) => {
  console.error(err)
  process.exitCode = 1
})
