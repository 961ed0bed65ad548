'use strict'
// `analyze --format github`: the body of a pull-request comment. It starts
// with a hidden marker that stays the same from one push to the next, so a
// bot finds its own comment and edits it instead of adding a new one. Then
// what a reviewer needs first (the configurations shown slower or faster),
// the whole table collapsed, the design that produced the numbers (rule and
// executor, read from the rows), the environment, and, when a history store
// is given, the trend of each changed configuration.
const { pct, ciText, levelText, verdictText, measureLines, evidenceText, isSeq } = require('./analysis-text.js')

const MARKER_PREFIX = '<!-- benchrig-report'

/** Escapes what would break a table cell or start markup. */
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;')

/**
 * The hidden first line of the comment. `name` tells several comments on
 * one pull request apart (one per category, say); the default is one.
 * @param {string} [name]
 */
function markerOf (name = 'default') {
  if (!/^[\w.-]{1,64}$/.test(name)) throw new TypeError(`marker name ${JSON.stringify(name)}: letters, digits, ".", "_" and "-" only`)
  return `${MARKER_PREFIX} ${name} -->`
}

/**
 * What produced the rows: the stopping rule and the executor when the rows
 * name them (the "rule" and "executor" columns), otherwise what the rows
 * themselves show (compare without those columns ran serially).
 * @param {Record<string, any>[]} rows
 */
function designOf (rows) {
  const values = (k) => [...new Set(rows.map((r) => r[k]).filter((v) => v !== undefined && v !== null && v !== ''))].map(String)
  const pairsPerFile = new Map()
  for (const r of rows) {
    const p = Number(r.pair)
    if (!Number.isFinite(p)) continue
    const set = pairsPerFile.get(r.filename) ?? new Set()
    set.add(`${r.seed ?? ''}/${p}`)
    pairsPerFile.set(r.filename, set)
  }
  const counts = [...pairsPerFile.values()].map((s) => s.size)
  const lo = counts.length ? Math.min(...counts) : 0
  const hi = counts.length ? Math.max(...counts) : 0
  const rules = values('rule')
  const executors = values('executor')
  return {
    rule: rules.length ? rules.join(', ') : undefined,
    executor: executors.length ? executors.join(', ') : undefined,
    pairs: counts.length === 0 ? 'none (unpaired rows)' : lo === hi ? `${lo} per file` : `${lo} to ${hi} per file`,
    seeds: values('seed'),
    plans: values('plan'),
    shards: values('shard_count')
  }
}

/**
 * The environment as the data knows it: the hosts of the rows and, from an
 * NDJSON meta record, the binaries and the machine.
 * @param {Record<string, any>[]} rows
 * @param {Record<string, any>} meta
 */
function environmentLines (rows, meta) {
  const out = []
  const hosts = [...new Set(rows.map((r) => r.host).filter(Boolean))]
  for (const side of ['old', 'new']) {
    const b = meta[side]
    if (!b || typeof b !== 'object') continue
    const sha = b.sha256 ? `, sha256 \`${String(b.sha256).slice(0, 12)}\`` : ''
    out.push(`- ${side}: ${b.version ?? 'unknown version'}${b.path ? ` (\`${cell(b.path)}\`${sha})` : sha ? ` (${sha.slice(2)})` : ''}`)
  }
  if (meta.cpu?.model) out.push(`- CPU: ${cell(meta.cpu.model)} ×${meta.cpu.count}${meta.governor ? `, governor ${cell(meta.governor)}` : ''}`)
  if (meta.os) out.push(`- OS: ${meta.os.platform} ${meta.os.release} ${meta.os.arch}`)
  if (meta.loadavg) out.push(`- load average at the start: ${meta.loadavg.join(', ')}`)
  if (meta.cpuset) out.push(`- pinned to CPUs ${cell(meta.cpuset)}`)
  if (meta.benchrig) out.push(`- benchrig ${meta.benchrig}${meta.driverNode ? ` on node ${meta.driverNode.version}` : ''}`)
  for (const h of hosts) out.push(`- host: ${cell(h)}`)
  if (out.length === 0) out.push('- not recorded (give the NDJSON file of compare --ndjson, or --meta FILE.ndjson, for the binaries and the machine)')
  return out
}

/** A row of the short tables (regressions, improvements). */
function shortRow (r, asked) {
  return `| ${cell(r.filename)} | ${cell(r.configuration)} | **${pct(r.change)}** | ${cell(ciText(r, asked))} | ${evidenceText(r)} |`
}

/** Unicode blocks for a small inline trend. */
const SPARKS = '▁▂▃▄▅▆▇█'
function sparkline (values) {
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  return values.map((v) => SPARKS[hi > lo ? Math.round(((v - lo) / (hi - lo)) * (SPARKS.length - 1)) : 3]).join('')
}

/**
 * The trend section: for each changed configuration, the last points of its
 * series in the store, oldest first, and the change points found there.
 * @param {{filename: string, configuration: string, verdict: string}[]} changed
 * @param {Map<string, {points: {label: string, value: number}[], changes?: {label: string, change: number}[]}>} trends
 *   keyed by filename + "\0" + configuration
 */
function trendLines (changed, trends) {
  const out = ['### Trend in the history store', '']
  const rows = []
  for (const r of changed) {
    const t = trends.get(`${r.filename}\u0000${r.configuration}`)
    if (!t || t.points.length === 0) {
      rows.push(`| ${cell(r.filename)} | ${cell(r.configuration)} | no history | | |`)
      continue
    }
    const pts = t.points
    const first = pts[0]
    const last = pts[pts.length - 1]
    const cps = (t.changes ?? []).map((c) => `${cell(c.label)} (${pct(c.change, 1)})`).join(', ') || 'none'
    rows.push(`| ${cell(r.filename)} | ${cell(r.configuration)} | \`${sparkline(pts.map((p) => p.value))}\` ${cell(first.label)} … ${cell(last.label)} (${pts.length}) | ${pct((last.value / first.value - 1) * 100, 1)} | ${cps} |`)
  }
  if (rows.length === 0) return []
  out.push('| benchmark | configuration | series (oldest … newest, points) | first → last | change points |', '|---|---|---|--:|---|', ...rows, '')
  return out
}

/** Largest first: how many functions a configuration's profile section lists. */
const PROFILE_TOP = 10

/**
 * "Where the time went": for each slower configuration that compare
 * --profile profiled, a collapsed table of the functions whose share of
 * self time grew most (the summary names the first, so a reviewer sees it
 * without opening the table).
 * @param {{filename: string, configuration: string}[]} slower
 * @param {import('../profile/record.js').ProfileTable[]} profiles
 */
function profileLines (slower, profiles) {
  const byKey = new Map(profiles.map((p) => [`${p.filename}\u0000${p.configuration}`, p]))
  const found = slower.map((r) => byKey.get(`${r.filename}\u0000${r.configuration}`)).filter((p) => p !== undefined && p.rows.length > 0)
  if (found.length === 0) return []
  const share = (x) => `${Number(x).toFixed(1)}%`
  const points = (x) => `${x >= 0 ? '+' : ''}${Number(x).toFixed(1)}`
  const out = ['### Where the time went (compare --profile)', '']
  for (const p of found) {
    const top = p.rows[0]
    out.push(`<details><summary><code>${cell(p.filename)} ${cell(p.configuration)}</code>: <code>${cell(top.name)}</code> ${points(top.change)} points of self time</summary>`, '')
    out.push('| function | location | old self | new self | change (points) |', '|---|---|--:|--:|--:|')
    for (const r of p.rows.slice(0, PROFILE_TOP)) {
      out.push(`| \`${cell(r.name)}\` | \`${cell(r.location || '(native)')}\` | ${share(r.oldShare)} | ${share(r.newShare)} | ${points(r.change)} |`)
    }
    out.push('', `Self time as a share of each profile. Profiles for Chrome DevTools: \`${cell(p.files.old)}\`, \`${cell(p.files.new)}\``, '', '</details>', '')
  }
  return out
}

/**
 * @param {ReturnType<import('../stats/analyze.js').analyze>} a
 * @param {{rows: Record<string, any>[], meta?: Record<string, any>, marker?: string,
 *   trends?: Map<string, {points: {label: string, value: number}[], changes?: {label: string, change: number}[]}>,
 *   historyNote?: string, profiles?: import('../profile/record.js').ProfileTable[]}} ctx
 *   rows: the analysed rows (for the design and the hosts); meta: an NDJSON
 *   meta record; trends: the store's series of the changed configurations;
 *   profiles: compare --profile's self-time tables
 * @returns {string}
 */
function formatGithubComment (a, ctx) {
  const asked = a.meta.confLevel
  const level = levelText(asked)
  const meta = ctx.meta ?? {}
  const slower = a.results.filter((r) => r.verdict === 'slower').sort((x, y) => x.change - y.change)
  const faster = a.results.filter((r) => r.verdict === 'faster').sort((x, y) => y.change - x.change)
  const inconclusive = a.results.filter((r) => r.verdict === 'inconclusive').length
  const out = [markerOf(ctx.marker)]
  const counts = [`${slower.length} slower`, `${faster.length} faster`, `${a.results.length - slower.length - faster.length - inconclusive} no change`, `${inconclusive} inconclusive`]
  out.push(`## benchrig: ${counts.join(', ')} of ${a.results.length} configuration${a.results.length === 1 ? '' : 's'}`, '')
  const measure = measureLines(a)
  if (measure.head) out.push(`> ${measure.head}`, '')
  if (a.meta.maxRegression !== undefined) {
    out.push(a.regressions.length === 0
      ? `:white_check_mark: No configuration is shown to be slower than -${a.meta.maxRegression}% (the gate).`
      : `:x: **${a.regressions.length} configuration${a.regressions.length === 1 ? '' : 's'} shown to be slower than -${a.meta.maxRegression}%** (the gate fails).`, '')
  }
  const evidence = isSeq(a) ? 'e-value' : 'q'
  const head = ['| benchmark | configuration | change | ' + level + ` CI | ${evidence} |`, '|---|---|--:|---|--:|']
  if (slower.length > 0) out.push(`### :small_red_triangle_down: Slower (${slower.length})`, '', ...head, ...slower.map((r) => shortRow(r, asked)), '')
  if (faster.length > 0) out.push(`### :small_red_triangle: Faster (${faster.length})`, '', ...head, ...faster.map((r) => shortRow(r, asked)), '')
  if (slower.length + faster.length === 0) out.push(`No configuration is shown to be slower or faster (${level} CIs, threshold ±${a.meta.threshold}%).`, '')
  if (ctx.trends) out.push(...trendLines([...slower, ...faster], ctx.trends))
  if (ctx.historyNote && slower.length + faster.length > 0) out.push(`_${ctx.historyNote}_`, '')
  if (ctx.profiles) out.push(...profileLines(slower, ctx.profiles))

  out.push(`<details><summary>All ${a.results.length} configurations</summary>`, '')
  out.push(`| benchmark | configuration | pairs | change | ${level} CI | ${evidence} | verdict |`, '|---|---|--:|--:|---|--:|---|')
  for (const r of a.results) {
    const n = r.n_pairs ? String(r.n_pairs) : `${r.n_old}/${r.n_new} unpaired`
    const v = verdictText(r, a.results.length)
    out.push(`| ${cell(r.filename)} | ${cell(r.configuration)} | ${n} | ${pct(r.change)} | ${cell(ciText(r, asked))} | ${evidenceText(r)} | ${cell(r.verdict === 'faster' || r.verdict === 'slower' ? `**${v}**` : v)} |`)
  }
  if (a.geomean) {
    const g = a.geomean
    out.push(`| **geomean** | ${g.configurations} configurations | ${g.pairs || ''} | ${pct(g.change)} | ${cell(ciText(g, asked))} | | |`)
  }
  out.push('', '</details>', '')

  const d = designOf(ctx.rows)
  const method = a.results.some((r) => r.method === 'paired-t-log')
    ? 'paired t-test on log ratios (near-deterministic counts)'
    : a.results.some((r) => r.method === 'mann-whitney') ? 'Mann-Whitney on log rates (unpaired)' : 'Wilcoxon signed-rank on the pairs\' log ratios, Hodges-Lehmann estimate'
  out.push('<details><summary>Design</summary>', '')
  out.push(`- stopping rule: ${d.rule ?? 'not recorded in the rows (a fixed count, or --runs auto)'}; pairs: ${d.pairs}`)
  out.push(`- executor: ${d.executor ?? 'serial (the rows name none: old and new one after the other, in a seeded random order per pair)'}`)
  out.push(`- measure: ${a.meta.measure ?? 'wall'}; seed${d.seeds.length === 1 ? '' : 's'}: ${d.seeds.join(', ') || 'not recorded'}${d.plans.length ? `; plan ${d.plans.join(', ')}` : ''}${d.shards.length ? `; ${d.shards.join(', ')} shards` : ''}`)
  // compare --question: the question asked, and each file's own settings (from the NDJSON meta)
  if (meta.question) out.push(`- question: \`${String(meta.question.file).split('/').pop()}\`${meta.fileArgs ? `; each file's settings: ${Object.entries(meta.fileArgs).map(([f, a]) => `${cell(f)} ${cell(/** @type {string[]} */ (a).join(' '))}`).join('; ')}` : ''}`)
  out.push(`- test: ${method}; ${level} CIs; q: Benjamini-Hochberg over ${a.results.length}; "no change" = the CI inside ±${a.meta.threshold}%${a.meta.minEffect > 0 ? `; nothing under ${a.meta.minEffect}% is called faster or slower` : ''}`)
  out.push('', '</details>', '')
  out.push('<details><summary>Environment</summary>', '', ...environmentLines(ctx.rows, meta), '', '</details>')
  if (a.warnings.length > 0) {
    out.push('', `<details><summary>Warnings (${a.warnings.length})</summary>`, '')
    for (const x of a.warnings) out.push(`- ${x.filename ? `\`${cell(x.filename)} ${cell(x.configuration)}\`` : 'all'}: **${x.kind}**: ${cell(x.message)}`)
    out.push('', '</details>')
  }
  return out.join('\n') + '\n'
}

module.exports = { formatGithubComment, markerOf, designOf, sparkline, MARKER_PREFIX }
