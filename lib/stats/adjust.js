'use strict'
// Multiple-comparison adjustments, with R's p.adjust semantics: NaN entries
// stay NaN and do not count towards n.

function order (ps, idx, descending) {
  return idx.sort((a, b) => (descending ? ps[b] - ps[a] : ps[a] - ps[b]) || a - b)
}

/**
 * Benjamini-Hochberg (false discovery rate), as p.adjust(p, "BH").
 * @param {number[]} ps
 * @returns {number[]}
 */
function adjustBH (ps) {
  const out = ps.map(() => NaN)
  const idx = order(ps, ps.map((_, i) => i).filter((i) => !Number.isNaN(ps[i])), true)
  const n = idx.length
  let running = Infinity
  for (let k = 0; k < n; k++) {
    const i = idx[k]
    const rankFromTop = n - k // the rank of ps[i] in ascending order
    running = Math.min(running, (n / rankFromTop) * ps[i])
    out[i] = Math.min(1, running)
  }
  return out
}

/**
 * Holm (family-wise error rate), as p.adjust(p, "holm").
 * @param {number[]} ps
 * @returns {number[]}
 */
function adjustHolm (ps) {
  const out = ps.map(() => NaN)
  const idx = order(ps, ps.map((_, i) => i).filter((i) => !Number.isNaN(ps[i])), false)
  const n = idx.length
  let running = 0
  for (let k = 0; k < n; k++) {
    const i = idx[k]
    running = Math.max(running, (n - k) * ps[i])
    out[i] = Math.min(1, running)
  }
  return out
}

/**
 * @param {number[]} ps
 * @param {'BH'|'fdr'|'holm'|'none'} method fdr: R's name for BH
 */
function adjust (ps, method) {
  if (method === 'BH' || method === 'fdr') return adjustBH(ps)
  if (method === 'holm') return adjustHolm(ps)
  if (method === 'none') return ps.slice()
  throw new TypeError(`unknown adjustment method ${method}`)
}

module.exports = { adjust, adjustBH, adjustHolm }
