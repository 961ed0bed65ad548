'use strict'
// The trend section of `analyze --format github --history DB`: for each
// configuration the analysis calls slower or faster, its series in the store
// (the last 20 labels, the median of each label's values) and the change
// points found in it. A configuration measured on several machines has a
// series per environment: the longest one is shown. Change points use every
// run of every label (lib/history/changepoint.js).
const { median } = require('../stats/descriptive.js')

const LAST = 20

/**
 * @param {string} spec the store (--history): a file, a postgres:// URL, or "" for the default
 * @param {{filename: string, configuration: string, verdict: string}[]} results
 * @param {{root?: string, measure?: string}} [opts]
 * @returns {Promise<{trends?: Map<string, {points: {label: string, value: number}[], changes: {label: string, change: number}[]}>, note?: string}>}
 */
async function trendsFromHistory (spec, results, opts = {}) {
  const { openHistory } = require('../history/index.js') // lazy: the store's engine (SQLite or pg) loads only with --history
  const h = await openHistory(spec, { root: opts.root })
  const trends = new Map()
  let order
  let note
  try {
    for (const r of results.filter((x) => x.verdict === 'slower' || x.verdict === 'faster')) {
      const filter = { file: r.filename, configuration: r.configuration, measure: opts.measure ?? 'wall' }
      let found
      try {
        found = await h.changes(order === undefined ? filter : { ...filter, order })
      } catch (err) {
        // labels the store cannot order by themselves (commits without their
        // repository, kinds mixed): in the order they were added, as a CI
        // that records each run as it goes adds them, and the comment says so
        if (!err.code || !String(err.code).startsWith('BENCHRIG_ERR') || order !== undefined) throw err
        order = 'added'
        // no path of this machine and no flag advice: the reader of a PR comment has neither
        note = 'The store\'s labels are neither all versions nor all commits with their git order, so the trend shows them in the order they were added (commits recorded by compare --old-ref/--new-ref or bisect --refs carry their git order).'
        found = await h.changes({ ...filter, order })
      }
      const exact = found.filter((s) => s.key.file === r.filename && s.key.configuration === r.configuration)
      if (exact.length === 0) continue
      const s = exact.sort((a, b) => b.points.length - a.points.length)[0]
      const points = s.points.slice(-LAST)
      const shown = new Set(points.map((p) => p.label))
      // labels by their display names (a tag, a describe, a version)
      trends.set(`${r.filename}\u0000${r.configuration}`, {
        points: points.map((p) => ({ label: p.display ?? p.label, value: median(p.values) })),
        changes: s.changes.filter((c) => shown.has(c.label)).map((c) => ({ label: c.display ?? c.label, change: c.size * 100, ci: [c.ci[0] * 100, c.ci[1] * 100] })),
        ...(s.untestable ? { untestable: s.untestable } : {})
      })
    }
  } finally {
    await h.close()
  }
  return { trends, note }
}

module.exports = { trendsFromHistory }
