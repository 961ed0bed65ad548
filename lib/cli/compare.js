'use strict'
// `benchrig compare` and `node compare.js`: runs benchmark files with an old
// and a new node binary, interleaved in seeded random pairs, and writes one
// CSV row per measurement (or prints the analysis with --analyze).
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { findBenchmarks } = require('../harness/discover.js')
const { cpusetPrefix } = require('../harness/cpuset.js')
const { randomSeed } = require('../stats/prng.js')
const { analyze } = require('../stats/analyze.js')
const { buildSchedule } = require('../compare/schedule.js')
const { resolveBinary, describeBinary } = require('../compare/binaries.js')
const { createCsvSink, createNdjsonSink } = require('../compare/output.js')
const { loadForResume } = require('../compare/resume.js')
const { runSchedule, warmUp } = require('../compare/run-compare.js')
const { runAuto } = require('../compare/auto.js')
const { createCompareProgress } = require('../compare/progress.js')
const { checkMeasure, measureName } = require('../harness/measure.js')
const { analysisOptions, render, positiveNumber, OPTIONS: ANALYZE_OPTIONS } = require('./analyze.js')

const USAGE = `Usage: compare.js --old BIN --new BIN [options] <category ...|all>

Runs every benchmark file of the categories with both binaries, in seeded
random old/new pairs, and writes CSV ("binary","filename","configuration",
"rate","time", then pair, order, run, seed, start, configs) to stdout or
--output. Analyse it with "benchrig analyze FILE" or "Rscript compare.R < FILE".
The "measure" column names what rate counts (see --measure).

Options:
  --old BIN, --new BIN  the node binaries (or wrapper scripts) to compare
  --runs N|auto         pairs per file (default 30); auto: a pilot of 6 pairs,
                        then more only where a 95% CI is wider than --target
  --target PCT          auto: wanted CI half-width in % (default 0.5)
  --max-runs N          auto: at most N pairs per file (default 60)
  --time-budget SEC     auto: start no batch that would end after SEC seconds
  --filter PATTERN      only files whose name contains PATTERN or matches /re/ (repeatable)
  --exclude PATTERN     skip such files (repeatable)
  --set key=value       narrow a configuration key (repeatable)
  --root DIR            the benchmark directory
  --cpuset LIST         pin the benchmark processes with taskset -c LIST
  --seed S              seed of the run order (default random; recorded per row)
  --warmup N            unmeasured runs of each file with each binary first (default 0)
  --measure M           wall | cpu | instructions (default wall, ops/s): cpu counts
                        the CPU time of the measured section, instructions its
                        instructions under valgrind (rate: ops per 10^9
                        instructions; near-deterministic, a few pairs suffice)
  --output FILE         write rows to FILE as they are measured (flushed per row)
  --resume FILE         continue an interrupted --output FILE: keep its rows,
                        run what is missing with the same seed
  --ndjson FILE         also write NDJSON: metadata (binaries' versions, paths,
                        sha256, CPU, governor, load, seed), then one record per row
  --analyze             print the analysis instead of CSV (see benchrig analyze)
  --format, --threshold, --alpha, --max-regression PCT, --unpaired
                        analysis options, as for benchrig analyze; with
                        --max-regression the exit code is 1 on a regression
  --no-progress         no progress line on stderr
  -h, --help            this text

A failing run is reported with its file, configuration and binary, retried
once, then recorded as failed while the rest goes on; the exit code is then 1.
Ctrl-C stops after the current run with every finished row on disk.`

const OPTIONS = {
  old: { type: 'string' },
  new: { type: 'string' },
  runs: { type: 'string' },
  target: { type: 'string' },
  'max-runs': { type: 'string' },
  'time-budget': { type: 'string' },
  filter: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  root: { type: 'string' },
  cpuset: { type: 'string' },
  seed: { type: 'string' },
  warmup: { type: 'string' },
  measure: { type: 'string' },
  output: { type: 'string' },
  resume: { type: 'string' },
  ndjson: { type: 'string' },
  analyze: { type: 'boolean' },
  'no-progress': { type: 'boolean' },
  ...ANALYZE_OPTIONS
}

function wholeNumber (raw, flag, min) {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${flag} ${raw}: give a whole number >= ${min}`)
  return Number(raw)
}

/** The default benchmark directory of `benchrig compare` (as for run). */
function defaultRoot (cwd = process.cwd()) {
  const dir = path.join(cwd, 'benchmark')
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? dir : cwd
}

/**
 * Parses compare's command line (checks binaries, which touches the disk).
 * @param {string[]} argv
 * @param {{defaultRoot?: string}} [ctx]
 */
function parseCompareArgs (argv, ctx = {}) {
  const parsed = parseCommandLine(argv, OPTIONS)
  const v = parsed.values
  if (v.help) return { help: true }
  const auto = v.runs === 'auto'
  const runs = auto ? undefined : (wholeNumber(v.runs, '--runs', 1) ?? 30)
  if (v.output && v.resume) throw new UsageError('--output and --resume both name the output file: give only --resume FILE to continue FILE')
  let seed
  if (v.seed !== undefined) {
    if (!/^\d+$/.test(v.seed)) throw new UsageError(`--seed ${v.seed}: give a whole number`)
    seed = Number(v.seed) >>> 0
  }
  for (const s of v.set ?? []) {
    if (!/^[^=\s]+=/.test(s)) throw new UsageError(`--set ${s}: expected key=value, e.g. --set n=1000`)
  }
  const opts = {
    binaries: { old: resolveBinary(v.old, '--old'), new: resolveBinary(v.new, '--new') },
    root: path.resolve(v.root ?? ctx.defaultRoot ?? defaultRoot()),
    categories: parsed.positionals,
    filter: v.filter ?? [],
    exclude: v.exclude ?? [],
    args: v.set ?? [],
    cpuset: v.cpuset,
    seed,
    runs,
    auto: auto
      ? {
          pilot: 6,
          target: positiveNumber(v.target, '--target') ?? 0.5,
          maxPairs: wholeNumber(v['max-runs'], '--max-runs', 6) ?? 60,
          timeBudgetMs: v['time-budget'] === undefined ? undefined : positiveNumber(v['time-budget'], '--time-budget') * 1000
        }
      : undefined,
    warmup: wholeNumber(v.warmup, '--warmup', 0) ?? 0,
    measure: checkMeasure(v.measure),
    output: v.output ?? v.resume,
    resume: v.resume !== undefined,
    ndjson: v.ndjson,
    analyze: Boolean(v.analyze),
    analysis: analysisOptions(v),
    progress: !v['no-progress']
  }
  if (!auto && (v.target !== undefined || v['max-runs'] !== undefined || v['time-budget'] !== undefined)) {
    throw new UsageError('--target, --max-runs and --time-budget go with --runs auto')
  }
  if (opts.cpuset !== undefined) cpusetPrefix(opts.cpuset)
  return opts
}

/**
 * @param {string[]} argv
 * @param {{defaultRoot?: string, stdout?: NodeJS.WritableStream, stderr?: NodeJS.WriteStream,
 *   stop?: {stopped: boolean}, handleSigint?: boolean}} [ctx]
 * @returns {Promise<number>}
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const stderr = ctx.stderr ?? process.stderr
  const opts = parseCompareArgs(argv, ctx)
  if (opts.help) {
    stdout.write(USAGE + '\n')
    return 0
  }
  const files = findBenchmarks({ root: opts.root, categories: opts.categories, filter: opts.filter, exclude: opts.exclude })
  if (files.length === 0) throw new UsageError('no benchmark file matches the categories, --filter and --exclude given')

  let previous = { seed: undefined, done: new Set(), rows: [], dropped: 0 }
  if (opts.resume) {
    previous = loadForResume(opts.output)
    if (opts.seed !== undefined && previous.seed !== undefined && opts.seed !== previous.seed) {
      throw new UsageError(`--seed ${opts.seed}: ${opts.output} was written with seed ${previous.seed}; leave --seed out to resume`)
    }
    checkResumeMeasure(previous.rows, opts.measure, opts.output)
    stderr.write(`compare: resuming ${opts.output}: ${previous.rows.length} rows kept${previous.dropped ? `, ${previous.dropped} rows of unfinished runs dropped` : ''}\n`)
  }
  const seed = previous.seed ?? opts.seed ?? randomSeed()

  const meta = {
    seed,
    runs: opts.auto ? 'auto' : opts.runs,
    measure: opts.measure,
    args: opts.args,
    cpuset: opts.cpuset,
    root: opts.root,
    old: describeBinary(opts.binaries.old),
    new: describeBinary(opts.binaries.new),
    ...machineMeta()
  }
  const csv = createCsvSink({ file: opts.output, flag: opts.resume ? '--resume' : '--output', append: opts.resume && fs.existsSync(opts.output) && fs.statSync(opts.output).size > 0, stdout: opts.analyze ? nullStream() : stdout })
  let ndjson
  try {
    ndjson = opts.ndjson ? createNdjsonSink(opts.ndjson, meta, opts.resume && fs.existsSync(opts.ndjson)) : undefined
  } catch (err) {
    csv.close()
    throw err
  }
  const progress = createCompareProgress({ stream: stderr, enabled: opts.progress })
  const stop = ctx.stop ?? { stopped: false }
  const onSigint = () => {
    progress.clear()
    if (stop.stopped) {
      // A second Ctrl-C: give the signal its default meaning back.
      process.removeListener('SIGINT', onSigint)
      stderr.write('compare: press Ctrl-C once more to abort at once\n')
      return
    }
    stop.stopped = true
    stderr.write('compare: interrupted; stopping after the current run (every finished row is on disk)\n')
  }
  if (ctx.handleSigint !== false) process.on('SIGINT', onSigint)
  const failures = []
  const runCounter = { value: previous.rows.reduce((m, r) => Math.max(m, Number(r.run) || 0), 0) }
  const runCtx = {
    binaries: opts.binaries,
    args: opts.args,
    cpuset: opts.cpuset,
    measure: opts.measure,
    seed,
    stop,
    done: previous.done,
    runCounter,
    onRow: (row, extra) => {
      csv.write(row)
      if (ndjson) ndjson.write(row, extra)
    },
    onFailure: (f) => {
      failures.push(f)
      if (ndjson) ndjson.writeFailure(f)
      progress.clear()
      stderr.write(`compare: FAILED ${f.filename}${f.configuration ? ' ' + f.configuration : ''} with the ${f.binary} binary (${meta[f.binary].path}), pair ${f.pair}: ${f.message}\n`)
    },
    onProgress: (e) => progress.update(e)
  }
  let rows
  let stopped
  try {
    if (opts.warmup > 0) await warmUp(files, opts.warmup, runCtx)
    if (opts.auto) {
      const res = await runAuto({
        ...opts.auto,
        files,
        rows: previous.rows,
        runBatch: (batchFiles, pairs, firstPair) => runSchedule(buildSchedule({ files: batchFiles, runs: pairs, seed, firstPair }), runCtx),
        log: (m) => { progress.clear(); stderr.write(`compare: ${m}\n`) }
      })
      rows = res.rows
      stopped = res.stoppedBy === 'interrupted'
      if (!stopped) stderr.write(`compare: --runs auto stopped after ${res.rounds} round(s): ${res.stoppedBy}\n`)
    } else {
      const res = await runSchedule(buildSchedule({ files, runs: opts.runs, seed }), runCtx)
      rows = [...previous.rows, ...res.rows]
      stopped = res.stopped
    }
  } finally {
    progress.clear()
    if (ctx.handleSigint !== false) process.removeListener('SIGINT', onSigint)
    csv.close()
    if (ndjson) ndjson.close()
  }
  let code = failures.length > 0 ? 1 : 0
  if (failures.length > 0) stderr.write(`compare: ${failures.length} run(s) failed after a retry; their rows are missing (--resume ${opts.output ?? 'FILE'} runs them again)\n`)
  if (opts.analyze || opts.analysis.maxRegression !== undefined) {
    const a = analyze(rows, { ...opts.analysis, meta: { seed, old: meta.old, new: meta.new } })
    if (opts.analyze) stdout.write(render(a, opts.analysis.format))
    else if (a.regressions.length > 0) stderr.write(render(a, 'text'))
    if (a.regressions.length > 0) code = 1
  }
  if (stopped) return 130
  return code
}

/** A resumed file keeps its measure: rows of two measures cannot be analysed together. */
function checkResumeMeasure (rows, measure, file) {
  const other = rows.find((r) => measureName(r.measure) !== measure)
  if (other) throw new UsageError(`--measure ${measure}: ${file} holds rows measured as ${measureName(other.measure)}; resume with --measure ${measureName(other.measure)}`)
}

function machineMeta () {
  const { collectMeta } = require('../report/meta.js')
  const m = collectMeta()
  return { benchrig: m.benchrig, driverNode: m.driverNode, cpu: m.cpu, os: m.os, governor: m.governor, loadavg: m.loadavg, date: m.date, hostname: m.hostname }
}

function nullStream () {
  return { write () { return true } }
}

module.exports = { main, parseCompareArgs, USAGE }
