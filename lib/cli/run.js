'use strict'
// `benchrig run` and `node run.js`: parse the command line, run the suite,
// return the exit code (1 when any configuration failed).
const fs = require('node:fs')
const path = require('node:path')
const os = require('node:os')
const { benchrigPath } = require('../sides/node-path.js')
const { runSuite, FORMATS } = require('../harness/run-suite.js')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine, parseTimeout } = require('../harness/cli-args.js')
const { checkMeasure } = require('../harness/measure.js')
const { defaultRoot } = require('./default-root.js')

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
                      repeat a key for a list of values); a file that does not
                      declare the key gets it passed through (one warning per
                      run names the nearest key); --set CPUSET=LIST = --cpuset
  --strict            an undeclared --set key fails the file instead
  --format FORMAT     ${FORMATS.join(' | ')} (default simple: Node core's
                      lines, every digit of the rate, values JSON-quoted)
  --human             the simple format for people: rates to two decimals,
                      strings in single quotes, and a line of latency and
                      errors under each load-generator result
  --runs N            run each file N times (default 1)
  --test              each file once, with one small configuration (Node
                      core's positional "test" keyword does the same)
  --test-all          every configuration, with the work sizes made tiny
  --cpuset LIST       pin the benchmarks to CPUs with taskset -c LIST (Linux)
  --timeout SECONDS   kill a configuration that runs longer and count it as
                      failed (default 300; 0: no limit)
  --track             after each run of a file, print how long it took:
                      "[123ms] buffers/a.js" (simple format: on stdout, as
                      Node core's run.js; other formats: on stderr)
  --measure M         wall | cpu | instructions | server-cpu | heap: what the
                      rate counts (default wall: operations per second; cpu: per
                      CPU-second of the measured section; instructions: per 10^9
                      instructions, each configuration under valgrind;
                      server-cpu: bench.http() requests per CPU-second of the
                      server; heap: per MB allocated); --test ignores it
  --history DB        also record the results in a history store (a SQLite
                      file or postgres://…; see benchrig history), one
                      transaction per benchmark file
  --history-label L   their label (default: the node version that ran them)
  -h, --help          this text

Failures are printed on stderr; the run goes on and exits 1 at the end.`

/** @type {import('../harness/cli-args.js').CommandOptions} */
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
  strict: { type: 'boolean' },
  track: { type: 'boolean' },
  human: { type: 'boolean' },
  measure: { type: 'string' },
  history: { type: 'string' },
  'history-label': { type: 'string' },
  help: { type: 'boolean', short: 'h' }
}

/**
 * --history DB [--history-label L]; undefined without --history.
 * @param {Record<string, any>} v
 */
function historyFlags (v) {
  if (v['history-label'] !== undefined && v.history === undefined) throw new UsageError('--history-label L labels what --history DB records: give --history too')
  if (v.history === undefined) return undefined
  if (v.history === '') throw new UsageError('--history needs a store: a SQLite file or a postgres:// URL')
  if (v['history-label'] === '') throw new UsageError('--history-label needs a label (a node version, commit or ref)')
  return { db: v.history, label: v['history-label'] }
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
  const timeout = parseTimeout(v.timeout)
  if (v.format !== undefined && !FORMATS.includes(v.format)) {
    throw new UsageError(`--format ${v.format}: use one of ${FORMATS.join(', ')}`)
  }
  if (v.human && v.format !== undefined && v.format !== 'simple') {
    throw new UsageError(`--human changes the simple format only; drop it or --format ${v.format}`)
  }
  // Node core's run.js takes `test` as a positional keyword (its test suite
  // runs `run.js test <category>`); "test" is never a category (discover.js).
  const categories = parsed.positionals.filter((p) => p !== 'test')
  const testWord = categories.length < parsed.positionals.length
  return {
    root: path.resolve(v.root ?? ctx.defaultRoot ?? defaultRoot()),
    categories,
    filter: v.filter ?? [],
    exclude: v.exclude ?? [],
    set: v.set ?? [],
    format: v.format ?? 'simple',
    runs,
    mode: v['test-all'] ? 'test-all' : (v.test || testWord) ? 'test' : undefined,
    strict: Boolean(v.strict),
    track: Boolean(v.track),
    human: Boolean(v.human),
    cpuset: v.cpuset,
    timeout,
    measure: v.test || v['test-all'] ? 'wall' : checkMeasure(v.measure),
    history: historyFlags(v)
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
    const prog = ctx.prog ?? 'benchrig run'
    ;(ctx.stdout ?? process.stdout).write(withExamples(usage(prog), 'run', prog === 'run.js' ? 'node run.js' : prog))
    return 0
  }
  // no --help: opts are a run's (parseRunArgs)
  const { history: flags, ...runOpts } = opts
  // the store opens before anything runs: a bad --history is a usage error, not a lost run
  // lazy: the store's engine (SQLite or pg) loads only with --history
  const history = flags && await require('../history/sink.js').runHistorySink(flags.db, {
    execPath: process.execPath, nodeVersion: process.version, label: flags.label, measure: runOpts.measure, root: runOpts.root
  })
  // a benchmark folder's require('benchrig') (or 'benchrig/common') finds this
  // benchrig as compare's sides do, also in a project that has not installed
  // it; a project's own installed benchrig still wins (NODE_PATH comes last)
  const linkDir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-run-'))
  try {
    const env = { ...process.env, NODE_PATH: benchrigPath(linkDir) }
    const { failures } = await runSuite({ ...(/** @type {Omit<Parameters<typeof runSuite>[0], 'prog' | 'stdout' | 'stderr'>} */ (runOpts)), env, history, prog: ctx.prog ?? 'benchrig run', stdout: ctx.stdout, stderr: ctx.stderr })
    return failures > 0 ? 1 : 0
  } finally {
    fs.rmSync(linkDir, { recursive: true, force: true })
    if (history) await history.close()
  }
}

module.exports = { main, parseRunArgs, defaultRoot, usage }
