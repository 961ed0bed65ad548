'use strict'
// The result of a --scenarios run: `scenarios`, one complete result per
// scenario (the same shape as a plain run's, plus `scenario`: its name,
// executor, startTime and planned duration in ms, and its normalized
// fields), in the file's order; and around it the whole run, the exact merge
// of the scenarios by result/merge.js's rules (histograms added, counters
// summed, per-second samples on absolute seconds), with the file's top-level
// thresholds checked on those overall figures.
const { merge } = require('../result/merge.js')
const { evaluate, figuresOf } = require('../thresholds.js')
const { mergeStats, buildResult } = require('../result/result.js')

const round3 = (x) => Math.round(x * 1000) / 1000

/**
 * What the result says of a scenario's plan.
 * @param {import('./plan.js').ScenarioPlan} s
 */
function scenarioMeta (s) {
  const meta = { name: s.name, executor: s.executor, startTime: s.startTimeMs, duration: s.durationMs, params: s.params }
  if (s.tags !== undefined) meta.tags = s.tags
  return meta
}

/**
 * @param {{scenarios: import('./plan.js').ScenarioPlan[], thresholds: import('../thresholds.js').Threshold[]}} plan
 * @param {object[]} results each scenario's result, in plan order
 * @param {{cpuUs: number, wallMs: number}} usage this process over the whole run
 */
function combineResults (plan, results, usage) {
  // partial: scenarios of different executors differ in what they record (a rate plan or not)
  const top = merge(results, { names: plan.scenarios.map((s) => `scenario "${s.name}"`), partial: true })
  // a note of how many results were merged belongs to `benchrig merge`'s output, not to one run
  delete top.merge
  delete top.thresholds
  // every scenario measured the CPU of this one process: the whole run's is that once
  if (usage.wallMs > 0) top.saturation.cpuCores = round3(usage.cpuUs / 1000 / usage.wallMs)
  if (plan.thresholds.length > 0) top.thresholds = evaluate(plan.thresholds, figuresOf(top))
  const scenarios = {}
  plan.scenarios.forEach((s, i) => { scenarios[s.name] = { ...results[i], scenario: scenarioMeta(s) } })
  top.scenarios = scenarios
  return top
}

/**
 * The result of a scenario that never started (the run was stopped before
 * its startTime): nothing sent, in the shape of any result, its seconds
 * placed where it would have started.
 * @param {any} opts the scenario's normalized options
 * @param {number} t0 epoch ms it would have started at
 */
function emptyResult (opts, t0) {
  const m = mergeStats([])
  m.start = t0
  m.perSecond.start = t0
  const result = /** @type {Record<string, any>} */ (buildResult(m, opts, { cpuUs: 0, wallMs: 0 }))
  result.stoppedBy = 'stopped'
  if (opts.thresholds.length > 0) result.thresholds = evaluate(opts.thresholds, figuresOf(result))
  return result
}

module.exports = { combineResults, emptyResult, scenarioMeta }
