'use strict'
// `benchrig scatter` and `node scatter.js`: runs one benchmark file --runs
// times and writes CSV with one column per variable ("filename", the
// variables, "rate", "time"), or with --analyze prints mean and median with
// CIs per x value and the change between successive x values.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine, parseTimeout } = require('../harness/cli-args.js')
const { checkBenchmarkers } = require('../harness/preflight.js')
const { createScatterProgress } = require('../harness/scatter-progress.js')
const { formatConfiguration } = require('../record/text.js')
const { runBenchmarkFile } = require('../harness/run-file.js')
const { cpusetPrefix } = require('../harness/cpuset.js')
const { csvRow, nodeTime } = require('../record/csv.js')
const { analyzeScatter } = require('../stats/scatter-analysis.js')
const { formatScatterText } = require('../report/scatter-text.js')
const { resolveBinary } = require('../compare/binaries.js')
const { openForWriting } = require('../compare/output.js')
const { checkMeasure } = require('../harness/measure.js')
const { measureNote } = require('../record/measures.js')

// Node core's scatter.js separates fields with ", ", and its guide filters
// the file with sed on that (`sed -E '1p;/([^,]+, ){3}128,/!d'`): we write
// the same layout, which R and our reader read like any CSV.
const NODE_SEPARATOR = ', '

const USAGE = `Usage: scatter.js [options] FILE.js

Runs one benchmark file --runs times (every configuration each time) and
writes CSV as Node core's scatter.js does ("filename", one column per
variable, "rate", "time", ", " between fields). Plot it
with "Rscript scatter.R --xaxis V --category V --plot out.png < FILE.csv".

Options:
  --runs N           how many times to run the file (default 30)
  --set key=value    narrow a configuration key (repeatable)
  --binary BIN       the node binary to run it with (default: this node)
  --cpuset LIST      pin the benchmark processes with taskset -c LIST
  --timeout SECONDS  kill a configuration that runs longer and record it as failed
                     (default 300; 0: no limit)
  --output FILE      write the CSV to FILE (flushed per row) instead of stdout
  --measure M        wall | cpu | instructions | server-cpu | heap: what the
                     rate counts (default wall); other than wall, the CSV gets
                     a last "measure" column
  --analyze          print mean and median with 95% CIs per --xaxis value instead of CSV
  --xaxis V          the variable on the x axis (needed by --analyze)
  --category V       one series per value of V
  --format FORMAT    text | json (with --analyze; default text)
  --no-chart         with --analyze: no bar chart of the means under the tables
  --no-progress      no progress line on stderr
  -h, --help         this text`

/** @type {import('../harness/cli-args.js').CommandOptions} */
const OPTIONS = {
  runs: { type: 'string' },
  set: { type: 'string', multiple: true },
  binary: { type: 'string' },
  cpuset: { type: 'string' },
  timeout: { type: 'string' },
  output: { type: 'string' },
  measure: { type: 'string' },
  analyze: { type: 'boolean' },
  xaxis: { type: 'string' },
  category: { type: 'string' },
  format: { type: 'string' },
  'no-progress': { type: 'boolean' },
  'no-chart': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
}

function parseScatterArgs (argv) {
  const parsed = parseCommandLine(argv, OPTIONS)
  const v = parsed.values
  if (v.help) return { help: true }
  if (parsed.positionals.length !== 1) throw new UsageError('give exactly one benchmark file, e.g. scatter.js buffers/buffer-concat.js; see --help')
  const file = path.resolve(parsed.positionals[0])
  if (!fs.existsSync(file)) throw new UsageError(`${parsed.positionals[0]}: no such benchmark file`)
  if (!fs.statSync(file).isFile()) throw new UsageError(`${parsed.positionals[0]}: not a file; give one benchmark file, e.g. scatter.js buffers/buffer-concat.js`)
  if (v.runs !== undefined && (!/^\d+$/.test(v.runs) || Number(v.runs) < 1)) throw new UsageError(`--runs ${v.runs}: give a whole number >= 1`)
  for (const s of v.set ?? []) {
    if (!/^[^=\s]+=/.test(s)) throw new UsageError(`--set ${s}: expected key=value, e.g. --set n=1000`)
  }
  if (v.analyze && !v.xaxis) throw new UsageError('--analyze needs --xaxis V: the variable whose values go on the x axis')
  if (!v.analyze && (v.xaxis || v.category || v.format || v['no-chart'])) throw new UsageError('--xaxis, --category, --format and --no-chart go with --analyze')
  if (v.format !== undefined && !['text', 'json'].includes(v.format)) throw new UsageError(`--format ${v.format}: use text or json`)
  if (v.cpuset !== undefined) cpusetPrefix(v.cpuset)
  return {
    file,
    runs: v.runs === undefined ? 30 : Number(v.runs),
    args: v.set ?? [],
    binary: v.binary === undefined ? process.execPath : resolveBinary(v.binary, '--binary'),
    cpuset: v.cpuset,
    timeout: parseTimeout(v.timeout),
    output: v.output,
    measure: checkMeasure(v.measure),
    analyze: Boolean(v.analyze),
    xaxis: v.xaxis,
    category: v.category,
    format: v.format ?? 'text',
    progress: !v['no-progress'],
    chart: !v['no-chart']
  }
}

/**
 * @param {string[]} argv
 * @param {{stdout?: NodeJS.WritableStream, stderr?: NodeJS.WriteStream, prog?: string, env?: NodeJS.ProcessEnv}} [ctx]
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const stderr = ctx.stderr ?? process.stderr
  const opts = parseScatterArgs(argv)
  if (opts.help) {
    const prog = ctx.prog ?? 'benchrig scatter'
    stdout.write(withExamples(USAGE.replace('Usage: scatter.js', `Usage: ${prog}`), 'scatter', prog === 'scatter.js' ? 'node scatter.js' : prog))
    return 0
  }
  checkBenchmarkers(opts.args, [opts.file])
  const fd = opts.output ? openForWriting(opts.output, 'w', '--output') : undefined
  const emit = (line) => {
    if (fd !== undefined) fs.writeSync(fd, line)
    else if (!opts.analyze) stdout.write(line)
  }
  // Wall time keeps Node core's columns; other measures name theirs last.
  const tail = opts.measure === 'wall' ? { header: [], value: [] } : { header: ['measure'], value: [opts.measure] }
  const progress = createScatterProgress({ stream: stderr, enabled: opts.progress, runs: opts.runs, env: ctx.env })
  /** @type {string[]|undefined} the benchmark's variables, from its first result */
  let variables
  const rows = []
  let failures = 0
  const stop = { stopped: false }
  const onSigint = () => { stop.stopped = true; progress.stop() }
  process.on('SIGINT', onSigint)
  try {
    for (let i = 1; i <= opts.runs && !stop.stopped; i++) {
      progress.startRun(i)
      const res = await runBenchmarkFile({
        file: opts.file,
        execPath: opts.binary,
        args: opts.args,
        cpuset: opts.cpuset,
        env: opts.timeout === undefined ? undefined : { ...process.env, BENCHRIG_TIMEOUT: String(opts.timeout) },
        onConfig: (c) => progress.config(c.queueLength),
        measure: opts.measure,
        onReport: (r) => {
          progress.result()
          if (!variables) {
            variables = Object.keys(r.conf)
            emit(csvRow(['filename', ...variables, 'rate', 'time', ...tail.header], NODE_SEPARATOR))
          }
          const row = { filename: r.name, ...r.conf, rate: r.rate, time: r.time }
          rows.push(row)
          emit(csvRow([r.name, ...variables.map((k) => r.conf[k]), r.rate, nodeTime(r.time), ...tail.value], NODE_SEPARATOR))
        },
        onError: (e) => {
          progress.clear()
          stderr.write(`scatter: FAILED ${e.name}${e.conf ? ' ' + formatConfiguration(e.conf) : ''} (run ${i}): ${e.message}\n`)
        }
      })
      failures += res.failures
      progress.endRun()
    }
  } finally {
    process.removeListener('SIGINT', onSigint)
    progress.stop()
    if (fd !== undefined) fs.closeSync(fd)
  }
  if (opts.analyze) {
    if (!variables) throw new UsageError(`${opts.file}: no run produced a result, so there is nothing to analyse`)
    for (const [flag, v] of [['--xaxis', opts.xaxis], ['--category', opts.category]]) {
      if (v !== undefined && !variables.includes(v)) throw new UsageError(`${flag} ${v}: not a variable of this benchmark; it has ${variables.join(', ')}`)
    }
    const a = analyzeScatter(rows, { xaxis: opts.xaxis, category: opts.category, variables })
    a.measure = opts.measure
    stdout.write(opts.format === 'json' ? JSON.stringify(a, null, 2) + '\n' : (opts.measure === 'wall' ? '' : measureNote(opts.measure) + '\n\n') + formatScatterText(a, { chart: opts.chart }))
  }
  if (stop.stopped) return 130
  return failures > 0 ? 1 : 0
}

module.exports = { main, parseScatterArgs, USAGE }
