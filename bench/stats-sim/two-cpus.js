#!/usr/bin/env node
'use strict'
// Designs of compare on a 2-CPU machine under load, side by side, on one
// seeded noise model of that machine:
//
// - two CPUs, and a share of one of them taken by other work (a "hog"): the
//   CPU it sits on runs a pinned process at 1 / (1 + u) of its speed, u
//   between 0 and 1 (an effective speed ratio of 1.0 to 2.0), u drifting (a
//   reflected random walk), the hog moving to the other CPU every couple of
//   minutes on average (so which CPU is faster swaps within minutes), and a
//   time-shared CPU's measurements noisier (time slices land in them);
// - machine-wide load spells, drift, per-process effects, heavy-tailed noise,
//   outliers and an order effect: model.js's "loaded" preset;
// - time: every configuration's measurement takes 0.5 s; a serial pair runs
//   its two runs one after the other, a duet pair both at once.
//
// Designs: floating serial (each run on either CPU, as Node core's compare.js
// runs under load), serial on one CPU (both runs of a pair on one CPU, drawn
// per pair: lib/compare/pin.js), random duet (the CPU sets drawn per pair:
// the previous --duet) and crossover duet (blocks of two pairs, analysed per
// block: lib/compare/duet.js, lib/stats/crossover.js). Each under fixed 30
// pairs and --runs seq (the betting rule of lib/stats/sequential.js, run
// through the same rule object compare runs), for A/A and true changes of
// 2%, 5% and 20%: calls per configuration and per suite, coverage, pairs
// used, power. Then futility: true 3% and 7% changes that the rule gave up
// on for futility, but that the same machine run to --max-runs would call.
// Then the per-block and the per-arm estimate of the crossover.
//
//   node bench/stats-sim/two-cpus.js [--sims N] [--seed S] [--max-runs N] [--only table,futility,estimate]
//
// The figures in bench/stats-sim/two-cpus.md come from this script.
const { parseArgs } = require('node:util')
const { createRng } = require('../../lib/prng.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { seqRule } = require('../../lib/compare/sequential.js')
const { seqLabel } = require('../../lib/stats/sequential.js')
const { crossoverArm } = require('../../lib/compare/duet.js')
const { cpuForPair } = require('../../lib/compare/pin.js')
const { perArmEstimate, blocksOf } = require('../../lib/stats/crossover.js')
const { PRESETS, suite } = require('./model.js')

const STEP_S = 0.5 // seconds per configuration's measurement
const HOG = { step: 0.04, moveEvery: 120, noise: 2 } // u's walk per second, mean seconds between moves, noise growth with u

function t3 (rng) {
  const z = rng.normal()
  let chi = 0
  for (let i = 0; i < 3; i++) { const x = rng.normal(); chi += x * x }
  return z / Math.sqrt(chi / 3) / Math.sqrt(3)
}

/**
 * The machine: its clock, the hog (CPU, share) and the machine-wide state.
 * @param {number} seed
 * @param {'float'|'one-cpu'|'duet-random'|'duet-crossover'} design
 */
function createMachine (seed, design) {
  const n = PRESETS.loaded
  const rng = createRng(seed)
  let clock = 0
  let hogCpu = rng.int(2)
  let u = rng.uniform()
  let level = 0
  let spell = false
  let run = 0
  // advances the machine by dt seconds
  function advance (dt) {
    clock += dt
    u += HOG.step * Math.sqrt(dt) * rng.normal()
    if (u < 0) u = -u
    if (u > 1) u = 2 - u
    if (rng.uniform() < dt / HOG.moveEvery) hogCpu = 1 - hogCpu
    level += n.drift * rng.normal()
    if (spell ? rng.uniform() < n.spellOut : rng.uniform() < n.spellIn) spell = !spell
  }
  // log speed and noise of a measurement on a CPU now (the machine-wide part too)
  function onCpu (cpu) {
    const share = cpu === hogCpu ? u : 0
    let x = level - Math.log1p(share) + n.measure * (1 + HOG.noise * share) * t3(rng)
    if (spell) x -= n.spellDepth
    if (rng.uniform() < n.outlier) x -= n.outlierDepth * (0.5 + rng.uniform())
    return x
  }
  function runPairs (files, pairs, firstPair = 1) {
    const rows = []
    for (let p = firstPair; p < firstPair + pairs; p++) {
      for (const f of rng.shuffle([...files])) {
        if (design === 'float' || design === 'one-cpu') {
          const order = rng.uniform() < 0.5 ? ['old', 'new'] : ['new', 'old']
          const pinned = design === 'one-cpu' ? cpuForPair(seed, f.name, p, [0, 1]) : undefined
          order.forEach((binary, i) => {
            run++
            const cpu = pinned ?? rng.int(2)
            const proc = n.process * rng.normal() + (i === 1 ? n.order : 0)
            for (const c of f.configs) {
              advance(STEP_S)
              const effect = binary === 'new' ? Math.log(c.effect) : 0
              rows.push({ binary, filename: f.name, configuration: c.configuration, rate: c.base * Math.exp(effect + proc + onCpu(cpu)), time: STEP_S, pair: p, order: i + 1, run, seed, ...(pinned === undefined ? {} : { cpuset: String(pinned) }) })
            }
          })
        } else {
          const arm = design === 'duet-crossover' ? crossoverArm(seed, f.name, p) : { block: undefined, oldOnFirst: rng.uniform() < 0.5 }
          const cpuOf = { old: arm.oldOnFirst ? 0 : 1, new: arm.oldOnFirst ? 1 : 0 }
          const proc = { old: n.process * rng.normal(), new: n.process * rng.normal() }
          for (const c of f.configs) {
            advance(STEP_S)
            for (const binary of ['old', 'new']) {
              const effect = binary === 'new' ? Math.log(c.effect) : 0
              rows.push({ binary, filename: f.name, configuration: c.configuration, rate: c.base * Math.exp(effect + proc[binary] + onCpu(cpuOf[binary])), time: STEP_S, pair: p, order: 1, seed, executor: 'duet', cpuset: String(cpuOf[binary]), ...(arm.block === undefined ? {} : { cpu_block: String(arm.block) }) })
            }
          }
        }
      }
    }
    return rows
  }
  return { runPairs, clock: () => clock }
}

const DESIGNS = /** @type {const} */ (['float', 'one-cpu', 'duet-random', 'duet-crossover'])

function counter (effect) {
  const want = effect > 1 ? 'faster' : effect < 1 ? 'slower' : undefined
  const truth = Math.log(effect)
  const c = { tests: 0, calls: 0, right: 0, wrong: 0, suites: 0, covered: 0, pairs: 0, wall: 0, sims: 0, futility: 0 }
  return {
    add (results, wall) {
      c.sims++
      c.wall += wall
      const k = results.filter((r) => r.verdict === 'faster' || r.verdict === 'slower').length
      c.tests += results.length
      c.calls += k
      if (k > 0) c.suites++
      c.right += results.filter((r) => r.verdict === want).length
      c.wrong += results.filter((r) => (r.verdict === 'faster' || r.verdict === 'slower') && r.verdict !== want).length
      c.covered += results.filter((r) => Math.log1p(r.ci[0] / 100) <= truth && truth <= Math.log1p(r.ci[1] / 100)).length
      c.pairs += results.reduce((s, r) => s + (r.stop ? r.stop.pairs : r.n_pairs), 0)
      c.futility += results.filter((r) => r.stop && r.stop.reason === 'futility').length
    },
    summary () {
      const r3 = (x) => Math.round(x * 1000) / 1000
      return {
        ...(want ? { power: r3(c.right / c.tests), wrongWay: r3(c.wrong / c.tests) } : { callRate: r3(c.calls / c.tests), suiteRate: r3(c.suites / c.sims) }),
        coverage: r3(c.covered / c.tests),
        meanPairs: Math.round(c.pairs / c.tests * 10) / 10,
        futility: r3(c.futility / c.tests),
        wallS: Math.round(c.wall / c.sims)
      }
    }
  }
}

const simSeed = (seed, i, d) => (seed * 1000003 + i * 7919 + d * 104729) >>> 0

/**
 * One suite under a design and a rule; returns the analysis and the wall time.
 * @param {{design: string, rule: 'fixed'|'seq', effect: number, seed: number, files: number, configs: number, maxPairs: number, futility?: boolean}} o
 */
async function runOnce (o) {
  const m = createMachine(o.seed, /** @type {any} */ (o.design))
  const s = suite(o.files, o.configs, () => o.effect)
  if (o.rule === 'fixed') return { a: analyze(m.runPairs(s, 30, 1)), wall: m.clock(), rows: undefined }
  const params = { alpha: 0.05, threshold: 1, maxPairs: o.maxPairs, ...(o.futility === false ? { futility: false } : {}) }
  const rule = seqRule(params)
  const label = seqLabel(params)
  const fileList = s.map((f) => ({ file: f.name, name: f.name }))
  const pick = (fs) => s.filter((f) => fs.some((x) => x.name === f.name))
  const res = await rule.run({
    plan: /** @type {any} */ ({ files: fileList }),
    previous: [],
    runSchedule: async () => ({ rows: [], stopped: false }),
    runBatch: async (fs, pairs, firstPair) => ({ rows: m.runPairs(pick(fs), pairs, firstPair).map((r) => ({ ...r, rule: label })), stopped: false }),
    log: () => {}
  })
  return { a: analyze(res.rows), wall: m.clock(), rows: res.rows }
}

async function table ({ sims, seed, files, configs, maxPairs }) {
  const out = {}
  for (const effect of [1, 1.02, 1.05, 1.2]) {
    for (const rule of /** @type {const} */ (['fixed', 'seq'])) {
      for (const [d, design] of DESIGNS.entries()) {
        const c = counter(effect)
        for (let i = 0; i < sims; i++) {
          const r = await runOnce({ design, rule, effect, seed: simSeed(seed, i, d), files, configs, maxPairs })
          c.add(r.a.results, r.wall)
        }
        const key = `${effect === 1 ? 'A/A' : `+${Math.round((effect - 1) * 100)}%`} ${rule === 'fixed' ? 'fixed 30' : 'seq'} ${design}`
        out[key] = c.summary()
        process.stderr.write(`${key}: ${JSON.stringify(out[key])}\n`)
      }
    }
  }
  return out
}

// Futility against --max-runs: for true 3% and 7% changes, the share of
// configurations the rule gave up on for futility while the same machine
// (same seed), with futility off and every configuration run to --max-runs,
// calls them the right way.
async function futility ({ sims, seed, files, configs, maxPairs }) {
  const out = {}
  for (const effect of [1.03, 1.07]) {
    for (const design of /** @type {const} */ (['one-cpu', 'duet-crossover'])) {
      let tests = 0
      let gaveUp = 0
      let lost = 0
      let calledOn = 0
      let calledOff = 0
      for (let i = 0; i < sims; i++) {
        const sd = simSeed(seed, i, 7)
        const on = await runOnce({ design, rule: 'seq', effect, seed: sd, files, configs, maxPairs })
        const off = await runOnce({ design, rule: 'seq', effect, seed: sd, files, configs, maxPairs, futility: false })
        on.a.results.forEach((r, j) => {
          tests++
          const want = 'faster'
          if (r.verdict === want) calledOn++
          if (off.a.results[j].verdict === want) calledOff++
          if (r.stop.reason === 'futility') {
            gaveUp++
            if (off.a.results[j].verdict === want) lost++
          }
        })
      }
      const key = `+${Math.round((effect - 1) * 100)}% ${design}`
      out[key] = { tests, futilityStops: gaveUp / tests, lostToFutility: lost / tests, powerWithFutility: calledOn / tests, powerToMaxRuns: calledOff / tests }
      process.stderr.write(`futility ${key}: ${JSON.stringify(out[key])}\n`)
    }
  }
  return out
}

// The crossover's two estimates of the change over the same 30 pairs (15
// blocks): the mean of each block's two log ratios (the median over blocks,
// as the signed-rank estimate would centre it, is close) and the mean of the
// per-arm medians. Bias and root mean square error in %, true change +5%.
function estimate ({ sims, seed, files, configs }) {
  const truth = Math.log(1.05)
  const e = { perBlock: [], perArm: [] }
  for (let i = 0; i < sims; i++) {
    const m = createMachine(simSeed(seed, i, 11), 'duet-crossover')
    const rows = m.runPairs(suite(files, configs, () => 1.05), 30, 1)
    const by = new Map()
    for (const b of blocksOf(rows)) {
      const key = `${b.filename}\u0000${b.configuration}`
      const g = by.get(key) ?? { blocks: [], pairs: [] }
      const xs = b.pairs.map((p) => ({ x: Math.log(p.new.rate / p.old.rate), arm: /** @type {0|1} */ (p.set === '0' ? 0 : 1) }))
      g.blocks.push((xs[0].x + xs[1].x) / 2)
      g.pairs.push(...xs)
      by.set(key, g)
    }
    for (const g of by.values()) {
      const sorted = [...g.blocks].sort((a, b) => a - b)
      e.perBlock.push(sorted[sorted.length >> 1] - truth)
      e.perArm.push(perArmEstimate(g.pairs) - truth)
    }
  }
  const pct = (x) => Math.round(x * 10000) / 100
  const sum = (xs) => ({ biasPct: pct(xs.reduce((s, x) => s + x, 0) / xs.length), rmsePct: pct(Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length)), n: xs.length })
  return { perBlockMedian: sum(e.perBlock), perArmMedians: sum(e.perArm) }
}

async function main () {
  const { values } = parseArgs({ options: { sims: { type: 'string', default: '100' }, seed: { type: 'string', default: '1' }, 'max-runs': { type: 'string', default: '100' }, only: { type: 'string', default: 'table,futility,estimate' }, files: { type: 'string', default: '3' }, configs: { type: 'string', default: '4' } } })
  const o = { sims: Number(values.sims), seed: Number(values.seed), maxPairs: Number(values['max-runs']), files: Number(values.files), configs: Number(values.configs) }
  const only = new Set(values.only.split(','))
  const out = { command: `node bench/stats-sim/two-cpus.js --sims ${o.sims} --seed ${o.seed} --max-runs ${o.maxPairs} --files ${o.files} --configs ${o.configs} --only ${values.only}`, hog: HOG, stepS: STEP_S }
  if (only.has('estimate')) out.estimate = estimate(o)
  if (only.has('table')) out.table = await table(o)
  if (only.has('futility')) out.futility = await futility(o)
  process.stdout.write(JSON.stringify(out, null, 2) + '\n')
}

if (require.main === module) main().catch((err) => { process.stderr.write(`${err.stack}\n`); process.exitCode = 1 })

module.exports = { createMachine, runOnce }
