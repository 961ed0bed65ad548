'use strict'
// `benchrig merge [options] <file...>`: adds the `benchrig load -j` results
// of several generators (processes, CI jobs, machines) into one exact result,
// printed like `benchrig load` prints one (tables, or JSON with -j).
const fs = require('node:fs')
const { parseStrict } = require('./strict-yargs.js')
const { renderHelp, terminalWidth } = require('./help.js')
const { merge } = require('../engine/result/merge.js')
const { formatResult } = require('../engine/result/format.js')
const { UsageError } = require('../errors.js')

/** @type {import('./help.js').HelpSpec} */
const HELP = {
  usage: 'benchrig merge [options] <file...>',
  summary: 'Merge the JSON results of several `benchrig load -j` runs exactly: histograms added, counters summed, ' +
    'per-second samples added on absolute seconds. "-" reads stdin (one result, or one per line).',
  groups: ['Output', 'Other'],
  options: [
    { name: 'json', alias: 'j', type: 'boolean', group: 'Output', describe: 'print the merged result as JSON on stdout only' },
    { name: 'latency', alias: 'l', type: 'boolean', group: 'Output', describe: 'print all latency percentiles' },
    { name: 'render-status-codes', type: 'boolean', group: 'Output', describe: 'print a table of status codes' },
    { name: 'per-url', type: 'boolean', group: 'Output', describe: 'print a table with a row per URL or named request (the merged endpoints)' },
    { name: 'hist-out', type: 'string', value: 'FILE', group: 'Output', describe: 'write the merged latency histogram to FILE as HdrHistogram percentile-distribution text (ms)' },
    { name: 'version', alias: 'V', type: 'boolean', group: 'Other', describe: 'print the version and exit' },
    { name: 'help', alias: 'h', type: 'boolean', group: 'Other', describe: 'this text' }
  ],
  examples: [
    ['benchrig merge gen-1.json gen-2.json gen-3.json', 'one result for three generators that loaded one server together'],
    ['cat results/*.json | benchrig merge -j - > all.json', 'the merged result as JSON, from stdin']
  ]
}

function parse (argv) {
  return { args: parseStrict('benchrig merge', argv, HELP.options), helpText: renderHelp(HELP, { width: terminalWidth() }) }
}

/**
 * The results in one input: a JSON object, or one JSON object per line (so
 * `cat result-*.json | benchrig merge -` works).
 * @returns {{result: object, name: string}[]}
 */
function parseInput (text, name) {
  const trimmed = text.trim()
  if (trimmed === '') throw new UsageError(`${name} is empty: expected the JSON output of benchrig load -j`)
  try {
    return [{ result: JSON.parse(trimmed), name }]
  } catch (err) {
    const lines = trimmed.split('\n').filter((l) => l.trim() !== '')
    if (lines.length > 1) {
      try {
        return lines.map((l, i) => ({ result: JSON.parse(l), name: `${name}:${i + 1}` }))
      } catch {}
    }
    throw new UsageError(`${name} is not JSON (${err.message}): expected the JSON output of benchrig load -j`)
  }
}

function readInput (file, stdin) {
  if (file === '-') return parseInput(stdin(), 'stdin')
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read ${file} (${err.code ?? err.message})`)
  }
  return parseInput(text, file)
}

/**
 * @param {string[]} argv
 * @param {{stdin?: () => string}} [io] where "-" reads from (tests pass text)
 * @returns {Promise<number>}
 */
async function main (argv, io = {}) {
  const { args, helpText } = parse(argv)
  if (args.help) {
    console.log(helpText)
    return 0
  }
  if (args.version) {
    console.log(require('../../package.json').version) // lazy: only --version reads it
    return 0
  }
  const files = args._.map(String)
  if (files.length === 0) throw new UsageError('no file given: benchrig merge [options] <file...>, e.g. benchrig merge result-*.json')
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('"-" (stdin) can be given once')
  const stdin = io.stdin ?? (() => fs.readFileSync(0, 'utf8'))
  const inputs = files.flatMap((f) => readInput(f, stdin))
  const result = merge(inputs.map((x) => x.result), { names: inputs.map((x) => x.name) })
  // lazy: only --hist-out writes it
  if (args.histOut !== undefined) require('./load-output.js').writeHistograms(result, { histOut: args.histOut })
  if (args.json) {
    process.stdout.write(JSON.stringify(result) + '\n')
  } else {
    process.stdout.write(`Merged ${result.merge.runs} runs: ${result.connections} connections\n\n`)
    // the rate line of the tables shows the lag behind the plan, which merges
    // only when the results carry its histogram: otherwise say so instead
    const lagless = result.rate !== undefined && result.rate.lag === undefined
    const shown = lagless ? { ...result, rate: undefined } : result
    process.stdout.write(formatResult(shown, { latency: args.latency, statusCodes: args.renderStatusCodes }) + '\n')
    // lazy: only --per-url prints it
    if (args.perUrl && result.endpoints !== undefined) process.stdout.write('\n' + require('../engine/result/format-endpoints.js').formatEndpoints(result) + '\n')
    if (lagless) {
      process.stdout.write(`rate: target ${result.rate.target} req/s, achieved ${result.rate.achieved} req/s` +
        (result.rate.unsent > 0 ? `; ${result.rate.unsent} planned requests could not be sent` : '') +
        ' (the lag behind the plan is not merged: the results have no rate.lagHistogram)\n')
    }
  }
  if (result.merge.ignored.length) {
    process.stderr.write(`warning: not merged (no exact rule for them): ${result.merge.ignored.join(', ')}\n`)
  }
  if (result.merge.sampleSkewMs > 0 && (process.stderr.isTTY === true || !args.json)) {
    process.stderr.write(`note: the runs' per-second samples were up to ${result.merge.sampleSkewMs} ms apart; ` +
      'each was added to the nearest second of the earliest run (histograms and counters are exact regardless)\n')
  }
  if (result.saturation.warning) process.stderr.write(`warning: ${result.saturation.warning}\n`)
  return 0
}

module.exports = { HELP, main, parse, parseInput }
