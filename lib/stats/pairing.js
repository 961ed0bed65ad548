'use strict'
// Grouping of compare rows by configuration, and the old/new pairs of each
// configuration keyed by (seed, pair). A pair number alone is unique only
// within one compare run: files of several runs (concatenated CSVs, shards)
// reuse it, and each run has its own seed. When rows cannot be paired the
// analysis falls back to the unpaired test, and says why.

function num (v) {
  if (typeof v === 'number') return v
  if (v === undefined || v === null || v === '') return NaN
  return Number(v)
}

/**
 * @typedef {{binary: 'old'|'new', rate: number, time: number, seed: string, pair: number}} GroupRow
 * @typedef {{filename: string, configuration: string, rows: GroupRow[]}} Group
 */

/**
 * Groups rows by filename + configuration, keeping first-seen order. Rows
 * without a positive rate or an old/new binary are left out.
 * @param {object[]} rows
 * @returns {Group[]}
 */
function groupRows (rows) {
  const groups = new Map()
  for (const row of rows) {
    const rate = num(row.rate)
    if (!(rate > 0) || (row.binary !== 'old' && row.binary !== 'new')) continue
    const key = `${row.filename}\u0000${row.configuration}`
    let g = groups.get(key)
    if (!g) {
      g = { filename: row.filename, configuration: row.configuration, rows: [] }
      groups.set(key, g)
    }
    const seed = row.seed === undefined || row.seed === null ? '' : String(row.seed)
    g.rows.push({ binary: row.binary, rate, time: num(row.time), seed, pair: num(row.pair) })
  }
  return [...groups.values()]
}

/** The key of a pair: its seed and its number. @param {{seed: string, pair: number}} r */
const pairKey = (r) => `${r.seed}\u0000${r.pair}`

/**
 * Complete old/new pairs of one configuration, in run order (seeds in the
 * order first seen, then pair number), or why there are none.
 * @param {Group} g
 * @returns {{pairs?: {key: string, old: number, new: number}[], dropped?: number,
 *   unpaired?: 'no-pairs'|'duplicates'|'too-few-pairs', duplicates?: number}} pairs, or why none
 */
function pairsOf (g) {
  if (!g.rows.some((r) => Number.isFinite(r.pair))) return { unpaired: 'no-pairs' }
  const seedOrder = new Map()
  const byKey = new Map()
  let duplicates = 0
  for (const r of g.rows) {
    if (!Number.isFinite(r.pair)) continue
    if (!seedOrder.has(r.seed)) seedOrder.set(r.seed, seedOrder.size)
    const key = pairKey(r)
    const p = byKey.get(key) ?? { key, seed: r.seed, pair: r.pair }
    if (p[r.binary] !== undefined) duplicates++
    p[r.binary] = r.rate
    byKey.set(key, p)
  }
  if (duplicates > 0) return { unpaired: 'duplicates', duplicates }
  const pairs = [...byKey.values()]
    .filter((p) => p.old !== undefined && p.new !== undefined)
    .sort((a, b) => seedOrder.get(a.seed) - seedOrder.get(b.seed) || a.pair - b.pair)
    .map((p) => ({ key: p.key, old: p.old, new: p.new }))
  return { pairs, dropped: g.rows.length - 2 * pairs.length }
}

/** Why a configuration fell back to the unpaired test, as a warning text. */
function fallbackMessage (why) {
  if (why.unpaired === 'duplicates') {
    return `${why.duplicates} row(s) repeat a (seed, pair, binary) already seen, so rows cannot be paired and the unpaired Mann-Whitney test is used (wider CIs): were files of runs with the same --seed concatenated? Give every run its own --seed, or --unpaired to silence this`
  }
  if (why.unpaired === 'too-few-pairs') {
    return 'fewer than 2 complete old/new pairs, so the unpaired Mann-Whitney test is used'
  }
  return 'the rows have no pair numbers (a CSV of Node core\'s compare.js, or a "pair" column left empty), so the unpaired Mann-Whitney test is used (wider CIs: pairs cancel the machine\'s drift); benchrig compare writes pairs'
}

module.exports = { groupRows, pairsOf, pairKey, fallbackMessage, num }
