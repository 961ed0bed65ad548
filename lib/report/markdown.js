'use strict'
// Renders an analysis as GitHub-flavoured Markdown, ready to paste into a PR.
const { pct, pval, verdictText, ciText, levelText, measureLines, evidenceText, isSeq } = require('./analysis-text.js')

// Escapes what would break a table cell.
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ')

/**
 * @param {ReturnType<import('../stats/analyze.js').analyze>} a
 * @returns {string}
 */
function formatAnalysisMarkdown (a) {
  const asked = a.meta.confLevel
  const level = levelText(asked)
  const out = []
  out.push(`| benchmark | configuration | n | change | ${level} CI | ${isSeq(a) ? 'e-value' : 'q'} | verdict |`)
  out.push('|---|---|--:|--:|---|--:|---|')
  for (const r of a.results) {
    const n = r.n_pairs ? `${r.n_pairs} pairs` : `${r.n_old}/${r.n_new}`
    const v = verdictText(r, a.results.length)
    const verdict = r.verdict === 'faster' || r.verdict === 'slower' ? `**${v}**` : v
    out.push(`| ${cell(r.filename)} | ${cell(r.configuration)} | ${n} | ${pct(r.change)} | ${cell(ciText(r, asked))} | ${evidenceText(r)} | ${cell(verdict)} |`)
  }
  if (a.geomean) {
    const g = a.geomean
    out.push(`| **geomean** | ${g.configurations} configurations | ${g.pairs ? `${g.pairs} pairs` : ''} | ${pct(g.change)} | ${cell(ciText(g, asked))} | | |`)
  }
  out.push('')
  const measure = measureLines(a)
  if (measure.head) out.unshift(`${measure.head}`, '')
  out.push(`${measure.change ? 'Change: geometric mean of the pairs\' ratios new/old (paired t-test on log rates, for near-deterministic counts' : 'Change: Hodges-Lehmann estimate of new/old (the median of the pairwise averages of the log ratios'}; positive = new is faster), ${level} CI${measure.change ? '' : ' from the Wilcoxon signed-rank test on pairs (Mann-Whitney when unpaired; a CI marked "at L%" has only that level)'}; q: Benjamini-Hochberg over ${a.results.length} comparisons; "no change" means the CI lies inside ±${a.meta.threshold}%${measure.floor ?? ''}. The CIs describe this session on this machine.`)
  out.push('', '<details><summary>Node compare.R columns (Welch t-test on the raw rates: unpaired, not adjusted; not a verdict)</summary>', '')
  out.push('| benchmark | configuration | improvement | confidence | accuracy (95%) | p |')
  out.push('|---|---|--:|---|--:|--:|')
  for (const r of a.results) {
    const acc = Number.isFinite(r.welch.accuracy[0]) ? `±${r.welch.accuracy[0].toFixed(2)}%` : 'NA'
    const imp = Number.isFinite(r.welch.improvement) ? `${r.welch.improvement.toFixed(2)}%` : 'NA'
    const stars = r.welch.p < 0.001 ? '\\*\\*\\*' : r.welch.p < 0.01 ? '\\*\\*' : r.welch.p < 0.05 ? '\\*' : ''
    out.push(`| ${cell(r.filename)} | ${cell(r.configuration)} | ${imp} | ${stars} | ${acc} | ${pval(r.welch.p)} |`)
  }
  out.push('', '</details>')
  if (a.warnings.length > 0) {
    out.push('', '<details><summary>Warnings (' + a.warnings.length + ')</summary>', '')
    for (const x of a.warnings) out.push(`- ${x.filename ? `\`${cell(x.filename)} ${cell(x.configuration)}\`` : 'all'}: **${x.kind}**: ${cell(x.message)}`)
    out.push('', '</details>')
  }
  return out.join('\n') + '\n'
}

module.exports = { formatAnalysisMarkdown }
