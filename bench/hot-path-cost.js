#!/usr/bin/env node
'use strict'
// The engine's cost per request in CPU instructions, counted by valgrind's
// callgrind: unlike CPU seconds on a shared machine, an instruction count
// repeats from run to run whatever else the machine does, so a change to
// the hot path can be judged to a few percent. Each engine runs `load -a N1`
// and `load -a N2` against nginx (our config, `return 200`); the difference
// divided by N2 - N1 is the cost of one request without start-up.
//
//   node bench/hot-path-cost.js [--also LABEL=PATH/bin/benchrig.js] [--n1 10000] [--n2 30000]
//
// Instructions include node's own work (libuv, streams, the JIT) and none of
// the kernel's. Under valgrind a run is ~50x slower: a few minutes in all.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startNginx } = require('./lib/nginx.js')

const BIN = path.join(__dirname, '..', 'bin', 'benchrig.js')

function arg (name, def) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : def
}

const MODES = [
  { name: 'p=1', args: ['-c', '10'] },
  { name: 'p=10', args: ['-c', '10', '-p', '10'] },
  { name: 'p=10 --refill batch', args: ['-c', '10', '-p', '10', '--refill', 'batch'] }
]

/** Instructions of one run of `bin load ... -a n URL` under callgrind. */
function instructions (bin, modeArgs, n, url) {
  const out = path.join(os.tmpdir(), `benchrig-callgrind-${process.pid}.out`)
  const r = spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`,
    process.execPath, bin, 'load', ...modeArgs, '-a', String(n), '-j', url], { encoding: 'utf8', maxBuffer: 64 << 20 })
  fs.rmSync(out, { force: true })
  const m = /Collected : (\d+)/.exec(r.stderr)
  const done = /"total":(\d+)/.exec(r.stdout)
  if (!m || !done || Number(done[1]) !== n) throw new Error(`callgrind run failed (${bin} ${modeArgs.join(' ')} -a ${n}): ${r.stderr.slice(-400)}`)
  return Number(m[1])
}

async function main () {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind is not installed: apt-get install valgrind')
  const n1 = Number(arg('n1', '10000'))
  const n2 = Number(arg('n2', '30000'))
  const engines = [{ label: 'this checkout', bin: BIN }]
  const also = arg('also')
  if (also) {
    const [label, bin] = also.split('=')
    engines.push({ label, bin })
  }
  const nginx = await startNginx({})
  const rows = []
  try {
    for (const mode of MODES) {
      const per = {}
      // alternate the engines; each pair of amounts gives one figure
      for (const e of engines) {
        const a = instructions(e.bin, mode.args, n1, nginx.url)
        const b = instructions(e.bin, mode.args, n2, nginx.url)
        per[e.label] = (b - a) / (n2 - n1)
        process.stderr.write(`${mode.name} ${e.label}: ${per[e.label].toFixed(0)} instructions per request (start-up ${(a - per[e.label] * n1 / 1).toExponential(2)})\n`)
      }
      rows.push({ mode: mode.name, ...per })
    }
  } finally {
    await nginx.stop()
  }
  console.log(`\ninstructions per request (callgrind, -a ${n2} minus -a ${n1}, against nginx)`)
  for (const r of rows) {
    const cells = engines.map((e) => `${e.label} ${r[e.label].toFixed(0)}`)
    const ratio = engines.length > 1 ? `   ratio ${(r[engines[0].label] / r[engines[1].label]).toFixed(3)}` : ''
    console.log(`  ${r.mode.padEnd(22)} ${cells.join('   ')}${ratio}`)
  }
}

main().catch((err) => {
  console.error(err.message)
  process.exitCode = 1
})
