'use strict'
// The search of calibrate-n.js / benchrig calibrate, as pure functions: the
// coefficient of variation of each configuration's rates over repeated runs
// at one n, and the decision after each step (stable, raise n, or stop).
// Node core's calibrate-n.js takes the same flags and stops on the same
// rule: overall CV below the threshold and every configuration below twice
// it; benchrig adds a time limit per configuration run.
// Under --measure instructions the rate is a count, the same in every run to
// ~0.001%, so a CV says nothing about n. What n must buy there is that the
// work done once (interpreting, compiling, the first GCs) is a small share
// of the section: rate(n) = n / (F + c*n) climbs towards 1/c as n grows, and
// n is enough when the next n changes the rate by less than the target
// (then F is about that share of the section at n). decideConverged is
// that rule.

/**
 * @param {number[]} xs
 * @returns {number} sample standard deviation over the mean (NaN for < 2 values)
 */
function coefficientOfVariation (xs) {
  if (xs.length < 2) return NaN
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length
  const v = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)
  return Math.sqrt(v) / mean
}

/**
 * Summarises one step: rates grouped by configuration string.
 * @param {number} n
 * @param {{configuration: string, rate: number, time: number}[]} reports
 * @param {number} [runSeconds] when `time` is not seconds (instructions): the
 *   wall seconds of the slowest run, used as every configuration's seconds
 */
function summarizeStep (n, reports, runSeconds) {
  const by = new Map()
  for (const r of reports) {
    const g = by.get(r.configuration) ?? { rates: [], times: [] }
    g.rates.push(r.rate)
    g.times.push(r.time)
    by.set(r.configuration, g)
  }
  const configs = [...by].map(([configuration, g]) => ({
    configuration,
    runs: g.rates.length,
    cv: coefficientOfVariation(g.rates),
    rate: g.rates.reduce((a, b) => a + b, 0) / g.rates.length,
    seconds: runSeconds ?? Math.max(...g.times)
  }))
  const cvs = configs.map((c) => c.cv).filter(Number.isFinite)
  const overall = cvs.length ? cvs.reduce((a, b) => a + b, 0) / cvs.length : NaN
  return { n, configs, overall }
}

/**
 * What to do after a step.
 * @param {ReturnType<typeof summarizeStep>} step
 * @param {{cvThreshold: number, increase: number, increasesLeft: number, maxSeconds?: number}} opts
 * @returns {{action: 'stop'|'raise', reason?: 'stable'|'max-increases'|'time-limit'|'no-results', n?: undefined, nextN?: number}}
 *   (no `n`: the proposal is the step's own n; decideConverged may propose a smaller one)
 */
function decide (step, { cvThreshold, increase, increasesLeft, maxSeconds }) {
  if (step.configs.length === 0) return { action: 'stop', reason: 'no-results' }
  const stable = Number.isFinite(step.overall) && step.overall < cvThreshold &&
    step.configs.every((c) => Number.isFinite(c.cv) && c.cv < 2 * cvThreshold)
  if (stable) return { action: 'stop', reason: 'stable' }
  if (increasesLeft <= 0) return { action: 'stop', reason: 'max-increases' }
  // A run takes about n-proportional time: the next n would take `increase` times as long.
  const slowest = Math.max(...step.configs.map((c) => c.seconds))
  if (maxSeconds !== undefined && slowest * increase > maxSeconds) return { action: 'stop', reason: 'time-limit' }
  return { action: 'raise', nextN: Math.round(step.n * increase) }
}

/**
 * What to do after a step under --measure instructions: stop at the previous
 * n when every configuration's mean rate moved by less than `threshold`
 * (relative) from the previous n to this one, and its runs agree within it.
 * The proposal is the smaller n: the cheaper one that is already enough.
 * @param {ReturnType<typeof summarizeStep>} step
 * @param {ReturnType<typeof summarizeStep>|undefined} previous the step before (n / increase)
 * @param {{threshold: number, increase: number, increasesLeft: number, maxSeconds?: number}} opts
 * @returns {{action: 'stop'|'raise', reason?: 'converged'|'max-increases'|'time-limit'|'no-results', n?: number, nextN?: number}}
 */
function decideConverged (step, previous, { threshold, increase, increasesLeft, maxSeconds }) {
  if (step.configs.length === 0) return { action: 'stop', reason: 'no-results' }
  const before = new Map((previous?.configs ?? []).map((c) => [c.configuration, c.rate]))
  const converged = previous !== undefined && step.configs.every((c) =>
    before.has(c.configuration) && Math.abs(c.rate / before.get(c.configuration) - 1) < threshold &&
    !(c.cv >= threshold))
  if (converged) return { action: 'stop', reason: 'converged', n: previous.n }
  if (increasesLeft <= 0) return { action: 'stop', reason: 'max-increases', n: step.n }
  const slowest = Math.max(...step.configs.map((c) => c.seconds))
  if (maxSeconds !== undefined && slowest * increase > maxSeconds) return { action: 'stop', reason: 'time-limit', n: step.n }
  return { action: 'raise', nextN: Math.round(step.n * increase) }
}

/**
 * The largest relative change of a configuration's mean rate between two steps.
 * @returns {{configuration: string, change: number}|undefined}
 */
function largestChange (step, previous) {
  if (!previous) return undefined
  const before = new Map(previous.configs.map((c) => [c.configuration, c.rate]))
  let worst
  for (const c of step.configs) {
    if (!before.has(c.configuration)) continue
    const change = Math.abs(c.rate / before.get(c.configuration) - 1)
    if (!worst || change > worst.change) worst = { configuration: c.configuration, change }
  }
  return worst
}

module.exports = { coefficientOfVariation, summarizeStep, decide, decideConverged, largestChange }
