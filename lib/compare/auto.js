'use strict'
// --runs auto: a pilot of a few pairs for every file, then more pairs only
// for files with a configuration whose predicted CI is still wider than the
// target, never beyond --max-runs pairs per file, within an optional time
// budget.
//
// The rule reads the spread of each configuration's log ratios around their
// own median (lib/stats/precision.js), which stays the same when the ratios
// are shifted or mirrored: it cannot see the direction or the size of the
// change. (The width of the rank interval itself is not such a measure: for
// given magnitudes it is narrowest when all ratios fall on one side of 0, so
// stopping on it stops more often on significant-looking data.)
const { groupRows, pairsOf } = require('../stats/pairing.js')
const { precisionOf, pairsForHalfWidth } = require('../stats/precision.js')

/**
 * Which files still need pairs, and how many more each would need.
 * @param {object[]} rows all rows so far
 * @param {{target: number, maxPairs: number, pairsDone?: Map<string, number>}} opts
 *   target: wanted CI half-width in %; pairsDone: pairs run per file so far
 *   (default: the pairs found in the rows)
 * @returns {Map<string, number> & {capped: number}} filename -> more pairs wanted (>= 1,
 *   and never past maxPairs); capped counts configurations still too wide at the cap
 */
function filesNeedingPairs (rows, { target, maxPairs, pairsDone }) {
  const want = /** @type {Map<string, number> & {capped: number}} */ (Object.assign(new Map(), { capped: 0 }))
  const targetLog = Math.log1p(target / 100)
  const groups = groupRows(rows)
  const seen = pairsDone ?? pairsPerFile(groups)
  for (const g of groups) {
    const paired = pairsOf(g)
    const precision = paired.pairs && paired.pairs.length >= 2
      ? precisionOf({ logRatios: paired.pairs.map((p) => Math.log(p.new / p.old)) })
      : precisionOf({ logOld: g.rows.filter((r) => r.binary === 'old').map((r) => Math.log(r.rate)), logNew: g.rows.filter((r) => r.binary === 'new').map((r) => Math.log(r.rate)) })
    if (!(precision.halfWidth > targetLog)) continue
    const n = seen.get(g.filename) ?? precision.n
    if (n >= maxPairs) {
      want.capped++
      continue
    }
    const needed = pairsForHalfWidth(precision.scale, targetLog, { from: n + 1, limit: 10 * maxPairs })
    // At least 2 more (one pair says little), at most double in one round,
    // and never past the cap.
    const more = Math.min(maxPairs - n, Math.max(2, Math.min(Number.isFinite(needed) ? needed - n : n, n)))
    want.set(g.filename, Math.max(want.get(g.filename) ?? 0, more))
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
    const want = filesNeedingPairs(rows, { target: opts.target, maxPairs: opts.maxPairs, pairsDone: done })
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
