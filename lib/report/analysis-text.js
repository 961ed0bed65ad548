'use strict'
// Renders an analysis (lib/stats/analyze.js) as plain-text tables for a
// terminal: our rank-based table with verdicts, then compare.R's Welch
// columns in compare.R's layout so Node core users find what they know.

const pct = (v, digits = 2) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(digits)}%` : 'NA')
const pval = (p) => (Number.isFinite(p) ? (p < 0.0001 ? p.toExponential(1) : p.toFixed(4)) : 'NA')

/**
 * Pads a table of strings: the first column (and those in `left`)
 * left-aligned, the rest right-aligned.
 * @param {string[][]} rows
 * @param {number[]} [left] indexes of other left-aligned columns
 */
function renderTable (rows, left = []) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  const pad = (c, i) => (i === 0 || left.includes(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))
  return rows.map((r) => r.map(pad).join('  ').trimEnd()).join('\n')
}

function nameOf (r) {
  return r.configuration ? `${r.filename} ${r.configuration}` : r.filename
}

function verdictText (r) {
  if (r.verdict === 'inconclusive' && r.more_pairs !== undefined) return `inconclusive (needs ~${r.more_pairs} more pairs)`
  return r.verdict
}

/** Welch stars from the unadjusted p, as compare.R prints them. */
function welchStars (p) {
  if (!(p < 0.05)) return ''
  return p < 0.001 ? '***' : p < 0.01 ? '**' : '*'
}

/**
 * What the rates count, when it is not wall time: a line above the tables,
 * the legend of the paired t-test, and the floor below which nothing is
 * called faster or slower.
 * @param {{meta: {measure?: string, minEffect?: number}, results: {method: string}[]}} a
 * @returns {{head?: string, change?: string, floor?: string}}
 */
function measureLines (a) {
  const out = {}
  const measure = a.meta.measure ?? 'wall'
  if (measure !== 'wall') out.head = require('../harness/measure.js').measureNote(measure)
  if (a.results.some((r) => r.method === 'paired-t-log')) {
    out.change = 'change: geometric mean of the pairs\' ratios new/old (paired t-test on log rates, for near-deterministic counts; positive = new is faster); n: "Np" = N pairs;'
  }
  if (a.meta.minEffect > 0) out.floor = `, and a change under ${a.meta.minEffect}% is never faster or slower (the measure's resolution, --min-effect)`
  return out
}

/**
 * @param {ReturnType<import('../stats/analyze.js').analyze>} a
 * @returns {string}
 */
function formatAnalysisText (a) {
  const ci = `${Math.round(a.meta.confLevel * 100)}% CI`
  const rows = [['', 'n', 'change', ci, 'p', 'q', '', 'verdict']]
  for (const r of a.results) {
    const n = r.n_pairs ? `${r.n_pairs}p` : `${r.n_old}/${r.n_new}`
    rows.push([nameOf(r), n, pct(r.change), `[${pct(r.ci[0])}, ${pct(r.ci[1])}]`, pval(r.p), pval(r.q), r.stars, verdictText(r)])
  }
  if (a.geomean) {
    const g = a.geomean
    rows.push([`geomean of ${g.configurations} configuration${g.configurations === 1 ? '' : 's'}`, '', pct(g.change), `[${pct(g.ci[0])}, ${pct(g.ci[1])}]`, '', '', '', ''])
  }
  const out = [renderTable(rows, [6, 7]), '']
  const measure = measureLines(a)
  if (measure.head) out.unshift(measure.head, '')
  out.push(measure.change ?? `change: median ratio new/old (Hodges-Lehmann on log rates; positive = new is faster); n: ${'"'}Np${'"'} = N pairs (Wilcoxon signed-rank), otherwise runs old/new (Mann-Whitney);`)
  out.push(`q: Benjamini-Hochberg across ${a.results.length} comparisons; "no change" = the CI lies inside ±${a.meta.threshold}%${measure.floor ?? ''}.`)
  out.push('')
  out.push('Welch t-test on the raw rates (the columns of Node core\'s compare.R):')
  const w = [['', 'confidence', 'improvement', 'accuracy (*)', '(**)', '(***)']]
  for (const r of a.results) {
    const acc = r.welch.accuracy.map((x) => (Number.isFinite(x) ? `±${x.toFixed(2)}%` : 'NA'))
    w.push([nameOf(r), welchStars(r.welch.p), Number.isFinite(r.welch.improvement) ? `${r.welch.improvement.toFixed(2)} %` : 'NA', ...acc])
  }
  out.push(renderTable(w))
  if (a.warnings.length > 0) {
    out.push('', 'Warnings:')
    for (const x of a.warnings) out.push(`  ${x.filename}${x.configuration ? ' ' + x.configuration : ''}: ${x.kind}: ${x.message}`)
  }
  if (a.meta.maxRegression !== undefined) {
    out.push('')
    if (a.regressions.length === 0) out.push(`No configuration is significantly slower than -${a.meta.maxRegression}% (Holm-adjusted).`)
    else {
      out.push(`FAIL: ${a.regressions.length} configuration(s) significantly slower than -${a.meta.maxRegression}% (Holm-adjusted):`)
      for (const r of a.regressions) out.push(`  ${nameOf(r)}: ${pct(r.change)} [${pct(r.ci[0])}, ${pct(r.ci[1])}]`)
    }
  }
  return out.join('\n') + '\n'
}

module.exports = { formatAnalysisText, measureLines, renderTable, pct, pval, verdictText, welchStars }
