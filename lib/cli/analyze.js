'use strict'
// The analyze command: flags, files, shards and printing around lib/stats/analyze.js,
// the pure statistics (rows in, data out) that compare --analyze calls too.
// `benchrig analyze [--format text|markdown|json] [--plot FILE.svg] FILE.csv`:
// the analysis of a compare CSV. Exit 1 when --max-regression finds a regression.
const fs = require('node:fs')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { analyze } = require('../stats/analyze.js')
const { readCompareCsv } = require('../compare/load-csv.js')
const { checkShards, describeCheck, planConflict, machineBlocks, formatMachineBlocks } = require('../compare/shard-check.js')
const { readPlanSidecar } = require('../compare/plan-file.js')
const { trendsFromHistory } = require('../report/github-trends.js')
const { measureOfRows } = require('../report/forest.js')
const { render, writePlot } = require('../report/render.js')
const { OPTIONS, analysisOptions, noDataGuard } = require('./analysis-flags.js')
const { splitByMeasure, measureDisagreements, formatDisagreements } = require('../stats/measure-agreement.js')
const { profileFromRecord } = require('../profile/record.js')

const USAGE = `Usage: benchrig analyze [options] FILE.csv|FILE.ndjson ...   (FILE "-" reads stdin)

Per configuration of a compare CSV: the change of the rate (positive = new
is faster) with a 95% CI, p, q (Benjamini-Hochberg), stars, a verdict
(faster / slower / no change / inconclusive), compare.R's Welch columns, a
geomean and warnings. The rows' "measure" column (wall, cpu, instructions,
server-cpu, heap) labels the output; files of several measures are analysed
each apart, with a warning for every configuration one measure calls faster
and another slower. Instruction counts get a paired t-test on log ratios
instead of the rank test.

Several files (whole runs of any seeds, the shards of compare --shard, or
rounds of --plan) are checked first: no missing and no duplicate pairs
(named on stderr; exit 3 unless --allow-partial), shards not mixed with
files of another plan, then analysed together (pairs keyed by seed and
pair), each machine a block (pairs never span two machines; see
docs/compare.md).

Options:
  --format FORMAT         text | markdown | json | github (default text);
                          github: a pull-request comment (docs/compare.md):
                          a hidden marker line, the slower and faster
                          configurations, the full table collapsed, the
                          design (rule, executor) and the environment; the
                          self-time tables of compare --profile --ndjson
  --marker NAME           github: the name in the hidden marker (default
                          "default"); one comment per name on a PR
  --history DB            github: the trend of each changed configuration
                          from the history store DB (a SQLite file or
                          postgres://…; "" for $BENCHRIG_DB or the default)
  --threshold PCT         a CI inside ±PCT% means "no change" (default 1)
  --alpha A               significance level for q and verdicts (default 0.05)
  --max-regression PCT    exit 1 when a configuration is shown to be slower
                          than -PCT%: one-sided test against -PCT% (the upper
                          end of the CI below -PCT%), Holm-adjusted; a file
                          with no measurements is an error (exit 2)
  --wide                  one line per configuration however long, the verdicts'
                          full sentences, every warning (default: fit 100 columns)
  --min-effect PCT        never call a change smaller than PCT% faster or
                          slower (default: the measure's resolution, 0.01% for
                          instructions, 0 for wall and cpu)
  --unpaired              ignore the pair column (Mann-Whitney instead of
                          the signed-rank test on pairs)
  --plot FILE.svg         also write the PR figure: the change per
                          configuration with its CI on a log axis, coloured
                          by the verdict (a standalone SVG)
  --meta FILE.ndjson      the NDJSON compare --ndjson wrote: its binaries'
                          versions and seed title the figure
  --allow-partial         analyse shards with missing or duplicate pairs
                          anyway (each duplicate counted once)
  --runner R --old FILE --new FILE
                          read a runner's own output files (tinybench,
                          vitest, mitata, benchmarkjs, bench-node,
                          node-bench, hyperfine; docs/runners/): each file is
                          one run of its side (repeat --old and --new), each
                          task a configuration; unpaired
  -h, --help              this text`

/** analyze's own flags of runner outputs (not compare's: there --old/--new are binaries). @type {import('../harness/cli-args.js').CommandOptions} */
const RUNNER_OPTIONS = { runner: { type: 'string' }, old: { type: 'string', multiple: true }, new: { type: 'string', multiple: true } }

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
  const { schema, type, ...meta } = rec
  return meta
}

/**
 * @param {string[]} argv
 * @param {{stdout?: NodeJS.WritableStream, stderr?: NodeJS.WritableStream, prog?: string,
 *   read?: {file: string, rows: Record<string, any>[], meta?: Record<string, any>, profiles?: import('../profile/record.js').ProfileTable[]}[],
 *   onAnalysis?: (a: ReturnType<typeof analyze>) => void}} [ctx] prog: the name --help shows;
 *   read, onAnalysis: the rows of one measure and its analysis (analyzeEachMeasure)
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const parsed = parseCommandLine(argv, { ...OPTIONS, meta: { type: 'string' }, history: { type: 'string' }, ...RUNNER_OPTIONS })
  if (parsed.values.help) {
    stdout.write(withExamples(USAGE, 'analyze', ctx.prog ?? 'benchrig analyze'))
    return 0
  }
  const stderr = ctx.stderr ?? process.stderr
  // --runner R --old FILE --new FILE: a runner's own output files, each a run (lib/runners/ingest.js)
  // lazy: only --runner reads a runner's own files
  const runnerRead = require('../runners/ingest.js').runnerInputs(parsed.values)
  const files = runnerRead ? runnerRead.map((i) => i.file) : parsed.positionals
  if (runnerRead && parsed.positionals.length > 0) throw new UsageError(`--runner ${parsed.values.runner}: give the runs as --old FILE and --new FILE, not as ${parsed.positionals[0]}`)
  if (files.length === 0) throw new UsageError('give a compare CSV or NDJSON file (or - for stdin), or the files of all shards; see --help')
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('stdin ("-") can be read only once')
  const o = analysisOptions(parsed.values)
  const historySpec = parsed.values.history
  if (historySpec !== undefined && o.format !== 'github') throw new UsageError(`--history ${historySpec}: goes with --format github (the trend in the PR comment)`)
  const fullMeta = parsed.values.meta === undefined ? {} : readCompareMeta(parsed.values.meta)
  const read = ctx.read ?? runnerRead ?? files.map((f) => ({ file: f, ...readCompareFile(f) }))
  const byMeasure = splitByMeasure(read)
  if (byMeasure.length > 1) return analyzeEachMeasure(byMeasure, argv, { ...ctx, stdout, stderr }, o)
  const inputs = read.map((i) => ({ file: i.file, rows: i.rows, sidecar: i.file === '-' ? undefined : readPlanSidecar(i.file) }))
  // an NDJSON input carries its own meta record (the first file's, for the comment)
  const ndjsonMeta = read.map((i) => i.meta).find(Boolean)
  // compare --profile --ndjson: the self-time tables of the configurations it found slower
  const profiles = read.flatMap((i) => i.profiles ?? [])
  const envMeta = parsed.values.meta === undefined ? (ndjsonMeta ?? {}) : fullMeta
  const runMeta = envMeta.seed === undefined && envMeta.old === undefined ? {} : { seed: envMeta.seed, old: envMeta.old, new: envMeta.new }
  let rows = inputs.flatMap((i) => i.rows)
  const sharded = inputs.length > 1 || rows.some((r) => r.shard_count !== undefined && r.shard_count !== '')
  let blocks
  if (sharded) {
    const conflict = planConflict(inputs)
    if (conflict) throw new UsageError(conflict)
    const c = checkShards(inputs)
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
  const a = analyze(/** @type {any[]} */ (rows), { ...o, meta: { file: files.length === 1 ? files[0] : files, ...runMeta } })
  noDataGuard(a, o, files.join(' '))
  if (ctx.onAnalysis) ctx.onAnalysis(a)
  if (blocks && o.format === 'json') a.machines = blocks
  const trends = historySpec === undefined ? {} : await trendsFromHistory(historySpec, a.results, { measure: measureOfRows(rows) })
  stdout.write(render(a, o.format, { wide: o.wide }, { rows, meta: envMeta, marker: o.marker, trends: trends.trends, historyNote: trends.note, profiles }))
  if (blocks && o.format !== 'json' && o.format !== 'github') stdout.write(formatMachineBlocks(blocks))
  if (o.plot) writePlot(a, o.plot, { measure: measureOfRows(rows) })
  return a.regressions.length > 0 ? 1 : 0
}

/**
 * Files of several measures (a wall run and an instructions run of the same
 * files): each measure analysed apart, one after the other, then a warning
 * for each configuration one calls faster and another slower. The exit code
 * is the worst of the parts.
 * @param {ReturnType<typeof splitByMeasure>} groups
 * @param {string[]} argv
 * @param {{stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, prog?: string}} ctx
 * @param {ReturnType<typeof analysisOptions>} o
 */
async function analyzeEachMeasure (groups, argv, ctx, o) {
  const names = groups.map((g) => g.measure).join(', ')
  if (o.format === 'json' || o.format === 'github' || o.plot) {
    throw new UsageError(`the files hold ${groups.length} measures (${names}): ${o.plot ? '--plot' : `--format ${o.format}`} takes one measure; analyse each file apart, or use --format text or markdown to see the measures one after the other with a check that they agree`, 'BENCHRIG_ERR_MEASURE')
  }
  /** @type {{measure: string, results: any[]}[]} */
  const analyses = []
  let code = 0
  for (const g of groups) {
    ctx.stdout.write(`${analyses.length ? '\n' : ''}# measure: ${g.measure} (${g.inputs.map((i) => i.file).join(', ')})\n\n`)
    const c = await main(argv, { ...ctx, read: g.inputs, onAnalysis: (a) => analyses.push({ measure: g.measure, results: a.results }) })
    code = Math.max(code, c)
  }
  ctx.stderr.write(formatDisagreements(measureDisagreements(analyses)))
  return code
}

/**
 * Rows of a compare CSV, or of the measurement records of an NDJSON file
 * (compare --ndjson), chosen by the file's extension.
 * @param {string} file
 * @returns {{rows: Record<string, any>[], meta?: Record<string, any>, profiles?: import('../profile/record.js').ProfileTable[]}}
 *   meta: an NDJSON file's first meta record; profiles: its compare --profile records
 */
function readCompareFile (file) {
  if (file !== '-' && /\.ndjson$/i.test(file)) return readCompareNdjson(file)
  return { rows: readCompareCsv(file) }
}

/** @param {string} file */
function readCompareNdjson (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`${file}: cannot read it (${err.code || err.message})`)
  }
  const rows = []
  /** @type {import('../profile/record.js').ProfileTable[]} */
  const profiles = []
  let meta = {}
  /** @type {Record<string, any>|undefined} */
  let first
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    let rec
    try {
      rec = JSON.parse(line)
    } catch {
      throw new UsageError(`${file}:${i + 1}: not JSON; give an NDJSON file written by compare --ndjson`)
    }
    if (rec.type === 'meta') {
      if (first === undefined) first = rec
      meta = rec
    } else if (rec.type === 'measurement') {
      // the shard's columns live in the meta record; rows carry them as the CSV does
      rows.push({ plan: meta.plan, host: meta.host, shard_index: meta.shard?.index, shard_count: meta.shard?.count, ...rec })
    } else {
      const p = profileFromRecord(rec)
      if (p) profiles.push(p)
    }
  })
  if (first === undefined) return { rows, profiles }
  const { schema, type, ...rest } = first
  return { rows, meta: rest, profiles }
}

module.exports = { main, USAGE }
