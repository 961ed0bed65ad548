'use strict'
// Evidence by betting on symmetry: the e-processes under --runs seq (v2) and
// the confidence sequence (CS) they give for a configuration's shift.
//
// Under H_theta the paired log ratios x_i - theta are symmetric about 0
// given everything before pair i. Under A/A that is exact: the random order
// (serial) or the random CPU-set draw (duet) within a pair makes the sign of
// x_i a fair coin whatever the drift or the noise did to its size. For a
// true change it is the model that the change is a shift of log(new/old).
// For theta, a bettor stakes a fraction lambda of its wealth on the sign:
//   W+_n(theta) = mean over lambda in LAMBDAS of prod_i (1 + lambda g((x_i - theta) / s_i))
//   W-_n(theta) = the same with 1 - lambda g(...)
// with g(u) = clip(u, -1, 1) odd and bounded and s_i a PREDICTABLE scale (the
// spread of pairs 1..i-1 only). Given the past, g(...) is symmetric about 0,
// so each factor has conditional mean 1: each product is a nonnegative
// martingale under H_theta (testing by betting: Shafer and Vovk; Waudby-Smith
// and Ramdas, "Estimating means of bounded random variables by betting",
// JRSS-B 2023), and so is a fixed mixture over lambda. By Ville's inequality
// P(sup_n W+_n(theta) >= 1/a) <= a, and W+ stopped at any stopping time is
// an e-value (expectation <= 1).
// W+ is decreasing in theta and W- increasing (g is monotone, lambda > 0),
// so {theta: W+ < 2/a and W- < 2/a} is an interval, found by bisection: the
// CS at level 1 - a. e(theta) = max(W+, W-) / 2 <= (W+ + W-) / 2 is an
// e-value for H_theta, and theta lies outside the CS at level 1 - a exactly
// when e(theta) >= 1/a; that is what makes the e-BH calls and the intervals
// printed beside them agree (lib/stats/sequential.js).

// The stakes mixed: a wide grid so that a clean run of signs (0.9: wealth
// x1.9 a pair) and a noisy one (0.25) both grow. Chosen by bench/stats-sim
// (--only seq; docs/compare.md has the figures).
const LAMBDAS = [0.25, 0.5, 0.75, 0.9]
// The smallest scale (log ratio) the bettor divides by: below it a ratio is
// bet on by its sign alone.
const SCALE_FLOOR = 0.0005

/** @param {number} u */
const clip = (u) => (u > 1 ? 1 : u < -1 ? -1 : u)

/**
 * The predictable scales: s_i from pairs 1..i-1 (1.4826 times their median
 * absolute deviation around their median, at least SCALE_FLOOR; the floor
 * until two pairs are known).
 * @param {number[]} xs log ratios in the order the rule saw them
 * @returns {number[]}
 */
function predictableScales (xs) {
  const out = new Array(xs.length)
  const sorted = []
  for (let i = 0; i < xs.length; i++) {
    out[i] = scaleOf(sorted)
    insertSorted(sorted, xs[i])
  }
  return out
}

/** The scale for the next pair from the sorted pairs before it. @param {number[]} sorted */
function scaleOf (sorted) {
  return sorted.length >= 2 ? Math.max(SCALE_FLOOR, 1.4826 * madSorted(sorted)) : SCALE_FLOOR
}

/** @param {number[]} sorted @param {number} x */
function insertSorted (sorted, x) {
  let j = sorted.length
  sorted.push(x)
  while (j > 0 && sorted[j - 1] > x) { sorted[j] = sorted[j - 1]; j-- }
  sorted[j] = x
}

/** Median of a sorted array. @param {number[]} s */
function medianOf (s) {
  const n = s.length
  const h = n >> 1
  return n % 2 ? s[h] : (s[h - 1] + s[h]) / 2
}

/** Median absolute deviation around the median, of a sorted array. @param {number[]} s */
function madSorted (s) {
  const m = medianOf(s)
  return medianOf(s.map((x) => Math.abs(x - m)).sort((a, b) => a - b))
}

/**
 * W+ (side 1) or W- (side -1) at theta over the first n pairs.
 * @param {number[]} xs
 * @param {number[]} scales predictableScales(xs)
 * @param {number} theta
 * @param {1|-1} side
 * @param {number} [n]
 */
function wealthAt (xs, scales, theta, side, n = xs.length) {
  let sum = 0
  for (const lambda of LAMBDAS) {
    const l = side * lambda
    let log = 0
    for (let i = 0; i < n; i++) log += Math.log1p(l * clip((xs[i] - theta) / scales[i]))
    sum += Math.exp(log)
  }
  return sum / LAMBDAS.length
}

/**
 * The running wealth at a few fixed thetas, pair by pair (the rule needs 0
 * and ±threshold after every pair; a product per lambda, kept as logs).
 */
class Wealth {
  /** @param {number[]} thetas */
  constructor (thetas) {
    this.thetas = thetas
    this.logUp = thetas.map(() => LAMBDAS.map(() => 0))
    this.logDown = thetas.map(() => LAMBDAS.map(() => 0))
  }

  /** @param {number} x @param {number} scale the predictable scale of this pair */
  add (x, scale) {
    this.thetas.forEach((theta, j) => {
      const g = clip((x - theta) / scale)
      LAMBDAS.forEach((lambda, l) => {
        this.logUp[j][l] += Math.log1p(lambda * g)
        this.logDown[j][l] += Math.log1p(-lambda * g)
      })
    })
  }

  /** @param {number} j index into thetas @returns {{up: number, down: number}} */
  at (j) {
    const mean = (/** @type {number[]} */ ls) => ls.reduce((s, l) => s + Math.exp(l), 0) / ls.length
    return { up: mean(this.logUp[j]), down: mean(this.logDown[j]) }
  }
}

/**
 * The CS at level 1 - a after n pairs: [sup{theta: W+ >= 2/a}, inf{theta: W- >= 2/a}]
 * (-Infinity / Infinity when no theta is rejected on that side yet).
 * @param {number[]} xs
 * @param {number[]} scales
 * @param {number} a
 * @param {number} [n]
 * @returns {[number, number]}
 */
function csAt (xs, scales, a, n = xs.length) {
  const c = 2 / a
  if (n === 0) return [-Infinity, Infinity]
  let min = Infinity
  let max = -Infinity
  let widest = 0
  for (let i = 0; i < n; i++) {
    min = Math.min(min, xs[i])
    max = Math.max(max, xs[i])
    widest = Math.max(widest, scales[i])
  }
  // beyond [min - widest, max + widest] every g is ±1: the wealth is at its extreme there
  const left = min - widest - 1e-9
  const right = max + widest + 1e-9
  const lo = wealthAt(xs, scales, left, 1, n) < c ? -Infinity : bisect(left, right, (th) => wealthAt(xs, scales, th, 1, n) >= c)
  const hi = wealthAt(xs, scales, right, -1, n) < c ? Infinity : -bisect(-right, -left, (th) => wealthAt(xs, scales, -th, -1, n) >= c)
  return [lo, hi]
}

// The largest theta in [a, b] with rejects(theta) (rejects is true at a,
// false at b, where every bet is lost, and monotone), to 1e-6 in log ratio.
function bisect (a, b, rejects) {
  let lo = a
  let hi = b
  while (hi - lo > 1e-6) {
    const mid = (lo + hi) / 2
    if (rejects(mid)) lo = mid
    else hi = mid
  }
  return lo
}

/**
 * The wealth a run of n pairs all of one sign and beyond the scale reaches
 * (the most any n pairs can give).
 * @param {number} n
 */
function perfectWealth (n) {
  return LAMBDAS.reduce((s, l) => s + (1 + l) ** n, 0) / LAMBDAS.length
}

/**
 * The fewest pairs with which a perfect run reaches wealth c.
 * @param {number} c
 */
function leastPairsFor (c) {
  let n = 1
  while (perfectWealth(n) < c) n++
  return n
}

// Standard normal quadrature nodes and weights (midpoints over ±6 sd), for
// the growth a stake can expect.
const NODES = Array.from({ length: 241 }, (_, i) => -6 + (i + 0.5) * 0.05)
const WEIGHTS = NODES.map((z) => Math.exp(-z * z / 2) * 0.05 / Math.sqrt(2 * Math.PI))

/**
 * The log wealth a pair adds, on average, to the best stake of the mixture
 * when the ratios are normal with spread sd, bet on at the scale sd, and
 * theta lies `distance` (log) from their centre.
 * @param {number} distance
 * @param {number} sd
 */
function growthPerPair (distance, sd) {
  const r = distance / Math.max(sd, SCALE_FLOOR)
  let best = 0
  for (const lambda of LAMBDAS) {
    let e = 0
    for (let i = 0; i < NODES.length; i++) e += WEIGHTS[i] * Math.log1p(lambda * clip(NODES[i] + r))
    best = Math.max(best, e)
  }
  return best
}

/**
 * Pairs predicted for the wealth at a theta `distance` (log) away from the
 * ratios' centre to reach c (the mixture pays log(LAMBDAS.length) against
 * its best stake); never fewer than a perfect run needs.
 * @param {number} distance
 * @param {number} sd
 * @param {number} c
 */
function pairsForWealth (distance, sd, c) {
  if (!(distance > 0)) return Infinity
  const growth = growthPerPair(distance, sd)
  if (!(growth > 0)) return Infinity
  return Math.max(leastPairsFor(c), Math.ceil((Math.log(c) + Math.log(LAMBDAS.length)) / growth))
}

module.exports = { LAMBDAS, SCALE_FLOOR, predictableScales, wealthAt, Wealth, csAt, perfectWealth, leastPairsFor, pairsForWealth, growthPerPair, madSorted, medianOf, insertSorted, scaleOf }
