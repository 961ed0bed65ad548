'use strict'
// The two small JSON files of sharded compares:
// - FILE.plan.json beside a shard's --output: the whole split (every pair of
//   the plan and its shard), so that `benchrig analyze` can name the pairs of
//   a shard that never reported;
// - a round plan (`benchrig plan --next` writes it, `compare --plan` reads
//   it): the seed and, per file, the first pair number and how many pairs.
const fs = require('node:fs')
const { UsageError } = require('../errors.js')

const SIDECAR_SCHEMA = 'benchrig-shards/1'
const ROUND_SCHEMA = 'benchrig-plan/1'

/** @param {string} csvFile */
function sidecarPath (csvFile) {
  return `${csvFile}.plan.json`
}

/**
 * @param {string} csvFile the shard's --output
 * @param {{plan: string, seed: number, shardCount: number, units: {filename: string, pair: number, shard: number}[]}} split
 */
function writePlanSidecar (csvFile, split) {
  const body = {
    schema: SIDECAR_SCHEMA,
    plan: split.plan,
    seed: split.seed,
    shardCount: split.shardCount,
    // [filename, pair, shard] triples: a Node-core-sized plan has ~10^4
    units: split.units.map((u) => [u.filename, u.pair, u.shard])
  }
  try {
    fs.writeFileSync(sidecarPath(csvFile), JSON.stringify(body) + '\n')
  } catch (err) {
    throw new UsageError(`--output ${csvFile}: cannot write ${sidecarPath(csvFile)} beside it (${err.code || err.message})`)
  }
}

/**
 * The split recorded beside a CSV, or undefined when there is none.
 * @param {string} csvFile
 */
function readPlanSidecar (csvFile) {
  const p = sidecarPath(csvFile)
  if (!fs.existsSync(p)) return undefined
  let body
  try {
    body = JSON.parse(fs.readFileSync(p, 'utf8'))
  } catch (err) {
    throw new UsageError(`${p}: not valid JSON (${err.message}); delete it to analyse ${csvFile} without the plan's list of pairs`)
  }
  if (body.schema !== SIDECAR_SCHEMA || !Array.isArray(body.units)) throw new UsageError(`${p}: not a shard plan written by compare --shard (schema ${SIDECAR_SCHEMA})`)
  return {
    plan: String(body.plan),
    seed: Number(body.seed),
    shardCount: Number(body.shardCount),
    units: body.units.map((/** @type {[string, number, number]} */ [filename, pair, shard]) => ({ filename, pair, shard }))
  }
}

/**
 * @typedef {{path: string, base: string, round: number, seed: number,
 *   files: {filename: string, firstPair: number, pairs: number, cost: number}[]}} RoundPlan
 */

/**
 * Reads and checks a round plan (compare --plan FILE).
 * @param {string} file
 * @returns {RoundPlan}
 */
function readRoundPlan (file) {
  let body
  try {
    body = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new UsageError(`--plan ${file}: cannot read it as JSON (${err.code || err.message}); give a file written by benchrig plan --next`)
  }
  const bad = (/** @type {string} */ why) => new UsageError(`--plan ${file}: ${why}; give a file written by benchrig plan --next`)
  if (!body || body.schema !== ROUND_SCHEMA) throw bad(`not a round plan (schema ${ROUND_SCHEMA})`)
  if (!Number.isInteger(body.seed) || body.seed < 0) throw bad('no whole "seed"')
  if (!Array.isArray(body.files)) throw bad('no "files" list')
  if (body.files.length === 0) throw bad('no file needs more pairs (the comparison is done)')
  for (const f of body.files) {
    if (typeof f.filename !== 'string' || !(Number.isInteger(f.firstPair) && f.firstPair >= 1) || !(Number.isInteger(f.pairs) && f.pairs >= 1)) {
      throw bad(`a file entry needs filename, firstPair >= 1 and pairs >= 1 (got ${JSON.stringify(f)})`)
    }
  }
  return { path: file, base: String(body.base), round: Number(body.round), seed: body.seed, files: body.files }
}

module.exports = { writePlanSidecar, readPlanSidecar, readRoundPlan, sidecarPath, SIDECAR_SCHEMA, ROUND_SCHEMA }
