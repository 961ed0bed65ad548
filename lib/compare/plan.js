'use strict'
// The plan of a comparison: what is compared (two sides), which files, how
// many pairs of each in which batches, the seed, and the seeded schedule of
// runs; with --shard, the slice of the schedule this machine runs (the
// shard executor's part). Pure apart from the sides' describe().
const { UsageError } = require('../errors.js')
const { planSchedule, shardSchedule, planHash, hostFingerprint } = require('./shards.js')

/**
 * @typedef {{file: string, name: string}} PlanFile
 * @typedef {object} Plan
 * @property {import('./sides.js').Sides} sides
 * @property {string} root the benchmark directory the files are named from
 * @property {number} seed
 * @property {PlanFile[]} files
 * @property {import('./shards.js').Batch[]} batches
 * @property {Map<string, number>|undefined} costs expected seconds per pair by file (a round plan's)
 * @property {import('./schedule.js').ScheduledRun[]} schedule the runs this process runs, in order
 * @property {string} id the plan column: its hash, or BASE.ROUND of a round plan
 * @property {{plan: string, host: string, shard_index?: number, shard_count?: number, executor?: string, rule?: string}} tags columns of every row
 * @property {{index: number, count: number, source: string, units: object[], pairs: number}} [shard]
 */

/**
 * The batches of the plan: every file with `runs` pairs, or the round a
 * --plan file describes (its files, each with its own pairs and first pair).
 * @param {PlanFile[]} found
 * @param {{runs?: number, auto?: {pilot: number}, plan?: import('./plan-file.js').RoundPlan, categories: string[]}} opts
 */
function planBatches (found, opts) {
  if (!opts.plan) return { files: found, batches: [{ files: found, runs: opts.runs ?? opts.auto?.pilot ?? 1, firstPair: 1 }], costs: undefined }
  const byName = new Map(found.map((f) => [f.name, f]))
  const groups = new Map()
  const costs = new Map()
  for (const e of opts.plan.files) {
    const f = byName.get(e.filename)
    if (!f) throw new UsageError(`--plan ${opts.plan.path}: ${e.filename} is not among the benchmark files of the categories given (${opts.categories.join(' ') || 'none'}); give the categories of the first round`)
    const key = `${e.firstPair}/${e.pairs}`
    const g = groups.get(key) ?? { files: [], runs: e.pairs, firstPair: e.firstPair }
    g.files.push(f)
    groups.set(key, g)
    if (e.cost > 0) costs.set(f.name, e.cost)
  }
  const batches = [...groups.values()]
  return { files: batches.flatMap((b) => b.files), batches, costs }
}

/**
 * @param {object} p
 * @param {import('./sides.js').Sides} p.sides
 * @param {string} p.root
 * @param {PlanFile[]} p.found the files the categories, --filter and --exclude select
 * @param {number} p.seed
 * @param {import('./options.js').CompareOptions} p.opts it reads runs, auto, plan (a round plan), categories, args, fileArgs (per file, when a --set is scoped), shard
 * @returns {Plan}
 */
function buildPlan ({ sides, root, found, seed, opts }) {
  const { files, batches, costs } = planBatches(found, opts)
  const hash = planHash({ seed, categories: opts.categories, batches, args: opts.args, fileArgs: opts.fileArgs, sha256: { old: sides.old.describe().sha256, new: sides.new.describe().sha256 } })
  const id = opts.plan ? `${opts.plan.base}.${opts.plan.round}` : hash
  /** @type {Plan} */
  const plan = { sides, root, seed, files, batches, costs, schedule: planSchedule(batches, seed), id, tags: { plan: id, host: hostFingerprint() } }
  if (opts.shard) sliceForShard(plan, opts.shard)
  return plan
}

/**
 * The shard executor's part: keeps this shard's whole pairs of the schedule
 * (balanced by expected time over the shards) and tags every row with it.
 * @param {Plan} plan changed in place
 * @param {{index: number, count: number, source: string}} shard
 */
function sliceForShard (plan, shard) {
  const split = shardSchedule(plan.schedule, shard, plan.costs)
  plan.schedule = split.runs
  Object.assign(plan.tags, { shard_index: shard.index, shard_count: shard.count })
  plan.shard = { ...shard, units: split.units, pairs: split.runs.length / 2 }
  return plan
}

module.exports = { buildPlan, planBatches, sliceForShard }
