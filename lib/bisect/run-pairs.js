'use strict'
// How bisect runs pairs: the compare core's seeded schedule and its serial
// executor, with the two binaries (binary sides) of one comparison as old and new. Each
// call runs `pairs` more pairs numbered from firstPair, so a comparison that
// needs more pairs extends its own seeded order (as compare --runs auto does).
const { buildSchedule } = require('../compare/schedule.js')
const { EXECUTORS } = require('../compare/executors.js')
const { binarySides } = require('../compare/sides.js')

/**
 * @param {{files: {file: string, name: string}[], root: string, args: string[], cpuset?: string,
 *   measure?: import('../harness/measure.js').MeasureName, timeout?: number, onFailure?: (f: object) => void}} o
 * @returns {(binaries: {old: string, new: string}, pairs: number, firstPair: number, seed: number) => Promise<object[]>}
 */
function runPairsWith (o) {
  const env = o.timeout === undefined ? undefined : { ...process.env, BENCHRIG_TIMEOUT: String(o.timeout) }
  return async (binaries, pairs, firstPair, seed) => {
    const schedule = buildSchedule({ files: o.files, runs: pairs, seed, firstPair })
    const res = await EXECUTORS.serial(schedule, {
      sides: binarySides(binaries),
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
}

module.exports = { runPairsWith }
