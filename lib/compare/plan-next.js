'use strict'
// `benchrig plan --next`: the next round of a sharded --runs auto. From the
// rows of every shard so far, which files still need pairs and how many, by
// the same rule as --runs auto (each file's plan is set once, by the spread
// of the first round's ratios, never by their place, so stopping cannot lean
// towards an effect), numbered after the pairs
// already run, with each file's measured time per pair so that the next
// split is balanced.
const { UsageError } = require('../errors.js')
const { filesNeedingPairs } = require('./auto.js')
const { basePlan } = require('./shard-check.js')
const { ROUND_SCHEMA } = require('./plan-file.js')

/**
 * @param {Record<string, any>[]} rows every row of every shard so far (checked: one plan)
 * @param {{target: number, maxPairs: number}} opts
 * @returns {{schema: string, base: string, round: number, seed: number, target: number,
 *   maxPairs: number, files: {filename: string, firstPair: number, pairs: number, cost: number}[], capped: number}}
 */
function nextRound (rows, { target, maxPairs }) {
  checkPlannable(rows)
  const want = filesNeedingPairs(rows, { target, maxPairs, pilot: firstRoundPairs(rows) })
  let round = 1
  let base = ''
  let seed
  const maxPair = new Map()
  // seconds per run of a file: the measured sections of its configurations
  const runTime = new Map()
  for (const r of rows) {
    if (r.plan) {
      base = basePlan(r.plan)
      const suffix = Number(String(r.plan).split('.')[1])
      if (suffix > round) round = suffix
    }
    if (seed === undefined && r.seed !== undefined && r.seed !== '') seed = Number(r.seed)
    maxPair.set(r.filename, Math.max(maxPair.get(r.filename) ?? 0, Number(r.pair) || 0))
    const key = `${r.filename}\u0000${r.seed}\u0000${r.pair}\u0000${r.binary}`
    const t = runTime.get(r.filename) ?? new Map()
    t.set(key, (t.get(key) ?? 0) + (Number(r.time) || 0))
    runTime.set(r.filename, t)
  }
  const files = [...want].map(([filename, pairs]) => {
    const times = [...(runTime.get(filename) ?? new Map()).values()]
    const perRun = times.length ? times.reduce((a, b) => a + b, 0) / times.length : 0
    // a pair is two runs; the measured time leaves out each process's
    // start, so count a tenth of a second per run for it
    return { filename, firstPair: (maxPair.get(filename) ?? 0) + 1, pairs, cost: Math.round((2 * (perRun + 0.1)) * 1000) / 1000 }
  })
  return { schema: ROUND_SCHEMA, base, round: round + 1, seed, target, maxPairs, files, capped: want.capped }
}

/**
 * The rounds of plan --next follow a first round of a fixed number of pairs
 * (compare --runs N, sharded or not). Rows of --runs auto or --runs seq have
 * had their rule applied already: auto set each file's pairs from its pilot
 * once, and a second plan from all its pairs would look at the spread again
 * (the look auto avoids, lib/compare/auto.js); seq stopped each
 * configuration on an interval valid only for its own stopping. Another
 * round would mix rules that cannot be analysed as one.
 * @param {Record<string, any>[]} rows
 */
function checkPlannable (rows) {
  const ruled = rows.find((r) => r.rule === 'auto' || String(r.rule ?? '').startsWith('seq '))
  if (!ruled) return
  const how = ruled.rule === 'auto'
    ? 'its pilot set each file\'s pairs once, and planning again from all its pairs would look at their spread a second time'
    : 'the rule stopped each configuration on an interval that holds for its own stopping only'
  throw new UsageError(`plan --next: ${ruled.filename} holds rows of --runs ${ruled.rule === 'auto' ? 'auto' : 'seq'} (rule "${ruled.rule}"): ${how}. ` +
    'Its verdicts are final (benchrig analyze FILE); plan --next continues comparisons whose first round ran a fixed number of pairs (compare --runs N, e.g. with --shard)')
}

// The first round is the pilot: its pairs (rows without a round suffix on
// their plan) alone set each file's plan. 6, compare's pilot, when the rows
// say nothing.
/** @param {Record<string, any>[]} rows */
function firstRoundPairs (rows) {
  let pairs = 0
  for (const r of rows) {
    if (r.plan && String(r.plan).includes('.')) continue
    pairs = Math.max(pairs, Number(r.pair) || 0)
  }
  return pairs || 6
}

module.exports = { nextRound, checkPlannable }
