'use strict'
// Executors turn a schedule of pairs into measured runs. Each is
//   (schedule, ctx: CompareContext) => Promise<{rows, failures, stopped, ran}>
// serial (run-compare.js): one run after the other, in the schedule's random
//   order within each pair;
// duet (duet.js): both runs of a pair at once, each on its own CPU set.
// A shard is not an executor of its own: plan.js slices the schedule
// (sliceForShard) and one of these runs the slice.
const { runSchedule } = require('./run-compare.js')

/** @type {Record<string, (schedule: import('./schedule.js').ScheduledRun[], ctx: import('./run-compare.js').CompareContext) => Promise<{rows: object[], failures: object[], stopped: boolean, ran: number}>>} */
const EXECUTORS = {
  serial: runSchedule,
  // lazy: the duet executor (its CPU sets and crossover blocks) loads only under --duet
  duet: (schedule, ctx) => require('./duet.js').runDuetSchedule(schedule, /** @type {any} */ (ctx))
}

module.exports = { EXECUTORS }
