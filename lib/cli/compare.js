'use strict'
// `benchrig compare` and `node compare.js`: runs benchmark files with an old
// and a new node binary, interleaved in seeded random pairs, and writes one
// CSV row per measurement (or prints the analysis with --analyze).
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine, parseTimeout } = require('../harness/cli-args.js')
const { checkBenchmarkers } = require('../harness/preflight.js')
const { findBenchmarks } = require('../harness/discover.js')
const { cpusetPrefix } = require('../harness/cpuset.js')
const { randomSeed } = require('../stats/prng.js')
const { analyze } = require('../stats/analyze.js')
const { buildSchedule } = require('../compare/schedule.js')
const { parseShard } = require('../compare/shard-spec.js')
const { planSchedule, shardSchedule, planHash, hostFingerprint } = require('../compare/shards.js')
const { readRoundPlan, writePlanSidecar } = require('../compare/plan-file.js')
const { resolveBinary, describeBinary } = require('../compare/binaries.js')
const { createCsvSink, createNdjsonSink } = require('../compare/output.js')
const { loadForResume, checkResumeBinaries } = require('../compare/resume.js')
const { runSchedule, warmUp } = require('../compare/run-compare.js')
const { runAuto } = require('../compare/auto.js')
const { createCompareProgress } = require('../compare/progress.js')
const { splitSetArgs, createKeyWarner } = require('../harness/pass-through.js')
const { analysisOptions, render, positiveNumber, writePlot, noDataGuard, OPTIONS: ANALYZE_OPTIONS } = require('./analyze.js')
const { measureOfRows } = require('../report/forest.js')
const { checkMeasure, measureName } = require('../harness/measure.js')

const USAGE = `Usage: compare.js --old BIN --new BIN [options] <category ...|all>

Runs every benchmark file of the categories with both binaries, in seeded
random old/new pairs, and writes CSV ("binary","filename","configuration",
"rate","time", then pair, order, run, seed, start, configs, measure, plan,
shard_index, shard_count, host: columns Node core's compare.R reads) to
stdout or --output. Analyse it with "benchrig analyze FILE" or "Rscript compare.R < FILE".
The "measure" column names what rate counts (see --measure).

Options:
  --old BIN, --new BIN  the node binaries (or wrapper scripts) to compare
  --runs N|auto         pairs per file (default 30); auto: a pilot of 6 pairs
                        sets each file's pairs (12 to --max-runs) for --target
  --target PCT          auto: wanted CI half-width in % (default 0.5)
  --max-runs N          auto: at most N pairs per file (default 60)
  --time-budget SEC     auto: start no batch that would end after SEC seconds
  --filter PATTERN      only files whose name contains PATTERN or matches /re/ (repeatable)
  --exclude PATTERN     skip such files (repeatable)
  --set key=value       narrow a configuration key (repeatable); a file that does
                        not declare it gets it passed through, with one warning
                        per run; --set CPUSET=LIST is --cpuset LIST
  --strict              an undeclared --set key fails the file (not retried)
  --root DIR            the benchmark directory
  --cpuset LIST         pin the benchmark processes with taskset -c LIST
  --timeout SECONDS     kill a configuration that runs longer and record it as
                        failed (default 300; 0: no limit)
  --seed S              seed of the run order (default random; recorded per row)
  --warmup N            unmeasured runs of each file with each binary first (default 0)
  --measure M           wall | cpu | instructions (default wall, ops/s): cpu counts
                        the CPU time of the measured section, instructions its
                        instructions under valgrind (rate: ops per 10^9
                        instructions; near-deterministic, a few pairs suffice)
  --output FILE         write rows to FILE as they are measured (flushed per row)
  --resume FILE         continue an interrupted --output FILE: keep its rows,
                        run what is missing with the same seed (with the
                        run's --ndjson, refuses other binaries than its own)
  --ndjson FILE         also write NDJSON: metadata (binaries' versions, paths,
                        sha256, CPU, governor, load, seed), then one record per row
  --analyze             print the analysis instead of CSV (see benchrig analyze)
  --csv                 with --analyze: the CSV still goes to stdout, the
                        analysis to stderr
  --scale N             with --analyze: round each rate to a multiple of 1/N
                        first, as Node core's --analyze does (it records
                        round(rate * N) in an integer histogram); default: exact
  --format, --threshold, --alpha, --max-regression PCT, --unpaired
                        analysis options, as for benchrig analyze; with
                        --max-regression the exit code is 1 on a regression
  --plot FILE.svg       also write the PR figure (see benchrig analyze)
  --shard I/N|auto      run only shard I (0-based) of N of the seeded plan:
                        whole pairs, balanced by expected time; auto reads
                        Slurm (SLURM_ARRAY_TASK_ID/COUNT), Kubernetes
                        (JOB_COMPLETION_INDEX + --shard-count) or BENCHRIG_SHARD=I/N.
                        Needs --seed (or --plan); every shard gets the same flags.
                        With --output, FILE.plan.json lists the whole split
  --shard-count N       the shard count of a Kubernetes Indexed Job (or BENCHRIG_SHARD_COUNT)
  --plan FILE           run the round FILE describes (written by benchrig plan
                        --next): its seed, its files and pairs
  --no-progress         no progress line on stderr
  -h, --help            this text

A failing run is reported with its file, configuration and binary, retried
once, then recorded as failed while the rest goes on; the exit code is then 1.
Ctrl-C stops at once (the run in progress is not written); every finished row
is on disk, and --resume FILE continues.`

/** The environment of the benchmark processes: --strict and --timeout travel there. */
function childEnv (opts) {
  if (!opts.strict && opts.timeout === undefined) return undefined
  return {
    ...process.env,
    ...(opts.strict ? { BENCHRIG_STRICT: '1' } : {}),
    ...(opts.timeout === undefined ? {} : { BENCHRIG_TIMEOUT: String(opts.timeout) })
  }
}

/** A benchmark file as messages show it: relative to the benchmark directory, as Node prints it. */
const displayPath = (root, file) => (path.isAbsolute(file) ? path.relative(root, file) : file)

/** @type {import('../harness/cli-args.js').CommandOptions} */
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
  timeout: { type: 'string' },
  seed: { type: 'string' },
  warmup: { type: 'string' },
  measure: { type: 'string' },
  output: { type: 'string' },
  resume: { type: 'string' },
  ndjson: { type: 'string' },
  analyze: { type: 'boolean' },
  csv: { type: 'boolean' },
  scale: { type: 'string' },
  strict: { type: 'boolean' },
  'no-progress': { type: 'boolean' },
  shard: { type: 'string' },
  'shard-count': { type: 'string' },
  plan: { type: 'string' },
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
 * @param {{defaultRoot?: string, env?: NodeJS.ProcessEnv}} [ctx] env: where --shard auto looks (default process.env)
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
  const { args, cpuset } = splitSetArgs(v.set ?? [], v.cpuset)
  if ((v.csv || v.scale !== undefined) && !v.analyze) throw new UsageError(`${v.csv ? '--csv' : '--scale'} goes with --analyze (without it compare writes CSV, unscaled)`)
  const opts = {
    binaries: { old: resolveBinary(v.old, '--old'), new: resolveBinary(v.new, '--new') },
    root: path.resolve(v.root ?? ctx.defaultRoot ?? defaultRoot()),
    categories: parsed.positionals,
    filter: v.filter ?? [],
    exclude: v.exclude ?? [],
    args,
    cpuset,
    timeout: parseTimeout(v.timeout),
    strict: Boolean(v.strict),
    csv: Boolean(v.csv),
    scale: wholeNumber(v.scale, '--scale', 1),
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
    progress: !v['no-progress'],
    shard: parseShard(v.shard, { env: ctx.env, shardCount: v['shard-count'] }),
    plan: v.plan === undefined ? undefined : readRoundPlan(v.plan)
  }
  if (opts.plan) {
    if (v.runs !== undefined) throw new UsageError(`--runs ${v.runs}: --plan ${v.plan} already says how many pairs each file needs; leave --runs out`)
    if (seed !== undefined && seed !== opts.plan.seed) throw new UsageError(`--seed ${v.seed}: --plan ${v.plan} was made for seed ${opts.plan.seed}; leave --seed out`)
    opts.seed = opts.plan.seed
  }
  if (opts.shard && auto) throw new UsageError('--runs auto does not go with --shard: run a fixed number of pairs per shard, then "benchrig plan --next" and --plan for further rounds (docs/scale.md)')
  if (opts.shard && opts.seed === undefined && !opts.resume) throw new UsageError(`--shard ${v.shard}: give --seed S (the same on every shard), so that every shard builds the same plan`)
  if (!auto && (v.target !== undefined || v['max-runs'] !== undefined || v['time-budget'] !== undefined)) {
    throw new UsageError('--target, --max-runs and --time-budget go with --runs auto')
  }
  if (opts.cpuset !== undefined) cpusetPrefix(opts.cpuset)
  return opts
}

/**
 * @param {string[]} argv
 * @param {{defaultRoot?: string, stdout?: NodeJS.WritableStream, stderr?: NodeJS.WriteStream,
 *   stop?: {stopped: boolean}, handleSigint?: boolean, prog?: string, env?: NodeJS.ProcessEnv}} [ctx]
 * @returns {Promise<number>}
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const stderr = ctx.stderr ?? process.stderr
  const opts = parseCompareArgs(argv, ctx)
  if (opts.help) {
    const prog = ctx.prog ?? 'benchrig compare'
    stdout.write(withExamples(USAGE.replace('Usage: compare.js', `Usage: ${prog}`), 'compare', prog === 'compare.js' ? 'node compare.js' : prog))
    return 0
  }
  const found = findBenchmarks({ root: opts.root, categories: opts.categories, filter: opts.filter, exclude: opts.exclude })
  if (found.length === 0) throw new UsageError('no benchmark file matches the categories, --filter and --exclude given')
  checkBenchmarkers(opts.args, found.map((f) => f.file))
  const { files, batches, costs } = planBatches(found, opts)

  let previous = { seed: undefined, done: new Set(), rows: [], dropped: 0 }
  if (opts.resume) {
    if (opts.ndjson) checkResumeBinaries(opts.ndjson, opts.binaries, describeBinary)
    previous = loadForResume(opts.output)
    if (opts.shard && previous.seed === undefined && opts.seed === undefined) {
      throw new UsageError(`--resume ${opts.output}: it holds no rows yet, so no seed; give --seed S (the one every shard uses)`)
    }
    if (opts.seed !== undefined && previous.seed !== undefined && opts.seed !== previous.seed) {
      throw new UsageError(`--seed ${opts.seed}: ${opts.output} was written with seed ${previous.seed}; leave --seed out to resume`)
    }
    checkResumeMeasure(previous.rows, opts.measure, opts.output)
    stderr.write(`compare: resuming ${opts.output}: ${previous.rows.length} rows kept${previous.dropped ? `, ${previous.dropped} rows of unfinished runs dropped` : ''}\n`)
  }
  const seed = previous.seed ?? opts.seed ?? randomSeed()

  /** @type {Record<string, any>} */
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
  const hash = planHash({ seed, categories: opts.categories, batches, args: opts.args, sha256: { old: meta.old.sha256, new: meta.new.sha256 } })
  const plan = opts.plan ? `${opts.plan.base}.${opts.plan.round}` : hash
  let schedule = planSchedule(batches, seed)
  const tags = { plan, host: hostFingerprint() }
  if (opts.shard) {
    const split = shardSchedule(schedule, opts.shard, costs)
    schedule = split.runs
    Object.assign(tags, { shard_index: opts.shard.index, shard_count: opts.shard.count })
    stderr.write(`compare: shard ${opts.shard.index}/${opts.shard.count} (${opts.shard.source}): ${schedule.length / 2} of ${split.units.length} pairs, plan ${plan}\n`)
    if (opts.output) writePlanSidecar(opts.output, { plan, seed, shardCount: opts.shard.count, units: split.units })
  }
  meta.plan = plan
  meta.host = tags.host
  if (opts.shard) meta.shard = { index: opts.shard.index, count: opts.shard.count }
  const csv = createCsvSink({ file: opts.output, flag: opts.resume ? '--resume' : '--output', append: opts.resume && fs.existsSync(opts.output) && fs.statSync(opts.output).size > 0, stdout: opts.analyze && !opts.csv ? nullStream() : stdout })
  let ndjson
  try {
    ndjson = opts.ndjson ? createNdjsonSink(opts.ndjson, meta, opts.resume && fs.existsSync(opts.ndjson)) : undefined
  } catch (err) {
    csv.close()
    throw err
  }
  const progress = createCompareProgress({ stream: stderr, enabled: opts.progress, env: ctx.env })
  const stop = ctx.stop ?? { stopped: false }
  const onSigint = () => {
    progress.stop()
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
    env: childEnv(opts),
    onWarning: createKeyWarner({ write: (m) => { progress.clear(); stderr.write(m) } }, 'compare'),
    binaries: opts.binaries,
    args: opts.args,
    cpuset: opts.cpuset,
    measure: opts.measure,
    seed,
    stop,
    done: previous.done,
    runCounter,
    tags,
    onRow: (row, extra) => {
      csv.write(row)
      if (ndjson) ndjson.write(row, extra)
    },
    onFailure: (f) => {
      failures.push(f)
      if (ndjson) ndjson.writeFailure(f)
      progress.clear()
      stderr.write(`compare: FAILED ${displayPath(opts.root, f.filename)}${f.configuration ? ' ' + f.configuration : ''} with the ${f.binary} binary (${meta[f.binary].path}), pair ${f.pair}: ${f.message}\n`)
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
      const res = await runSchedule(schedule, runCtx)
      rows = [...previous.rows, ...res.rows]
      stopped = res.stopped
    }
  } finally {
    progress.stop()
    if (ctx.handleSigint !== false) process.removeListener('SIGINT', onSigint)
    csv.close()
    if (ndjson) ndjson.close()
  }
  let code = failures.length > 0 ? 1 : 0
  if (failures.length > 0) stderr.write(`compare: ${failures.length} run(s) failed after a retry; their rows are missing (--resume ${opts.output ?? 'FILE'} runs them again)\n`)
  if (opts.analyze || opts.analysis.maxRegression !== undefined || opts.analysis.plot) {
    const a = analyze(opts.scale ? rows.map((r) => scaleRate(r, opts.scale)) : rows, { ...opts.analysis, meta: { seed, old: meta.old, new: meta.new } })
    noDataGuard(a, opts.analysis, opts.output ?? 'compare')
    if (opts.analysis.plot) writePlot(a, opts.analysis.plot, { measure: measureOfRows(rows) })
    if (opts.analyze) (opts.csv ? stderr : stdout).write(render(a, opts.analysis.format, { wide: opts.analysis.wide }, { rows, meta, marker: opts.analysis.marker }))
    else if (a.regressions.length > 0) stderr.write(render(a, 'text', { wide: opts.analysis.wide }))
    if (a.regressions.length > 0) code = 1
  }
  if (stopped) return 130
  return code
}

/**
 * The batches of the plan: every file with --runs pairs, or the round a
 * --plan file describes (its files, each with its own pairs and first pair).
 * @param {{file: string, name: string}[]} found
 * @param {object} opts
 */
function planBatches (found, opts) {
  if (!opts.plan) return { files: found, batches: [{ files: found, runs: opts.runs ?? opts.auto?.pilot ?? 1, firstPair: 1 }], costs: undefined }
  const byName = new Map(found.map((f) => [f.name, f]))
  const groups = new Map()
  const costs = new Map()
  for (const e of opts.plan.files) {
    const f = byName.get(e.filename)
    if (!f) throw new UsageError(`--plan ${opts.plan.path}: ${e.filename} is not among the benchmark files of the categories given (${opts.categories.join(' ') || 'none'}); give the categories of the first round`)
    const key = `${e.firstPair}/${e.pairs}`
    const g = groups.get(key) ?? { files: [], runs: e.pairs, firstPair: e.firstPair }
    g.files.push(f)
    groups.set(key, g)
    if (e.cost > 0) costs.set(f.name, e.cost)
  }
  const batches = [...groups.values()]
  return { files: batches.flatMap((b) => b.files), batches, costs }
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

/**
 * --scale N: the rate Node core's --analyze effectively analyses, which
 * records max(1, round(rate * N)) in an integer histogram.
 * @param {object} row
 * @param {number} scale
 */
function scaleRate (row, scale) {
  return { ...row, rate: Math.max(1, Math.round(Number(row.rate) * scale)) / scale }
}

function nullStream () {
  return { write () { return true } }
}

module.exports = { main, parseCompareArgs, scaleRate, USAGE }
