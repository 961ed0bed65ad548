'use strict'
// The seeded run order of a comparison. Block b holds pair b of every file,
// files shuffled within the block; inside each pair, old and new run back to
// back in a random order. Slow drift (thermal, background load) then hits
// both binaries alike and cancels in the pairwise ratios, and an order
// effect (the second run of a pair being faster) cancels on average.
const { createRng } = require('../prng.js')

/**
 * @typedef {{file: string, name: string, pair: number, binary: 'old'|'new', order: 1|2}} ScheduledRun
 */

/**
 * @param {{files: {file: string, name: string}[], runs: number, seed: number, firstPair?: number}} opts
 *   firstPair: number of the first pair (later batches of --runs auto continue the numbering)
 * @returns {ScheduledRun[]}
 */
function buildSchedule ({ files, runs, seed, firstPair = 1 }) {
  // One stream per batch, so that extending a run (auto mode) never changes
  // the order of the pairs already planned with the same seed.
  const rng = createRng((seed ^ Math.imul(firstPair, 0x9e3779b1)) >>> 0)
  /** @type {ScheduledRun[]} */
  const out = []
  for (let p = firstPair; p < firstPair + runs; p++) {
    const block = rng.shuffle(files.slice())
    for (const f of block) {
      const first = rng.uniform() < 0.5 ? 'old' : 'new'
      const second = first === 'old' ? 'new' : 'old'
      out.push({ file: f.file, name: f.name, pair: p, binary: first, order: 1 })
      out.push({ file: f.file, name: f.name, pair: p, binary: second, order: 2 })
    }
  }
  return out
}

/** Key of one run (a file with one binary for one pair). */
function runKey (name, binary, pair) {
  return `${name}\u0000${binary}\u0000${pair}`
}

module.exports = { buildSchedule, runKey }
