#!/usr/bin/env node
'use strict'
// Instructions per request of the load engine against the node floor client
// (bench/node-floor-client.js), counted by valgrind's callgrind: a measure
// that does not move with the machine's load, unlike the CPU-time ratios of
// bench/engine-vs-peers.js. Each client runs twice against the same local
// nginx, at -a N1 and -a N2 requests on --connections C (1 by default); the difference of
// the two totals over N2 - N1 cancels start-up and exit, leaving the cost of
// one request (the client's user-space instructions: the kernel's share of a
// request is not counted, and is the same for every client).
//
//   node bench/instructions-per-request.js [--n1 2000] [--n2 6000] [--only p1|p10|h2] [--connections 1]
// (--connections 50 is what bench/engine-vs-peers.js runs; N a multiple of C x depth is exact)
// prints one line per client and the ratios to the floor of the same depth,
// and with -j one JSON object. The V8 flag --predictable keeps compilation
// and GC on the main thread in a fixed order (lib/harness/callgrind.js), so
// two runs of one client agree to well under 1%.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { startNginx } = require('./lib/nginx.js')
const { DETERMINISTIC_FLAGS } = require('../lib/harness/callgrind.js')

const ROOT = path.join(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')
const FLOOR = path.join(__dirname, 'node-floor-client.js')

function arg (name, def) {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : def
}

/** The clients compared, by group: [name, argv after node] (N is filled in). */
function clients (url, group, connections) {
  const c = String(connections)
  const engine = (...extra) => (n) => [BIN, 'load', '-c', c, '-a', String(n), '-j', ...extra, url]
  const floor = (p) => (n) => [FLOOR, url, '-c', c, '-p', String(p), '-a', String(n)]
  if (group === 'p1') return [['node-floor p1', floor(1)], ['benchrig p1', engine()]]
  if (group === 'p10') {
    return [
      ['node-floor p10', floor(10)],
      ['benchrig p10 (default refill: batch)', engine('-p', '10')],
      ['benchrig p10 --refill half', engine('-p', '10', '--refill', 'half')],
      ['benchrig p10 --refill window', engine('-p', '10', '--refill', 'window')]
    ]
  }
  return [['benchrig --h2 --max-streams 10', engine('--h2', '--max-streams', '10')]]
}

/** The total instructions of one run of `node argv` under callgrind. */
function count (argv) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-ipr-'))
  const out = path.join(dir, 'cg.out')
  try {
    const r = spawnSync('valgrind', ['--tool=callgrind', '-q', `--callgrind-out-file=${out}`, process.execPath, ...DETERMINISTIC_FLAGS, ...argv], { encoding: 'utf8', maxBuffer: 64 << 20 })
    if (r.error) throw new Error(`valgrind did not start (${r.error.code}): install the Debian package "valgrind"`)
    if (r.status !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`)
    const total = JSON.parse(r.stdout.trim().split('\n').pop()).requests.total
    const m = /^summary:\s*(\d+)/m.exec(fs.readFileSync(out, 'utf8'))
    if (!m) throw new Error('the callgrind output has no summary line')
    return { instructions: Number(m[1]), total }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function main () {
  const n1 = Number(arg('--n1', 2000))
  const n2 = Number(arg('--n2', 6000))
  const only = arg('--only', undefined)
  const connections = Number(arg('--connections', 1))
  if (!(Number.isInteger(connections) && connections >= 1)) throw new Error(`--connections ${arg('--connections')}: give a whole number of connections, 1 or more`)
  const json = process.argv.includes('-j')
  const groups = only === undefined ? ['p1', 'p10', 'h2'] : [only]
  const nginx = await startNginx({ cpus: '1' })
  const nginxH2 = groups.includes('h2') ? await startNginx({ cpus: '1', h2c: true }) : null
  const rows = []
  try {
    for (const group of groups) {
      const url = group === 'h2' ? nginxH2.url : nginx.url
      for (const [name, argvOf] of clients(url, group, connections)) {
        const a = count(argvOf(n1))
        const b = count(argvOf(n2))
        const perRequest = (b.instructions - a.instructions) / (b.total - a.total)
        rows.push({ group, name, perRequest: Math.round(perRequest), startup: Math.round(a.instructions - perRequest * a.total) })
        if (!json) console.log(`${name.padEnd(32)} ${Math.round(perRequest).toString().padStart(9)} instructions/request`)
      }
    }
  } finally {
    await nginx.stop()
    if (nginxH2) await nginxH2.stop()
  }
  // the floor of the same depth over the engine: 1.0 = as cheap as the floor
  const ratios = {}
  for (const r of rows) {
    const floor = rows.find((x) => x.group === r.group && x.name.startsWith('node-floor'))
    if (floor && floor !== r) ratios[r.name] = Math.round(floor.perRequest / r.perRequest * 1000) / 1000
  }
  if (json) console.log(JSON.stringify({ n1, n2, connections, rows, floorOverEngine: ratios }))
  else for (const [name, ratio] of Object.entries(ratios)) console.log(`floor / ${name}: ${ratio}`)
}

main().catch((err) => {
  console.error(`instructions-per-request: ${err.message}`)
  process.exitCode = 1
})
