'use strict'
// e-BH (Wang and Ramdas, "False discovery rate control with e-values",
// JRSS-B 2022): given e-values e_1..e_K, reject the R largest, R the largest
// r with e_(r) >= K / (alpha r). The expected share of false rejections
// among the rejections (FDR) is at most alpha whatever the dependence between
// the e-values; when every hypothesis is true (A/A) that is the chance of
// any rejection at all. Any e-value may be lowered (to 0 for a configuration
// declared unchanged) and the rest stays valid: a smaller nonnegative number
// than an e-value is an e-value.

/**
 * @param {number[]} e e-values (NaN counts as 0)
 * @param {number} alpha
 * @returns {{rejected: number[], threshold: number}} indices rejected (in
 *   input order) and the e-value they had to reach (K / (alpha R); Infinity when none)
 */
function eBH (e, alpha) {
  const k = e.length
  const order = e.map((v, i) => [Number.isFinite(v) || v === Infinity ? v : 0, i]).sort((x, y) => y[0] - x[0])
  let r = 0
  for (let i = 1; i <= k; i++) if (order[i - 1][0] >= k / (alpha * i)) r = i
  return { rejected: order.slice(0, r).map((x) => x[1]).sort((x, y) => x - y), threshold: r === 0 ? Infinity : k / (alpha * r) }
}

module.exports = { eBH }
