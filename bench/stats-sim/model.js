'use strict'
// A seeded model of a noisy benchmark machine, producing compare rows the
// way compare.js does (pairs of every file in one block, files shuffled in
// a block, old/new in random order within a pair, one process per run that
// measures every configuration of its file one after the other).
//
// What the machine does to a measured rate, from slowest to fastest:
// - drift: the machine's speed wanders (a random walk on the log scale, one
//   step per measurement), so runs far apart differ;
// - slow spells: a background load that starts and ends at any measurement,
//   also between the old and the new run of a pair (so pairing does not
//   cancel it);
// - a per-process effect shared by all configurations of one run (the heap,
//   code layout and CPU placement of that process), which correlates the
//   configurations' ratios within a pair;
// - heavy-tailed noise per measurement (Student t with 3 degrees of freedom);
// - outliers: a measurement hit by a background job;
// - an order effect: the second run of a pair is a little faster (a warm
//   page cache).
const { createRng } = require('../../lib/prng.js')

/** Noise presets (log-scale sizes). */
const PRESETS = {
  // A developer machine with other programs open.
  realistic: { drift: 0.003, spellIn: 0.01, spellOut: 0.08, spellDepth: 0.15, process: 0.02, measure: 0.01, outlier: 0.01, outlierDepth: 0.35, order: 0.01 },
  // A 2-core machine shared with test suites (what this project runs on).
  loaded: { drift: 0.006, spellIn: 0.03, spellOut: 0.08, spellDepth: 0.3, process: 0.05, measure: 0.02, outlier: 0.03, outlierDepth: 0.6, order: 0.02 }
}

// Student t with 3 degrees of freedom, scaled to unit standard deviation.
function t3 (rng) {
  const z = rng.normal()
  let chi = 0
  for (let i = 0; i < 3; i++) { const x = rng.normal(); chi += x * x }
  return z / Math.sqrt(chi / 3) / Math.sqrt(3)
}

/**
 * The machine's state over time: a drifting level, slow spells and rare
 * outliers. Each call advances it one step; `noise()` adds a measurement's
 * own noise, drawn between the spell and the outlier so that the seeded draws
 * keep their order.
 * @param {any} n a noise preset
 * @param {ReturnType<typeof createRng>} rng
 * @returns {(noise: () => number) => number}
 */
function createInterference (n, rng) {
  let level = 0
  let spell = false
  return (noise) => {
    level += n.drift * rng.normal()
    if (spell ? rng.uniform() < n.spellOut : rng.uniform() < n.spellIn) spell = !spell
    let x = level + noise()
    if (spell) x -= n.spellDepth
    if (rng.uniform() < n.outlier) x -= n.outlierDepth * (0.5 + rng.uniform())
    return x
  }
}

/**
 * A machine whose state (drift, spell) carries over between batches.
 * @param {number} seed
 * @param {keyof PRESETS | object} noise
 */
function createMachine (seed, noise = 'realistic') {
  const n = typeof noise === 'string' ? PRESETS[noise] : noise
  if (!n) throw new Error(`unknown noise preset ${noise}`)
  const rng = createRng(seed)
  let run = 0
  const machine = createInterference(n, rng)
  // One measurement: advances the machine by one step.
  const step = () => machine(() => n.measure * t3(rng))

  /**
   * Runs `pairs` pairs of the files from pair number firstPair.
   * @param {{name: string, configs: {configuration: string, base?: number, effect?: number}[]}[]} files
   *   effect: true ratio new/old of the configuration
   * @param {number} pairs
   * @param {number} [firstPair]
   * @param {number|string} [runSeed] the seed column of the rows
   */
  function runPairs (files, pairs, firstPair = 1, runSeed = seed) {
    const rows = []
    for (let p = firstPair; p < firstPair + pairs; p++) {
      for (const f of rng.shuffle([...files])) {
        const order = rng.uniform() < 0.5 ? ['old', 'new'] : ['new', 'old']
        order.forEach((binary, i) => {
          run++
          const proc = n.process * rng.normal() + (i === 1 ? n.order : 0)
          for (const c of f.configs) {
            const effect = binary === 'new' ? Math.log(c.effect ?? 1) : 0
            const rate = (c.base ?? 1e6) * Math.exp(effect + proc + step())
            rows.push({ binary, filename: f.name, configuration: c.configuration, rate, time: 0.5, pair: p, order: i + 1, run, seed: runSeed })
          }
        })
      }
    }
    return rows
  }
  return { runPairs, rng }
}

/**
 * A suite of files with configurations and true effects.
 * @param {number} files
 * @param {number} configs per file
 * @param {(f: number, c: number) => number} effect true ratio new/old
 */
function suite (files, configs, effect = () => 1) {
  return Array.from({ length: files }, (_, f) => ({
    name: `sim/f${f}.js`,
    configs: Array.from({ length: configs }, (_, c) => ({ configuration: `c=${c}`, base: 1e5 * (1 + f + c), effect: effect(f, c) }))
  }))
}

module.exports = { createMachine, suite, PRESETS }

/**
 * A machine for --duet: the two runs of a pair at once, each on its own CPU
 * set. What hits the machine during a pair (drift, slow spells, outliers: the
 * interference) hits both halves alike; each half keeps its own process
 * effect and measurement noise; and CPU set B runs `setBias` (log) faster
 * than set A. randomise: the sides get the sets at random per pair (what
 * compare --duet does); false: old always on A.
 * @param {number} seed
 * @param {keyof PRESETS} noise
 * @param {{setBias?: number, randomise?: boolean}} [opts]
 */
function createDuetMachine (seed, noise = 'realistic', { setBias = 0.03, randomise = true } = {}) {
  const n = PRESETS[noise]
  const rng = createRng(seed)
  const machine = createInterference(n, rng)
  // what both halves of a duet pair share: the machine's step without the
  // measurement's own noise (each half draws its own)
  const shared = () => machine(() => 0)
  function runPairs (files, pairs, firstPair = 1, runSeed = seed) {
    const rows = []
    for (let p = firstPair; p < firstPair + pairs; p++) {
      for (const f of rng.shuffle([...files])) {
        const oldOnB = randomise ? rng.uniform() < 0.5 : false
        const proc = { old: n.process * rng.normal(), new: n.process * rng.normal() }
        for (const c of f.configs) {
          const s = shared()
          for (const binary of ['old', 'new']) {
            const onB = binary === 'old' ? oldOnB : !oldOnB
            const effect = binary === 'new' ? Math.log(c.effect ?? 1) : 0
            const rate = (c.base ?? 1e6) * Math.exp(effect + s + proc[binary] + n.measure * t3(rng) + (onB ? setBias : 0))
            rows.push({ binary, filename: f.name, configuration: c.configuration, rate, time: 0.5, pair: p, order: 1, seed: runSeed, cpuset: onB ? 'B' : 'A' })
          }
        }
      }
    }
    return rows
  }
  return { runPairs, rng }
}

module.exports.createDuetMachine = createDuetMachine
