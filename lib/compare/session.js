'use strict'
// One comparison, from parsed options to rows: the plan (sides, files,
// pairs, seed; a shard's slice), the sinks, the executor and the stopping
// rule, plus what surrounds them: resume, the shard sidecar, warm-up and
// Ctrl-C. lib/cli/compare.js parses, calls runComparison and prints.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { checkBenchmarkers } = require('../harness/preflight.js')
const { findBenchmarks } = require('../harness/discover.js')
const { createKeyWarner } = require('../harness/pass-through.js')
const { measureName } = require('../record/measures.js')
const { randomSeed } = require('../prng.js')
const { buildSchedule, runKey } = require('./schedule.js')
const { buildPlan } = require('./plan.js')
const { writePlanSidecar } = require('./plan-file.js')
const { readForResume, trimNdjsonForResume } = require('./resume.js')
const { identityOf, readIdentity, checkIdentity, writeSidesFile, sidesPath } = require('./sides-file.js')
const { warmUp } = require('./run-compare.js')
const { EXECUTORS } = require('./executors.js')
const { ruleFor } = require('./rules.js')
const { openSinks } = require('./sinks.js')
const { envOnSide } = require('./sides.js')
const { harnessFlags, machineMeta } = require('../record/meta.js')
const { placement } = require('./pin.js')
const { createCpuProbe, createSpeedWatch, spreadOf } = require('../harness/cpu-probe.js')
const { fileArgsOf } = require('./scoped-set.js')

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

/** A resumed file keeps its measure: rows of two measures cannot be analysed together. */
function checkResumeMeasure (rows, measure, file) {
  const other = rows.find((r) => measureName(r.measure) !== measure)
  if (other) throw new UsageError(`--measure ${measure}: ${file} holds rows measured as ${measureName(other.measure)}; resume with --measure ${measureName(other.measure)}`)
}

/**
 * A side's binary (path, version, sha256) and the node/V8 flags its children
 * run with (the history store keys series by them).
 * @param {import('./sides.js').Side} side
 * @param {import('./options.js').CompareOptions} opts
 */
function sideMeta (side, opts) {
  return { ...side.describe(), v8Flags: harnessFlags(envOnSide(side, childEnv(opts) ?? process.env), side.execArgv ?? []) }
}

/**
 * What --resume keeps of the interrupted run, checked against the options;
 * nothing is rewritten yet (finishResume does, once the sides are checked).
 * @param {import('./options.js').CompareOptions} opts
 */
function resumeState (opts) {
  if (!opts.resume) return { seed: undefined, done: new Set(), rows: [], dropped: 0, identity: undefined, rewrite () {} }
  const previous = readForResume(opts.output)
  const identity = readIdentity(opts.output, opts.ndjson)
  // a file cut before its first row still has its seed beside it
  const seed = previous.seed ?? (identity && Number.isInteger(Number(identity.seed)) ? Number(identity.seed) : undefined)
  if (opts.shard && seed === undefined && opts.seed === undefined) {
    throw new UsageError(`--resume ${opts.output}: it holds no rows yet, so no seed; give --seed S (the one every shard uses)`)
  }
  if (opts.seed !== undefined && seed !== undefined && opts.seed !== seed) {
    throw new UsageError(`--seed ${opts.seed}: ${opts.output} was written with seed ${seed}; leave --seed out to resume`)
  }
  checkResumeMeasure(previous.rows, opts.measure, opts.output)
  return { ...previous, seed, identity }
}

/**
 * The last step of --resume before any run: the file's recorded sides, seed
 * and plan must be this run's (a file that recorded none, only with
 * --resume-unverified), then the cut runs go from the CSV and the NDJSON.
 * @param {import('./options.js').CompareOptions} opts
 * @param {ReturnType<typeof resumeState>} previous
 * @param {import('./sides-file.js').Identity} identity this run's
 * @param {(m: string) => void} notice
 */
function finishResume (opts, previous, identity, notice) {
  if (previous.identity) checkIdentity(opts.output, identity, previous.identity)
  else if (previous.rows.length + previous.dropped > 0 && !opts.resumeUnverified) {
    throw new UsageError(`--resume ${opts.output}: nothing records which sides its rows were measured with (no ${sidesPath(opts.output)}: a file written by hand or by an older benchrig), so rows of two binaries could mix; give the run's --ndjson FILE too, or pass --resume-unverified if these are the sides it was started with`, 'BENCHRIG_ERR_RESUME_UNVERIFIED')
  }
  previous.rewrite()
  if (opts.ndjson) trimNdjsonForResume(opts.ndjson, previous.done)
  notice(`compare: resuming ${opts.output}: ${previous.rows.length} rows kept${previous.dropped ? `, ${previous.dropped} rows of unfinished runs and pairs dropped` : ''}${previous.identity || previous.rows.length + previous.dropped === 0 ? '' : ' (sides not verified: --resume-unverified)'}\n`)
}

/**
 * Runs a comparison.
 * @param {import('./options.js').CompareOptions} opts parsed by lib/cli/compare.js (sides: the two sides)
 * @param {{stdout: {write: (s: string) => unknown}, stderr: NodeJS.WritableStream, env?: NodeJS.ProcessEnv,
 *   stop?: {stopped: boolean}, handleSigint?: boolean, onFileEnd?: (name: string, rows: object[]) => void}} io
 *   onFileEnd: told once per file when the plan has no more runs of it, with every row so far
 *   (the fixed rule: its last scheduled run; seq: the rule closed it; otherwise at the end)
 * @returns {Promise<{rows: object[], failures: object[], stopped: boolean, seed: number,
 *   meta: Record<string, any>, plan: import('./plan.js').Plan, stops: object[]}>}
 */
async function runComparison (opts, io) {
  const { stderr } = io
  /** @type {import('./sides.js').Sides} */
  const sides = opts.sides
  // --cmd: the user's command is the plan's one "file" (lib/runners/run-command.js runs it)
  const found = opts.command ? [{ file: opts.command.name, name: opts.command.name, category: '' }] : findBenchmarks({ root: opts.root, categories: opts.categories, filter: opts.filter, exclude: opts.exclude })
  if (found.length === 0) throw new UsageError('no benchmark file matches the categories, --filter and --exclude given')
  // --set SCOPE:key=value and a question's per-category and per-file settings: each file's own arguments
  const scoped = opts.scopedSets ?? []
  const known = scoped.length > 0 && ((opts.filter ?? []).length > 0 || (opts.exclude ?? []).length > 0) ? findBenchmarks({ root: opts.root, categories: opts.categories }) : found
  const fileArgs = fileArgsOf(found, opts.args, scoped, opts.question ? `--set (or "set" of --question ${opts.question.file})` : '--set', known)
  // a runner's command (--cmd) has no bench.http() settings to check
  if (!opts.command && fileArgs) for (const f of found) checkBenchmarkers(fileArgs.get(f.name), [f.file])
  else if (!opts.command) checkBenchmarkers(opts.args, found.map((f) => f.file))

  const previous = resumeState(opts)
  const seed = previous.seed ?? opts.seed ?? randomSeed()
  const rule = ruleFor(opts)
  // A resumed file keeps its stopping rule: rows of two rules cannot be analysed as one.
  const otherRule = previous.rows.find((r) => r.rule && r.rule !== rule.label)
  // Rows of version 1 of --runs seq ("seq alpha=...") still replay in analyze; no run resumes them.
  if (otherRule && /^seq (alpha=|v2 )/.test(String(otherRule.rule))) throw new UsageError(`${opts.output} holds rows of version ${/^seq v2 /.test(String(otherRule.rule)) ? 2 : 1} of --runs seq ("${otherRule.rule}"): benchrig analyze still replays that rule on them, but a run cannot be resumed under it; write a new --output`)
  if (otherRule && rule.name === 'seq') throw new UsageError(`--runs seq: ${opts.output} holds rows of the rule "${otherRule.rule}"; resume with the flags it was started with`)
  if (otherRule && String(otherRule.rule).startsWith('seq ')) throw new UsageError(`${opts.output} holds rows of the rule "${otherRule.rule}": resume it with --runs seq and the same --alpha, --threshold and --max-runs`)
  const executorName = opts.executor ?? 'serial'

  /** @type {Record<string, any>} */
  const meta = {
    seed,
    runs: opts.auto ? 'auto' : opts.seq ? 'seq' : opts.runs,
    rule: rule.label,
    executor: executorName,
    measure: opts.measure,
    args: opts.args,
    ...(fileArgs ? { fileArgs: Object.fromEntries(fileArgs) } : {}),
    ...(opts.question ? { question: opts.question } : {}),
    cpuset: opts.cpuset,
    ...(opts.duet ? { duet: { cpusets: opts.duet.sets } } : {}),
    root: opts.root,
    old: sideMeta(sides.old, opts),
    new: sideMeta(sides.new, opts),
    ...machineMeta()
  }
  const plan = buildPlan({ sides, root: opts.root, found, seed, opts: { ...opts, fileArgs } })
  // the design travels with every row, as the measure does
  Object.assign(plan.tags, { executor: executorName, rule: rule.label })
  const identity = identityOf({ seed, plan, categories: opts.categories, args: opts.args, old: meta.old, new: meta.new })
  if (opts.resume) finishResume(opts, previous, identity, (m) => stderr.write(m))
  if (plan.shard) {
    stderr.write(`compare: shard ${plan.shard.index}/${plan.shard.count} (${plan.shard.source}): ${plan.shard.pairs} of ${plan.shard.units.length} pairs, plan ${plan.id}\n`)
    if (opts.output) writePlanSidecar(opts.output, { plan: plan.id, seed, shardCount: plan.shard.count, units: plan.shard.units })
  }
  meta.plan = plan.id
  // a resumed file's rows under another plan: the categories, --runs, --set or the question differ
  const otherPlan = previous.rows.find((r) => r.plan && r.plan !== plan.id)
  if (otherPlan) stderr.write(`compare: warning: --resume ${opts.output}: its rows were measured under plan ${otherPlan.plan}, these flags${opts.question ? ` and --question ${opts.question.file}` : ''} make plan ${plan.id} (the categories, --runs, --set, the question or the binaries differ); resume with those of the first run\n`)
  meta.host = plan.tags.host
  if (plan.shard) meta.shard = { index: plan.shard.index, count: plan.shard.count }

  // Ctrl-C from here on stops after the current run (before the first: at once,
  // nothing run); the probe and the sinks below take a moment to start
  const stop = io.stop ?? { stopped: false }
  /** @type {ReturnType<typeof openSinks>|undefined} */
  let sinks
  const onSigint = () => {
    sinks?.quiet()
    if (stop.stopped) {
      // A second Ctrl-C: give the signal its default meaning back.
      process.removeListener('SIGINT', onSigint)
      stderr.write('compare: press Ctrl-C once more to abort at once\n')
      return
    }
    stop.stopped = true
    stderr.write('compare: interrupted; stopping after the current run (every finished row is on disk)\n')
  }
  if (io.handleSigint !== false) process.on('SIGINT', onSigint)

  // Where runs go (pin.js) and the CPU probe before each pair; its first
  // reading goes into the metadata (NDJSON, the history's source record).
  const place = placement(opts)
  const probe = place.probe.length > 0 && opts.probe !== false ? createCpuProbe() : undefined
  meta.placement = place.mode
  if (probe) {
    const speeds = await probe.measure(place.probe)
    meta.cpuProbe = { speeds, spread: spreadOf(speeds) }
  }
  try {
    sinks = openSinks({ opts, meta, stdout: io.stdout, stderr, env: io.env, append: (f) => fs.existsSync(f) && fs.statSync(f).size > 0 })
    await sinks.ready()
    // beside the CSV before its first row: what a later --resume must match
    if (opts.output) writeSidesFile(opts.output, identity)
  } catch (err) {
    // a sink that cannot open (an --output in no folder) ends the run: the probe's child with it
    if (sinks) await sinks.close().catch(() => {})
    if (probe) probe.close()
    if (io.handleSigint !== false) process.removeListener('SIGINT', onSigint)
    throw err
  }
  const failures = []
  // every row so far, and the files whose end was told (io.onFileEnd)
  const seen = [...previous.rows]
  const ended = new Set()
  const fileEnded = (name) => {
    if (ended.has(name) || !io.onFileEnd) return
    ended.add(name)
    sinks.notice('')
    io.onFileEnd(name, seen)
  }
  // the fixed rule: a file ends with its last scheduled run
  const lastRun = new Map()
  if (rule.name === 'fixed') for (const r of plan.schedule) if (!previous.done.has(runKey(r.name, r.binary, r.pair))) lastRun.set(r.name, runKey(r.name, r.binary, r.pair))
  /** @type {import('./run-compare.js').CompareContext} */
  const runCtx = {
    env: childEnv(opts),
    onWarning: createKeyWarner({ write: (m) => sinks.notice(m) }, 'compare'),
    sides,
    root: opts.root,
    args: opts.args,
    fileArgs,
    cpuset: opts.cpuset,
    measure: opts.measure,
    seed,
    stop,
    done: previous.done,
    runCounter: { value: previous.rows.reduce((m, r) => Math.max(m, Number(r.run) || 0), 0) },
    tags: plan.tags,
    duet: opts.duet,
    placement: place,
    probe,
    onProbe: createSpeedWatch({ warn: (w) => sinks.notice(`compare: warning: ${speedWarning(w, place.mode)}\n`) }),
    onRow: (row, extra) => {
      seen.push(row)
      sinks.row(row, extra)
    },
    onFailure: (f) => {
      failures.push(f)
      sinks.failure(f)
      sinks.notice(`compare: FAILED ${displayPath(opts.root, f.filename)}${f.configuration ? ' ' + f.configuration : ''} with the ${f.binary} binary (${meta[f.binary].path}), pair ${f.pair}: ${f.message}\n`)
    },
    onProgress: (e) => {
      sinks.progress(e)
      if (e.phase === 'end' && e.run && lastRun.get(e.run.name) === runKey(e.run.name, e.run.binary, e.run.pair)) fileEnded(e.run.name)
    }
  }
  // lazy: the runners' command executor loads only with --cmd
  const command = opts.command && require('../runners/run-command.js').commandExecutor({ command: opts.command.line, runner: opts.command.runner, cwd: opts.root, warn: (m) => sinks.notice(`compare: note: ${m}\n`) })
  if (command) runCtx.runFile = command.runFile
  const execute = EXECUTORS[executorName]
  let result
  try {
    if (opts.warmup > 0) await warmUp(plan.files, opts.warmup, runCtx)
    result = await rule.run({
      plan,
      previous: previous.rows,
      runSchedule: (schedule) => execute(schedule, runCtx),
      runBatch: (files, pairs, firstPair) => execute(buildSchedule({ files, runs: pairs, seed, firstPair }), runCtx),
      log: (m) => sinks.notice(`compare: ${m}\n`),
      progress: (e) => sinks.progress(e),
      fileEnded
    })
    if (!result.stopped) for (const f of plan.files) fileEnded(f.name)
    sinks.end({ rows: result.rows, stops: result.stops ?? [], stopped: result.stopped })
  } finally {
    if (io.handleSigint !== false) process.removeListener('SIGINT', onSigint)
    if (probe) probe.close()
    if (command) command.close()
    await sinks.close()
  }
  if (failures.length > 0) stderr.write(`compare: ${failures.length} run(s) failed after a retry; their rows are missing (--resume ${opts.output ?? 'FILE'} runs them again)\n`)
  return { rows: result.rows, failures, stopped: result.stopped, seed, meta, plan, stops: result.stops ?? [] }
}

/**
 * The run-time warning of the CPU probe, with what the design does about it.
 * @param {{slow: string, fast: string, ratio: number}} w
 * @param {string} mode
 */
function speedWarning (w, mode) {
  const pct = ((1 - 1 / w.ratio) * 100).toFixed(0)
  const what = mode === 'duet'
    ? 'the crossover of the CPU sets removes it from the verdict, at the cost of a wider interval'
    : mode === 'one-cpu'
      ? 'each pair runs on one CPU, so it does not enter a pair\'s ratio, but pairs on the slow CPU are noisier'
      : mode === 'float'
        ? 'runs that float between CPUs then differ by it (bimodal ratios): leave --float out to run each pair on one CPU'
        : 'it enters the results when --cpuset spans several CPUs'
  return `CPU ${w.slow} runs ${pct}% slower than CPU ${w.fast} (median of the last probes; other work on it, or the hypervisor): ${what}; "benchrig doctor" shows the machine`
}

module.exports = { runComparison, speedWarning }
