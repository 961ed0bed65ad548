'use strict'
// Distribution functions the tests need, written from the textbook formulas:
// log-gamma (Lanczos), the regularized incomplete beta (continued fraction,
// Lentz), Student's t CDF and quantile, and the normal CDF and quantile.
// Accuracy is about 1e-12 relative, far below what the reports print.

const LANCZOS_G = 7
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028,
  771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
]

/**
 * Natural log of the gamma function, for x > 0.
 * @param {number} x
 */
function logGamma (x) {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x)
  const z = x - 1
  let a = LANCZOS[0]
  const t = z + LANCZOS_G + 0.5
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i] / (z + i)
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}

// Continued fraction for the incomplete beta (modified Lentz's method).
function betaContinuedFraction (x, a, b) {
  const TINY = 1e-300
  const EPS = 1e-15
  let c = 1
  let d = 1 - (a + b) * x / (a + 1)
  if (Math.abs(d) < TINY) d = TINY
  d = 1 / d
  let h = d
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m
    let num = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
    d = 1 + num * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + num / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    h *= d * c
    num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
    d = 1 + num * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + num / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPS) break
  }
  return h
}

/**
 * Regularized incomplete beta I_x(a, b).
 * @param {number} x in [0, 1]
 * @param {number} a > 0
 * @param {number} b > 0
 */
function incompleteBeta (x, a, b) {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const lbt = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x)
  const front = Math.exp(lbt)
  // The fraction converges fast only on this side of the mean; use symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return front * betaContinuedFraction(x, a, b) / a
  return 1 - front * betaContinuedFraction(1 - x, b, a) / b
}

/**
 * P(T <= t) for Student's t with df degrees of freedom (df may be fractional).
 * @param {number} t
 * @param {number} df
 */
function tCdf (t, df) {
  if (Number.isNaN(t) || !(df > 0)) return NaN
  if (t === Infinity) return 1
  if (t === -Infinity) return 0
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t > 0 ? 1 - tail : tail
}

/**
 * Two-sided upper tail helper: P(T >= |t|) without cancellation.
 * @param {number} t
 * @param {number} df
 */
function tTail (t, df) {
  if (Number.isNaN(t) || !(df > 0)) return NaN
  if (!Number.isFinite(t)) return 0
  return 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
}

/**
 * Quantile of Student's t: the t with tCdf(t, df) = p.
 * @param {number} p in (0, 1)
 * @param {number} df
 */
function tQuantile (p, df) {
  if (!(p > 0 && p < 1) || !(df > 0)) return NaN
  if (p === 0.5) return 0
  const upper = p > 0.5
  const q = upper ? 1 - p : p // lower tail mass we look for
  // Bracket, then bisect on the tail, which is monotone in |t|.
  let hi = 1
  while (tTail(hi, df) > q) hi *= 2
  let lo = 0
  for (let i = 0; i < 200 && hi - lo > 1e-13 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2
    if (tTail(mid, df) > q) lo = mid
    else hi = mid
  }
  const t = (lo + hi) / 2
  return upper ? t : -t
}

// Regularized upper incomplete gamma Q(a, x), used for erfc.
function upperGamma (a, x) {
  if (x <= 0) return 1
  const lead = Math.exp(-x + a * Math.log(x) - logGamma(a))
  if (x < a + 1) {
    let sum = 1 / a
    let term = sum
    for (let n = 1; n < 10000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break
    }
    return 1 - sum * lead
  }
  const TINY = 1e-300
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return lead * h
}

/**
 * Standard normal CDF.
 * @param {number} z
 */
function normCdf (z) {
  if (Number.isNaN(z)) return NaN
  if (z === Infinity) return 1
  if (z === -Infinity) return 0
  const tail = 0.5 * upperGamma(0.5, z * z / 2) // P(Z > |z|)
  return z < 0 ? tail : 1 - tail
}

/**
 * P(Z > |z|) computed directly (no cancellation in far tails).
 * @param {number} z
 */
function normTail (z) {
  if (Number.isNaN(z)) return NaN
  if (!Number.isFinite(z)) return 0
  return 0.5 * upperGamma(0.5, z * z / 2)
}

const quantileCache = new Map()

/**
 * Standard normal quantile (bisection on the tail, cached: callers ask for
 * the same few levels many times).
 * @param {number} p in (0, 1)
 */
function normQuantile (p) {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN
  if (p === 0.5) return 0
  const cached = quantileCache.get(p)
  if (cached !== undefined) return cached
  const q = p > 0.5 ? 1 - p : p
  let lo = 0
  let hi = 40
  for (let i = 0; i < 200 && hi - lo > 1e-14; i++) {
    const mid = (lo + hi) / 2
    if (normTail(mid) > q) lo = mid
    else hi = mid
  }
  const z = p > 0.5 ? (lo + hi) / 2 : -(lo + hi) / 2
  if (quantileCache.size < 1000) quantileCache.set(p, z)
  return z
}

module.exports = { logGamma, incompleteBeta, tCdf, tTail, tQuantile, normCdf, normTail, normQuantile }
