'use strict'
// The data of the PR figure (a forest plot), taken from an analysis as it
// is: one row per configuration in declaration order, grouped by file, the
// change and CI that `benchrig analyze` reports, coloured by its verdict, a
// title from the run's metadata. The SVG (forest-svg.js) only draws this;
// bar.R draws the same figure from the same rules.
const { MEASURES } = require('../record/measures.js')

/** One colour per verdict; bar.R uses the same values (a test holds them equal). */
const VERDICT_COLOURS = {
  faster: '#1b9e77',
  slower: '#d95f02',
  'no change': '#7570b3',
  inconclusive: '#8c8c8c'
}

/**
 * The label of the measured quantity: the rows' measure when they carry one
 * (the wording of the measures' rate labels: operations per CPU-second, per
 * 10^9 instructions).
 */
function measureLabel (measure) {
  if (!measure || measure === 'wall') return 'ops/sec'
  if (measure === 'cpu') return 'operations per CPU-second'
  if (measure === 'instructions') return 'operations per 10^9 instructions'
  if (Object.hasOwn(MEASURES, measure)) return MEASURES[measure].rateLabel
  return `rate (${measure})`
}

/** The first non-empty measure of compare rows, or undefined (old files have none). */
function measureOfRows (rows) {
  for (const r of rows) if (r.measure) return String(r.measure)
  return undefined
}

// "v24.1.0" from a binary description, else its file name.
function binaryName (b) {
  if (!b) return undefined
  if (b.version) return String(b.version)
  if (b.path) return String(b.path).split('/').pop()
  return undefined
}

function range (values) {
  const v = values.filter(Number.isFinite)
  if (v.length === 0) return ''
  const lo = Math.min(...v)
  const hi = Math.max(...v)
  return lo === hi ? String(lo) : `${lo}–${hi}`
}

/**
 * @param {ReturnType<import('../stats/analyze.js').analyze>} a
 * @param {{measure?: string, title?: string}} [opts]
 */
function forestModel (a, opts = {}) {
  const level = a.meta.confLevel ?? 0.95
  const rows = a.results.map((r) => ({
    filename: r.filename,
    configuration: r.configuration,
    label: r.configuration === '' ? r.filename.split('/').pop() : r.configuration,
    change: r.change,
    ci: r.ci,
    // The level the interval reached (it can be lower at small n with ties).
    level: r.conf_level ?? level,
    verdict: r.verdict,
    colour: VERDICT_COLOURS[r.verdict] ?? VERDICT_COLOURS.inconclusive,
    pairs: r.n_pairs,
    n: r.n_pairs || Math.min(r.n_old, r.n_new)
  }))
  const groups = []
  const byFile = new Map()
  for (const row of rows) {
    let g = byFile.get(row.filename)
    if (!g) {
      g = { filename: row.filename, rows: [] }
      byFile.set(row.filename, g)
      groups.push(g)
    }
    g.rows.push(row)
  }
  const oldName = binaryName(a.meta.old)
  const newName = binaryName(a.meta.new)
  const title = opts.title ?? (oldName && newName ? `${newName} vs ${oldName}` : 'new vs old')
  const categories = [...new Set(rows.map((r) => r.filename.includes('/') ? r.filename.split('/')[0] : r.filename))]
  const paired = rows.length > 0 && rows.every((r) => r.pairs > 0)
  const counts = {}
  for (const r of rows) counts[r.verdict] = (counts[r.verdict] ?? 0) + 1
  const parts = [
    `${categories.length === 1 ? 'category' : 'categories'} ${categories.join(', ')}`,
    `${rows.length} configuration${rows.length === 1 ? '' : 's'}`,
    paired ? `${range(rows.map((r) => r.pairs))} pairs` : `${range(rows.map((r) => r.n))} runs per binary (unpaired)`,
    ...(a.meta.seed !== undefined ? [`seed ${a.meta.seed}`] : [])
  ]
  const subtitle = rows.length === 0 ? 'no data: the CSV has no old/new rows with a rate' : parts.join(' · ')
  const levels = [...new Set(rows.map((r) => Math.round(r.level * 1000) / 10))]
  const levelText = levels.length <= 1 ? `${levels[0] ?? Math.round(level * 100)}% CI` : `CI at ${Math.min(...levels)}–${Math.max(...levels)}%`
  const axisLabel = `change of ${measureLabel(opts.measure ?? a.meta.measure)}, new vs old (log scale; ${levelText}; positive = new is faster)`
  return { title, subtitle, axisLabel, rows, groups, counts, threshold: a.meta.threshold ?? 1, colours: VERDICT_COLOURS }
}

// Candidate ticks in %, coarse to fine; a tick set is the finest one that
// keeps at most MAX_TICKS inside the range.
const TICK_LADDERS = [
  [-99, -90, -50, 0, 100, 1000],
  [-90, -75, -50, -20, 0, 25, 100, 300, 900],
  [-50, -20, -10, -5, -1, 0, 1, 5, 10, 25, 100],
  [-20, -10, -5, -2, -1, 0, 1, 2, 5, 10, 25],
  [-5, -2, -1, -0.5, -0.2, 0, 0.2, 0.5, 1, 2, 5],
  [-1, -0.5, -0.2, -0.1, 0, 0.1, 0.2, 0.5, 1]
]
const MAX_TICKS = 9
const MIN_GAP = 0.06 // of the axis width between tick labels

/**
 * Ticks (in %) for a log-ratio axis from lo to hi (log(new/old)).
 * @param {number} lo
 * @param {number} hi
 */
function logTicks (lo, hi) {
  // The widest spread of ticks wins (then the most ticks): a fine ladder
  // that fits but covers only the middle of the axis is no help.
  let best = [0]
  let bestSpan = 0
  for (const ladder of TICK_LADDERS) {
    const inside = ladder.filter((p) => { const x = Math.log1p(p / 100); return x >= lo && x <= hi })
    if (inside.length > MAX_TICKS) continue
    const span = inside.length < 2 ? 0 : Math.log1p(inside[inside.length - 1] / 100) - Math.log1p(inside[0] / 100)
    if (span > bestSpan * 1.25 || (span >= bestSpan / 1.25 && inside.length > best.length)) {
      best = inside
      bestSpan = Math.max(span, bestSpan)
    }
  }
  return thinTicks(best, MIN_GAP * (hi - lo))
}

/**
 * Drops ticks closer than gap (in log units) to the one kept before them,
 * walking out from 0, so labels near 0 do not overlap.
 * @param {number[]} ticks %
 * @param {number} gap
 */
function thinTicks (ticks, gap) {
  const L = (p) => Math.log1p(p / 100)
  const kept = ticks.includes(0) ? [0] : []
  for (const side of [ticks.filter((p) => p > 0), ticks.filter((p) => p < 0).reverse()]) {
    let last = 0
    for (const p of side) {
      if (Math.abs(L(p) - last) >= gap) {
        kept.push(p)
        last = L(p)
      }
    }
  }
  return kept.sort((a, b) => a - b)
}

/**
 * The shown range of log(new/old): every estimate, and every CI bound unless
 * one interval is far wider than the rest (then it is cut and marked, so a
 * single wide interval does not squash the others).
 * @param {{change: number, ci: [number, number]}[]} rows
 * @param {number} threshold %
 * @returns {[number, number]}
 */
function logRange (rows, threshold) {
  const L = (p) => Math.log1p(p / 100)
  const est = rows.map((r) => L(r.change)).filter(Number.isFinite)
  const bounds = rows.flatMap((r) => [L(r.ci[0]), L(r.ci[1])]).filter(Number.isFinite)
  const band = L(threshold)
  const sorted = bounds.map(Math.abs).sort((x, y) => x - y)
  const p90 = sorted.length ? sorted[Math.floor(0.9 * (sorted.length - 1))] : 0
  const cap = Math.max(3 * p90, 2 * band, ...est.map(Math.abs))
  let lo = Math.min(-band, ...est, ...bounds.map((b) => Math.max(b, -cap)))
  let hi = Math.max(band, ...est, ...bounds.map((b) => Math.min(b, cap)))
  const pad = 0.04 * (hi - lo)
  lo -= pad
  hi += pad
  return [lo, hi]
}

module.exports = { forestModel, logTicks, logRange, measureLabel, measureOfRows, VERDICT_COLOURS }
