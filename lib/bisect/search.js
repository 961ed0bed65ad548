'use strict'
// The search of `benchrig bisect`, apart from any process: an ordered list of
// candidates whose first is good and last is bad, and an oracle that answers
// "slower" (this candidate has the regression), "not slower" (it has not) or
// "unknown" (the oracle ran out of pairs). The answer is the first bad
// candidate, or, when a probe stays unknown, the range that is left: we never
// guess a side for an unknown probe, since one wrong step sends the rest of a
// bisection into the wrong half with no later sign of it.

/**
 * @typedef {'slower'|'not slower'|'unknown'} Answer
 * @typedef {{index: number, answer: Answer} & Record<string, any>} Probe
 * @typedef {{status: 'found', firstBad: number, lastGood: number, probes: Probe[]}
 *   | {status: 'unresolved', lastGood: number, firstBad: number, unknown: number, probes: Probe[]}} Outcome
 *   found: candidates[firstBad] is the first bad, candidates[lastGood] (= firstBad - 1) good;
 *   unresolved: the first bad is in (lastGood, firstBad]; candidates[unknown] was probed without an answer
 */

/**
 * Bisects candidates 0..count-1 (0 good, count-1 bad by assumption).
 * @param {number} count at least 2
 * @param {(index: number) => Promise<{answer: Answer} & Record<string, any>>} oracle
 * @param {{onProbe?: (p: Probe, range: {lastGood: number, firstBad: number}) => void}} [opts]
 * @returns {Promise<Outcome>}
 */
async function bisect (count, oracle, opts = {}) {
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`bisect needs at least 2 candidates, got ${count}`)
  let lastGood = 0
  let firstBad = count - 1
  /** @type {Probe[]} */
  const probes = []
  while (firstBad - lastGood > 1) {
    const index = (lastGood + firstBad) >> 1
    const res = await oracle(index)
    const probe = { ...res, index }
    probes.push(probe)
    if (res.answer === 'slower') firstBad = index
    else if (res.answer === 'not slower') lastGood = index
    if (opts.onProbe) opts.onProbe(probe, { lastGood, firstBad })
    if (res.answer === 'unknown') return { status: 'unresolved', lastGood, firstBad, unknown: index, probes }
  }
  return { status: 'found', firstBad, lastGood, probes }
}

/**
 * How many probes a bisection of `count` candidates makes when every answer
 * is known: ceil(log2(count - 1)).
 * @param {number} count
 */
function probesNeeded (count) {
  return count <= 2 ? 0 : Math.ceil(Math.log2(count - 1))
}

module.exports = { bisect, probesNeeded }
