'use strict'
// `benchrig run` and `node run.js`: parse the command line, run the suite,
// return the exit code (1 when any configuration failed).
const fs = require('node:fs')
const path = require('node:path')
const { runSuite, FORMATS } = require('../harness/run-suite.js')
const { UsageError } = require('../errors.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { checkMeasure } = require('../harness/measure.js')

const usage = (prog) => `Usage: ${prog} [options] <category ...|all>

Runs every benchmark file of the given categories (subfolders of the
benchmark directory) and prints one line per configuration.

Options:
  --root DIR          the benchmark directory (default: for run.js its own
                      folder; for "benchrig run" ./benchmark if it exists, else the cwd)
  --filter PATTERN    only files whose name contains PATTERN, or matches /regex/
                      (repeatable: a file matching any is kept)
  --exclude PATTERN   skip files whose name contains PATTERN or matches /regex/ (repeatable)
  --set key=value     narrow a configuration key of every file (repeatable;
                      repeat a key for a list of values)
  --format FORMAT     ${FORMATS.join(' | ')} (default simple)
  --runs N            run each file N times (default 1)
  --test              each file once, with one small configuration
  --test-all          every configuration, with the work sizes made tiny
  --cpuset LIST       pin the benchmarks to CPUs with taskset -c LIST (Linux)
  --timeout SECONDS   kill a configuration that runs longer, count it as failed
  --measure M         wall | cpu | instructions: what the rate counts (default
                      wall: operations per second; cpu: per CPU-second of the
                      measured section; instructions: per 10^9 instructions,
                      each configuration under valgrind); --test ignores it
  -h, --help          this text

Failures are printed on stderr; the run goes on and exits 1 at the end.`

const OPTIONS = {
  root: { type: 'string' },
  filter: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  format: { type: 'string' },
  runs: { type: 'string' },
  test: { type: 'boolean' },
  'test-all': { type: 'boolean' },
  cpuset: { type: 'string' },
  timeout: { type: 'string' },
  measure: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
}

/** The default benchmark directory of `benchrig run`. */
function defaultRoot (cwd = process.cwd()) {
  const dir = path.join(cwd, 'benchmark')
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? dir : cwd
}

/**
 * Parses run's command line into runSuite options (pure but for defaults).
 * @param {string[]} argv
 * @param {{defaultRoot?: string}} [ctx]
 */
function parseRunArgs (argv, ctx = {}) {
  const parsed = parseCommandLine(argv, OPTIONS)
  const v = parsed.values
  if (v.help) return { help: true }
  let runs = 1
  if (v.runs !== undefined) {
    runs = Number(v.runs)
    if (!/^\d+$/.test(v.runs) || runs < 1) throw new UsageError(`--runs ${v.runs}: give a whole number >= 1`)
  }
  if (v.timeout !== undefined && !(Number(v.timeout) > 0)) {
    throw new UsageError(`--timeout ${v.timeout}: give a number of seconds > 0`)
  }
  if (v.format !== undefined && !FORMATS.includes(v.format)) {
    throw new UsageError(`--format ${v.format}: use one of ${FORMATS.join(', ')}`)
  }
  return {
    root: path.resolve(v.root ?? ctx.defaultRoot ?? defaultRoot()),
    categories: parsed.positionals,
    filter: v.filter ?? [],
    exclude: v.exclude ?? [],
    set: v.set ?? [],
    format: v.format ?? 'simple',
    runs,
    mode: v['test-all'] ? 'test-all' : v.test ? 'test' : undefined,
    cpuset: v.cpuset,
    timeout: v.timeout === undefined ? undefined : Number(v.timeout),
    measure: v.test || v['test-all'] ? 'wall' : checkMeasure(v.measure)
  }
}

/**
 * @param {string[]} argv
 * @param {{defaultRoot?: string, prog?: string, stdout?: NodeJS.WritableStream, stderr?: NodeJS.WriteStream}} [ctx]
 * @returns {Promise<number>} exit code
 */
async function main (argv, ctx = {}) {
  const opts = parseRunArgs(argv, ctx)
  if (opts.help) {
    (ctx.stdout ?? process.stdout).write(usage(ctx.prog ?? 'benchrig run') + '\n')
    return 0
  }
  const { failures } = await runSuite({ ...opts, stdout: ctx.stdout, stderr: ctx.stderr })
  return failures > 0 ? 1 : 0
}

module.exports = { main, parseRunArgs, defaultRoot, usage }
