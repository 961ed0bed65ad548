'use strict'
// Verdicts from a change and its confidence interval (both in %), and how
// many more pairs an inconclusive result would need.

/** Stars from an (adjusted) p-value: * < .05, ** < .01, *** < .001. @param {number} q */
function starsFor (q) {
  if (!(q < 0.05)) return ''
  if (q < 0.001) return '***'
  if (q < 0.01) return '**'
  return '*'
}

/**
 * @param {{change: number, ci: [number, number], q: number, n: number,
 *   threshold?: number, alpha?: number}} r change and ci in %, n pairs (or
 *   the smaller group)
 * @returns {{verdict: 'faster'|'slower'|'no change'|'inconclusive', morePairs?: number}}
 */
function decide ({ change, ci, q, n, threshold = 1, alpha = 0.05 }) {
  const [lo, hi] = ci
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { verdict: 'inconclusive', morePairs: undefined }
  // "No change" wins over a tiny but significant change: the whole CI lies
  // inside the band the user called irrelevant.
  if (lo > -threshold && hi < threshold) return { verdict: 'no change' }
  if (q < alpha && (lo > 0 || hi < 0)) return { verdict: change > 0 ? 'faster' : 'slower' }
  return { verdict: 'inconclusive', morePairs: morePairsNeeded({ change, ci, n, threshold }) }
}

/**
 * How many more pairs would likely settle the question, assuming the CI
 * shrinks with the square root of n: either the CI fits inside ±threshold
 * (half-width < threshold - |change|) or it clears zero (< |change|).
 * @param {{change: number, ci: [number, number], n: number, threshold: number}} r
 */
function morePairsNeeded ({ change, ci, n, threshold }) {
  const half = (ci[1] - ci[0]) / 2
  const c = Math.abs(change)
  const target = 0.9 * Math.max(threshold - c, c)
  if (!(half > 0) || !(target > 0) || !(n > 0)) return undefined
  const needed = Math.ceil(n * (half / target) ** 2)
  return Math.max(1, needed - n)
}

module.exports = { starsFor, decide, morePairsNeeded }
