'use strict'
// Verdicts from a change and its confidence interval (both in %), and what
// an inconclusive result lacks: pairs (precision), enough pairs for the test
// to reach significance at all, or a margin over the multiplicity correction.
const { pairsForHalfWidth } = require('./precision.js')

/** Stars from an (adjusted) p-value: * < .05, ** < .01, *** < .001. @param {number} q */
function starsFor (q) {
  if (!(q < 0.05)) return ''
  if (q < 0.001) return '***'
  if (q < 0.01) return '**'
  return '*'
}

/**
 * The smallest sample for which the rank test can reach a two-sided p below
 * alpha at all: signed-rank, min p = 2 / 2^n; rank-sum (equal groups),
 * min p = 2 / C(2n, n).
 * @param {boolean} paired
 * @param {number} alpha
 */
function minimumForSignificance (paired, alpha) {
  for (let n = 1; n < 64; n++) {
    let minP
    if (paired) minP = 2 / 2 ** n
    else {
      let c = 1
      for (let k = 1; k <= n; k++) c = c * (n + k) / k
      minP = 2 / c
    }
    if (minP < alpha) return n
  }
  return Infinity
}

/**
 * @param {{change: number, ci: [number, number], q: number, n: number,
 *   threshold?: number, alpha?: number, scale?: number, paired?: boolean,
 *   confLevel?: number}} r change and ci in %; n pairs (or the smaller
 *   group); scale: spread of the log ratios around their median (precision.js)
 * @returns {{verdict: 'faster'|'slower'|'no change'|'inconclusive', morePairs?: number,
 *   blocker?: 'too-few-pairs'|'multiplicity'|'width'}}
 */
function decide ({ change, ci, q, n, threshold = 1, alpha = 0.05, scale, paired = true, confLevel = 0.95 }) {
  const [lo, hi] = ci
  const minimum = minimumForSignificance(paired, alpha)
  const more = morePairsNeeded({ scale, n, threshold, confLevel, minimum })
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { verdict: 'inconclusive', morePairs: more, blocker: n < minimum ? 'too-few-pairs' : 'width' }
  // "No change" wins over a tiny but significant change: the whole CI lies
  // inside the band the user called irrelevant.
  if (lo > -threshold && hi < threshold) return { verdict: 'no change' }
  const excludesZero = lo > 0 || hi < 0
  if (q < alpha && excludesZero) return { verdict: change > 0 ? 'faster' : 'slower' }
  if (n < minimum) return { verdict: 'inconclusive', morePairs: more, blocker: 'too-few-pairs' }
  // The interval alone would decide; the correction over all configurations
  // does not let it. More pairs help only by shrinking p further.
  if (excludesZero) return { verdict: 'inconclusive', blocker: 'multiplicity' }
  return { verdict: 'inconclusive', morePairs: more, blocker: 'width' }
}

/**
 * How many more pairs would make the CI half as wide as the "no change"
 * band (±threshold/2), predicted from the spread of the ratios alone —
 * never from the observed change, so following the hint does not steer
 * towards a result. At that width a change within ±threshold/2 reads "no
 * change" and one beyond about twice the half-width reads faster/slower.
 * At least enough to reach `minimum` (below it the test cannot reach
 * significance at all).
 * @param {{scale?: number, n: number, threshold: number, confLevel?: number, minimum?: number}} r
 * @returns {number|undefined} undefined when the spread is unknown
 */
function morePairsNeeded ({ scale, n, threshold, confLevel = 0.95, minimum = 0 }) {
  const target = Math.log1p(threshold / 100) / 2
  const needed = pairsForHalfWidth(scale, target, { confLevel, from: Math.max(2, n + 1) })
  if (Number.isNaN(needed)) return n < minimum ? minimum - n : undefined
  return Math.max(1, minimum - n, needed - n)
}

module.exports = { starsFor, decide, morePairsNeeded, minimumForSignificance }
