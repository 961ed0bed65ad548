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
geomean and warnings. The rows' "measure" column (wall, cpu, instructions)
labels the output; rows of different measures are refused. Instruction
counts get a paired t-test on log ratios instead of the rank test.

Options:
  --format FORMAT         text | markdown | json (default text)
  --threshold PCT         a CI inside ±PCT% means "no change" (default 1)
  --alpha A               significance level for q and verdicts (default 0.05)
  --max-regression PCT    exit 1 when a configuration is significantly slower
                          than -PCT% (Holm-adjusted)
  --min-effect PCT        never call a change smaller than PCT% faster or
                          slower (default: the measure's resolution, 0.01% for
                          instructions, 0 for wall and cpu)
  --unpaired              ignore the pair column (Mann-Whitney instead of
                          the signed-rank test on pairs)
  -h, --help              this text`

const OPTIONS = {
  format: { type: 'string' },
  threshold: { type: 'string' },
  alpha: { type: 'string' },
  'max-regression': { type: 'string' },
  'min-effect': { type: 'string' },
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

/** @param {string|undefined} raw @param {string} flag */
function nonNegativeNumber (raw, flag) {
  if (raw === undefined) return undefined
  const v = Number(raw)
  if (raw.trim() === '' || !(v >= 0) || !Number.isFinite(v)) throw new UsageError(`${flag} ${raw}: give a number >= 0 (a change in %)`)
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
    minEffect: nonNegativeNumber(v['min-effect'], '--min-effect'),
    paired: v.unpaired ? false : undefined
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
  stdout.write(render(a, o.format))
  return a.regressions.length > 0 ? 1 : 0
}

module.exports = { main, analysisOptions, render, positiveNumber, USAGE, OPTIONS }
