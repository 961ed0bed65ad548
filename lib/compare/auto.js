'use strict'
// The driver of --runs auto: it plans and runs the pairs; lib/stats/precision.js is the
// pure measure of spread it plans from (the "needs ~N more pairs" hint reads it too).
// --runs auto: a pilot of a few pairs for every file; from the pilot alone,
// once, the number of pairs each file needs for its noisiest configuration's
// predicted CI to reach the target (at least twice the pilot, never beyond
// --max-runs); then those pairs, in rounds of at most doubling so that the
// time budget can stop between them.
//
// Why one look, and why twice the pilot. Any measure of spread that is blind
// to the location of the ratios (here their median absolute deviation around
// their median, lib/stats/precision.js) still depends a little on their
// signs: for given magnitudes the ratios look tighter around their own
// centre when they all fall on one side, which is when the test is
// significant. A rule that looks again after every round stops more often
// on such data (A/A p < .05 of 5.3-5.6%). Reading the spread once, on the
// pilot, and never again makes every later pair independent of the
// decision; requiring at least as many pairs after the pilot as in it keeps
// that independent part at least half of every test. (A rule on the spread
// around 0 would be exact under no change, but sees the change itself: at a
// +5% change and a ±2% target it runs files to 58 of 60 pairs on average.)
// bench/stats-sim measures all three; docs/compare.md has the figures.
const { groupRows, pairsOf } = require('../stats/pairing.js')
const { precisionOf, pairsForHalfWidth } = require('../stats/precision.js')

/**
 * How many pairs each file gets in all, from its pilot pairs only.
 * @param {ReturnType<typeof groupRows>} groups
 * @param {{target: number, maxPairs: number, pilot: number}} opts
 * @returns {{planned: Map<string, number>, capped: Map<string, number>}} filename -> pairs in
 *   all; filename -> configurations whose predicted CI is still wider than the target at the cap
 */
function planFiles (groups, { target, maxPairs, pilot }) {
  const targetLog = Math.log1p(target / 100)
  const least = Math.min(maxPairs, 2 * pilot)
  const planned = new Map()
  const capped = new Map()
  for (const g of groups) {
    const precision = pilotPrecision(g, pilot)
    // Unknown spread (fewer than 2 pilot pairs): the least plan.
    const needed = Number.isNaN(precision.scale)
      ? least
      : pairsForHalfWidth(precision.scale, targetLog, { from: Math.max(2, precision.n), limit: 10 * maxPairs })
    if (needed > maxPairs) capped.set(g.filename, (capped.get(g.filename) ?? 0) + 1)
    const plan = Math.min(maxPairs, Math.max(least, needed))
    planned.set(g.filename, Math.max(planned.get(g.filename) ?? 0, plan))
  }
  return { planned, capped }
}

// The spread of a configuration's first `pilot` pairs in run order (seeds in
// the order first seen, then pair number), or of its first `pilot` runs of
// each binary when the rows cannot be paired.
/** @param {import('../stats/pairing.js').Group} g @param {number} pilot */
function pilotPrecision (g, pilot) {
  const paired = pairsOf(g)
  if (paired.pairs && paired.pairs.length >= 2) {
    return precisionOf({ logRatios: paired.pairs.slice(0, pilot).map((p) => Math.log(p.new / p.old)) })
  }
  /** @param {'old'|'new'} binary */
  const first = (binary) => g.rows.filter((r) => r.binary === binary).slice(0, pilot).map((r) => Math.log(r.rate))
  return precisionOf({ logOld: first('old'), logNew: first('new') })
}

/**
 * Which files still need pairs, and how many more each gets in the next
 * round.
 * @param {object[]} rows all rows so far
 * @param {{target: number, maxPairs: number, pilot?: number, pairsDone?: Map<string, number>}} opts
 *   target: wanted CI half-width in %; pilot: the pairs of the pilot (default 6), whose spread
 *   alone sets each file's plan; pairsDone: pairs run per file so far (default: the pairs found
 *   in the rows)
 * @returns {Map<string, number> & {capped: number, planned: Map<string, number>}} filename ->
 *   more pairs in the next round (>= 1, at most doubling, never past the plan, which is never
 *   past maxPairs); planned: each file's pairs in all; capped counts configurations of finished
 *   files whose predicted CI is still wider than the target at the cap
 */
function filesNeedingPairs (rows, { target, maxPairs, pilot = 6, pairsDone }) {
  const groups = groupRows(rows)
  const seen = pairsDone ?? pairsPerFile(groups)
  const { planned, capped } = planFiles(groups, { target, maxPairs, pilot })
  const want = /** @type {Map<string, number> & {capped: number, planned: Map<string, number>}} */ (Object.assign(new Map(), { capped: 0, planned }))
  for (const [file, plan] of planned) {
    const n = seen.get(file) ?? 0
    if (n < plan) want.set(file, Math.min(plan - n, Math.max(n, 1)))
    else want.capped += capped.get(file) ?? 0
  }
  return want
}

// Distinct (seed, pair) keys per file.
function pairsPerFile (groups) {
  const keys = new Map()
  for (const g of groups) {
    const set = keys.get(g.filename) ?? new Set()
    for (const r of g.rows) if (Number.isFinite(r.pair)) set.add(`${r.seed}\u0000${r.pair}`)
    keys.set(g.filename, set)
  }
  return new Map([...keys].map(([f, s]) => [f, s.size]))
}

/**
 * Drives the batches. runBatch runs `pairs` more pairs of the given files,
 * numbering them from firstPair, and resolves with the new rows.
 * @param {{files: {file: string, name: string}[], pilot: number, target: number,
 *   maxPairs: number, timeBudgetMs?: number, rows?: object[],
 *   runBatch: (files: object[], pairs: number, firstPair: number) => Promise<{rows: object[], stopped: boolean}>,
 *   now?: () => number, log?: (msg: string) => void}} opts
 * @returns {Promise<{rows: object[], rounds: number, stoppedBy: string}>}
 */
async function runAuto (opts) {
  const now = opts.now ?? Date.now
  const t0 = now()
  const rows = [...(opts.rows ?? [])]
  const pilot = Math.min(opts.pilot, opts.maxPairs)
  // Pairs scheduled per file: files leave the rounds at different times, so
  // each continues its own numbering and has its own count against the cap.
  const done = new Map(opts.files.map((f) => [f.name, pilot]))
  let filePairs = pilot * opts.files.length
  let round = 1
  const first = await opts.runBatch(opts.files, pilot, 1)
  rows.push(...first.rows)
  if (first.stopped) return { rows, rounds: round, stoppedBy: 'interrupted' }
  for (;;) {
    const want = filesNeedingPairs(rows, { target: opts.target, maxPairs: opts.maxPairs, pilot, pairsDone: done })
    if (want.size === 0) {
      const stoppedBy = want.capped > 0 ? `--max-runs (${want.capped} configuration(s) still wider than the target)` : 'target'
      return { rows, rounds: round, stoppedBy }
    }
    // Files that need the same number of pairs from the same starting pair
    // run as one batch (interleaved, as in the pilot).
    const batches = new Map()
    for (const f of opts.files) {
      if (!want.has(f.name)) continue
      const key = `${done.get(f.name)}:${want.get(f.name)}`
      const b = batches.get(key) ?? { files: [], first: done.get(f.name) + 1, pairs: want.get(f.name) }
      b.files.push(f)
      batches.set(key, b)
    }
    const cost = [...batches.values()].reduce((s, b) => s + b.pairs * b.files.length, 0)
    const elapsed = now() - t0
    if (opts.timeBudgetMs !== undefined) {
      // Assume a pair of one file costs what one did so far.
      if (elapsed + elapsed / filePairs * cost > opts.timeBudgetMs) return { rows, rounds: round, stoppedBy: 'time budget' }
    }
    round++
    for (const b of batches.values()) {
      if (opts.log) opts.log(`--runs auto: ${b.files.length} file(s) need narrower CIs; ${b.pairs} more pairs (round ${round})`)
      const batch = await opts.runBatch(b.files, b.pairs, b.first)
      rows.push(...batch.rows)
      for (const f of b.files) done.set(f.name, done.get(f.name) + b.pairs)
      filePairs += b.pairs * b.files.length
      if (batch.stopped) return { rows, rounds: round, stoppedBy: 'interrupted' }
    }
  }
}

module.exports = { runAuto, filesNeedingPairs }
