'use strict'
// Stopping rules: how many pairs each file (and configuration) gets. A rule
// drives the executor through runBatch(files, pairs, firstPair), which runs
// `pairs` more seeded pairs of the files numbered from firstPair, and says
// why it stopped. Each rule has a label that travels with the rows (the
// "rule" column) so that the analysis can use the rule's own intervals.
//   fixed N  the plan's schedule as it is (also a shard's slice and a round plan)
//   auto     a blind pilot, one re-estimation (auto.js)
//   seq      a confidence sequence per configuration (sequential.js)
const { runAuto } = require('./auto.js')

/**
 * @typedef {object} RuleContext
 * @property {import('./plan.js').Plan} plan
 * @property {object[]} previous rows kept from an interrupted run (resume)
 * @property {(schedule: import('./schedule.js').ScheduledRun[]) => Promise<{rows: object[], stopped: boolean}>} runSchedule
 *   the executor
 * @property {(files: object[], pairs: number, firstPair: number) => Promise<{rows: object[], stopped: boolean}>} runBatch
 * @property {(msg: string) => void} log
 * @property {(e: object) => void} [progress] the rule's own progress (per configuration)
 * @property {(name: string) => void} [fileEnded] a file the rule will run no more (its verdicts can be told)
 * @typedef {{rows: object[], stopped: boolean, stoppedBy?: string, stops?: object[]}} RuleResult
 *   rows: every row, previous ones included; stops: per configuration, which rule stopped it when and why
 * @typedef {{name: string, label: string, run: (ctx: RuleContext) => Promise<RuleResult>}} Rule
 */

/**
 * @param {number} [runs] pairs per file (a round plan gives each file its own)
 * @returns {Rule}
 */
function fixedRule (runs) {
  return {
    name: 'fixed',
    label: runs === undefined ? 'fixed' : `fixed ${runs}`,
    async run (ctx) {
      const res = await ctx.runSchedule(ctx.plan.schedule)
      return { rows: [...ctx.previous, ...res.rows], stopped: res.stopped }
    }
  }
}

/**
 * @param {{pilot: number, target: number, maxPairs: number, timeBudgetMs?: number}} opts
 * @returns {Rule}
 */
function autoRule (opts) {
  return {
    name: 'auto',
    label: 'auto',
    async run (ctx) {
      const res = await runAuto({ ...opts, files: ctx.plan.files, rows: ctx.previous, runBatch: ctx.runBatch, log: ctx.log })
      const stopped = res.stoppedBy === 'interrupted'
      if (!stopped) ctx.log(`--runs auto stopped after ${res.rounds} round(s): ${res.stoppedBy}`)
      return { rows: res.rows, stopped, stoppedBy: res.stoppedBy }
    }
  }
}

/**
 * The rule the parsed options ask for.
 * @param {{runs?: number, auto?: object, seq?: {alpha: number, threshold: number, maxPairs: number}}} opts
 * @returns {Rule}
 */
function ruleFor (opts) {
  // lazy: the sequential rule's e-values load only under --runs seq
  if (opts.seq) return require('./sequential.js').seqRule(opts.seq)
  if (opts.auto) return autoRule(/** @type {any} */ (opts.auto))
  return fixedRule(opts.runs)
}

module.exports = { fixedRule, autoRule, ruleFor }
