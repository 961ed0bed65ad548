'use strict'
// A compare plan split over machines. Every shard builds the same seeded
// schedule, splits it into disjoint parts by whole pairs (both runs of a
// pair on one machine: the pair is the unit of analysis, and a ratio of two
// machines' rates would measure the machines), and runs its own part. The
// split is balanced by expected run time (longest first onto the least
// loaded shard), so it needs no coordination: the same inputs give the
// same split on every machine.
const crypto = require('node:crypto')
const os = require('node:os')
const { buildSchedule } = require('./schedule.js')

/**
 * @typedef {{files: {file: string, name: string}[], runs: number, firstPair: number}} Batch
 *   one buildSchedule call: `runs` pairs of each file, numbered from firstPair
 * @typedef {{filename: string, pair: number, cost: number}} Unit one pair of one file
 */

/**
 * The whole seeded schedule of a plan of one or more batches.
 * @param {Batch[]} batches
 * @param {number} seed
 */
function planSchedule (batches, seed) {
  return batches.flatMap((b) => buildSchedule({ files: b.files, runs: b.runs, seed, firstPair: b.firstPair }))
}

/**
 * The pairs of a schedule, in schedule order, with their expected cost.
 * @param {import('./schedule.js').ScheduledRun[]} schedule
 * @param {Map<string, number>} [costs] filename -> expected seconds per pair (default 1)
 * @returns {Unit[]}
 */
function unitsOf (schedule, costs) {
  const seen = new Set()
  const units = []
  for (const r of schedule) {
    const key = `${r.name}\u0000${r.pair}`
    if (seen.has(key)) continue
    seen.add(key)
    const c = costs && costs.get(r.name)
    units.push({ filename: r.name, pair: r.pair, cost: c > 0 ? c : 1 })
  }
  return units
}

/**
 * Longest-processing-time-first: units sorted by cost (schedule order among
 * equals), each onto the shard with the least expected time so far (the
 * lowest index among equals). With every cost alike this deals the units
 * round-robin; every shard gets a unit when there are at least `count`.
 * @param {Unit[]} units
 * @param {number} count
 * @returns {{shardOf: number[], load: number[]}} shardOf[i]: shard of units[i]; load: expected time per shard
 */
function assignShards (units, count) {
  const order = units.map((_, i) => i).sort((a, b) => units[b].cost - units[a].cost || a - b)
  const load = new Array(count).fill(0)
  const shardOf = new Array(units.length)
  for (const i of order) {
    let best = 0
    for (let s = 1; s < count; s++) if (load[s] < load[best]) best = s
    shardOf[i] = best
    load[best] += units[i].cost
  }
  return { shardOf, load }
}

/**
 * The runs of one shard, in the plan's order, and the plan's full split.
 * @param {import('./schedule.js').ScheduledRun[]} schedule
 * @param {{index: number, count: number}} shard
 * @param {Map<string, number>} [costs]
 */
function shardSchedule (schedule, shard, costs) {
  const units = unitsOf(schedule, costs)
  const { shardOf, load } = assignShards(units, shard.count)
  const mine = new Set()
  units.forEach((u, i) => { if (shardOf[i] === shard.index) mine.add(`${u.filename}\u0000${u.pair}`) })
  return {
    runs: schedule.filter((r) => mine.has(`${r.name}\u0000${r.pair}`)),
    units: units.map((u, i) => ({ filename: u.filename, pair: u.pair, shard: shardOf[i] })),
    load
  }
}

/**
 * A short hash of what decides the plan's measurements: the seed, the
 * categories and files, the runs of each batch, --set, and the binaries'
 * contents; with scoped settings (--set SCOPE:key=value, a question file),
 * every file's own. Shards with equal hashes belong to one comparison.
 * @param {{seed: number, categories: string[], batches: Batch[], args: string[], fileArgs?: Map<string, string[]>, sha256: {old: string, new: string}}} p
 * @returns {string} 16 hex digits
 */
function planHash (p) {
  const canonical = JSON.stringify({
    seed: p.seed,
    categories: p.categories,
    batches: p.batches.map((b) => ({ files: b.files.map((f) => f.name), runs: b.runs, firstPair: b.firstPair })),
    set: p.args,
    ...(p.fileArgs ? { fileSet: [...p.fileArgs].sort((a, b) => (a[0] < b[0] ? -1 : 1)) } : {}),
    old: p.sha256.old,
    new: p.sha256.new
  })
  return crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 16)
}

/**
 * What the hardware and software of the driver look like, as one string:
 * the CPU model and count, the kernel, the driver's node version. Shards
 * with different fingerprints ran on different machines' kinds (the
 * analysis warns: see docs/compare.md).
 * @param {{cpus?: () => {model: string}[], release?: string, version?: string}} [probe] for tests
 */
function hostFingerprint (probe = {}) {
  const cpus = (probe.cpus ?? os.cpus)()
  const model = cpus[0] ? cpus[0].model.trim().replace(/\s+/g, ' ') : 'unknown CPU'
  return `${model} x${cpus.length}; ${process.platform} ${probe.release ?? os.release()}; node ${probe.version ?? process.version}`
}

module.exports = { planSchedule, unitsOf, assignShards, shardSchedule, planHash, hostFingerprint }
