#!/usr/bin/env node
'use strict'
// The long form of test/engine/scenarios-graceful.test.js: arrival-rate VUs
// that grow, and gracefulStop, against a node http server in its own process
// that holds every response --hold ms. By Little's law an arrival rate r with
// responses of h s needs r·h VUs at once: with maxVUs above that the pool
// should stop near it and drop nothing; with maxVUs M below it, M VUs carry
// at most M/h arrivals a second, so about 1 - M/(r·h) of the arrivals are
// dropped. Then constant-vus with and without a gracefulStop: how long the
// drain took past the duration, and what was interrupted.
//
//   node bench/scenario-vus.js [--hold 200] [--rates 20,50,100] [--max 8,40] [--duration 3]
const { spawn } = require('node:child_process')
const os = require('node:os')
const { load } = require('../lib/engine/index.js')

const USAGE = 'usage: node bench/scenario-vus.js [--hold MS] [--rates R,R,...] [--max M,M,...] [--duration S]'
const FLAGS = { '--hold': '200', '--rates': '20,50,100', '--max': '8,40', '--duration': '3' }

function parseArgs (argv) {
  const out = { ...FLAGS }
  for (let i = 0; i < argv.length; i += 2) {
    if (!(argv[i] in FLAGS) || argv[i + 1] === undefined) return null
    out[argv[i]] = argv[i + 1]
  }
  const list = (s) => s.split(',').map(Number)
  const o = { hold: Number(out['--hold']), rates: list(out['--rates']), max: list(out['--max']), duration: Number(out['--duration']) }
  const ok = o.hold > 0 && o.duration > 0 && [...o.rates, ...o.max].every((n) => Number.isFinite(n) && n > 0) && o.max.every(Number.isInteger)
  return ok ? o : null
}

function startServer (hold) {
  const code = `require('node:http').createServer((q, s) => setTimeout(() => s.end('ok'), ${hold})).listen(0, '127.0.0.1', function () { process.send(this.address().port) })`
  const args = os.availableParallelism() > 1 ? ['-c', '1', process.execPath, '-e', code] : null
  const child = args ? spawn('taskset', args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }) : spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve) => child.once('message', (port) => resolve({ child, port })))
}

async function main () {
  const o = parseArgs(process.argv.slice(2))
  if (o === null) {
    console.error(USAGE)
    process.exitCode = 2
    return
  }
  const { child, port } = await startServer(o.hold)
  const url = `http://127.0.0.1:${port}/`
  const duration = `${o.duration}s`
  console.log(`hold ${o.hold} ms, ${duration} per scenario, ${process.version}, load ${os.loadavg()[0].toFixed(1)}`)
  // need: r·h with the hold asked for; held: r·(mean latency from the actual send), what a loaded
  // machine makes of the hold; expected%: the drop of maxVUs below `held`; peak: r·(the slowest
  // response), the most VUs at once the pool can need (a stall of the server piles arrivals up)
  console.log('rate  need  held  peak  maxVUs  vus_max  planned  sent  dropped  dropped%  expected%  interrupted')
  for (const rate of o.rates) {
    const need = rate * o.hold / 1000
    for (const max of o.max) {
      const r = await load({ url, scenarios: { s: { executor: 'constant-arrival-rate', rate, duration, preAllocatedVUs: 1, maxVUs: max, gracefulStop: '5s' } } })
      const s = r.scenarios.s
      const held = rate * s.uncorrectedLatency.mean / 1000
      const expected = max >= held ? 0 : 100 * (1 - max / held)
      const peak = rate * s.uncorrectedLatency.max / 1000
      console.log([rate, need.toFixed(1), held.toFixed(1), peak.toFixed(1), max, s.vus_max, s.rate.planned, s.rate.sent, s.dropped_iterations,
        (100 * s.dropped_iterations / s.rate.planned).toFixed(1), expected.toFixed(1), s.interrupted].map(String).map((x) => x.padStart(5)).join('  '))
    }
  }
  console.log('constant-vus, 10 VUs: gracefulStop, drain past the duration (ms), interrupted, sent, answered')
  for (const gracefulStop of ['5s', '0s']) {
    const r = await load({ url, scenarios: { s: { executor: 'constant-vus', vus: 10, duration, gracefulStop } } })
    const s = r.scenarios.s
    console.log(`  ${gracefulStop.padEnd(3)}  ${Math.round(s.duration * 1000 - o.duration * 1000)}  ${s.interrupted}  ${s.requests.sent}  ${s.requests.total}`)
  }
  child.kill()
}

main().catch((err) => { console.error(err); process.exitCode = 1 })
