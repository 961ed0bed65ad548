'use strict'
// --runs auto: a pilot of a few pairs for every file, then more pairs only
// for files with a configuration whose confidence interval is still wider
// than the target, up to a cap and an optional time budget. The rule looks
// at the width of the interval only (on the log scale, which does not
// depend on where the interval lies), never at the direction or size of
// the change, so stopping cannot bias the estimate towards an effect.
const { analyze } = require('../stats/analyze.js')

/**
 * Which files still need pairs, and how many more each would need.
 * @param {object[]} rows all rows so far
 * @param {{target: number, maxPairs: number}} opts target: CI half-width in %
 * @returns {Map<string, number> & {capped: number}} filename -> more pairs wanted (>= 1);
 *   capped counts configurations still too wide but at the cap
 */
function filesNeedingPairs (rows, { target, maxPairs }) {
  const want = new Map()
  want.capped = 0
  for (const r of analyze(rows).results) {
    const n = r.n_pairs || Math.min(r.n_old, r.n_new)
    const halfWidth = r.ci_log_width / 2 * 100
    if (!(halfWidth > target)) continue
    if (n >= maxPairs) {
      want.capped++
      continue
    }
    // The half-width shrinks about as 1/sqrt(n); never more than double n in one step.
    const needed = Number.isFinite(halfWidth) ? Math.ceil(n * (halfWidth / target) ** 2) - n : n
    const more = Math.max(2, Math.min(needed, n, maxPairs - n))
    want.set(r.filename, Math.max(want.get(r.filename) ?? 0, more))
  }
  return want
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
  let pairsSoFar = opts.pilot
  let round = 1
  const first = await opts.runBatch(opts.files, opts.pilot, 1)
  rows.push(...first.rows)
  if (first.stopped) return { rows, rounds: round, stoppedBy: 'interrupted' }
  for (;;) {
    const want = filesNeedingPairs(rows, opts)
    if (want.size === 0) {
      const stoppedBy = want.capped > 0 ? `--max-runs (${want.capped} configuration(s) still wider than the target)` : 'target'
      return { rows, rounds: round, stoppedBy }
    }
    const more = Math.max(...want.values())
    const elapsed = now() - t0
    if (opts.timeBudgetMs !== undefined) {
      // Assume a batch costs what the pairs so far cost, per pair.
      const perPair = elapsed / pairsSoFar
      if (elapsed + perPair * more > opts.timeBudgetMs) return { rows, rounds: round, stoppedBy: 'time budget' }
    }
    const files = opts.files.filter((f) => want.has(f.name))
    if (opts.log) opts.log(`--runs auto: ${files.length} file(s) need narrower CIs; ${more} more pairs (round ${round + 1})`)
    const batch = await opts.runBatch(files, more, pairsSoFar + 1)
    rows.push(...batch.rows)
    pairsSoFar += more
    round++
    if (batch.stopped) return { rows, rounds: round, stoppedBy: 'interrupted' }
  }
}

module.exports = { runAuto, filesNeedingPairs }
