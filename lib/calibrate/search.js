'use strict'
// The search of calibrate-n.js / benchrig calibrate, as pure functions: the
// coefficient of variation of each configuration's rates over repeated runs
// at one n, and the decision after each step (stable, raise n, or stop).
// Node core's calibrate-n.js takes the same flags and stops on the same
// rule: overall CV below the threshold and every configuration below twice
// it; benchrig adds a time limit per configuration run.

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
 */
function summarizeStep (n, reports) {
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
    seconds: Math.max(...g.times)
  }))
  const cvs = configs.map((c) => c.cv).filter(Number.isFinite)
  const overall = cvs.length ? cvs.reduce((a, b) => a + b, 0) / cvs.length : NaN
  return { n, configs, overall }
}

/**
 * What to do after a step.
 * @param {ReturnType<typeof summarizeStep>} step
 * @param {{cvThreshold: number, increase: number, increasesLeft: number, maxSeconds?: number}} opts
 * @returns {{action: 'stop'|'raise', reason?: 'stable'|'max-increases'|'time-limit'|'no-results', nextN?: number}}
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

module.exports = { coefficientOfVariation, summarizeStep, decide }
