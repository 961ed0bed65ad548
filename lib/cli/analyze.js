'use strict'
// `benchrig analyze [--format text|markdown|json] FILE.csv`: the analysis
// of a compare CSV. Exit 1 when --max-regression finds a regression.
const { UsageError } = require('../errors.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { analyze } = require('../stats/analyze.js')
const { readCompareCsv } = require('../compare/load-csv.js')
const { formatAnalysisText } = require('../report/analysis-text.js')
const { formatAnalysisMarkdown } = require('../report/markdown.js')

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
  --unpaired              ignore the pair column (Mann-Whitney instead of
                          the signed-rank test on pairs)
  -h, --help              this text`

const OPTIONS = {
  format: { type: 'string' },
  threshold: { type: 'string' },
  alpha: { type: 'string' },
  'max-regression': { type: 'string' },
  unpaired: { type: 'boolean' },
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

/** Analysis options shared by analyze and compare --analyze. */
function analysisOptions (v) {
  if (v.format !== undefined && !FORMATS.includes(v.format)) throw new UsageError(`--format ${v.format}: use one of ${FORMATS.join(', ')}`)
  return {
    format: v.format ?? 'text',
    threshold: positiveNumber(v.threshold, '--threshold') ?? 1,
    alpha: positiveNumber(v.alpha, '--alpha', { max: 1 }) ?? 0.05,
    maxRegression: positiveNumber(v['max-regression'], '--max-regression'),
    paired: v.unpaired ? false : undefined
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
function render (a, format) {
  if (format === 'json') return JSON.stringify(a, null, 2) + '\n'
  if (format === 'markdown') return formatAnalysisMarkdown(a)
  return formatAnalysisText(a)
}

/**
 * @param {string[]} argv
 * @param {{stdout?: NodeJS.WritableStream}} [ctx]
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const parsed = parseCommandLine(argv, OPTIONS)
  if (parsed.values.help) {
    stdout.write(USAGE + '\n')
    return 0
  }
  if (parsed.positionals.length !== 1) throw new UsageError('give exactly one compare CSV file (or - for stdin); see --help')
  const o = analysisOptions(parsed.values)
  const rows = readCompareCsv(parsed.positionals[0])
  const a = analyze(rows, { ...o, meta: { file: parsed.positionals[0] } })
  noDataGuard(a, o, parsed.positionals[0])
  stdout.write(render(a, o.format))
  return a.regressions.length > 0 ? 1 : 0
}

module.exports = { main, analysisOptions, render, positiveNumber, noDataGuard, USAGE, OPTIONS }
