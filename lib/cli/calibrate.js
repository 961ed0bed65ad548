'use strict'
// `node calibrate-n.js FILE` and `benchrig calibrate FILE|category ...`: for
// each benchmark file, runs it --runs times at n = --start-n, and multiplies
// n by --increase until the rates are stable (coefficient of variation below
// --cv-threshold overall, below twice it for every configuration), a run
// would exceed --max-time, or --max-increases is spent. Prints each step and
// the proposed n per file. The flags are those of Node core's calibrate-n.js.
// --measure cpu searches the same way on CPU-time rates; --measure
// instructions searches on the change of the rate between successive n
// instead (lib/calibrate/search.js says why), with fewer runs per n.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { findBenchmarks } = require('../harness/discover.js')
const { runBenchmarkFile } = require('../harness/run-file.js')
const { formatConfiguration } = require('../record/text.js')
const { resolveBinary } = require('../compare/binaries.js')
const { splitSetArgs } = require('../harness/pass-through.js')
const { summarizeStep, decide, decideConverged, largestChange } = require('../calibrate/search.js')
const { checkMeasure } = require('../harness/measure.js')

const USAGE = `Usage: calibrate-n.js [options] FILE.js
       benchrig calibrate [options] FILE.js|category ...

Finds, per benchmark file, the number of iterations n that gives stable
rates: runs the file --runs times at each n, starting at --start-n and
multiplying by --increase, until the coefficient of variation (CV) is below
--cv-threshold overall and below twice it for every configuration.

Under --measure instructions the counts repeat to ~0.001% at any n, so the
target is different: n is raised until every configuration's rate changes by
less than --converge from one n to the next (the work done once, such as
compiling, is then about that share of the measured section), and the
proposal is the smaller of the two n.

Options (Node core's calibrate-n.js flags):
  --runs N            runs of the file per n value (default 30; instructions: 2,
                      and 1 is allowed)
  --cv-threshold X    target CV, e.g. 0.05 for 5% (default 0.05; not with
                      --measure instructions)
  --max-increases N   at most N increases of n (default 6)
  --start-n N         the first n (default 10)
  --increase N        factor between successive n (default 10)
benchrig's:
  --measure M         wall | cpu | instructions: what the rates count (default
                      wall; see run.js --help)
  --converge X        instructions: the largest change of a rate from one n to
                      the next, e.g. 0.01 for 1% (default 0.01)
  --max-time SEC      do not try an n whose slowest configuration would run
                      longer than SEC seconds (default: no limit; instructions:
                      the wall time of the slowest run of the file, valgrind's
                      start-up included)
  --set key=value     narrow the other configuration keys (repeatable)
  --binary BIN        the node binary to run the files with (default: this node)
  --root DIR          the benchmark directory for categories
  --json              print the steps and proposals as JSON
  -h, --help          this text`

/** @type {import('../harness/cli-args.js').CommandOptions} */
const OPTIONS = {
  runs: { type: 'string' },
  'cv-threshold': { type: 'string' },
  'max-increases': { type: 'string' },
  'start-n': { type: 'string' },
  increase: { type: 'string' },
  'max-time': { type: 'string' },
  measure: { type: 'string' },
  converge: { type: 'string' },
  set: { type: 'string', multiple: true },
  binary: { type: 'string' },
  root: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
}

/**
 * @param {string} raw
 * @param {string} flag
 * @param {{integer?: boolean, min?: number, above?: number}} bounds
 */
function number (raw, flag, { integer = false, min, above }) {
  const n = Number(raw)
  const ok = raw !== '' && Number.isFinite(n) && (!integer || Number.isInteger(n)) && (min === undefined || n >= min) && (above === undefined || n > above)
  if (!ok) throw new UsageError(`${flag} ${raw}: give ${integer ? 'a whole number' : 'a number'} ${min !== undefined ? `>= ${min}` : `> ${above}`}`)
  return n
}

/**
 * @param {string[]} argv
 * @param {{defaultRoot?: string}} [ctx]
 */
function parseCalibrateArgs (argv, ctx = {}) {
  const { values: v, positionals } = parseCommandLine(argv, OPTIONS)
  if (v.help) return { help: true }
  if (positionals.length === 0) throw new UsageError('give a benchmark file (or, for benchrig calibrate, categories); see --help')
  const root = path.resolve(v.root ?? ctx.defaultRoot ?? process.cwd())
  const files = []
  for (const p of positionals) {
    if (p.endsWith('.js')) {
      const file = path.resolve(p)
      if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`${p}: no such benchmark file`)
      files.push({ file, name: path.relative(path.dirname(path.dirname(file)), file).split(path.sep).join('/') })
    } else {
      files.push(...findBenchmarks({ root, categories: [p] }).map((b) => ({ file: b.file, name: b.name })))
    }
  }
  const { args } = splitSetArgs(v.set ?? [], undefined)
  if (args.some((a) => a.startsWith('n='))) throw new UsageError('--set n=...: calibrate chooses n itself; narrow the other keys')
  const measure = checkMeasure(v.measure)
  const counted = measure === 'instructions'
  if (counted && v['cv-threshold'] !== undefined) throw new UsageError('--cv-threshold with --measure instructions: the counts repeat to ~0.001% at any n; give --converge X (the largest change of a rate from one n to the next) instead')
  if (!counted && v.converge !== undefined) throw new UsageError(`--converge applies to --measure instructions only; with --measure ${measure} give --cv-threshold X`)
  return {
    files,
    args,
    measure,
    runs: v.runs === undefined ? (counted ? 2 : 30) : number(v.runs, '--runs', { integer: true, min: counted ? 1 : 2 }),
    cvThreshold: v['cv-threshold'] === undefined ? 0.05 : number(v['cv-threshold'], '--cv-threshold', { above: 0 }),
    converge: v.converge === undefined ? 0.01 : number(v.converge, '--converge', { above: 0 }),
    maxIncreases: v['max-increases'] === undefined ? 6 : number(v['max-increases'], '--max-increases', { integer: true, min: 0 }),
    startN: v['start-n'] === undefined ? 10 : number(v['start-n'], '--start-n', { integer: true, min: 1 }),
    increase: v.increase === undefined ? 10 : number(v.increase, '--increase', { above: 1 }),
    maxSeconds: v['max-time'] === undefined ? undefined : number(v['max-time'], '--max-time', { above: 0 }),
    execPath: v.binary === undefined ? process.execPath : resolveBinary(v.binary, '--binary'),
    json: Boolean(v.json)
  }
}

/**
 * Calibrates one file.
 * @returns {Promise<{name: string, n: number|undefined, reason: string, steps: object[], error?: string}>}
 */
async function calibrateFile (bench, opts, log, runFile = runBenchmarkFile, now = monotonicSeconds) {
  const steps = []
  const counted = opts.measure === 'instructions'
  let n = opts.startN
  for (let increases = 0; ; increases++) {
    const reports = []
    /** @type {(Error & {code?: string})|undefined} the first error a run reported */
    let error
    let runSeconds = 0
    for (let i = 0; i < opts.runs; i++) {
      const t0 = now()
      const res = await runFile({
        file: bench.file,
        execPath: opts.execPath,
        args: [...opts.args, `n=${n}`],
        env: { ...process.env, BENCHRIG_STRICT: '1' },
        measure: opts.measure,
        output: opts.output,
        onReport: (r) => {
          const { n: _, ...rest } = r.conf
          reports.push({ configuration: formatConfiguration(rest), rate: r.rate, time: r.time })
        },
        onError: (e) => { error ??= e }
      })
      if (error && error.code === 'BENCHRIG_ERR_UNKNOWN_KEY') {
        return { name: bench.name, n: undefined, reason: 'no-n', steps, error: `${bench.name} has no configuration key "n" to calibrate` }
      }
      runSeconds = Math.max(runSeconds, now() - t0)
      if (res.failures > 0 && reports.length === 0) break
    }
    // Instructions: `time` is a count, so the time limit uses the wall time of a run.
    const step = summarizeStep(n, reports, counted ? runSeconds : undefined)
    const previous = steps[steps.length - 1]
    steps.push(step)
    log(step, previous)
    const limits = { increase: opts.increase, increasesLeft: opts.maxIncreases - increases, maxSeconds: opts.maxSeconds }
    const d = counted
      ? decideConverged(step, previous, { threshold: opts.converge, ...limits })
      : decide(step, { cvThreshold: opts.cvThreshold, ...limits })
    if (d.action === 'stop') {
      const proposal = d.reason === 'no-results' ? undefined : d.n ?? n
      return { name: bench.name, n: proposal, reason: d.reason, steps, ...(error ? { error: error.message } : {}) }
    }
    n = d.nextN
  }
}

const pct = (x) => Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : 'n/a'
const monotonicSeconds = () => Number(process.hrtime.bigint()) / 1e9

/**
 * @param {string[]} argv
 * @param {{defaultRoot?: string, stdout?: NodeJS.WritableStream, stderr?: NodeJS.WritableStream, runFile?: typeof runBenchmarkFile, now?: () => number, prog?: string}} [ctx]
 *   now: monotonic seconds (the wall time of a run under instructions)
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const stderr = ctx.stderr ?? process.stderr
  const opts = parseCalibrateArgs(argv, ctx)
  if (opts.help) {
    stdout.write(withExamples(USAGE, 'calibrate', ctx.prog ?? 'benchrig calibrate'))
    return 0
  }
  opts.output = stderr
  const results = []
  for (const bench of opts.files) {
    if (!opts.json) {
      stdout.write(opts.measure === 'instructions'
        ? `\n${bench.name}: --measure instructions, ${opts.runs} run(s) per n, target: every configuration's rate within ${pct(opts.converge)} of its rate at the next n\n`
        : `\n${bench.name}: ${opts.measure === 'cpu' ? '--measure cpu, ' : ''}${opts.runs} runs per n, target CV ${pct(opts.cvThreshold)} (every configuration < ${pct(2 * opts.cvThreshold)})\n`)
    }
    const r = await calibrateFile(bench, opts, (step, previous) => {
      if (opts.json) return
      if (opts.measure === 'instructions') {
        const moved = largestChange(step, previous)
        const spread = Math.max(0, ...step.configs.map((c) => c.cv).filter(Number.isFinite))
        stdout.write(`  n=${step.n}: ${moved ? `largest change from n=${previous.n} ${pct(moved.change)} (${moved.configuration || 'the only configuration'})` : 'first n'}, spread of runs ${opts.runs > 1 ? pct(spread) : 'n/a'}, slowest run ${Math.max(0, ...step.configs.map((c) => c.seconds)).toFixed(1)} s\n`)
        return
      }
      const worst = step.configs.reduce((w, c) => (Number.isFinite(c.cv) && (!w || c.cv > w.cv) ? c : w), undefined)
      stdout.write(`  n=${step.n}: overall CV ${pct(step.overall)}, worst ${worst ? `${pct(worst.cv)} (${worst.configuration || 'the only configuration'})` : 'n/a'}, slowest run ${Math.max(0, ...step.configs.map((c) => c.seconds)).toFixed(3)} s\n`)
    }, ctx.runFile, ctx.now)
    results.push(r)
    if (!opts.json) {
      const why = { converged: `the next n changes no rate by ${pct(opts.converge)} or more`, stable: 'stable', 'max-increases': 'not stable after --max-increases; the last n tried', 'time-limit': 'not stable; a larger n would exceed --max-time', 'no-results': 'no results', 'no-n': 'no n key' }[r.reason]
      stdout.write(r.n === undefined ? `  no proposal: ${r.error ?? why}\n` : `  proposed n=${r.n} (${why})\n`)
    }
  }
  if (opts.json) stdout.write(JSON.stringify({ runs: opts.runs, measure: opts.measure, ...(opts.measure === 'instructions' ? { converge: opts.converge } : { cvThreshold: opts.cvThreshold }), results }, null, 2) + '\n')
  return results.some((r) => r.n === undefined) ? 1 : 0
}

module.exports = { main, parseCalibrateArgs, calibrateFile, USAGE }
