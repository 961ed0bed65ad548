'use strict'
// `benchrig plan --next results/*.csv`: writes the round plan that
// `compare --plan FILE --shard auto` runs as the next job array.
const fs = require('node:fs')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')
const { parseCommandLine } = require('../harness/cli-args.js')
const { readCompareCsv } = require('../compare/load-csv.js')
const { checkShards, describeCheck } = require('../compare/shard-check.js')
const { readPlanSidecar } = require('../compare/plan-file.js')
const { nextRound } = require('../compare/plan-next.js')
const { positiveNumber } = require('./analysis-flags.js')

const USAGE = `Usage: benchrig plan --next [options] FILE.csv ...

Reads the CSVs of every shard (and earlier round) of a comparison and
writes, as JSON, the pairs each file still needs for its CIs to reach
--target (the rule of compare --runs auto, on precision only). Run that
round with: compare --plan PLAN.json --shard auto <categories> (the same
categories, binaries and --set as before). When no file needs more pairs
the plan's "files" list is empty and the exit code is 0 with a message.

Options:
  --next                  required: plan the next round
  --target PCT            wanted CI half-width in % (default 0.5)
  --max-runs N            at most N pairs per file in all (default 60)
  --output FILE           write the plan to FILE (default stdout)
  -h, --help              this text`

/** @type {import('../harness/cli-args.js').CommandOptions} */
const OPTIONS = {
  next: { type: 'boolean' },
  target: { type: 'string' },
  'max-runs': { type: 'string' },
  output: { type: 'string' },
  help: { type: 'boolean', short: 'h' }
}

/**
 * @param {string[]} argv
 * @param {{stdout?: NodeJS.WritableStream, stderr?: NodeJS.WritableStream}} [ctx]
 */
async function main (argv, ctx = {}) {
  const stdout = ctx.stdout ?? process.stdout
  const stderr = ctx.stderr ?? process.stderr
  const { values: v, positionals: files } = parseCommandLine(argv, OPTIONS)
  if (v.help) {
    stdout.write(withExamples(USAGE, 'plan', 'benchrig plan'))
    return 0
  }
  if (!v.next) throw new UsageError('give --next (the only plan there is so far: the next round of a sharded comparison); see --help')
  if (files.length === 0) throw new UsageError('--next: give the CSV files of the rounds so far, e.g. results/*.csv')
  const target = positiveNumber(v.target, '--target') ?? 0.5
  let maxPairs = 60
  if (v['max-runs'] !== undefined) {
    if (!/^\d+$/.test(v['max-runs']) || Number(v['max-runs']) < 2) throw new UsageError(`--max-runs ${v['max-runs']}: give a whole number >= 2`)
    maxPairs = Number(v['max-runs'])
  }
  const inputs = files.map((f) => ({ file: f, rows: readCompareCsv(f), sidecar: readPlanSidecar(f) }))
  const c = checkShards(inputs)
  if (c.mixedPlans) throw new UsageError(`these files come from different comparisons (plans ${c.plans.join(', ')}); give the files of one`)
  const problems = describeCheck(c)
  if (problems.length > 0) {
    throw new UsageError(`the rounds so far are not complete, so their precision is not yet known:\n  ${problems.join('\n  ')}\nfinish them first (compare --resume FILE with the same --shard)`)
  }
  const plan = nextRound(c.rows, { target, maxPairs })
  if (plan.seed === undefined) throw new UsageError(`${files.join(', ')}: no "seed" column; plan --next needs files written by compare --output`)
  const text = JSON.stringify(plan, null, 2) + '\n'
  if (v.output) {
    try {
      fs.writeFileSync(v.output, text)
    } catch (err) {
      throw new UsageError(`--output ${v.output}: cannot write it (${err.code || err.message})`)
    }
  } else stdout.write(text)
  const more = plan.files.reduce((a, f) => a + f.pairs, 0)
  stderr.write(plan.files.length === 0
    ? `plan: every CI is within ±${target}%${plan.capped ? ` or at --max-runs (${plan.capped} configuration(s))` : ''}: nothing more to run\n`
    : `plan: round ${plan.round}: ${plan.files.length} file(s) need ${more} more pair(s) in all\n`)
  return 0
}

module.exports = { main, USAGE }
