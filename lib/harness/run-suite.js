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
const { createTextWriter, formatErrorLine } = require('../report/text.js')
const { createRunCsvWriter, createWideCsvWriter } = require('../report/csv.js')
const { createNdjsonWriter } = require('../report/ndjson.js')
const { collectMeta } = require('../report/meta.js')
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
 *   (default: passed through with one warning per run, as Node core passes it)
 * @param {boolean} [opts.human] the simple format rounded to two decimals, util.inspect
 *   quoting and a detail line under load-generator results (default: Node core's lines)
 * @param {boolean} [opts.track] after each file, print on stderr how long it took
 * @param {() => number} [opts.now] clock in ms for --track (tests inject one)
 * @param {string} [opts.prog] program name for warnings
 * @param {import('./measure.js').MeasureName} [opts.measure] what the rates count (default wall;
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
  const env = { ...process.env }
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
  const writer = createWriter(format, out, () => collectMeta({ execPath }), { mode, measure, human: opts.human })
  const warn = createKeyWarner({ write: (s) => { progress.clear(); stderr.write(s); progress.redraw() } }, opts.prog ?? 'run')
  let results = 0
  let failures = 0
  writer.start()
  let index = 0
  // Ctrl-C: erase the line, then let the signal end the run as it would have
  const removeSigint = progress.line.mode === 'tty' ? clearOnSigint(progress.line, { passOn: true }) : () => {}
  for (const bench of files) {
    index++
    for (let run = 1; run <= runs; run++) {
      if (writer.setRun) writer.setRun(run)
      progress.startFile(index, bench.name)
      // The file's header (Node's blank line and name, once per run as its
      // run.js prints it) waits for the file's first sign of work: a file
      // whose combinationFilter leaves no configuration prints nothing, as
      // under Node's harness.
      let announced = false
      const announce = () => { if (!announced) { announced = true; writer.file(bench.name) } }
      const t0 = now()
      const r = await runBenchmarkFile({
        file: bench.file,
        execPath,
        args,
        env,
        cpuset,
        measure,
        output: stderr,
        onConfig: (c) => { if (c.queueLength > 0) announce(); progress.config(c.queueLength) },
        onWarning: warn,
        onReport: (rep) => { announce(); results++; progress.result(); writer.result(rep); if (opts.history) opts.history.result(rep) },
        onError: (e) => {
          announce()
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
      if (track) {
        progress.clear()
        stderr.write(`[${((now() - t0) / 1000).toFixed(3)} s] ${bench.name}${runs > 1 ? ` (run ${run})` : ''}\n`)
      }
    }
  }
  removeSigint()
  progress.stop()
  writer.end({ files: files.length, runs, results, failures })
  return { files: files.length, results, failures }
}

module.exports = { runSuite, FORMATS }
