'use strict'
// `benchrig history add|list|show|changes`: the history store from the
// command line (lib/history holds the store; this file parses and prints).
const { parseCommandLine } = require('../harness/cli-args.js')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { defaultRoot } = require('./default-root.js')
const path = require('node:path')

const USAGE = `Usage: benchrig history <add|list|show|changes|report> [options]

Keeps every result in one store and finds where a series changed.

  add FILE...   add run/compare/scatter CSV or NDJSON, load JSON or calibrate
                JSON; one transaction per command (all files or none); a file
                already added adds nothing
  list          what the store holds: files, series, labels, sources
  show          the series (filters below), one row per label
  changes       change points per series (E-Divisive means with a t-test
                step, as Apache Otava), with the step's size and CI
  report        --html DIR: a static site of the series (trends with their
                change points, the regressions; filters by category, file
                and host), no server and nothing fetched

Options:
  --db DB             a SQLite file or postgres://user@host:port/db (default:
                      $BENCHRIG_DB, else .benchrig/history.sqlite in the
                      benchmark directory)
  --root DIR          the benchmark directory (default ./benchmark if it
                      exists, else the cwd)
  --label L           add: the label of the rows (a node version, a package
                      version, a commit, a tag); a tag, branch or commit of
                      the repository (--repo, default the cwd's) is filed
                      under its commit and shown by its tag or describe, as
                      compare --old-ref/--new-ref and bisect --refs file it;
                      default: read from the data (a compare NDJSON: each
                      side's commit or package version, else node version);
                      a compare file takes NEW (its new rows) or OLD..NEW
  --fingerprint F     add: rows without a machine fingerprint (a CSV) join the
                      series of fingerprint F (the # in history show); by
                      default they join the one machine whose series of these
                      benchmarks the store holds, and add says which
  --runner R          add: the files are a runner's own output (tinybench,
                      vitest, mitata, benchmarkjs, bench-node, node-bench,
                      hyperfine; docs/runners/): one series per task, file R;
                      needs --label
  --file F            a benchmark file, or a category (all files under it)
  --configuration S   configurations that contain S
  --measure M         wall | cpu | instructions | a load measure
  --host H            series measured on host H
  --from L, --to L    the labels from L to L (in label order)
  --order O           auto | semver | commit | added (default auto: semver
                      when every label is a version, commit order when every
                      label is a commit id; else it asks for --order)
  --repo DIR          the git checkout for --order commit and for add's
                      --label (default the cwd); commits added by compare or
                      bisect carry their git order, so no checkout is needed
  --max-p P           changes: the p a change point must be under (default 0.0001)
  --weak-p P          changes: the p of a weak candidate (default 0.05)
  --window N          changes: points per window (default 50)
  --weak              changes: print the weak candidates too
  --html DIR          report: the folder to write the site into
  --json              print JSON
  -h, --help          this text`

/** @type {import('../harness/cli-args.js').CommandOptions} */
const OPTIONS = {
  db: { type: 'string' },
  root: { type: 'string' },
  label: { type: 'string' },
  fingerprint: { type: 'string' },
  runner: { type: 'string' },
  file: { type: 'string' },
  configuration: { type: 'string' },
  measure: { type: 'string' },
  host: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  order: { type: 'string' },
  repo: { type: 'string' },
  'max-p': { type: 'string' },
  'weak-p': { type: 'string' },
  window: { type: 'string' },
  weak: { type: 'boolean' },
  json: { type: 'boolean' },
  html: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
}

const SUBCOMMANDS = ['add', 'list', 'show', 'changes', 'report']
const FILTER_FLAGS = ['file', 'configuration', 'measure', 'host', 'from', 'to', 'order', 'repo']

function probability (v, flag) {
  if (v === undefined) return undefined
  const p = Number(v)
  if (!(p > 0 && p < 1)) throw new UsageError(`${flag} ${v}: give a probability between 0 and 1, e.g. 0.001`)
  return p
}

/**
 * @param {string[]} argv
 */
function parseHistoryArgs (argv) {
  const { values: v, positionals } = parseCommandLine(argv, OPTIONS)
  if (v.help) return { help: true }
  const [sub, ...rest] = positionals
  if (!sub) throw new UsageError(`give a subcommand: ${SUBCOMMANDS.join(', ')}; see --help`)
  if (!SUBCOMMANDS.includes(sub)) {
    const near = require('../suggest.js').nearest(sub, SUBCOMMANDS) // lazy: only a mistyped subcommand needs the suggestion
    throw new UsageError(`unknown subcommand "${sub}"${near ? ` (did you mean "${near}"?)` : ''}; use one of ${SUBCOMMANDS.join(', ')}`)
  }
  if (sub === 'add' && rest.length === 0) throw new UsageError('history add: give the result files to add (CSV, NDJSON or JSON)')
  if (sub !== 'add' && rest.length > 0) throw new UsageError(`history ${sub} takes no file arguments (${rest[0]}); filter with --file`)
  if (sub !== 'add' && v.runner !== undefined) throw new UsageError('--runner is for history add: it says whose output the files are')
  if (sub !== 'add' && v.label !== undefined) throw new UsageError('--label is for history add; to select labels give --from/--to')
  if (sub === 'add') {
    for (const f of FILTER_FLAGS) if (v[f] !== undefined && f !== 'repo') throw new UsageError(`--${f} filters show and changes; history add takes FILE... [--label L] [--fingerprint F] [--repo DIR]`)
  }
  if (sub !== 'add' && v.fingerprint !== undefined) throw new UsageError(`--fingerprint ${v.fingerprint} goes with history add`)
  if (v.html !== undefined && sub !== 'report') throw new UsageError(`--html ${v.html} goes with history report`)
  if (sub === 'report') require('./history-report.js').htmlDir(v.html) // lazy: only history report renders the site
  let window
  if (v.window !== undefined) {
    window = Number(v.window)
    if (!Number.isInteger(window) || window < 6) throw new UsageError(`--window ${v.window}: give a whole number of points >= 6`)
  }
  const maxP = probability(v['max-p'], '--max-p')
  const weakP = probability(v['weak-p'], '--weak-p')
  if (maxP !== undefined && weakP !== undefined && weakP < maxP) throw new UsageError(`--weak-p ${weakP} is below --max-p ${maxP}: a weak candidate's p is the larger one`)
  const { ORDERS } = require('../history/label-order.js') // lazy: only --order is checked against it
  if (v.order !== undefined && !ORDERS.includes(v.order)) throw new UsageError(`--order ${v.order}: use one of ${ORDERS.join(', ')}`)
  const filter = {}
  for (const f of FILTER_FLAGS) if (v[f] !== undefined) filter[f] = v[f]
  const detect = {}
  if (maxP !== undefined) detect.maxP = maxP
  if (weakP !== undefined) detect.weakP = weakP
  if (window !== undefined) detect.window = window
  return { sub, files: rest, db: v.db, root: path.resolve(v.root ?? defaultRoot()), label: v.label, fingerprint: v.fingerprint, repo: v.repo, runner: v.runner, filter: sub === 'add' ? {} : filter, detect, weak: Boolean(v.weak), json: Boolean(v.json), html: v.html }
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`
const num = (x) => (Math.abs(x) >= 100 ? x.toFixed(2) : x.toPrecision(5))
const p2 = (p) => (p < 0.0001 ? p.toExponential(1) : p.toFixed(4))

/** What add says of a file without a fingerprint: the machine it joined, or why none. */
function machineNote (m) {
  if (!m) return ''
  if (m.joined) return `; it names no machine: joined the series of fingerprint ${m.joined.slice(0, 8)} (${m.host}${m.nodeVersion ? ', node ' + m.nodeVersion : ''}; ${m.how === 'given' ? '--fingerprint' : 'the one machine the store holds these benchmarks for'})`
  if (m.candidates.length === 0) return '; it names no machine and the store has no series of these benchmarks with one: filed without a fingerprint (give --fingerprint F to join a machine)'
  return `; it names no machine and the store holds these benchmarks for ${m.candidates.length} machines (${m.candidates.join(', ')}): filed without a fingerprint; give --fingerprint F to join one`
}

function seriesTitle (key) {
  const where = [key.env.host, key.env.nodeVersion].filter(Boolean).join(', ')
  return `${key.file}${key.configuration ? ' ' + key.configuration : ''} [${key.measure}]${where ? ` (${where})` : ''} #${key.fingerprint.slice(0, 8)}`
}

function changeLine (c, kind) {
  const runs = c.runsBefore !== undefined ? ` (${c.runsBefore}+${c.runsAfter} runs)` : ''
  return `  ${kind} at ${c.display ?? c.label} (after ${c.previousDisplay ?? c.previous}): ${pct(c.size)} [${pct(c.ci[0])}, ${pct(c.ci[1])}], ${num(c.before)} -> ${num(c.after)}, p=${p2(c.p)}, ${c.nBefore}+${c.nAfter} labels${runs}`
}

/**
 * @param {string[]} argv
 * @param {{stdout?: NodeJS.WritableStream, stderr?: NodeJS.WritableStream, prog?: string}} [ctx]
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const opts = parseHistoryArgs(argv)
  if (opts.help) {
    stdout.write(withExamples(USAGE, 'history', ctx.prog ?? 'benchrig history'))
    return 0
  }
  // lazy: the store's engine (SQLite or pg) loads after the flags are checked
  const { openHistory } = require('../history/index.js')
  const h = await openHistory(opts.db, { root: opts.root })
  try {
    return await SUB[opts.sub](h, opts, stdout)
  } finally {
    await h.close()
  }
}

const SUB = {
  async add (h, opts, out) {
    const { gitLabel } = require('../history/git-label.js') // lazy: only history add resolves git labels
    const repo = path.resolve(opts.repo ?? process.cwd())
    // One transaction. Ctrl-C while it waits on the store (PostgreSQL) stops
    // the process and nothing of the add is kept (the server rolls it back);
    // SQLite writes without yielding, so a Ctrl-C then is seen once the add
    // has committed: everything was kept, and add says so.
    let done = false
    let late = false
    const onSigint = () => {
      if (done) { late = true; return }
      process.stderr.write(`\nhistory: interrupted: nothing of this add was kept (one transaction; ${h.where} is as it was before)\n`)
      process.removeListener('SIGINT', onSigint)
      process.kill(process.pid, 'SIGINT')
    }
    process.on('SIGINT', onSigint)
    let r
    try {
      r = await h.add(opts.files, { label: opts.label, runner: opts.runner, fingerprint: opts.fingerprint, resolveLabel: (name) => gitLabel(repo, name) })
      done = true
      // a Ctrl-C that came while the add was written is delivered now
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.removeListener('SIGINT', onSigint)
    }
    if (late) process.stderr.write(`history: Ctrl-C came while the add was being written; it had committed: all ${r.added} rows below were kept\n`)
    if (opts.json) { out.write(JSON.stringify(r) + '\n'); return 0 }
    for (const s of r.sources) out.write(`${s.path}: ${s.skipped ? 'already in the store, nothing added' : `${s.added} rows (${s.kind})${s.duplicates ? `, ${s.duplicates} measurements already stored from another file (the same seed, pair, side, file, configuration and start: a compare CSV and its NDJSON), not added again` : ''}${machineNote(s.machine)}`}\n`)
    out.write(`history: ${r.added} rows added, ${r.skipped} already there (${h.where})\n`)
    return 0
  },
  async list (h, opts, out) {
    const l = await h.list()
    if (opts.json) { out.write(JSON.stringify(l) + '\n'); return 0 }
    out.write(`${l.where} (${l.kind}): ${l.files.length} files, ${l.files.reduce((a, f) => a + f.series, 0)} series, ${l.files.reduce((a, f) => a + f.points, 0)} rows, ${l.sources.length} sources\n`)
    out.write(`labels (as added): ${l.displays.join(' ') || 'none'}\n`)
    for (const f of l.files) out.write(`  ${f.file}: ${f.series} series, ${f.points} rows\n`)
    return 0
  },
  async show (h, opts, out) {
    const series = await h.series(opts.filter)
    if (opts.json) { out.write(JSON.stringify(series) + '\n'); return 0 }
    if (series.length === 0) out.write('history: no series matches\n')
    const { median } = require('../stats/descriptive.js') // lazy: only history show summarises series
    for (const s of series) {
      out.write(`${seriesTitle(s.key)}\n`)
      for (const p of s.points) out.write(`  ${(p.display ?? p.label).padEnd(14)} median ${num(median(p.values)).padStart(14)}  n=${p.values.length}\n`)
    }
    return 0
  },
  async changes (h, opts, out) {
    const all = await h.changes(opts.filter, opts.detect)
    if (opts.json) { out.write(JSON.stringify(all.map(({ points, ...rest }) => rest)) + '\n'); return 0 }
    let changes = 0
    let weak = 0
    const untested = all.filter((s) => s.untestable)
    for (const s of all) {
      changes += s.changes.length
      weak += s.weak.length
      if (s.untestable) { out.write(`${seriesTitle(s.key)}: not tested: ${s.untestable}\n`); continue }
      if (s.changes.length === 0 && !(opts.weak && s.weak.length > 0)) continue
      out.write(`${seriesTitle(s.key)}: ${s.points.length} labels\n`)
      const lines = [...s.changes.map((c) => [c, 'change']), ...(opts.weak ? s.weak.map((c) => [c, 'weak']) : [])].sort((a, b) => a[0].index - b[0].index)
      for (const [c, kind] of lines) out.write(changeLine(c, kind) + '\n')
    }
    out.write(`history: ${all.length} series, ${changes} change points, ${weak} weak candidates${opts.weak || weak === 0 ? '' : ' (--weak prints them)'}${untested.length ? `; ${untested.length} series too small to test (above)` : ''}\n`)
    return 0
  },
  // lazy: only history report renders the site
  report: (h, opts, out) => require('./history-report.js').historyReport(h, opts, out)
}

module.exports = { main, parseHistoryArgs, USAGE }
