#!/usr/bin/env node
'use strict'
// Start-up CPU of `benchrig load` before any request: loading the CLI and
// parsing the argv of a plain HTTP configuration (the form bench.http()'s
// builtin adapter passes, parsed without yargs) against an argv that needs
// yargs, and `node -e 0`. Each is a fresh process reporting its own
// process.cpuUsage() at exit; the three alternate, and the figure is the
// median over rounds (with the range), and the median of per-round differences.
//
//   node bench/load-startup.js [--rounds 31]
const { spawnSync } = require('node:child_process')
const path = require('node:path')

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 31)
const LOAD = JSON.stringify(path.join(__dirname, '..', 'lib', 'cli', 'load.js'))
const URL = 'http://127.0.0.1:3000/'
const REPORT = "process.on('exit', () => { const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1e6)) });"
const cases = {
  'plain form (no yargs)': `${REPORT} require(${LOAD}).parse(${JSON.stringify(['-c', '50', '-d', '5', '-p', '10', '-j', URL])})`,
  'with --refill (yargs)': `${REPORT} require(${LOAD}).parse(${JSON.stringify(['-c', '50', '-d', '5', '-p', '10', '--refill', 'half', '-j', URL])})`,
  'node -e 0': REPORT
}
const names = Object.keys(cases)
const cpu = Object.fromEntries(names.map((n) => [n, []]))
for (let r = 0; r < rounds; r++) {
  for (let j = 0; j < names.length; j++) {
    const name = names[(j + r) % names.length]
    const out = spawnSync(process.execPath, ['-e', cases[name]], { encoding: 'utf8' })
    cpu[name].push(Number(out.stdout))
  }
}
const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s[(s.length - 1) >> 1] }
const show = (xs) => `${median(xs).toFixed(3)} s  [${Math.min(...xs).toFixed(3)} - ${Math.max(...xs).toFixed(3)}]`
console.log(`start-up CPU (user + system) of a fresh process, ${rounds} alternated rounds, ${process.version}`)
for (const n of names) console.log(`  ${n.padEnd(24)} ${show(cpu[n])}`)
const diff = cpu[names[1]].map((y, i) => y - cpu[names[0]][i])
console.log(`  yargs - plain, per round  ${show(diff)}`)
