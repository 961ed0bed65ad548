'use strict'
// `analyze --format github`: the body of a pull-request comment. It starts
// with a hidden marker that stays the same from one push to the next, so a
// bot finds its own comment and edits it instead of adding a new one. Then
// what a reviewer needs first (the configurations shown slower or faster),
// the whole table collapsed, the design that produced the numbers (rule and
// executor, read from the rows), the environment, and, when a history store
// is given, the trend of each changed configuration.
const path = require('node:path')
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

/** First 12 characters of a hash or commit. */
const short = (h) => String(h).slice(0, 12)

/**
 * What one side was, as its reader knows it: a git ref by its tag or
 * describe and commit, a package by name and version, a binary by its node
 * version and one hash (the binary's own; never a path of this machine).
 * @param {Record<string, any>} b the side's metadata (compare's NDJSON meta)
 */
function sideName (b) {
  if (b.commit) {
    const shown = b.describe ?? b.ref
    const ref = b.ref && b.ref !== shown && !String(b.commit).startsWith(b.ref) ? `, ref ${code(b.ref)}` : ''
    return `${shown ? `${code(shown)} ` : ''}(commit ${code(short(b.commit))}${ref})`
  }
  if (b.package_version) return code(`${b.package ?? 'package'}@${b.package_version}`)
  const hash = b.binary_sha256 ?? b.sha256
  return `node ${b.version ?? 'of unknown version'}${hash ? ` (sha256 ${code(short(hash))})` : ''}`
}

/**
 * A code span outside a table: its content is literal there (a "\|" would
 * show as typed), so only a backtick or a line break needs care.
 */
const code = (s) => {
  const text = String(s).replace(/\n/g, ' ')
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``
}

/**
 * The line that says what was compared, or undefined when the data does not
 * name the sides (a CSV without compare's NDJSON).
 * @param {Record<string, any>} meta
 */
function comparedLine (meta) {
  const { old, new: neu } = meta
  if (!old || !neu || typeof old !== 'object' || typeof neu !== 'object') return undefined
  return `**Compared:** old ${sideName(old)} → new ${sideName(neu)}`
}

/**
 * The environment as the data knows it: the hosts of the rows and, from an
 * NDJSON meta record, the node the sides ran on and the machine. A node
 * that both sides share (git refs, packages) is named once, by the hash of
 * the binary; nothing names a path of this machine.
 * @param {Record<string, any>[]} rows
 * @param {Record<string, any>} meta
 */
function environmentLines (rows, meta) {
  const out = []
  const hosts = [...new Set(rows.map((r) => r.host).filter(Boolean))]
  const sides = ['old', 'new'].map((k) => meta[k]).filter((b) => b && typeof b === 'object')
  const binHash = (b) => b.binary_sha256 ?? b.sha256
  if (sides.length === 2 && (sides[0].commit || sides[0].package_version || sides[1].commit || sides[1].package_version)) {
    const same = binHash(sides[0]) === binHash(sides[1]) && sides[0].version === sides[1].version
    if (same) out.push(`- node: ${cell(sides[0].version ?? 'unknown version')}${binHash(sides[0]) ? ` (sha256 \`${short(binHash(sides[0]))}\`)` : ''}, both sides`)
    else for (const [k, b] of [['old', sides[0]], ['new', sides[1]]]) out.push(`- ${k} side's node: ${cell(b.version ?? 'unknown version')}${binHash(b) ? ` (sha256 \`${short(binHash(b))}\`)` : ''}`)
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

/**
 * One sentence per kind of warning: what it means for the numbers and what
 * to do (the per-configuration figures are in the list under it).
 * @type {Record<string, string>}
 */
const WARNING_SENTENCES = {
  'too-few-runs': 'Too few pairs for narrow intervals: run compare with more pairs (--runs 30, or --runs seq to stop when each configuration is decided).',
  'high-variance': 'The new/old ratio varies a lot between pairs, which widens the intervals: pin the runs with --cpuset, close other programs, or raise the work per run (n=...).',
  bimodal: 'The rates fall into a fast and a slow mode (CPU frequency, another process, a JIT tier): the rank methods are robust to it, but the cause is worth a look.',
  drift: 'The new/old ratio drifted over the run, so the machine changed while it ran (thermal, load): rerun on a quiet machine.',
  unpaired: 'Rows were analysed without their pairs, which is less precise: keep the pair and seed columns compare writes.',
  'short-runs': 'Each run measures only a few milliseconds, where timer resolution and JIT tiers swing the numbers: raise the work per run (n=...).',
  'incomplete-pairs': 'Some runs had no partner run (failed or interrupted) and were left out: compare --resume completes them.',
  starved: 'In some duet pairs one side got too little CPU, so those pairs measure the load rather than the code.',
  'generator-bound': 'The load generator used most of a CPU, so the numbers show the client\'s limit rather than the server\'s.'
}

/**
 * Warnings grouped by kind: a count, one sentence, the configurations.
 * @param {{filename: string, configuration: string, kind: string, message: string}[]} warnings
 */
function warningLines (warnings) {
  const byKind = new Map()
  for (const w of warnings) {
    if (!byKind.has(w.kind)) byKind.set(w.kind, [])
    byKind.get(w.kind).push(w)
  }
  const out = []
  for (const [kind, list] of byKind) {
    const where = list.filter((w) => w.filename).map((w) => `\`${cell(w.filename)}${w.configuration ? ' ' + cell(w.configuration) : ''}\``)
    const shown = where.slice(0, 6).join(', ') + (where.length > 6 ? `, and ${where.length - 6} more` : '')
    const sentence = WARNING_SENTENCES[kind] ?? cell(String(list[0].message).split(/(?<=\.)\s|:\s/)[0])
    out.push(`- **${kind}** (${list.length}): ${sentence}${shown ? ` ${shown}.` : ''}`)
  }
  return out
}

/**
 * A verdict as the comment says it: an inconclusive result whose width
 * would take many times the pairs run says that it is within the noise
 * rather than quoting a pair count nobody will run.
 */
function commentVerdict (r, comparisons) {
  const text = verdictText(r, comparisons)
  if (r.verdict === 'inconclusive' && r.more_pairs !== undefined && r.n_pairs && r.more_pairs > 4 * r.n_pairs) {
    return `inconclusive (within this machine's noise: deciding it would take ~${Math.round(r.more_pairs / r.n_pairs)}x the ${r.n_pairs} pairs)`
  }
  return text
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
 * @param {Map<string, {points: {label: string, value: number}[], changes?: {label: string, change: number, ci?: number[]}[], untestable?: string}>} trends
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
    const cps = (t.changes ?? []).map((c) => `${cell(c.label)} (${pct(c.change, 1)}${c.ci ? `, CI ${pct(c.ci[0], 1)} to ${pct(c.ci[1], 1)}` : ''})`).join(', ') || (t.untestable ? 'not tested: too few labels or runs' : 'none')
    rows.push(`| ${cell(r.filename)} | ${cell(r.configuration)} | \`${sparkline(pts.map((p) => p.value))}\` ${cell(first.label)} … ${cell(last.label)} (${pts.length}) | ${pct((last.value / first.value - 1) * 100, 1)} | ${cps} |`)
  }
  if (rows.length === 0) return []
  out.push('| benchmark | configuration | series (oldest … newest, points) | first → last | change points |', '|---|---|---|--:|---|', ...rows, '')
  return out
}

/** A path as the comment may show it: no absolute path of this machine. */
const relative = (f) => (path.isAbsolute(f) ? path.basename(f) : f)

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
    out.push('', `Self time as a share of each profile. Profiles for Chrome DevTools: \`${cell(relative(p.files.old))}\`, \`${cell(relative(p.files.new))}\``, '', '</details>', '')
  }
  return out
}

/**
 * @param {ReturnType<import('../stats/analyze.js').analyze>} a
 * @param {{rows: Record<string, any>[], meta?: Record<string, any>, marker?: string,
 *   trends?: Map<string, {points: {label: string, value: number}[], changes?: {label: string, change: number, ci?: number[]}[], untestable?: string}>,
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
  const compared = comparedLine(meta)
  if (compared) out.push(compared, '')
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
    const v = commentVerdict(r, a.results.length)
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
    const kinds = new Set(a.warnings.map((w) => w.kind)).size
    out.push('', `<details><summary>Warnings (${a.warnings.length}, ${kinds} kind${kinds === 1 ? '' : 's'})</summary>`, '', ...warningLines(a.warnings), '', '</details>')
  }
  return out.join('\n') + '\n'
}

module.exports = { formatGithubComment, markerOf, designOf, sparkline, sideName, warningLines, MARKER_PREFIX }
