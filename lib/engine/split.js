'use strict'

/**
 * Splits n into k near-equal integer parts, the first n % k one larger: how
 * connections, amounts, bursts and -r limits are shared, never dropping a
 * remainder.
 * @param {number} n
 * @param {number} k
 * @returns {number[]}
 */
function split (n, k) {
  const base = Math.floor(n / k)
  const extra = n % k
  return Array.from({ length: k }, (_, i) => base + (i < extra ? 1 : 0))
}

module.exports = { split }
