'use strict'
// The serial executor: runs a compare schedule one run after the other, each
// planned run forking one benchmark file on its side (runBenchmarkFile with
// the side's binary, directory and environment), streams every report to the
// sinks as a row, retries a failed run once, records what still fails, and
// stops cleanly between runs when asked to.
const { runBenchmarkFile } = require('../harness/run-file.js')
const { formatConfiguration } = require('../record/text.js')
const { confToArgs } = require('../harness/args.js')
const { runKey } = require('./schedule.js')
const { fileOnSide, envOnSide } = require('./sides.js')

/**
 * @typedef {object} CompareContext
 * @property {import('./sides.js').Sides} [sides] the two sides (how to start a process on each)
 * @property {{old: string, new: string}} [binaries] absolute paths, when no sides are given
 * @property {string} [root] the plan's benchmark directory (a side with its own root maps files from it)
 * @property {string[]} args key=value narrowings (from --set)
 * @property {Map<string, string[]>} [fileArgs] each file's own key=value narrowings, by file name,
 *   when a --set is scoped (lib/compare/scoped-set.js); they replace args
 * @property {string} [cpuset]
 * @property {import('../record/measures.js').MeasureName} [measure] what the rates count (default wall)
 * @property {number} seed
 * @property {NodeJS.ProcessEnv} [env]
 * @property {(row: object, extra?: object) => void} onRow
 * @property {(failure: object) => void} [onFailure]
 * @property {(event: object) => void} [onProgress]
 * @property {{stopped: boolean}} [stop] set stopped to end after the current run
 * @property {Set<string>} [done] runKey()s already on disk (resume)
 * @property {typeof runBenchmarkFile} [runFile] for tests of the retry logic
 * @property {{value: number}} [runCounter] shared run numbering
 * @property {object} [tags] columns every row carries (plan, shard_index, shard_count, host)
 * @property {() => number} [now] clock for the "start" column (epoch ms)
 * @property {(w: object) => void} [onWarning] an undeclared --set key passed through
 * @property {{sets: [string, string]}} [duet] the duet executor's two CPU sets
 * @property {ReturnType<import('./pin.js').placement>} [placement] where runs go (pin.js); none: as told by cpuset
 * @property {{measure: (cpus: number[]) => Promise<Record<string, number>>}} [probe] the CPU speed probe
 * @property {(speeds: Record<string, number>) => void} [onProbe] told of every probe (the run-time warning)
 */

/** Error codes of failures that a second run cannot change. */
const CONFIGURATION_ERRORS = new Set(['BENCHRIG_ERR_INVALID_ARG', 'BENCHRIG_ERR_TOOL_MISSING'])

/**
 * Runs one scheduled run, with one retry of what failed.
 * @param {import('./schedule.js').ScheduledRun} run
 * @param {CompareContext} ctx
 * @returns {Promise<{rows: object[], failures: object[]}>}
 */
async function runOne (run, ctx) {
  const runFile = ctx.runFile ?? runBenchmarkFile
  const side = sideOf(ctx, run.binary)
  const start = (ctx.now ?? Date.now)() // epoch ms: Node's compare.R reads column 10 as a number
  const seq = ctx.runCounter ? ++ctx.runCounter.value : undefined
  const rows = []
  const recorded = new Set()
  let configs
  const attempt = async (extraArgs) => {
    const errors = []
    const res = await runFile({
      ...processOn(side, run.file, ctx),
      pair: run.pair,
      args: [...argsOf(ctx, run.name), ...extraArgs],
      onConfig: (c) => {
        if (configs === undefined && extraArgs.length === 0) configs = c.queueLength
        if (ctx.onProgress) ctx.onProgress({ phase: 'config', queueLength: c.queueLength })
      },
      onReport: (r) => {
        // a runner's task (compare --cmd) names its configuration as it is
        const configuration = typeof r.conf === 'string' ? r.conf : formatConfiguration(r.conf)
        if (recorded.has(configuration)) return // already measured in this run (whole-file retry)
        recorded.add(configuration)
        const row = {
          binary: run.binary,
          filename: r.name || run.name,
          configuration,
          rate: r.rate,
          time: r.time,
          pair: run.pair,
          order: run.order,
          run: seq,
          seed: ctx.seed,
          start,
          configs,
          measure: ctx.measure ?? 'wall',
          ...ctx.tags,
          ...sectionOf(r.extra),
          ...costOf(r.extra)
        }
        rows.push(row)
        ctx.onRow(row, r.extra)
        if (ctx.onProgress) ctx.onProgress({ phase: 'report' })
      },
      onWarning: ctx.onWarning,
      onError: (e) => errors.push(e)
    })
    return { res, errors }
  }
  const first = await attempt([])
  const failures = []
  if (first.res.failures === 0) return { rows, failures }
  // Interrupted (Ctrl-C reaches the benchmark processes too): not a failure
  // of the benchmark; --resume runs it again.
  if (ctx.stop && ctx.stop.stopped) return { rows, failures }
  // A file that rejects its arguments or a value (an undeclared --set key
  // under --strict, a UsageError in the benchmark, invalid configs) or a
  // missing tool fails the same way every time: recorded at once, not retried.
  const usage = first.errors.filter(isDeterministic)
  for (const e of usage) failures.push(describe(run, e, false))
  if (usage.length === first.errors.length) return { rows, failures }
  // Retry once: each failed configuration alone when the error names it,
  // the whole file when the process died without saying which.
  const named = first.errors.filter((e) => !isDeterministic(e) && e.conf && typeof e.conf === 'object')
  const anonymous = first.errors.length > named.length + usage.length
  const retries = named.map((e) => ({ args: confToArgs(e.conf), error: e }))
  if (anonymous) retries.push({ args: [], error: first.errors.find((e) => !e.conf && !isDeterministic(e)) })
  for (const r of retries) {
    const second = await attempt(r.args)
    if (second.res.failures > 0) {
      for (const e of second.errors) failures.push(describe(run, e, true))
    }
  }
  return { rows, failures }
}

/**
 * A file's key=value narrowings: its own under scoped settings, else the run's.
 * @param {CompareContext} ctx
 * @param {string} name the file's name ("category/file.js")
 */
function argsOf (ctx, name) {
  return (ctx.fileArgs && ctx.fileArgs.get(name)) ?? ctx.args
}

/**
 * A duet child's measured section (duet-barrier.js), as row columns.
 * @param {Record<string, unknown>|undefined} extra
 */
function sectionOf (extra) {
  if (!extra || typeof extra.section_start !== 'number') return {}
  return { section_start: extra.section_start, section_end: extra.section_end, section_cpu: extra.section_cpu, ...(extra.barrier ? { barrier: extra.barrier } : {}) }
}

/**
 * What a run cost beside its rate, as row columns: the section's (or, for
 * bench.http(), the server's) bytes allocated, max RSS and GC time, the
 * server's CPU per request and whether the load generator was the limit
 * (lib/harness/heap-count.js, bench-http.js).
 * @param {Record<string, any>|undefined} extra
 */
function costOf (extra) {
  if (!extra) return {}
  const cost = {
    alloc_bytes: extra.alloc_bytes ?? extra.server_alloc_bytes,
    max_rss_kb: extra.max_rss_kb ?? extra.server_max_rss_kb,
    gc_ms: extra.gc_ms ?? extra.server_gc_ms,
    server_cpu_us: extra.server_cpu_us_per_req,
    generator_bound: extra.generator_bound === undefined ? undefined : String(extra.generator_bound)
  }
  for (const k of Object.keys(cost)) if (cost[k] === undefined) delete cost[k]
  return cost
}

/**
 * The side a run is on: ctx.sides, or a bare binary of ctx.binaries.
 * @param {CompareContext} ctx
 * @param {'old'|'new'} label
 * @returns {import('./sides.js').Side}
 */
function sideOf (ctx, label) {
  if (ctx.sides) return ctx.sides[label]
  return { label, execPath: ctx.binaries[label], describe: () => ({ path: ctx.binaries[label], version: null, sha256: '' }) }
}

/**
 * How runBenchmarkFile starts a file on a side (all but the args).
 * @param {import('./sides.js').Side} side
 * @param {string} file
 * @param {CompareContext} ctx
 */
function processOn (side, file, ctx) {
  return {
    file: fileOnSide(side, file, ctx.root),
    side: side.label,
    execPath: side.execPath,
    execArgv: side.execArgv,
    cwd: side.cwd,
    cpuset: ctx.cpuset,
    measure: ctx.measure,
    env: envOnSide(side, ctx.env)
  }
}

/**
 * A failure a second run cannot change: an invalid value or a missing tool in
 * any configuration, or an error of the file's root about its arguments or
 * configs (no configuration ran).
 */
function isDeterministic (e) {
  if (typeof e.code !== 'string') return false
  return CONFIGURATION_ERRORS.has(e.code) || (e.conf === null && ROOT_ERRORS.has(e.code))
}
const ROOT_ERRORS = new Set(['BENCHRIG_ERR_UNKNOWN_KEY', 'BENCHRIG_ERR_BENCHMARK'])

function describe (run, e, retried) {
  return {
    filename: e.name || run.name,
    configuration: e.conf ? formatConfiguration(e.conf) : null,
    binary: run.binary,
    pair: run.pair,
    message: e.message,
    retried
  }
}

/**
 * Runs a schedule in order, skipping runs already done.
 * @param {import('./schedule.js').ScheduledRun[]} schedule
 * @param {CompareContext} ctx
 * @returns {Promise<{rows: object[], failures: object[], stopped: boolean, ran: number}>}
 */
async function runSchedule (schedule, ctx) {
  const todo = schedule.filter((r) => !(ctx.done && ctx.done.has(runKey(r.name, r.binary, r.pair))))
  const rows = []
  const failures = []
  let ran = 0
  const t0 = Date.now()
  let pairKey
  let where = {}
  for (const run of todo) {
    if (ctx.stop && ctx.stop.stopped) break
    if (ctx.onProgress) ctx.onProgress({ phase: 'start', run, index: ran, total: todo.length, elapsedMs: Date.now() - t0 })
    const key = `${run.name}\u0000${run.pair}`
    if (key !== pairKey) {
      pairKey = key
      where = await placePair(run, ctx)
    }
    const out = await runOne(run, { ...ctx, cpuset: where.cpuset ?? ctx.cpuset, tags: { ...ctx.tags, ...where.columns } })
    ran++
    rows.push(...out.rows)
    for (const f of out.failures) {
      failures.push(f)
      if (ctx.onFailure) ctx.onFailure(f)
    }
    if (ctx.done) ctx.done.add(runKey(run.name, run.binary, run.pair))
    if (ctx.onProgress) ctx.onProgress({ phase: 'end', run, index: ran, total: todo.length, elapsedMs: Date.now() - t0 })
  }
  return { rows, failures, stopped: Boolean(ctx.stop && ctx.stop.stopped), ran }
}

/**
 * Before a pair of the serial executor: its CPU (one CPU per pair, pin.js)
 * and the probe of the CPUs the run uses, as the pair's row columns:
 * cpuset (the pair's CPU, or --cpuset's list), cpu_speed (the probe's speed
 * of that CPU), cpu_spread (fastest over slowest CPU probed).
 * @param {import('./schedule.js').ScheduledRun} run
 * @param {CompareContext} ctx
 * @returns {Promise<{cpuset?: string, columns: Record<string, unknown>}>}
 */
async function placePair (run, ctx) {
  const p = ctx.placement
  if (!p) return { columns: {} }
  // lazy: pinning code loads only when the run places pairs on CPUs
  const { servesHttp, cpuForPair } = require('./pin.js')
  const cpu = p.mode === 'one-cpu' && !servesHttp(run.file) ? cpuForPair(ctx.seed, run.name, run.pair, p.cpus) : undefined
  const cpuset = cpu === undefined ? ctx.cpuset : String(cpu)
  const columns = { ...(cpuset === undefined ? {} : { cpuset }) }
  if (ctx.probe && p.probe.length > 0) {
    // lazy: the speed probe loads only when it is on and there are CPUs to probe
    const { spreadOf, setSpeed } = require('../harness/cpu-probe.js')
    const speeds = await ctx.probe.measure(cpu === undefined || p.probe.includes(cpu) ? p.probe : [cpu, ...p.probe])
    if (ctx.onProbe) ctx.onProbe(speeds)
    const speed = cpuset === undefined ? undefined : setSpeed(speeds, cpuset)
    Object.assign(columns, { ...(speed === undefined ? {} : { cpu_speed: speed }), cpu_spread: spreadOf(speeds) })
  }
  return { cpuset: cpu === undefined ? undefined : String(cpu), columns }
}

/**
 * Unmeasured runs of every file with both binaries before the schedule
 * (warms the page cache, the CPU frequency and the binaries' code caches).
 * @param {{file: string, name: string}[]} files
 * @param {number} count
 * @param {CompareContext} ctx
 */
async function warmUp (files, count, ctx) {
  const runFile = ctx.runFile ?? runBenchmarkFile
  for (let i = 0; i < count; i++) {
    for (const f of files) {
      for (const binary of /** @type {const} */ (['old', 'new'])) {
        if (ctx.stop && ctx.stop.stopped) return
        await runFile({ ...processOn(sideOf(ctx, binary), f.file, ctx), args: argsOf(ctx, f.name) })
      }
    }
  }
}

module.exports = { runOne, runSchedule, warmUp, sideOf, processOn, placePair, argsOf }
