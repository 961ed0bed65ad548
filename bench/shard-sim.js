#!/usr/bin/env node
'use strict'
// How long a Node-core-sized compare takes on N machines, and how even the
// split of compare --shard is. The suite is simulated from counts of
// nodejs/node's benchmark/ folder (bench/data/node-benchmark-counts.json:
// files per category, configurations of sample files, the 85-hour full
// compare on one machine). Each file gets a configuration count drawn from
// the sampled files and a time per configuration from a log-normal spread,
// scaled so that one machine takes the quoted 85 hours; then the seeded plan
// (30 pairs per file) is split by lib/compare/shards.js exactly as the CLI
// does, once with the costs known (a --plan round from plan --next, which
// carries each file's measured time) and once without (the first round:
// every pair alike). Wall time is the most loaded shard.
//
// Usage: node bench/shard-sim.js [--seeds K] [--shards 1,2,4,8,16,32,64] [--json]
const path = require('node:path')
const { parseArgs } = require('node:util')
const { planSchedule, unitsOf, assignShards } = require('../lib/compare/shards.js')
const { createRng } = require('../lib/prng.js')

const DATA = require(path.join(__dirname, 'data', 'node-benchmark-counts.json'))

/**
 * A simulated suite: files with their seconds per run (one binary, all its
 * configurations), scaled to the quoted full-compare time.
 * @param {number} seed
 */
function simulateSuite (seed) {
  const rng = createRng(seed)
  const samples = Object.values(DATA.configurationsPerFile)
  const files = []
  const add = (category, n) => {
    for (let i = 0; i < n; i++) {
      const configs = samples[rng.int(samples.length)]
      // one process per configuration: start-up plus the measured section,
      // spread log-normally (sigma 0.8: a few files take 10x the median)
      const perConfig = Math.exp(0.8 * rng.normal())
      files.push({ file: `${category}/${i}.js`, name: `${category}/${i}.js`, configs, raw: configs * perConfig })
    }
  }
  for (const [category, n] of Object.entries(DATA.categories)) add(category, n)
  add('other', DATA.otherFiles)
  const rawTotal = files.reduce((a, f) => a + f.raw, 0) * 2 * DATA.runs
  const scale = DATA.fullCompareHours * 3600 / rawTotal
  const perPair = new Map(files.map((f) => [f.name, 2 * f.raw * scale]))
  return { files, perPair }
}

/** Wall time (s) and balance (max/mean) of a split, measured with the true costs. */
function measure (units, shardOf, count, perPair) {
  const load = new Array(count).fill(0)
  units.forEach((u, i) => { load[shardOf[i]] += perPair.get(u.filename) })
  const max = Math.max(...load)
  const mean = load.reduce((a, b) => a + b, 0) / count
  return { wall: max, balance: max / mean }
}

function simulate ({ seed, shardCounts }) {
  const { files, perPair } = simulateSuite(seed)
  const schedule = planSchedule([{ files, runs: DATA.runs, firstPair: 1 }], seed)
  const known = unitsOf(schedule, perPair)
  const blind = unitsOf(schedule)
  const total = known.reduce((a, u) => a + u.cost, 0)
  return {
    files: files.length,
    configurations: files.reduce((a, f) => a + f.configs, 0),
    pairs: known.length,
    totalHours: total / 3600,
    rows: shardCounts.map((n) => {
      const k = measure(known, assignShards(known, n).shardOf, n, perPair)
      const b = measure(blind, assignShards(blind, n).shardOf, n, perPair)
      return { shards: n, idealHours: total / n / 3600, knownHours: k.wall / 3600, knownBalance: k.balance, blindHours: b.wall / 3600, blindBalance: b.balance }
    })
  }
}

function main () {
  const { values } = parseArgs({ options: { seeds: { type: 'string', default: '5' }, shards: { type: 'string', default: '1,2,4,8,16,32,64' }, json: { type: 'boolean' } } })
  const shardCounts = values.shards.split(',').map(Number)
  const runs = Array.from({ length: Number(values.seeds) }, (_, i) => simulate({ seed: 1000 + i, shardCounts }))
  if (values.json) {
    console.log(JSON.stringify(runs, null, 2))
    return
  }
  const first = runs[0]
  console.log(`suite: ${first.files} files, ${first.configurations} configurations (seed 1000), ${DATA.runs} pairs each: ${first.pairs} pairs, ${first.totalHours.toFixed(1)} h on one machine`)
  console.log(`${runs.length} simulated suites (seeds 1000..${999 + runs.length}); hours as median [min, max]; balance = busiest shard / mean shard\n`)
  const fmt = (xs, d = 2) => {
    const s = xs.slice().sort((a, b) => a - b)
    return `${s[Math.floor(s.length / 2)].toFixed(d)} [${s[0].toFixed(d)}, ${s[s.length - 1].toFixed(d)}]`
  }
  console.log('shards  ideal h   costs known (--plan): wall h, balance        costs unknown (first round): wall h, balance')
  shardCounts.forEach((n, j) => {
    const col = (k) => runs.map((r) => r.rows[j][k])
    console.log(`${String(n).padStart(6)}  ${col('idealHours')[0].toFixed(2).padStart(7)}   ${fmt(col('knownHours')).padEnd(20)} ${fmt(col('knownBalance'), 3).padEnd(22)} ${fmt(col('blindHours')).padEnd(20)} ${fmt(col('blindBalance'), 3)}`)
  })
}

if (require.main === module) main()

module.exports = { simulate, simulateSuite }
