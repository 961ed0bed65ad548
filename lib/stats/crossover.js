'use strict'
// The duet crossover: a duet pair runs old and new at once on two CPU sets,
// and when the sets differ in speed (other work on one of them, the
// hypervisor) a pair's ratio carries that difference: new/old is
// (1 + delta) * sB / sA with old on set A. compare --duet assigns the sets in
// blocks of two pairs (lib/compare/duet.js: old on A, then old on B, in a
// seeded order; the "cpu_block" column), so within a block
//   x1 = log(1 + delta) + c,  x2 = log(1 + delta) - c,  c = log(sB / sA)
// and their mean is the change with the CPU effect removed, their half
// difference the CPU effect. The analysis (analyze.js, and the seq rule in
// sequential.js) sees one pair per block: the old and new rows of the block
// each replaced by the geometric mean of the block's two rates, so
// log(new/old) of the block is the mean of its two log ratios.
//
// Per block rather than per arm (the median of each arm's ratios, combined by
// geometric mean): the speed difference drifts and swaps within minutes, and
// a block's two pairs run back to back, so the per-block mean removes even a
// drifting effect, and blocks are independent units for the betting e-process
// (its martingale argument needs one; bench/stats-sim/crossover.js measures
// both estimates under the drifting model: the per-block one keeps coverage
// where the per-arm one, whose arms drift apart, loses it).
// Pure: rows in, rows out.

/**
 * True when rows carry crossover blocks (a duet run of this version).
 * @param {object[]} rows
 */
function hasBlocks (rows) {
  return rows.some((r) => r.cpu_block !== undefined && r.cpu_block !== null && r.cpu_block !== '')
}

/**
 * The complete blocks of rows, per configuration and seed: each with its two
 * pairs' rows, keyed by which CPU set old ran on.
 * @param {object[]} rows
 * @returns {{filename: string, configuration: string, seed: string, block: number,
 *   pairs: {set: string, old: object, new: object}[]}[]}
 */
function blocksOf (rows) {
  const blocks = new Map()
  for (const r of rows) {
    if (r.cpu_block === undefined || r.cpu_block === null || r.cpu_block === '') continue
    if (r.binary !== 'old' && r.binary !== 'new') continue
    if (!(Number(r.rate) > 0)) continue
    const seed = r.seed === undefined || r.seed === null ? '' : String(r.seed)
    const key = `${r.filename}\u0000${r.configuration}\u0000${seed}\u0000${r.cpu_block}`
    let b = blocks.get(key)
    if (!b) {
      b = { filename: r.filename, configuration: r.configuration, seed, block: Number(r.cpu_block), byPair: new Map() }
      blocks.set(key, b)
    }
    const p = b.byPair.get(String(r.pair)) ?? {}
    p[r.binary] = r
    b.byPair.set(String(r.pair), p)
  }
  const out = []
  for (const b of blocks.values()) {
    const pairs = [...b.byPair.values()].filter((p) => p.old && p.new)
    if (pairs.length !== 2) continue
    // a complete block: old on each set once
    if (String(pairs[0].old.cpuset) === String(pairs[1].old.cpuset)) continue
    out.push({ filename: b.filename, configuration: b.configuration, seed: b.seed, block: b.block, pairs: pairs.map((p) => ({ set: String(p.old.cpuset), old: p.old, new: p.new })) })
  }
  return out
}

/**
 * Rows with each complete crossover block collapsed to one old and one new
 * row (pair = the block's number, rate = the geometric mean of the block's two
 * rates of that side, time the mean, crossover: 'block'); rows of blocks not
 * complete (a run that failed, the last block of an odd pair count) are left
 * out; rows without blocks pass as they are, so calling it twice is harmless.
 * @param {object[]} rows
 * @returns {object[]}
 */
function crossoverRows (rows) {
  if (!hasBlocks(rows)) return rows
  const out = rows.filter((r) => r.cpu_block === undefined || r.cpu_block === null || r.cpu_block === '')
  for (const b of blocksOf(rows)) {
    for (const side of /** @type {const} */ (['old', 'new'])) {
      const [p, q] = b.pairs
      const a = p[side]
      const c = q[side]
      const first = Number(a.run ?? a.pair) <= Number(c.run ?? c.pair) ? a : c
      const row = { ...first, pair: b.block, rate: Math.sqrt(Number(a.rate) * Number(c.rate)), time: (Number(a.time) + Number(c.time)) / 2, crossover: 'block' }
      delete row.cpu_block
      delete row.cpuset
      out.push(row)
    }
  }
  return out
}

/** True when rows are crossover blocks (crossoverRows' output). @param {object[]} rows */
const isCollapsed = (rows) => rows.some((r) => r.crossover === 'block')

/**
 * The CPU effect of a duet crossover, per configuration: how much slower the
 * second CPU set (by its first CPU number) ran than the first, from the
 * median over complete blocks of half the difference of the two log ratios.
 * @param {object[]} rows
 * @returns {{filename: string, configuration: string, sets: [string, string], blocks: number, effect: number}[]}
 *   effect: log(speed of the second set / speed of the first)
 */
function cpuEffects (rows) {
  const per = new Map()
  for (const b of blocksOf(rows)) {
    const sets = b.pairs.map((p) => p.set).sort(bySetNumber)
    const x = (p) => Math.log(Number(p.new.rate) / Number(p.old.rate))
    const onFirst = b.pairs.find((p) => p.set === sets[0])
    const onSecond = b.pairs.find((p) => p.set === sets[1])
    // old on the first set: new/old = (1 + delta) * s2 / s1
    const c = (x(onFirst) - x(onSecond)) / 2
    const key = `${b.filename}\u0000${b.configuration}`
    const e = per.get(key) ?? { filename: b.filename, configuration: b.configuration, sets, cs: [] }
    e.cs.push(c)
    per.set(key, e)
  }
  return [...per.values()].map((e) => ({ filename: e.filename, configuration: e.configuration, sets: e.sets, blocks: e.cs.length, effect: medianOf(e.cs) }))
}

const bySetNumber = (a, b) => (parseInt(a, 10) - parseInt(b, 10)) || (a < b ? -1 : a > b ? 1 : 0)

/**
 * The analysis warning that reports the CPU effect of a crossover run, one
 * for the suite: the median over configurations and their range.
 * @param {object[]} rows
 * @returns {{filename: string, configuration: string, kind: string, message: string, effect: number}[]}
 */
function cpuEffectWarnings (rows) {
  const fx = cpuEffects(rows)
  if (fx.length === 0) return []
  const pct = (c) => (Math.exp(c) - 1) * 100
  const mid = medianOf(fx.map((f) => f.effect))
  const lo = Math.min(...fx.map((f) => f.effect))
  const hi = Math.max(...fx.map((f) => f.effect))
  const [s1, s2] = fx[0].sets
  const slower = mid < 0
  const size = Math.abs(slower ? (1 - Math.exp(mid)) * 100 : (1 - Math.exp(-mid)) * 100)
  const what = `CPU set ${slower ? s2 : s1} ran ${size.toFixed(0)}% slower than CPU set ${slower ? s1 : s2}`
  const range = fx.length > 1 ? ` (median over ${fx.length} configurations; set ${s2} vs ${s1} from ${signed(pct(lo))} to ${signed(pct(hi))})` : ''
  return [{ filename: '', configuration: '', kind: 'cpu-effect', effect: pct(mid), message: `duet crossover: ${what}${range}; removed by the crossover (each block of two pairs runs old once on each set)` }]
}

/**
 * The per-arm estimate (for the simulation that chose the per-block one):
 * the mean of the median log ratio with old on each set.
 * @param {{x: number, arm: 0|1}[]} pairs
 * @returns {number} log change
 */
function perArmEstimate (pairs) {
  const a = pairs.filter((p) => p.arm === 0).map((p) => p.x)
  const b = pairs.filter((p) => p.arm === 1).map((p) => p.x)
  if (a.length === 0 || b.length === 0) return NaN
  return (medianOf(a) + medianOf(b)) / 2
}

const signed = (v) => `${v >= 0 ? '+' : ''}${v.toFixed(0)}%`

function medianOf (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

module.exports = { hasBlocks, blocksOf, crossoverRows, isCollapsed, cpuEffects, cpuEffectWarnings, perArmEstimate }
