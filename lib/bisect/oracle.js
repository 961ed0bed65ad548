'use strict'
// The oracle of `benchrig bisect`: the paired compare of the good candidate
// (old) against a probe (new), answered in three ways.
//
// First the good and the bad ends are compared; the configurations shown
// slower there are the regression that is followed, each with its size D (a
// log ratio). A probe then answers, per followed configuration, against the
// midpoint D/2 of that step: "slower" when its CI lies below D/2 (the probe
// carries at least half of the regression), "not slower" when its CI lies
// above D/2, "unknown" when the CI holds D/2, or when the CI could not reach
// the level asked (too few pairs for the rank test). Testing against the
// midpoint, not against "no change", means a probe without the regression
// is recognised as soon as its CI clears D/2; proving it equal to the good
// end within a ±1% band would need far more pairs on a noisy machine. An
// unknown probe gets more pairs (the batch doubles, up to --max-runs); then
// bisect reports the range it could not split instead of guessing.
const { analyze } = require('../stats/analyze.js')

/**
 * @typedef {{filename: string, configuration: string, change: number, ci: number[], conf_level: number, verdict: string}} Measured
 * @typedef {{filename: string, configuration: string, change: number, midpoint: number}} Followed
 *   midpoint: half the log ratio of the regression
 */

const key = (r) => `${r.filename}\u0000${r.configuration}`

/**
 * A probe's answer for each followed configuration, and overall.
 * @param {Measured[]} results the analysis of good (old) against the probe (new)
 * @param {Followed[]} followed
 * @param {number} confLevel the level a CI must reach to decide
 * @returns {{answer: import('./search.js').Answer, configurations: (Followed & {answer: string, probe?: Measured})[]}}
 */
function classify (results, followed, confLevel) {
  const byKey = new Map(results.map((r) => [key(r), r]))
  const configurations = followed.map((f) => {
    const r = byKey.get(key(f))
    if (!r || !Number.isFinite(r.ci[0]) || !Number.isFinite(r.ci[1]) || r.conf_level < confLevel - 1e-9) return { ...f, answer: 'unknown', probe: r }
    const lo = Math.log1p(r.ci[0] / 100)
    const hi = Math.log1p(r.ci[1] / 100)
    const answer = hi < f.midpoint ? 'slower' : lo > f.midpoint ? 'not slower' : 'unknown'
    return { ...f, answer, probe: r }
  })
  const answers = configurations.map((c) => c.answer)
  // one configuration that carries the regression makes the probe bad
  const answer = answers.includes('slower') ? 'slower' : answers.every((a) => a === 'not slower') ? 'not slower' : 'unknown'
  return { answer, configurations }
}

/**
 * The batches of pairs of one comparison: `runs`, then doubling the total,
 * never past `maxRuns`. [10, 10, 20] for 10 and 40.
 * @param {number} runs
 * @param {number} maxRuns
 */
function batchSizes (runs, maxRuns) {
  const out = [Math.min(runs, maxRuns)]
  let total = out[0]
  while (total < maxRuns) {
    const next = Math.min(total, maxRuns - total)
    out.push(next)
    total += next
  }
  return out
}

/**
 * @typedef {object} OracleOptions
 * @property {(sides: {old: string, new: string}, pairs: number, firstPair: number, seed: number) => Promise<object[]>} runPairs
 *   runs `pairs` more seeded pairs of every file, old and new, and returns their rows
 * @property {number} runs pairs of the first batch
 * @property {number} maxRuns pairs at most per comparison
 * @property {number} [confLevel] level of the CIs that decide (default 0.99)
 * @property {number} [threshold] % inside which the good/bad check calls a change "no change" (default 1)
 * @property {(m: string) => void} [log]
 */

/**
 * Compares good with bad until some configuration is shown slower, every
 * one is shown not slower, or the pairs run out.
 * @param {{good: string, bad: string, seed: number}} ends binaries (or wrappers)
 * @param {OracleOptions} o
 * @returns {Promise<{followed: Followed[], results: Measured[], rows: object[], pairs: number}>}
 *   followed: empty when good is not shown faster than bad
 */
async function checkEnds (ends, o) {
  const confLevel = o.confLevel ?? 0.99
  const rows = []
  let first = 1
  let results = []
  for (const size of batchSizes(o.runs, o.maxRuns)) {
    rows.push(...await o.runPairs({ old: ends.good, new: ends.bad }, size, first, ends.seed))
    first += size
    const a = analyze(/** @type {any[]} */ (rows), { confLevel, alpha: 1 - confLevel, threshold: o.threshold ?? 1 })
    results = a.results
    if (results.some((r) => r.verdict === 'slower')) break
    if (results.length > 0 && results.every((r) => r.verdict === 'no change' || r.verdict === 'faster')) break
  }
  const followed = results.filter((r) => r.verdict === 'slower').map((r) => ({
    filename: r.filename,
    configuration: r.configuration,
    change: r.change,
    midpoint: Math.log1p(r.change / 100) / 2
  }))
  return { followed, results, rows, pairs: first - 1 }
}

/**
 * Asks the oracle about one probe: good (old) against the probe (new), more
 * pairs while the answer is unknown.
 * @param {{good: string, probe: string, seed: number, name?: string}} sides name: the probe's label, for the log
 * @param {Followed[]} followed
 * @param {OracleOptions} o
 * @returns {Promise<{answer: import('./search.js').Answer, pairs: number, rows: object[], configurations: object[]}>}
 */
async function askProbe (sides, followed, o) {
  const confLevel = o.confLevel ?? 0.99
  const rows = []
  let first = 1
  let verdict = { answer: /** @type {import('./search.js').Answer} */ ('unknown'), configurations: [] }
  for (const size of batchSizes(o.runs, o.maxRuns)) {
    rows.push(...await o.runPairs({ old: sides.good, new: sides.probe }, size, first, sides.seed))
    first += size
    const a = analyze(/** @type {any[]} */ (rows), { confLevel, alpha: 1 - confLevel })
    verdict = classify(a.results, followed, confLevel)
    if (verdict.answer !== 'unknown') break
    if (o.log && first - 1 < o.maxRuns) o.log(`${sides.name ?? 'probe'}: unknown after ${first - 1} pairs; more pairs`)
  }
  return { ...verdict, pairs: first - 1, rows }
}

module.exports = { classify, batchSizes, checkEnds, askProbe }
