'use strict'
// Renders an analysis as GitHub-flavoured Markdown, ready to paste into a PR.
const { pct, pval, verdictText, measureLines } = require('./analysis-text.js')

// Escapes what would break a table cell.
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ')

/**
 * @param {ReturnType<import('../stats/analyze.js').analyze>} a
 * @returns {string}
 */
function formatAnalysisMarkdown (a) {
  const level = Math.round(a.meta.confLevel * 100)
  const out = []
  out.push(`| benchmark | configuration | n | change | ${level}% CI | q | verdict | Welch improvement | accuracy (95%) |`)
  out.push('|---|---|--:|--:|---|--:|---|--:|--:|')
  for (const r of a.results) {
    const n = r.n_pairs ? `${r.n_pairs} pairs` : `${r.n_old}/${r.n_new}`
    const acc = Number.isFinite(r.welch.accuracy[0]) ? `±${r.welch.accuracy[0].toFixed(2)}%` : 'NA'
    const imp = Number.isFinite(r.welch.improvement) ? `${r.welch.improvement.toFixed(2)}%` : 'NA'
    const verdict = r.verdict === 'faster' || r.verdict === 'slower' ? `**${verdictText(r)}**` : verdictText(r)
    out.push(`| ${cell(r.filename)} | ${cell(r.configuration)} | ${n} | ${pct(r.change)} | [${pct(r.ci[0])}, ${pct(r.ci[1])}] | ${`${pval(r.q)} ${r.stars}`.trim()} | ${verdict} | ${imp} | ${acc} |`)
  }
  if (a.geomean) {
    const g = a.geomean
    out.push(`| **geomean** | ${g.configurations} configurations | | ${pct(g.change)} | [${pct(g.ci[0])}, ${pct(g.ci[1])}] | | | | |`)
  }
  out.push('')
  const measure = measureLines(a)
  if (measure.head) out.unshift(`${measure.head}`, '')
  out.push(`${measure.change ? 'Change: geometric mean of the pairs\' ratios new/old, paired t-test on log rates (near-deterministic counts)' : 'Change: Hodges-Lehmann estimate of new/old on log rates'} (positive = new is faster), ${level}% CI${measure.change ? '' : ' from the Wilcoxon signed-rank test on pairs (Mann-Whitney when unpaired)'}; q: Benjamini-Hochberg over ${a.results.length} comparisons; "no change" means the CI lies inside ±${a.meta.threshold}%${measure.floor ?? ''}.`)
  if (a.warnings.length > 0) {
    out.push('', '<details><summary>Warnings (' + a.warnings.length + ')</summary>', '')
    for (const x of a.warnings) out.push(`- \`${cell(x.filename)} ${cell(x.configuration)}\`: **${x.kind}**: ${cell(x.message)}`)
    out.push('', '</details>')
  }
  return out.join('\n') + '\n'
}

module.exports = { formatAnalysisMarkdown }
