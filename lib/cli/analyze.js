'use strict'
// `benchrig analyze [--format text|markdown|json] FILE.csv`: the analysis
// of a compare CSV. Exit 1 when --max-regression finds a regression.
const { UsageError } = require('../errors.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { analyze } = require('../stats/analyze.js')
const { readCompareCsv } = require('../compare/load-csv.js')
const { checkShards, describeCheck, machineBlocks, formatMachineBlocks } = require('../compare/shard-check.js')
const { readPlanSidecar } = require('../compare/plan-file.js')
const { formatAnalysisText } = require('../report/analysis-text.js')
const { formatAnalysisMarkdown } = require('../report/markdown.js')

const FORMATS = ['text', 'markdown', 'json']

const USAGE = `Usage: benchrig analyze [options] FILE.csv|FILE.ndjson ...   (FILE "-" reads stdin)

Per configuration of a compare CSV: the change of the rate (positive = new
is faster) with a 95% CI, p, q (Benjamini-Hochberg), stars, a verdict
(faster / slower / no change / inconclusive), compare.R's Welch columns, a
geomean and warnings.

Several files (the shards of compare --shard, or rounds of --plan) are
checked first: one plan, no missing and no duplicate pairs (named on
stderr; exit 3 unless --allow-partial), then analysed together, each
machine a block (pairs never span two machines; see docs/compare.md).

Options:
  --format FORMAT         text | markdown | json (default text)
  --threshold PCT         a CI inside ±PCT% means "no change" (default 1)
  --alpha A               significance level for q and verdicts (default 0.05)
  --max-regression PCT    exit 1 when a configuration is significantly slower
                          than -PCT% (Holm-adjusted)
  --unpaired              ignore the pair column (Mann-Whitney instead of
                          the signed-rank test on pairs)
  --allow-partial         analyse shards with missing or duplicate pairs
                          anyway (each duplicate counted once)
  -h, --help              this text`

const OPTIONS = {
  format: { type: 'string' },
  threshold: { type: 'string' },
  alpha: { type: 'string' },
  'max-regression': { type: 'string' },
  unpaired: { type: 'boolean' },
  'allow-partial': { type: 'boolean' },
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
 * @param {{stdout?: NodeJS.WritableStream, stderr?: NodeJS.WritableStream}} [ctx]
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const parsed = parseCommandLine(argv, OPTIONS)
  if (parsed.values.help) {
    stdout.write(USAGE + '\n')
    return 0
  }
  const stderr = ctx.stderr ?? process.stderr
  const files = parsed.positionals
  if (files.length === 0) throw new UsageError('give a compare CSV or NDJSON file (or - for stdin), or the files of all shards; see --help')
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('stdin ("-") can be read only once')
  const o = analysisOptions(parsed.values)
  const inputs = files.map((f) => ({ file: f, rows: readCompareFile(f), sidecar: f === '-' ? undefined : readPlanSidecar(f) }))
  let rows = inputs.flatMap((i) => i.rows)
  const sharded = inputs.length > 1 || rows.some((r) => r.shard_count !== undefined && r.shard_count !== '')
  let blocks
  if (sharded) {
    const c = checkShards(inputs)
    if (c.mixedPlans || c.mixedCounts) {
      const byFile = inputs.map((i) => `${i.file}: plan ${[...new Set(i.rows.map((r) => r.plan || '?'))].join('/')}, ${[...new Set(i.rows.map((r) => r.shard_count || '?'))].join('/')} shards`)
      throw new UsageError(`these files come from different plans (seed, files, runs, --set or binaries differ) or shard counts, so their pairs do not belong together:\n  ${byFile.join('\n  ')}\nanalyse each plan's files on their own`)
    }
    const problems = describeCheck(c)
    if (problems.length > 0) {
      const partial = Boolean(parsed.values['allow-partial'])
      stderr.write(`analyze: ${partial ? 'warning: ' : ''}${problems.join('\n  ')}\n`)
      if (!partial) {
        stderr.write('analyze: not analysed: run the missing shards (compare --resume FILE finishes a cut run), or pass --allow-partial to analyse what is there\n')
        return 3
      }
    }
    if (c.hosts.length > 1) {
      stderr.write(`analyze: warning: the shards ran on different hardware or software (${c.hosts.length} host fingerprints); each pair ran on one machine, so speed differences cancel, but a change that depends on the machine widens the CI (docs/compare.md):\n${c.hosts.map((h) => `  ${h.host}: ${h.files.join(', ')}`).join('\n')}\n`)
    }
    rows = c.rows
    blocks = machineBlocks(rows)
  }
  /** @type {ReturnType<typeof analyze> & {machines?: object[]}} */
  const a = analyze(/** @type {any[]} */ (rows), { ...o, meta: { file: files.length === 1 ? files[0] : files } })
  if (blocks && o.format === 'json') a.machines = blocks
  stdout.write(render(a, o.format))
  if (blocks && o.format !== 'json') stdout.write(formatMachineBlocks(blocks))
  return a.regressions.length > 0 ? 1 : 0
}

/**
 * Rows of a compare CSV, or of the measurement records of an NDJSON file
 * (compare --ndjson), chosen by the file's extension.
 * @param {string} file
 * @returns {Record<string, any>[]}
 */
function readCompareFile (file) {
  if (file !== '-' && /\.ndjson$/i.test(file)) return readCompareNdjson(file)
  return readCompareCsv(file)
}

/** @param {string} file */
function readCompareNdjson (file) {
  const fs = require('node:fs')
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`${file}: cannot read it (${err.code || err.message})`)
  }
  const rows = []
  let meta = {}
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    let rec
    try {
      rec = JSON.parse(line)
    } catch {
      throw new UsageError(`${file}:${i + 1}: not JSON; give an NDJSON file written by compare --ndjson`)
    }
    if (rec.type === 'meta') meta = rec
    // the shard's columns live in the meta record; rows carry them as the CSV does
    else if (rec.type === 'measurement') rows.push({ plan: meta.plan, host: meta.host, shard_index: meta.shard?.index, shard_count: meta.shard?.count, ...rec })
  })
  return rows
}

module.exports = { main, analysisOptions, render, positiveNumber, USAGE, OPTIONS }
