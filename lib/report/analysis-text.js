'use strict'
// Renders an analysis (lib/stats/analyze.js) as plain-text tables for a
// terminal: our rank-based table with verdicts, then, in a section of their
// own, compare.R's Welch columns in compare.R's layout so Node core users
// find what they know. Their stars are unadjusted and ignore the pairing, so
// they never stand beside a verdict.
const { measureNote } = require('../record/measures.js')

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

/**
 * A verdict of --runs seq: after how many pairs, and why the rule stopped.
 * @param {{verdict: string, stop: {pairs: number, reason: string, evalue?: number, needed?: number|null}}} r
 * @param {boolean} long
 */
function stopText (r, long) {
  const s = r.stop
  const need = s.needed === undefined ? '' : Number.isFinite(s.needed) ? `, would need ~${s.needed} pairs` : ', would need more than 100x --max-runs pairs'
  if (s.reason === 'futility') return long ? `inconclusive (futility at ${s.pairs} pairs${need})` : `inconclusive (futility${need})`
  if (s.reason === 'max-runs') return `inconclusive (--max-runs ${s.pairs}${need})`
  if (s.reason === 'running') return `inconclusive (not stopped at ${s.pairs} pairs)`
  if (!long) return r.verdict
  if (r.verdict === 'faster' || r.verdict === 'slower') return `${r.verdict} (called at pair ${s.pairs}${s.evalue === undefined ? '' : `, e-value ${evalueText(s.evalue)}`})`
  return `${r.verdict} (stopped at pair ${s.pairs}: interval ${s.reason})`
}

/** An e-value as the seq table shows it. @param {number|undefined} e */
function evalueText (e) {
  if (e === undefined || !Number.isFinite(e)) return 'NA'
  return e === 0 ? '0' : e >= 1e4 ? e.toExponential(1) : e.toPrecision(3)
}

/**
 * The evidence column: under --runs seq the rule's own (its e-value where it
 * stopped), never a fixed-sample p or q that may contradict its verdict (they
 * stay in JSON and CSV); else q with its stars.
 * @param {{q: number, stars: string, stop?: {evalue?: number}}} r
 */
function evidenceText (r) {
  if (r.stop) return evalueText(r.stop.evalue)
  return `${pval(r.q)} ${r.stars}`.trim()
}

/** Whether an analysis is of --runs seq rows (its table shows the rule's evidence). */
const isSeq = (a) => a.results.some((r) => r.stop)

/**
 * The verdict with what an inconclusive result lacks.
 * @param {object} r a result
 * @param {number} [comparisons] how many configurations the correction spans
 */
function verdictText (r, comparisons) {
  if (r.stop) return stopText(r, true)
  if (r.verdict !== 'inconclusive') return r.verdict
  const unit = r.n_pairs ? 'pairs' : 'runs per binary'
  const more = r.more_pairs === undefined ? '' : `; needs ~${r.more_pairs} more ${unit}`
  if (r.blocker === 'too-few-pairs') {
    return `inconclusive (${r.n_pairs ? `${r.n_pairs} pairs` : `${Math.min(r.n_old, r.n_new)} runs per binary`}: too few for the test to reach significance at all${more})`
  }
  if (r.blocker === 'multiplicity') {
    return `inconclusive (the CI excludes 0 but q=${pval(r.q)}: the correction over ${comparisons ?? 'all'} configurations, not the width, blocks the call)`
  }
  if (r.more_pairs !== undefined) return `inconclusive (needs ~${r.more_pairs} more ${unit})`
  return r.verdict
}

/**
 * The CI as text, with its level when that is not the one asked for.
 * @param {{ci: [number, number], conf_level?: number}} r
 * @param {number} asked
 */
function ciText (r, asked) {
  const base = `[${pct(r.ci[0])}, ${pct(r.ci[1])}]`
  if (r.conf_level === undefined || Math.abs(r.conf_level - asked) < 1e-9) return base
  return `${base} at ${levelText(r.conf_level)}`
}

/** 0.95 -> "95%", 0.969 -> "96.9%". @param {number} level */
function levelText (level) {
  return `${Number((level * 100).toPrecision(3))}%`
}

/** Welch stars from the unadjusted p, as compare.R prints them. */
function welchStars (p) {
  if (!(p < 0.05)) return ''
  return p < 0.001 ? '***' : p < 0.01 ? '**' : '*'
}

/**
 * The verdict in a few words, for the table (the footer says what each
 * reason means; --wide prints verdictText's sentences instead).
 * @param {object} r a result
 */
function shortVerdict (r) {
  if (r.stop) return stopText(r, false)
  if (r.verdict !== 'inconclusive') return r.verdict
  const unit = r.n_pairs ? 'pairs' : 'runs'
  if (r.blocker === 'too-few-pairs') return `inconclusive (too few ${unit})`
  if (r.blocker === 'multiplicity') return 'inconclusive (multiplicity)'
  if (r.more_pairs !== undefined) return `inconclusive (~${r.more_pairs} more ${unit})`
  return r.verdict
}

/** Word-wraps prose to `width` columns; a continuation is indented by `indent`. */
function wrapText (text, width, indent = '') {
  const lead = /^ */.exec(text)[0]
  const lines = []
  let line = lead
  for (const word of text.slice(lead.length).split(' ')) {
    if (line.trim() !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = indent + word
    } else {
      line = line.trim() === '' ? line + word : `${line} ${word}`
    }
  }
  lines.push(line)
  return lines.join('\n')
}

/**
 * A table whose first column holds the configuration names. When a row is
 * wider than `width`, every name goes on a line of its own above its numbers
 * (indented), so long Node configuration strings do not wrap in a terminal.
 * @param {string[][]} rows header first; column 0 the names
 * @param {number[]} left other left-aligned columns
 * @param {number} width Infinity for --wide
 */
function fitTable (rows, left, width) {
  const flat = renderTable(rows, left)
  if (flat.split('\n').every((l) => l.length <= width)) return flat
  // an empty first column: each line starts with the two-space column gap
  const numbers = renderTable(rows.map((r) => ['', ...r.slice(1)]), left).split('\n')
  const out = [numbers[0]]
  for (let i = 1; i < rows.length; i++) out.push(wrapText(rows[i][0], width, '      '), numbers[i])
  return out.join('\n')
}

/** One line per kind of warning, with how many configurations it concerns. */
function groupWarnings (warnings, wide) {
  if (wide) return warnings.map((x) => `  ${x.filename ? nameOf(x) : '(all)'}: ${x.kind}: ${x.message}`)
  const kinds = new Map()
  for (const x of warnings) {
    if (!kinds.has(x.kind)) kinds.set(x.kind, [])
    kinds.get(x.kind).push(x)
  }
  const out = []
  for (const [kind, list] of kinds) {
    const where = list.length === 1 ? (list[0].filename ? nameOf(list[0]) : '(all)') : `${list.length} configurations, e.g. ${nameOf(list[0])}`
    out.push(`  ${kind} (${where}): ${list[0].message}`)
  }
  return out
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
  if (measure !== 'wall') out.head = measureNote(measure)
  if (a.results.some((r) => r.method === 'paired-t-log')) {
    out.change = 'change: geometric mean of the pairs\' ratios new/old (paired t-test on log rates, for near-deterministic counts; positive = new is faster);'
  }
  if (a.meta.minEffect > 0) out.floor = `, and a change under ${a.meta.minEffect}% is never faster or slower (the measure's resolution, --min-effect)`
  return out
}

/**
 * @param {ReturnType<import('../stats/analyze.js').analyze>} a
 * @param {{wide?: boolean, width?: number}} [opts] width: columns to fit (default 100); wide: one
 *   line per configuration whatever its width, full verdict sentences, every warning
 * @returns {string}
 */
function formatAnalysisText (a, { wide = false, width = 100 } = {}) {
  const fit = wide ? Infinity : width
  const asked = a.meta.confLevel
  const ci = `${levelText(asked)} CI`
  const seq = isSeq(a)
  // under --runs seq: the rule's evidence (its e-value, the pair it stopped at), not Wilcoxon's p and q
  const rows = seq ? [['', 'pairs', 'stopped', 'change', ci, 'e-value', 'verdict']] : [['', 'pairs', 'change', ci, 'p', 'q', '', 'verdict']]
  for (const r of a.results) {
    const n = r.n_pairs ? String(r.n_pairs) : `${r.n_old}/${r.n_new}*`
    const verdict = wide ? verdictText(r, a.results.length) : shortVerdict(r)
    if (seq) rows.push([nameOf(r), n, r.stop ? `at ${r.stop.pairs}` : '', pct(r.change), ciText(r, asked), evidenceText(r), verdict])
    else rows.push([nameOf(r), n, pct(r.change), ciText(r, asked), pval(r.p), pval(r.q), r.stars, verdict])
  }
  if (a.geomean) {
    const g = a.geomean
    const name = `geomean of ${g.configurations} configuration${g.configurations === 1 ? '' : 's'}`
    rows.push(seq ? [name, g.pairs ? String(g.pairs) : '', '', pct(g.change), ciText(g, asked), '', ''] : [name, g.pairs ? String(g.pairs) : '', pct(g.change), ciText(g, asked), '', '', '', ''])
  }
  const prose = (text) => (wide ? text : wrapText(text, width, '  '))
  const out = [fitTable(rows, seq ? [6] : [6, 7], fit), '']
  const measure = measureLines(a)
  if (measure.head) out.unshift(measure.head, '')
  if (measure.change) out.push(prose(measure.change))
  else out.push(prose('change: Hodges-Lehmann estimate of new/old (the median of the pairwise averages of the log ratios, or of the log-rate differences when unpaired); positive = new is faster;'))
  out.push(prose('pairs: old/new pairs (Wilcoxon signed-rank); "N/M*" = N old and M new runs without pairs (Mann-Whitney); a CI marked "at L%" has only that level (few pairs, ties);'))
  if (seq) out.push(prose(`e-value: the configuration's betting evidence against "no change at all" where the rule stopped it (a call needs e-BH's bar over the ${a.results.length} configurations); stopped: the pair at which the rule stopped it (pairs: every pair measured; the CI uses them all); "no change" = the CI lies inside ±${a.meta.threshold}%${measure.floor ?? ''}; Wilcoxon's p and q, fixed-sample tests that do not hold at a pair the rule chose, are in --format json only.`))
  else out.push(prose(`q: Benjamini-Hochberg across ${a.results.length} comparisons; "no change" = the CI lies inside ±${a.meta.threshold}%${measure.floor ?? ''}; the CIs describe this session on this machine.`))
  if (!wide && a.results.some((r) => r.verdict === 'inconclusive' && r.blocker)) {
    out.push(prose('inconclusive: "~N more pairs" = pairs the spread says a CI within the threshold needs; "too few" = below 6 pairs a signed-rank test cannot reach significance at all; "multiplicity" = the CI excludes 0 but the correction over all configurations blocks the call (--wide says it per row).'))
  }
  if (a.meta.rule && /^seq v[23] /.test(String(a.meta.rule))) out.push(prose(`stopping rule: --runs seq (${a.meta.rule}): each verdict is the rule's, made at the pair where it stopped the configuration; faster/slower = e-BH over the configurations' betting e-values (false discovery rate <= alpha; with no change anywhere, any call at all in at most alpha of runs); the CIs are anytime-valid confidence sequences for the shift of the log ratios over every pair measured (a file goes on while one of its configurations runs), at level 1 - alpha R/K for the R calls of K configurations and 1 - alpha for the others (there intersected with the one at the stop); no change = the 1 - alpha CI inside the threshold; futility = a decision would need more than max pairs at the spread seen.`))
  else if (a.meta.rule) out.push(prose(`stopping rule: --runs seq (${a.meta.rule}): each configuration was analysed on its pairs up to where the rule stopped it; its CI is the rule's anytime-valid confidence sequence for the median ratio at level 1 - alpha/configurations, valid at whatever pair it stopped; futility = the interval could not reach a decision within max pairs at the spread seen.`))
  if (a.geomean) out.push(prose(a.geomean.method === 'per-pair' ? `geomean: the log ratios averaged over the configurations within each of the ${a.geomean.pairs} pairs they share, then the signed-rank CI over those pairs.` : 'geomean: no pairs shared by every configuration, so its CI treats the configurations as independent (too narrow when they share processes).'))
  out.push('')
  out.push(prose('Node compare.R columns (Welch t-test on the raw rates: unpaired and not adjusted for the number of comparisons; for continuity with Node core, not a verdict):'))
  const w = [['', 'confidence', 'improvement', 'accuracy (*)', '(**)', '(***)']]
  for (const r of a.results) {
    const acc = r.welch.accuracy.map((x) => (Number.isFinite(x) ? `±${x.toFixed(2)}%` : 'NA'))
    w.push([nameOf(r), welchStars(r.welch.p), Number.isFinite(r.welch.improvement) ? `${r.welch.improvement.toFixed(2)} %` : 'NA', ...acc])
  }
  out.push(fitTable(w, [], fit))
  if (a.warnings.length > 0) {
    out.push('', `Warnings${wide ? '' : ' (one line per kind; --wide lists each)'}:`)
    out.push(...groupWarnings(a.warnings, wide).map((l) => (wide ? l : wrapText(l, width, '      '))))
  }
  if (a.meta.maxRegression !== undefined) {
    out.push('')
    const how = a.meta.rule?.startsWith('seq')
      ? `called slower by ${a.meta.rule} with its interval's upper end below -${a.meta.maxRegression}%`
      : `one-sided test against -${a.meta.maxRegression}% at ${a.meta.alpha / 2}, Holm-adjusted over ${a.results.length}`
    if (a.regressions.length === 0) out.push(prose(`No configuration is shown to be slower than -${a.meta.maxRegression}% (${how}).`))
    else {
      out.push(prose(`FAIL: ${a.regressions.length} configuration(s) slower than -${a.meta.maxRegression}% (${how}):`))
      for (const r of a.regressions) out.push(`  ${nameOf(r)}: ${pct(r.change)} ${ciText(r, asked)}${r.stop ? `, called at pair ${r.stop.pairs} of ${r.n_pairs}` : `, adjusted p=${pval(r.q_regression)}`}`)
    }
  }
  return out.join('\n') + '\n'
}

module.exports = { formatAnalysisText, measureLines, renderTable, pct, pval, verdictText, shortVerdict, welchStars, ciText, levelText, evidenceText, isSeq }
