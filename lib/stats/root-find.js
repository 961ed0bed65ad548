'use strict'
// Bisection for a sign change of a monotone (possibly step) function on
// [lo, hi]. The Wilcoxon confidence limits in the normal approximation are
// roots of such step functions; bisection lands on the same jump R's uniroot
// finds, only more precisely.

/**
 * @param {(x: number) => number} f
 * @param {number} lo
 * @param {number} hi
 * @param {number} [tol]
 */
function bisect (f, lo, hi, tol = 1e-10) {
  let flo = f(lo)
  if (flo === 0) return lo
  const fhi = f(hi)
  if (fhi === 0) return hi
  if (Math.sign(flo) === Math.sign(fhi)) return NaN
  for (let i = 0; i < 200 && hi - lo > tol * Math.max(1, Math.abs(lo) + Math.abs(hi)); i++) {
    const mid = (lo + hi) / 2
    const fm = f(mid)
    if (fm === 0) return mid
    if (Math.sign(fm) === Math.sign(flo)) {
      lo = mid
      flo = fm
    } else {
      hi = mid
    }
  }
  return (lo + hi) / 2
}

module.exports = { bisect }
