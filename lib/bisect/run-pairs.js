'use strict'
// How bisect runs pairs: the compare core's seeded schedule and its serial
// executor, on the two sides of one comparison. Each call runs `pairs` more
// pairs numbered from firstPair, so a comparison that needs more pairs
// extends its own seeded order (as compare --runs auto does). The sides of a
// comparison are built once (binaries: nothing to build; git refs: a worktree
// per ref, lib/sides/) and cleaned up when the next comparison starts or
// when the bisect ends (close()).
const { buildSchedule } = require('../compare/schedule.js')
const { EXECUTORS } = require('../compare/executors.js')
const { binarySides } = require('../compare/sides.js')

/**
 * @typedef {(pair: {old: string, new: string}) => Promise<{sides: import('../compare/sides.js').Sides, cleanup: () => void}>} SidesFor
 *   builds the sides of a comparison from the candidates' paths (binaries) or commits (refs)
 */

/** Binaries and wrappers: each candidate is its own node. @type {SidesFor} */
const binaryPair = async (pair) => ({ sides: binarySides(pair), cleanup: () => {} })

/**
 * @param {{files: {file: string, name: string}[], root: string, args: string[], cpuset?: string,
 *   measure?: import('../record/measures.js').MeasureName, timeout?: number, onFailure?: (f: object) => void, sidesFor?: SidesFor}} o
 * @returns {((pair: {old: string, new: string}, pairs: number, firstPair: number, seed: number) => Promise<object[]>) & {close: () => void}}
 */
function runPairsWith (o) {
  const env = o.timeout === undefined ? undefined : { ...process.env, BENCHRIG_TIMEOUT: String(o.timeout) }
  const sidesFor = o.sidesFor ?? binaryPair
  /** @type {{key: string, built: {sides: import('../compare/sides.js').Sides, cleanup: () => void}}|undefined} */
  let current
  const close = () => {
    if (current) current.built.cleanup()
    current = undefined
  }
  const run = async (pair, pairs, firstPair, seed) => {
    const key = `${pair.old}\u0000${pair.new}`
    if (!current || current.key !== key) {
      close()
      current = { key, built: await sidesFor(pair) }
    }
    const schedule = buildSchedule({ files: o.files, runs: pairs, seed, firstPair })
    const res = await EXECUTORS.serial(schedule, {
      sides: current.built.sides,
      root: o.root,
      args: o.args,
      cpuset: o.cpuset,
      measure: o.measure,
      seed,
      env,
      onRow: () => {},
      onFailure: o.onFailure
    })
    return res.rows
  }
  return Object.assign(run, { close })
}

module.exports = { runPairsWith }
