'use strict'
// `benchrig compare` and `node compare.js`: parses the command line into
// the two sides and the options of the compare core (lib/compare/session.js:
// plan -> executor -> stopping rule -> sinks), runs it, and prints the
// analysis with --analyze.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine, parseTimeout } = require('../harness/cli-args.js')
const { cpusetPrefix } = require('../harness/cpuset.js')
const { analyze } = require('../stats/analyze.js')
const { parseShard } = require('../compare/shard-spec.js')
const { readRoundPlan } = require('../compare/plan-file.js')
const { sideSource, buildSides, SIDE_OPTIONS } = require('../sides/index.js')
const { profileSlower } = require('../profile/run.js')
const { renderProfiles } = require('../profile/diff.js')
const { appendProfileRecords } = require('../profile/record.js')
const { runComparison } = require('../compare/session.js')
const { splitSetArgs } = require('../harness/pass-through.js')
const { analysisOptions, positiveNumber, noDataGuard, OPTIONS: ANALYZE_OPTIONS } = require('./analysis-flags.js')
const { render, writePlot } = require('../report/render.js')
const { measureOfRows } = require('../report/forest.js')
const { pct, ciText, verdictText } = require('../report/analysis-text.js')
const { checkMeasure } = require('../harness/measure.js')
const { readQuestion, mergeQuestion } = require('./question.js')
const { splitScoped } = require('../compare/scoped-set.js')

const USAGE = `Usage: compare.js --old BIN --new BIN [options] <category ...|all>
       compare.js --old-ref REF --new-ref REF [--repo DIR] [options] <category ...|all>
       compare.js --old-pkg NAME@V1 --new-pkg NAME@V2 [options] <category ...|all>

Runs every benchmark file of the categories with both binaries, in seeded
random old/new pairs, and writes CSV ("binary","filename","configuration",
"rate","time", then pair, order, run, seed, start, configs, measure, plan,
shard_index, shard_count, host, executor, rule, a duet run's section
columns and the CPU probe's: Node core's compare.R reads them all) to
stdout or --output. Analyse it with "benchrig analyze FILE" or "Rscript compare.R < FILE".
The "measure" column names what rate counts (see --measure).

Options:
  --old BIN, --new BIN  the node binaries (or wrapper scripts) to compare
  --old-ref REF, --new-ref REF
                        two git refs of the project that holds the benchmark
                        folder: a worktree and an install (npm ci, cached by
                        lockfile) per ref, removed at the end; the same
                        benchmark files on both sides
  --repo DIR            the project folder of the refs (default: the
                        repository of --root)
  --bench-from W        worktree (default: the working tree's benchmark
                        folder), old or new (that ref's)
  --old-pkg NAME@V1, --new-pkg NAME@V2
                        two versions of a package from the npm registry, each
                        in its own prefix (cached): require(NAME) gets the side's
  --node BIN            the node binary of both sides of refs or packages
                        (default: the one running compare)
  --install CMD         --old-ref/--new-ref: the command that installs each
                        ref's dependencies from its lockfile (default "npm ci";
                        e.g. "npm ci --omit=dev" leaves dev dependencies out)
  --cache DIR           where installs are kept (default $BENCHRIG_CACHE or
                        ~/.cache/benchrig)
  --profile             then profile one old and one new run of each
                        configuration found slower (node --cpu-prof) and print
                        the functions whose share of self time grew most
                        (with --ndjson also recorded there, for the PR report
                        of analyze --format github); not with --cmd, whose
                        tasks cannot be run one at a time
  --profile-dir DIR     where the .cpuprofile files are kept (default
                        ./benchrig-profiles)
  --runs N|auto|seq     pairs per file (default 30); auto: a pilot of 6 pairs
                        sets each file's pairs (12 to --max-runs) for --target;
                        seq: each configuration stops as soon as its betting
                        evidence calls it (e-BH over the configurations at
                        --alpha), its 1 - alpha interval lies inside
                        ±--threshold, or it cannot get there within
                        --max-runs (futility)
  --target PCT          auto: wanted CI half-width in % (default 0.5)
  --max-runs N          auto: at most N pairs per file (default 60); seq: 100
  --time-budget SEC     auto: start no batch that would end after SEC seconds
  --filter PATTERN      only files whose name contains PATTERN or matches /re/ (repeatable)
  --exclude PATTERN     skip such files (repeatable)
  --set key=value       narrow a configuration key (repeatable); a file that does
                        not declare it gets it passed through, with one warning
                        per run; --set CPUSET=LIST is --cpuset LIST
  --set SCOPE:key=value the same for some files only: SCOPE is a category or a
                        benchmark file (buffers/buffer-tostring.js, or its name
                        alone when it is unique); the file's own beats its
                        category's, which beats an unscoped --set
  --question FILE       the whole question in one file (JSON, or YAML for .yaml
                        and .yml): categories, filter, exclude, set (everywhere,
                        per category, per file), measure, runs and rule
                        (alpha, threshold, max-runs, target, time-budget), or
                        cmd and runner (or format) instead of files; the
                        flags it stands for; a flag also given must agree
  --strict              an undeclared --set key fails the file (not retried)
  --root DIR            the benchmark directory
  --cpuset LIST         pin the benchmark processes with taskset -c LIST
  --float               let the runs float between the CPUs, as Node core's
                        compare.js does (default: both runs of a pair pinned to
                        one CPU, drawn per pair, recorded in "cpuset")
  --duet                run old and new of each pair at once, each under taskset
                        on its own CPUs (assigned in crossover blocks of two
                        pairs, so the analysis removes a speed difference
                        between the sets), their measured sections started
                        together (--cmd: both commands start together); rows
                        record each side's section and CPU time, and starved
                        pairs
  --cpuset-old LIST, --cpuset-new LIST
                        --duet's two CPU sets (default: an even split)
  --timeout SECONDS     kill a configuration that runs longer and record it as
                        failed (default 300; 0: no limit)
  --seed S              seed of the run order (default random; recorded per row)
  --warmup N            unmeasured runs of each file with each binary first (default 0)
  --measure M           wall | cpu | instructions | server-cpu | heap (default
                        wall, ops/s): cpu counts the CPU time of the measured
                        section, instructions its instructions under valgrind
                        (rate: ops per 10^9 instructions; near-deterministic,
                        a few pairs suffice), server-cpu the server's CPU time
                        in bench.http() runs (requests per server CPU-second),
                        heap the bytes allocated (ops per MB)
  --output FILE         write rows to FILE as they are measured (flushed per row)
  --resume FILE         continue an interrupted --output FILE: keep its rows,
                        run what is missing with the same seed; refuses other
                        sides, seed or plan than FILE.sides.json records
  --resume-unverified   with --resume: continue a file that records no sides
                        (written by hand or by an older benchrig)
  --ndjson FILE         also write NDJSON: metadata (binaries' versions, paths,
                        sha256, CPU, governor, load, seed), then one record per row
  --history DB          also record every row in a history store (a SQLite file
                        or postgres://…; see benchrig history)
  --history-label L     the label of the new binary's rows, or OLD..NEW for
                        both sides (default: what differs between the sides:
                        each binary's node version, a ref's commit, a
                        package's installed version)
  --analyze             print the analysis instead of CSV (see benchrig analyze)
  --csv                 with --analyze: the CSV still goes to stdout, the
                        analysis to stderr
  --scale N             with --analyze: round each rate to a multiple of 1/N
                        first, as Node core's --analyze does (it records
                        round(rate * N) in an integer histogram); default: exact
  --format, --threshold, --alpha, --max-regression PCT, --min-effect PCT,
  --unpaired, --wide, --marker NAME, --allow-partial
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
  --cmd "COMMAND"       run this benchmark command on each side instead of
                        benchmark files (in --root, default the current folder;
                        in its worktree for refs); every task of its output is
                        a configuration (docs/runners/)
  --runner R            the runner whose output --cmd prints: tinybench, vitest,
                        mitata, benchmarkjs, bench-node, node-bench, hyperfine
                        (--format R says the same)
  --no-progress         no progress line on stderr (and, when stderr is not a
                        terminal, no lines with each file's verdicts as it ends)
  -h, --help            this text

A failing run is reported with its file, configuration and binary, retried
once, then recorded as failed while the rest goes on; the exit code is then 1.
Ctrl-C stops at once (the run in progress is not written); every finished row
is on disk, and --resume FILE continues.`

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
  'resume-unverified': { type: 'boolean' },
  ndjson: { type: 'string' },
  history: { type: 'string' },
  'history-label': { type: 'string' },
  analyze: { type: 'boolean' },
  csv: { type: 'boolean' },
  scale: { type: 'string' },
  strict: { type: 'boolean' },
  'no-progress': { type: 'boolean' },
  shard: { type: 'string' },
  'shard-count': { type: 'string' },
  plan: { type: 'string' },
  question: { type: 'string' },
  profile: { type: 'boolean' },
  'profile-dir': { type: 'string' },
  ...SIDE_OPTIONS,
  duet: { type: 'boolean' },
  float: { type: 'boolean' },
  'cpuset-old': { type: 'string' },
  'cpuset-new': { type: 'string' },
  cmd: { type: 'string' },
  runner: { type: 'string' },
  ...ANALYZE_OPTIONS
}

function wholeNumber (raw, flag, min) {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${flag} ${raw}: give a whole number >= ${min}`)
  return Number(raw)
}

/**
 * A check of a value the question file may have given: its error names the file and key.
 * @template T
 * @param {import('./question.js').Question|undefined} q
 * @param {string} key
 * @param {() => T} check
 * @returns {T}
 */
function questionChecked (q, key, check) {
  try {
    return check()
  } catch (err) {
    if (!q || q.values[key] === undefined || !(err instanceof UsageError)) throw err
    throw new UsageError(`--question ${q.file}: "${key}": ${err.message}`)
  }
}

/** --profile [--profile-dir DIR]: the folder of the profiles (default ./benchrig-profiles), or undefined. */
function profileDir (v) {
  if (v['profile-dir'] !== undefined && !v.profile) throw new UsageError('--profile-dir goes with --profile')
  if (!v.profile) return undefined
  if (v.shard !== undefined) throw new UsageError('--profile does not go with --shard: a shard sees only its pairs; profile after analysing the merged shards (benchrig compare --profile on the slower files)')
  return path.resolve(v['profile-dir'] ?? 'benchrig-profiles')
}

/** The default benchmark directory of `benchrig compare` (as for run). */
function defaultRoot (cwd = process.cwd()) {
  const dir = path.join(cwd, 'benchmark')
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? dir : cwd
}

/**
 * Parses compare's command line (checks binaries, which touches the disk).
 * @param {string[]} argv
 * @param {{defaultRoot?: string, env?: NodeJS.ProcessEnv, duetEnv?: object}} [ctx] env: where --shard auto looks (default
 *   process.env); duetEnv: the CPU count and SMT siblings --duet sees (tests)
 * @returns {import('../compare/options.js').CompareOptions | {help: true}}
 */
function parseCompareArgs (argv, ctx = {}) {
  const parsed = parseCommandLine(argv, OPTIONS)
  const v = parsed.values
  if (v.help) return { help: true }
  const question = v.question === undefined ? undefined : readQuestion(v.question)
  const categories = question ? mergeQuestion(v, parsed.positionals, question) : parsed.positionals
  const runsGiven = argv.filter((x) => x === '--runs' || x.startsWith('--runs='))
  if (runsGiven.length > 1) throw new UsageError('--runs is given more than once: give one of --runs N, --runs auto or --runs seq')
  const auto = v.runs === 'auto'
  const seq = v.runs === 'seq'
  if (v.runs !== undefined && !auto && !seq && !/^\d+$/.test(v.runs)) throw new UsageError(`--runs ${v.runs}: give a whole number of pairs, auto or seq`)
  const runs = auto || seq ? undefined : (wholeNumber(v.runs, '--runs', 1) ?? 30)
  if (v.output && v.resume) throw new UsageError('--output and --resume both name the output file: give only --resume FILE to continue FILE')
  if (v['resume-unverified'] && v.resume === undefined) throw new UsageError('--resume-unverified goes with --resume FILE')
  let seed
  if (v.seed !== undefined) {
    if (!/^\d+$/.test(v.seed)) throw new UsageError(`--seed ${v.seed}: give a whole number`)
    seed = Number(v.seed) >>> 0
  }
  const { plain, scoped } = splitScoped(v.set ?? [])
  const { args, cpuset } = splitSetArgs(plain, v.cpuset)
  // lazy: the runners' readers load only with --cmd
  const command = require('../runners/command-options.js').commandOptions(v, categories, question)
  if ((v.csv || v.scale !== undefined) && !v.analyze) throw new UsageError(`${v.csv ? '--csv' : '--scale'} goes with --analyze (without it compare writes CSV, unscaled)`)
  /** @type {import('../compare/options.js').CompareOptions} */
  const opts = {
    // two binaries are sides as they are; refs and packages are built in main()
    sideSource: sideSource(v),
    // --profile: where the .cpuprofile files of the configurations found slower are kept
    profile: profileDir(v),
    sides: undefined,
    root: path.resolve(v.root ?? ctx.defaultRoot ?? defaultRoot()),
    categories,
    filter: v.filter ?? [],
    exclude: v.exclude ?? [],
    args,
    // --set SCOPE:key=value: resolved against the files in the session (lib/compare/scoped-set.js)
    scopedSets: scoped,
    question: question && { file: path.resolve(question.file), ...question.content },
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
    seq: seq
      ? {
          alpha: positiveNumber(v.alpha, '--alpha', { max: 1 }) ?? 0.05,
          threshold: positiveNumber(v.threshold, '--threshold') ?? 1,
          maxPairs: wholeNumber(v['max-runs'], '--max-runs', 2) ?? 100
        }
      : undefined,
    warmup: wholeNumber(v.warmup, '--warmup', 0) ?? 0,
    measure: questionChecked(question, 'measure', () => checkMeasure(v.measure)),
    output: v.output ?? v.resume,
    resume: v.resume !== undefined,
    resumeUnverified: Boolean(v['resume-unverified']),
    ndjson: v.ndjson,
    history: compareHistoryFlags(v),
    analyze: Boolean(v.analyze),
    analysis: analysisOptions(v),
    progress: !v['no-progress'],
    shard: parseShard(v.shard, { env: ctx.env, shardCount: v['shard-count'] }),
    plan: v.plan === undefined ? undefined : readRoundPlan(v.plan)
  }
  if (command) Object.assign(opts, { command, root: path.resolve(v.root ?? process.cwd()), sideSource: { ...opts.sideSource, cmd: true } })
  if (opts.plan) {
    // a round of a --cmd comparison names the command as its one file
    const other = command && opts.plan.files.find((e) => e.filename !== command.name)
    if (other) throw new UsageError(`--plan ${v.plan}: its round is of "${other.filename}", not of the command "${command.name}"; give the --cmd of the first round`)
    if (v.runs !== undefined) throw new UsageError(`--runs ${v.runs}: --plan ${v.plan} already says how many pairs each file needs; leave --runs out`)
    if (seed !== undefined && seed !== opts.plan.seed) throw new UsageError(`--seed ${v.seed}: --plan ${v.plan} was made for seed ${opts.plan.seed}; leave --seed out`)
    opts.seed = opts.plan.seed
    // the round plan gives each file its own pairs: the rule column says "fixed", not the default 30
    opts.runs = undefined
  }
  if (seq && opts.plan) throw new UsageError(`--runs seq does not go with --plan ${v.plan}: the rule decides after every pair on one machine; leave --plan out`)
  if (seq && opts.shard) throw new UsageError('--runs seq does not go with --shard: the rule decides after every pair, which shards cannot share; use --runs N with --shard')
  if (seq && (v.target !== undefined || v['time-budget'] !== undefined)) throw new UsageError('--target and --time-budget go with --runs auto; --runs seq stops each configuration on its own interval (--threshold, --alpha, --max-runs)')
  if (opts.shard && auto) throw new UsageError('--runs auto does not go with --shard: run a fixed number of pairs per shard, then "benchrig plan --next" and --plan for further rounds (docs/scale.md)')
  if (opts.shard && opts.seed === undefined && !opts.resume) throw new UsageError(`--shard ${v.shard}: give --seed S (the same on every shard), so that every shard builds the same plan`)
  if (!auto && !seq && (v.target !== undefined || v['max-runs'] !== undefined || v['time-budget'] !== undefined)) {
    throw new UsageError('--target, --max-runs and --time-budget go with --runs auto (--max-runs also with --runs seq)')
  }
  if (!v.duet && (v['cpuset-old'] !== undefined || v['cpuset-new'] !== undefined)) throw new UsageError('--cpuset-old and --cpuset-new go with --duet')
  if (v.float && (v.duet || opts.cpuset !== undefined)) throw new UsageError(`--float lets serial runs float between CPUs; it does not go with ${v.duet ? '--duet' : '--cpuset'}, which pins them`)
  opts.float = Boolean(v.float)
  if (v.duet) {
    if (opts.cpuset !== undefined) throw new UsageError('--cpuset does not go with --duet: give --cpuset-old and --cpuset-new (or neither, for an even split of the CPUs)')
    const { duetCpuSets } = require('../compare/duet-cpus.js') // lazy: only --duet reads the CPU topology
    const d = duetCpuSets({ old: v['cpuset-old'], new: v['cpuset-new'] }, ctx.duetEnv)
    opts.executor = 'duet'
    opts.duet = { sets: d.sets }
    opts.warnings = d.warnings
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
  if ('help' in opts) {
    const prog = ctx.prog ?? 'benchrig compare'
    stdout.write(withExamples(USAGE.replace('Usage: compare.js', `Usage: ${prog}`), 'compare', prog === 'compare.js' ? 'node compare.js' : prog))
    return 0
  }
  for (const w of opts.warnings ?? []) stderr.write(`compare: warning: ${w}\n`)
  // checked before any worktree, install or run (docs/history.md): a bad store fails first
  // lazy: the store's engine (SQLite or pg) loads only with --history
  if (opts.history) await require('../history/preflight.js').checkStore(opts.history.db, { root: opts.root })
  const built = await buildSides(opts.sideSource, { root: opts.root, log: (m) => stderr.write(`compare: ${m}\n`) })
  let done
  let a
  let profiles = []
  const analyse = (d) => analyze(opts.scale ? d.rows.map((r) => scaleRate(r, opts.scale)) : d.rows, { ...opts.analysis, meta: { seed: d.seed, old: d.meta.old, new: d.meta.new } })
  try {
    const onFileEnd = fileLinesWanted(stderr, opts.progress, ctx.env ?? process.env) ? (name, rows) => stderr.write(fileLines(name, rows, opts)) : undefined
    done = await runComparison({ ...opts, sides: built.sides }, { stdout, stderr, env: ctx.env, stop: ctx.stop, handleSigint: ctx.handleSigint, onFileEnd })
    // --profile needs the sides (worktrees, prefixes) still there
    if (opts.profile && !done.stopped && done.rows.length > 0) {
      a = analyse(done)
      profiles = await profileSlower({ results: a.results, sides: built.sides, root: opts.root, measure: opts.measure, env: ctx.env, dir: opts.profile, log: (m) => stderr.write(`compare: ${m}\n`) })
      // the tables travel with the data: analyze --format github FILE.ndjson puts them in the PR report
      if (opts.ndjson) appendProfileRecords(opts.ndjson, profiles)
    }
  } finally {
    built.cleanup()
  }
  const { rows, failures, stopped, meta } = done
  let code = failures.length > 0 ? 1 : 0
  if (opts.analyze || opts.analysis.maxRegression !== undefined || opts.analysis.plot) {
    a ??= analyse(done)
    noDataGuard(a, opts.analysis, opts.output ?? 'compare')
    if (opts.analysis.plot) writePlot(a, opts.analysis.plot, { measure: measureOfRows(rows) })
    if (opts.analyze) (opts.csv ? stderr : stdout).write(render(a, opts.analysis.format, { wide: opts.analysis.wide }, { rows, meta, marker: opts.analysis.marker, profiles }))
    else if (a.regressions.length > 0) stderr.write(render(a, 'text', { wide: opts.analysis.wide }))
    if (a.regressions.length > 0) code = 1
  }
  if (opts.profile) {
    // beside the analysis in its format (markdown for the PR), else on stderr (stdout holds the CSV)
    const markdown = opts.analyze && opts.analysis.format === 'markdown'
    const where = opts.analyze && !opts.csv && opts.analysis.format !== 'json' ? stdout : stderr
    // the github comment holds them already (collapsed, per slower configuration)
    const inComment = opts.analyze && opts.analysis.format === 'github'
    if (profiles.length > 0) {
      if (!inComment) where.write((opts.analyze ? '\n' : '') + renderProfiles(profiles, markdown ? 'markdown' : 'text'))
    } else if (!stopped) stderr.write('compare: --profile: no configuration was found slower; nothing profiled\n')
  }
  if (stopped) return 130
  return code
}

/**
 * Each file's verdicts and warnings as the file ends: on a stream that is not
 * a terminal (CI logs, a file), where no progress line shows how things stand;
 * not with --no-progress or BENCHRIG_PROGRESS=none.
 * @param {{isTTY?: boolean}} stderr
 * @param {boolean} progress
 * @param {NodeJS.ProcessEnv} env
 */
function fileLinesWanted (stderr, progress, env) {
  return progress && !stderr.isTTY && env.BENCHRIG_PROGRESS !== 'none'
}

/**
 * A file's verdicts and warnings from the analysis of every row so far (the
 * one analyze gives; q and e-BH span every file, so a later file may still
 * change them: the final analysis decides).
 * @param {string} name
 * @param {object[]} rows
 * @param {import('../compare/options.js').CompareOptions} opts
 */
function fileLines (name, rows, opts) {
  const a = analyze(/** @type {any[]} */ (rows), opts.analysis)
  const mine = a.results.filter((r) => r.filename === name)
  if (mine.length === 0) return ''
  const out = [`compare: ${name} done (so far; the final analysis spans every file):`]
  for (const r of mine) out.push(`  ${r.configuration}: ${pct(r.change)} ${ciText(r, a.meta.confLevel)} ${verdictText(r, a.results.length)}`)
  for (const w of a.warnings.filter((x) => x.filename === name)) out.push(`  warning: ${w.configuration} ${w.kind}: ${w.message}`)
  return out.join('\n') + '\n'
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

/**
 * --history DB [--history-label NEW|OLD..NEW]: what the history sink records.
 * @param {Record<string, any>} v
 */
function compareHistoryFlags (v) {
  if (v['history-label'] !== undefined && v.history === undefined) throw new UsageError('--history-label labels what --history DB records: give --history too')
  if (v.history === undefined) return undefined
  if (v.history === '') throw new UsageError('--history needs a store: a SQLite file or a postgres:// URL')
  const { sideLabels } = require('../history/ingest.js') // lazy: the store's engine (SQLite or pg) loads only with --history
  const labels = v['history-label'] === undefined ? undefined : sideLabels(v['history-label'])
  return { db: v.history, labels }
}

module.exports = { main, parseCompareArgs, scaleRate, USAGE, OPTIONS }
