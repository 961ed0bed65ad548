'use strict'
// Renders a scatter analysis as text tables.
const { renderTable, pct, pval } = require('./analysis-text.js')

// Six significant digits with thousands separators, never scientific notation
// (a rate of 1.5e6 ops/sec reads 1,500,000 as in run.js's text output).
const SIX = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 })
const num = (v) => (Number.isFinite(v) ? SIX.format(v) : 'NA')

const BAR = 40

/**
 * A bar per group: its mean rate against the largest mean, so the shape of
 * the curve shows without R (scatter.js --analyze; --no-chart leaves it out).
 * @param {ReturnType<import('../stats/scatter-analysis.js').analyzeScatter>} a
 */
function formatChart (a) {
  const label = (g) => (a.category ? `${g.category} ` : '') + `${a.xaxis}=${g.x}`
  const max = Math.max(...a.groups.map((g) => (Number.isFinite(g.mean) ? g.mean : 0)))
  const width = Math.max(...a.groups.map((g) => label(g).length))
  const lines = [`Mean rate per ${a.xaxis} (bar: share of the largest mean):`]
  for (const g of a.groups) {
    const len = max > 0 && Number.isFinite(g.mean) ? Math.round((g.mean / max) * BAR) : 0
    lines.push(`${label(g).padEnd(width)}  ${'\u2588'.repeat(len)}${' '.repeat(BAR - len)}  ${num(g.mean)}`)
  }
  return lines.join('\n')
}

/**
 * @param {ReturnType<import('../stats/scatter-analysis.js').analyzeScatter>} a
 * @param {{chart?: boolean}} [opts]
 */
function formatScatterText (a, { chart = true } = {}) {
  const head = a.category ? [a.category] : []
  const rows = [[...head, a.xaxis, 'n', 'mean', '95% CI', 'median', '95% CI'].map(String)]
  for (const g of a.groups) {
    rows.push([...(a.category ? [g.category] : []), g.x, String(g.n), num(g.mean), `[${num(g.mean_ci[0])}, ${num(g.mean_ci[1])}]`, num(g.median), `[${num(g.median_ci[0])}, ${num(g.median_ci[1])}]`])
  }
  // renderTable left-aligns the first column only; that is fine for labels.
  const out = [renderTable(rows), '']
  out.push(a.averagedOver.length > 0
    ? `Averaged over: ${a.averagedOver.join(', ')} (each group mixes their values; --set them to fix one).`
    : 'Averaged over: nothing (every other variable has one value).')
  if (a.steps.length > 0) {
    out.push('', `Successive ${a.xaxis} values (Hodges-Lehmann on log rates, Mann-Whitney p, BH q):`)
    const s = [[...head, 'from', 'to', 'change', '95% CI', 'p', 'q']]
    for (const x of a.steps) s.push([...(a.category ? [x.category] : []), x.from, x.to, pct(x.change), `[${pct(x.ci[0])}, ${pct(x.ci[1])}]`, pval(x.p), pval(x.q)])
    out.push(renderTable(s))
  }
  if (chart && a.groups.length > 0) out.push('', formatChart(a))
  return out.join('\n') + '\n'
}

module.exports = { formatScatterText, formatChart }
