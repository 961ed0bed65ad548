'use strict'
// `benchrig analyze [--format text|markdown|json] [--plot FILE.svg] FILE.csv`:
// the analysis of a compare CSV. Exit 1 when --max-regression finds a regression.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { analyze } = require('../stats/analyze.js')
const { readCompareCsv } = require('../compare/load-csv.js')
const { formatAnalysisText } = require('../report/analysis-text.js')
const { formatAnalysisMarkdown } = require('../report/markdown.js')
const { forestModel, measureOfRows } = require('../report/forest.js')
const { renderForestSvg } = require('../report/forest-svg.js')

const FORMATS = ['text', 'markdown', 'json']

const USAGE = `Usage: benchrig analyze [options] FILE.csv   (FILE "-" reads stdin)

Per configuration of a compare CSV: the change of the rate (positive = new
is faster) with a 95% CI, p, q (Benjamini-Hochberg), stars, a verdict
(faster / slower / no change / inconclusive), compare.R's Welch columns, a
geomean and warnings.

Options:
  --format FORMAT         text | markdown | json (default text)
  --threshold PCT         a CI inside ±PCT% means "no change" (default 1)
  --alpha A               significance level for q and verdicts (default 0.05)
  --max-regression PCT    exit 1 when a configuration is shown to be slower
                          than -PCT%: one-sided test against -PCT% (the upper
                          end of the CI below -PCT%), Holm-adjusted; a file
                          with no measurements is an error (exit 2)
  --wide                  one line per configuration however long, the verdicts'
                          full sentences, every warning (default: fit 100 columns)
  --unpaired              ignore the pair column (Mann-Whitney instead of
                          the signed-rank test on pairs)
  --plot FILE.svg         also write the PR figure: the change per
                          configuration with its CI on a log axis, coloured
                          by the verdict (a standalone SVG)
  --meta FILE.ndjson      the NDJSON compare --ndjson wrote: its binaries'
                          versions and seed title the figure
  -h, --help              this text`

const OPTIONS = {
  format: { type: 'string' },
  threshold: { type: 'string' },
  alpha: { type: 'string' },
  'max-regression': { type: 'string' },
  unpaired: { type: 'boolean' },
  wide: { type: 'boolean' },
  plot: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
}

/**
 * Parses a positive number option; undefined stays undefined.
 * @param {string|undefined} raw
 * @param {string} flag
 * @param {{max?: number}} [range]
 */
function positiveNumber (raw, flag, range = {}) {
  if (raw === undefined) return undefined
  const v = Number(raw)
  if (!(v > 0) || (range.max !== undefined && !(v < range.max))) {
    throw new UsageError(`${flag} ${raw}: give a number > 0${range.max !== undefined ? ` and < ${range.max}` : ''}`)
  }
  return v
}

/**
 * Checks --plot before any work: an .svg file in an existing folder.
 * @param {string|undefined} file
 */
function plotPath (file) {
  if (file === undefined) return undefined
  if (!/\.svg$/i.test(file)) throw new UsageError(`--plot ${file}: give a file name ending in .svg (for PNG or PDF figures use Rscript bar.R --plot)`)
  const dir = path.dirname(path.resolve(file))
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--plot ${file}: the folder ${dir} does not exist; create it or give another path`)
  return file
}

/**
 * The metadata record (first line) of a compare NDJSON file.
 * @param {string} file
 */
function readCompareMeta (file) {
  let first
  try {
    first = fs.readFileSync(file, 'utf8').split('\n', 1)[0]
  } catch (err) {
    throw new UsageError(`--meta ${file}: cannot read it (${err.code || err.message})`)
  }
  let rec
  try {
    rec = JSON.parse(first)
  } catch {
    rec = undefined
  }
  if (!rec || rec.type !== 'meta') throw new UsageError(`--meta ${file}: its first line is not a compare metadata record; give the file compare --ndjson wrote`)
  return { seed: rec.seed, old: rec.old, new: rec.new }
}

/**
 * Writes the PR figure of an analysis as SVG.
 * @param {ReturnType<typeof analyze>} a
 * @param {string} file
 * @param {{measure?: string}} [opts]
 */
function writePlot (a, file, opts = {}) {
  try {
    fs.writeFileSync(file, renderForestSvg(forestModel(a, opts)))
  } catch (err) {
    if (!err.code) throw err
    throw new UsageError(`--plot ${file}: cannot write it (${err.code}); give a file in a writable folder`)
  }
}

/** Analysis options shared by analyze and compare --analyze. */
function analysisOptions (v) {
  if (v.format !== undefined && !FORMATS.includes(v.format)) throw new UsageError(`--format ${v.format}: use one of ${FORMATS.join(', ')}`)
  return {
    plot: plotPath(v.plot),
    format: v.format ?? 'text',
    threshold: positiveNumber(v.threshold, '--threshold') ?? 1,
    alpha: positiveNumber(v.alpha, '--alpha', { max: 1 }) ?? 0.05,
    maxRegression: positiveNumber(v['max-regression'], '--max-regression'),
    paired: v.unpaired ? false : undefined,
    wide: Boolean(v.wide)
  }
}

/**
 * A gate must not pass on no data: with --max-regression, an analysis
 * without a single configuration (a CSV with only a header, every run
 * failed) is an error.
 * @param {{results: object[]}} a
 * @param {{maxRegression?: number}} o
 * @param {string} where the file, for the message
 */
function noDataGuard (a, o, where) {
  if (o.maxRegression !== undefined && a.results.length === 0) {
    throw new UsageError(`${where}: no measurements to analyse (only a header, or no old/new rows with a rate); --max-regression ${o.maxRegression} cannot pass a gate on no data: check that the compare run produced rows`, 'BENCHRIG_ERR_NO_DATA')
  }
}

/**
 * Renders an analysis in a format.
 * @param {object} a
 * @param {string} format
 */
function render (a, format, textOptions = {}) {
  if (format === 'json') return JSON.stringify(a, null, 2) + '\n'
  if (format === 'markdown') return formatAnalysisMarkdown(a)
  return formatAnalysisText(a, textOptions)
}

/**
 * @param {string[]} argv
 * @param {{stdout?: NodeJS.WritableStream}} [ctx]
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const parsed = parseCommandLine(argv, { ...OPTIONS, meta: { type: 'string' } })
  if (parsed.values.help) {
    stdout.write(USAGE + '\n')
    return 0
  }
  if (parsed.positionals.length !== 1) throw new UsageError('give exactly one compare CSV file (or - for stdin); see --help')
  const o = analysisOptions(parsed.values)
  const runMeta = parsed.values.meta === undefined ? {} : readCompareMeta(parsed.values.meta)
  const rows = readCompareCsv(parsed.positionals[0])
  const a = analyze(rows, { ...o, meta: { file: parsed.positionals[0], ...runMeta } })
  noDataGuard(a, o, parsed.positionals[0])
  stdout.write(render(a, o.format, { wide: o.wide }))
  if (o.plot) writePlot(a, o.plot, { measure: measureOfRows(rows) })
  return a.regressions.length > 0 ? 1 : 0
}

module.exports = { main, analysisOptions, render, positiveNumber, writePlot, noDataGuard, USAGE, OPTIONS }
