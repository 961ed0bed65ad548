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
const { measureName } = require('../harness/measure.js')
const { randomSeed } = require('../stats/prng.js')
const { buildSchedule } = require('./schedule.js')
const { buildPlan } = require('./plan.js')
const { writePlanSidecar } = require('./plan-file.js')
const { loadForResume, checkResumeBinaries, trimNdjsonForResume } = require('./resume.js')
const { warmUp } = require('./run-compare.js')
const { EXECUTORS } = require('./executors.js')
const { ruleFor } = require('./rules.js')
const { openSinks } = require('./sinks.js')
const { envOnSide } = require('./sides.js')
const { harnessFlags, machineMeta } = require('../report/meta.js')

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
 * @param {Record<string, any>} opts
 */
function sideMeta (side, opts) {
  return { ...side.describe(), v8Flags: harnessFlags(envOnSide(side, childEnv(opts) ?? process.env), side.execArgv ?? []) }
}

/** What --resume keeps of the interrupted run, checked against the options. */
function resumeState (opts, sides, notice) {
  if (!opts.resume) return { seed: undefined, done: new Set(), rows: [], dropped: 0 }
  if (opts.ndjson) checkResumeBinaries(opts.ndjson, { old: sides.old.execPath, new: sides.new.execPath }, (bin, which) => sides[which].describe())
  const previous = loadForResume(opts.output)
  if (opts.shard && previous.seed === undefined && opts.seed === undefined) {
    throw new UsageError(`--resume ${opts.output}: it holds no rows yet, so no seed; give --seed S (the one every shard uses)`)
  }
  if (opts.seed !== undefined && previous.seed !== undefined && opts.seed !== previous.seed) {
    throw new UsageError(`--seed ${opts.seed}: ${opts.output} was written with seed ${previous.seed}; leave --seed out to resume`)
  }
  checkResumeMeasure(previous.rows, opts.measure, opts.output)
  if (opts.ndjson) trimNdjsonForResume(opts.ndjson, previous.done)
  notice(`compare: resuming ${opts.output}: ${previous.rows.length} rows kept${previous.dropped ? `, ${previous.dropped} rows of unfinished runs and pairs dropped` : ''}\n`)
  return previous
}

/**
 * Runs a comparison.
 * @param {Record<string, any>} opts parsed by lib/cli/compare.js (sides: the two sides)
 * @param {{stdout: {write: (s: string) => unknown}, stderr: NodeJS.WritableStream, env?: NodeJS.ProcessEnv,
 *   stop?: {stopped: boolean}, handleSigint?: boolean}} io
 * @returns {Promise<{rows: object[], failures: object[], stopped: boolean, seed: number,
 *   meta: Record<string, any>, plan: import('./plan.js').Plan, stops: object[]}>}
 */
async function runComparison (opts, io) {
  const { stderr } = io
  /** @type {import('./sides.js').Sides} */
  const sides = opts.sides
  // --cmd: the user's command is the plan's one "file" (lib/runners/run-command.js runs it)
  const found = opts.command ? [{ file: opts.command.name, name: opts.command.name }] : findBenchmarks({ root: opts.root, categories: opts.categories, filter: opts.filter, exclude: opts.exclude })
  if (found.length === 0) throw new UsageError('no benchmark file matches the categories, --filter and --exclude given')
  if (!opts.command) checkBenchmarkers(opts.args, found.map((f) => f.file))

  const previous = resumeState(opts, sides, (m) => stderr.write(m))
  const seed = previous.seed ?? opts.seed ?? randomSeed()
  const rule = ruleFor(opts)
  // A resumed file keeps its stopping rule: rows of two rules cannot be analysed as one.
  const otherRule = previous.rows.find((r) => r.rule && r.rule !== rule.label)
  // Rows of version 1 of --runs seq ("seq alpha=...") still replay in analyze; no run resumes them.
  if (otherRule && /^seq alpha=/.test(String(otherRule.rule))) throw new UsageError(`${opts.output} holds rows of version 1 of --runs seq ("${otherRule.rule}"): benchrig analyze still replays that rule on them, but a run cannot be resumed under it; write a new --output`)
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
    cpuset: opts.cpuset,
    ...(opts.duet ? { duet: { cpusets: opts.duet.sets } } : {}),
    root: opts.root,
    old: sideMeta(sides.old, opts),
    new: sideMeta(sides.new, opts),
    ...machineMeta()
  }
  const plan = buildPlan({ sides, root: opts.root, found, seed, opts })
  // the design travels with every row, as the measure does
  Object.assign(plan.tags, { executor: executorName, rule: rule.label })
  if (plan.shard) {
    stderr.write(`compare: shard ${plan.shard.index}/${plan.shard.count} (${plan.shard.source}): ${plan.shard.pairs} of ${plan.shard.units.length} pairs, plan ${plan.id}\n`)
    if (opts.output) writePlanSidecar(opts.output, { plan: plan.id, seed, shardCount: plan.shard.count, units: plan.shard.units })
  }
  meta.plan = plan.id
  meta.host = plan.tags.host
  if (plan.shard) meta.shard = { index: plan.shard.index, count: plan.shard.count }

  const sinks = openSinks({ opts, meta, stdout: io.stdout, stderr, env: io.env, append: (f) => fs.existsSync(f) && fs.statSync(f).size > 0 })
  try {
    await sinks.ready()
  } catch (err) {
    await sinks.close().catch(() => {})
    throw err
  }
  const stop = io.stop ?? { stopped: false }
  const onSigint = () => {
    sinks.quiet()
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
  const failures = []
  /** @type {import('./run-compare.js').CompareContext} */
  const runCtx = {
    env: childEnv(opts),
    onWarning: createKeyWarner({ write: (m) => sinks.notice(m) }, 'compare'),
    sides,
    root: opts.root,
    args: opts.args,
    cpuset: opts.cpuset,
    measure: opts.measure,
    seed,
    stop,
    done: previous.done,
    runCounter: { value: previous.rows.reduce((m, r) => Math.max(m, Number(r.run) || 0), 0) },
    tags: plan.tags,
    duet: opts.duet,
    onRow: (row, extra) => sinks.row(row, extra),
    onFailure: (f) => {
      failures.push(f)
      sinks.failure(f)
      sinks.notice(`compare: FAILED ${displayPath(opts.root, f.filename)}${f.configuration ? ' ' + f.configuration : ''} with the ${f.binary} binary (${meta[f.binary].path}), pair ${f.pair}: ${f.message}\n`)
    },
    onProgress: (e) => sinks.progress(e)
  }
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
      progress: (e) => sinks.progress(e)
    })
    sinks.end({ rows: result.rows, stops: result.stops ?? [], stopped: result.stopped })
  } finally {
    if (io.handleSigint !== false) process.removeListener('SIGINT', onSigint)
    if (command) command.close()
    await sinks.close()
  }
  if (failures.length > 0) stderr.write(`compare: ${failures.length} run(s) failed after a retry; their rows are missing (--resume ${opts.output ?? 'FILE'} runs them again)\n`)
  return { rows: result.rows, failures, stopped: result.stopped, seed, meta, plan, stops: result.stops ?? [] }
}

module.exports = { runComparison }
