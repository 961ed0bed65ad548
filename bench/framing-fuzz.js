#!/usr/bin/env node
'use strict'
// The long form of test/engine/llhttp-diff.test.js: seeded random HTTP/1.x
// response streams (valid and broken, and well-formed responses after a fault
// or a cut), each served by a raw `net` server to the engine and to a client
// built on node's own llhttp, verdicts compared (complete responses and their
// status codes, errors by kind, requests re-sent on a new connection, 1xx
// count). Prints the counts by kind; exits 1 when a disagreement is not one
// of the RFC-allowed readings that docs/load.md lists (each checked by
// llhttp reading the stream rewritten that way).
//
//   node bench/framing-fuzz.js [--seed 1] [--cases 5000] [--parallel 16] [--timeout 3] [--verbose]
//
// A disagreement prints its seed: `--seed N --cases 1 --verbose` replays it.
const { runCases, ALLOWED } = require('../test/helpers/llhttp-diff.js')

const USAGE = 'usage: node bench/framing-fuzz.js [--seed 1] [--cases 5000] [--parallel 16] [--timeout 3] [--verbose]'
const VALUED = ['--seed', '--cases', '--parallel', '--timeout']

function usageError (why) {
  console.error(`bench/framing-fuzz.js: ${why}\n${USAGE}`)
  process.exit(2)
}

for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  if (VALUED.includes(a)) {
    if (i + 1 >= process.argv.length) usageError(`${a} needs a value`)
    i++
  } else if (a !== '--verbose') {
    usageError(`unknown argument "${a}"`)
  }
}

function arg (name, def) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : def
}

function positive (name, def) {
  const v = Number(arg(name, def))
  if (!Number.isInteger(v) || v < 1) {
    usageError(`--${name} must be a positive integer, got "${arg(name, def)}"`)
  }
  return v
}

async function main () {
  const seed0 = positive('seed', 1)
  const count = positive('cases', 5000)
  const parallel = positive('parallel', 16)
  const timeoutS = positive('timeout', 3)
  const verbose = process.argv.includes('--verbose')
  const started = Date.now()
  const out = await runCases({ seed0, count, parallel, timeoutS })
  const allowedTotal = Object.values(out.allowed).reduce((a, b) => a + b, 0)
  console.log(`seeds ${seed0}..${seed0 + count - 1}: ${out.cases} cases in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  console.log(`  agree: ${out.agree}`)
  console.log(`  RFC-allowed differences: ${allowedTotal}`)
  for (const [tag, n] of Object.entries(out.allowed).sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(5)}  ${tag}${ALLOWED[tag] ? `: ${ALLOWED[tag]}` : ' (together)'}`)
  console.log(`  disagreements: ${out.disagreements.length}`)
  for (const [kind, n] of Object.entries(out.byKind).sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(5)}  ${kind}`)
  console.log('  breaks tried: ' + Object.entries(out.byBreak).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', '))
  for (const d of out.disagreements.slice(0, verbose ? Infinity : 10)) console.log(JSON.stringify(d))
  if (out.disagreements.length > 0) process.exitCode = 1
}

main()
