'use strict'
// `run`: runs benchmark files of a benchmark directory one after another and
// streams every result to the chosen format as soon as it arrives. A failed
// configuration is printed (file, configuration, the child's message) and
// the run goes on; the caller turns `failures` into the exit code.
const { findBenchmarks } = require('./discover.js')
const { runBenchmarkFile } = require('./run-file.js')
const { cpusetPrefix } = require('./cpuset.js')
const { createProgress } = require('./progress.js')
const { clearOnSigint } = require('./status-line.js')
const { createTextWriter, formatErrorLine } = require('../record/text.js')
const { createRunCsvWriter, createWideCsvWriter } = require('../record/csv.js')
const { createNdjsonWriter } = require('../record/ndjson.js')
const { collectMeta } = require('../record/meta.js')
const { UsageError } = require('../errors.js')
const { checkBenchmarkers } = require('./preflight.js')
const { splitSetArgs, createKeyWarner } = require('./pass-through.js')
const { checkMeasure } = require('./measure.js')

const FORMATS = ['simple', 'csv', 'csv-wide', 'ndjson']

/**
 * @param {string} format
 * @param {{write: (s: string) => unknown}} out
 * @param {() => object} meta
 * @param {{mode?: string, measure?: string, human?: boolean}} [opts] mode: --test/--test-all (no details);
 *   human: the simple format rounded, with detail lines (--human)
 */
function createWriter (format, out, meta, { mode, measure = 'wall', human = false } = {}) {
  if (format === 'simple') return createTextWriter(out, { details: mode === undefined, measure, human })
  if (format === 'csv') return createRunCsvWriter(out, { measure })
  if (format === 'csv-wide') return createWideCsvWriter(out, { measure })
  if (format === 'ndjson') return createNdjsonWriter(out, meta(), { measure })
  throw new UsageError(`--format ${format}: use one of ${FORMATS.join(', ')}`)
}

/**
 * --track, after each run of a file: in the simple format Node core's
 * run.js line on stdout, `[123ms] buffers/a.js` (the time bold yellow on a
 * colour terminal, as its styleText prints it); in the data formats
 * (Node's run.js prints none there) ours on stderr, so stdout stays data.
 * @param {string} format
 * @param {number} ms whole milliseconds
 * @param {string} name
 * @param {{out: {write: (s: string) => unknown}, stderr: {write: (s: string) => unknown}, color?: boolean}} to
 */
function trackLine (format, ms, name, { out, stderr, color = useColor(process.stdout) }) {
  if (format !== 'simple') { stderr.write(`[${ms}ms] ${name}\n`); return }
  out.write(`[${color ? `\x1b[1m\x1b[33m${ms}ms\x1b[39m\x1b[22m` : `${ms}ms`}] ${name}\n`)
}

/** @param {NodeJS.WritableStream & {isTTY?: boolean, hasColors?: () => boolean}} stream */
function useColor (stream) {
  return Boolean(stream.isTTY && typeof stream.hasColors === 'function' && stream.hasColors())
}

/**
 * @param {object} opts
 * @param {string} opts.root benchmark directory
 * @param {string[]} opts.categories category names or "all"
 * @param {string[]} [opts.filter]
 * @param {string[]} [opts.exclude]
 * @param {string[]} [opts.set] key=value
 * @param {'simple'|'csv'|'csv-wide'|'ndjson'} [opts.format]
 * @param {number} [opts.runs] how many times each file runs
 * @param {'test'|'test-all'} [opts.mode]
 * @param {string} [opts.cpuset]
 * @param {number} [opts.timeout] seconds one configuration may take before it is killed
 * @param {boolean} [opts.strict] a --set key a file does not declare fails that file
 * @param {NodeJS.ProcessEnv} [opts.env] the environment of the benchmark processes (default process.env)
 *   (default: passed through with one warning per run, as Node core passes it)
 * @param {boolean} [opts.human] the simple format rounded to two decimals, util.inspect
 *   quoting and a detail line under load-generator results (default: Node core's lines)
 * @param {boolean} [opts.track] after each run of a file, print how long it took (trackLine)
 * @param {() => number} [opts.now] clock in ms for --track (tests inject one)
 * @param {string} [opts.prog] program name for warnings
 * @param {import('../record/measures.js').MeasureName} [opts.measure] what the rates count (default wall;
 *   --test and --test-all ignore it)
 * @param {string} [opts.execPath] node binary for the benchmarks
 * @param {{result: (rep: any) => void, fileEnd: () => Promise<unknown>}} [opts.history] --history: records each file's results
 * @param {NodeJS.WritableStream} [opts.stdout] results
 * @param {NodeJS.WriteStream} [opts.stderr] failures and the progress line
 * @returns {Promise<{files: number, results: number, failures: number}>}
 */
async function runSuite (opts) {
  const { root, categories, filter = [], exclude = [], set = [], format = 'simple', runs = 1, mode, track = false, now = Date.now } = opts
  // Test modes check that files run, not what they cost: the measure is ignored.
  const measure = mode ? 'wall' : checkMeasure(opts.measure)
  const execPath = opts.execPath ?? process.execPath
  const stdout = opts.stdout ?? process.stdout
  const stderr = opts.stderr ?? process.stderr
  if (!FORMATS.includes(format)) throw new UsageError(`--format ${format}: use one of ${FORMATS.join(', ')}`)
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs ${runs}: give a whole number >= 1`)
  const env = { ...(opts.env ?? process.env) }
  if (opts.timeout !== undefined) {
    if (!(opts.timeout >= 0)) throw new UsageError(`--timeout ${opts.timeout}: give a number of seconds (0: no limit)`)
    env.BENCHRIG_TIMEOUT = String(opts.timeout)
  }
  if (opts.strict) env.BENCHRIG_STRICT = '1'
  const { args, cpuset } = splitSetArgs(set, opts.cpuset)
  if (mode) args.push(`--${mode}`)
  if (cpuset !== undefined) cpusetPrefix(cpuset) // fail before anything runs
  const files = findBenchmarks({ root, categories, filter, exclude })
  if (files.length === 0 && filter.length === 0 && exclude.length === 0) {
    // Only empty category folders were named: nothing to run is not an error.
    stderr.write(`${opts.prog ?? 'run'}: no benchmark files in ${categories.join(', ')}\n`)
    return { files: 0, results: 0, failures: 0 }
  }
  checkBenchmarkers(set, files.map((f) => f.file))
  if (files.length === 0) {
    throw new UsageError(`no benchmark file matches: categories ${categories.join(', ')}${filter.length ? `, --filter ${filter.join(' ')}` : ''}${exclude.length ? `, --exclude ${exclude.join(' ')}` : ''}`)
  }

  const progress = createProgress({ stream: stderr, units: files.length * runs })
  const out = { write: (s) => { progress.clear(); stdout.write(s); progress.redraw() } }
  const writer = createWriter(format, out, () => collectMeta({ execPath, env }), { mode, measure, human: opts.human })
  const warn = createKeyWarner({ write: (s) => { progress.clear(); stderr.write(s); progress.redraw() } }, opts.prog ?? 'run')
  let results = 0
  let failures = 0
  writer.start()
  let index = 0
  // Ctrl-C: erase the line, then let the signal end the run as it would have
  const removeSigint = progress.line.mode === 'tty' ? clearOnSigint(progress.line, { passOn: true }) : () => {}
  for (const bench of files) {
    index++
    // Node's run.js prints a file's header (a blank line and its name) once,
    // before its first run, whatever the file then does: also for a file
    // whose combinationFilter leaves no configuration, and for --runs N.
    writer.file(bench.name)
    for (let run = 1; run <= runs; run++) {
      if (writer.setRun) writer.setRun(run)
      progress.startFile(index, bench.name)
      const t0 = now()
      const r = await runBenchmarkFile({
        file: bench.file,
        execPath,
        args,
        env,
        cpuset,
        measure,
        output: stderr,
        onConfig: (c) => progress.config(c.queueLength),
        onWarning: warn,
        onReport: (rep) => { results++; progress.result(); writer.result(rep); if (opts.history) opts.history.result(rep) },
        onError: (e) => {
          progress.clear()
          stderr.write(formatErrorLine(e) + '\n')
          if (writer.error) writer.error(e)
          progress.result()
        }
      })
      failures += r.failures
      progress.endFile()
      // --history: each file's results are one add (one transaction)
      if (opts.history) await opts.history.fileEnd()
      if (track) trackLine(format, Math.round(now() - t0), bench.name, { out, stderr: { write: (s) => { progress.clear(); stderr.write(s) } }, color: useColor(stdout) })
    }
  }
  removeSigint()
  progress.stop()
  writer.end({ files: files.length, runs, results, failures })
  return { files: files.length, results, failures }
}

module.exports = { runSuite, trackLine, FORMATS }
