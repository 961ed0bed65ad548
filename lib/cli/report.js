'use strict'
// `benchrig report <result.json> --html FILE`: the HTML report of a saved
// `benchrig load -j` (or `benchrig merge -j`) result, the same page
// `benchrig load --html` writes; --prometheus writes its metrics too.
const fs = require('node:fs')
const { parseStrict } = require('./strict-yargs.js')
const { renderHelp, terminalWidth } = require('./help.js')
const { checkOutputFile, writeFileAtomic } = require('../report/output-file.js')
const { checkResult } = require('../report/html/model.js')
const { UsageError } = require('../errors.js')

/** @type {import('./help.js').HelpSpec} */
const HELP = {
  usage: 'benchrig report [options] <result.json>',
  summary: 'Build reports from the JSON result of `benchrig load -j` or `benchrig merge -j` ("-" reads stdin). ' +
    'The HTML page is self-contained: it opens from disk and fetches nothing. Latency over time needs interval rows ' +
    '(a run with --interval MS or --html); without them the page shows requests per second from the per-second samples.',
  groups: ['Output', 'Other'],
  options: [
    { name: 'html', type: 'string', value: 'FILE', group: 'Output', describe: 'write the HTML report to FILE: percentile plot, latency and req/s over time, status codes, errors, parameters' },
    { name: 'prometheus', type: 'string', value: 'FILE', group: 'Output', describe: 'write the metrics to FILE in the Prometheus text format, atomically (for node_exporter\'s textfile collector)' },
    { name: 'version', alias: 'V', type: 'boolean', group: 'Other', describe: 'print the version and exit' },
    { name: 'help', alias: 'h', type: 'boolean', group: 'Other', describe: 'this text' }
  ],
  examples: [
    ['benchrig report result.json --html report.html', 'the HTML report of a saved run'],
    ['benchrig merge -j gen-*.json | benchrig report - --html all.html', 'one report for several generators, merged exactly']
  ]
}

const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

/** The one result in a file (or stdin), checked to be a load result. */
function readResult (file, stdin) {
  const name = file === '-' ? 'stdin' : file
  let text
  try {
    text = file === '-' ? stdin() : fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read ${name} (${err.code ?? err.message})`)
  }
  let result
  try {
    result = JSON.parse(text)
  } catch (err) {
    const lines = text.trim().split('\n').filter((l) => l.trim() !== '')
    const several = lines.length > 1 && lines.every((l) => { try { JSON.parse(l); return true } catch { return false } })
    throw new UsageError(several
      ? `${name} holds several results: merge them first, e.g. benchrig merge -j ${name} | benchrig report - --html report.html`
      : `${name} is not JSON (${err.message}): give the output of benchrig load -j`)
  }
  checkResult(result, name)
  return result
}

/**
 * @param {string[]} argv
 * @param {{stdin?: () => string}} [io] where "-" reads from (tests pass text)
 * @returns {Promise<number>}
 */
async function main (argv, io = {}) {
  const args = parseStrict('benchrig report', argv, HELP.options)
  if (args.help) {
    console.log(renderHelp(HELP, { width: terminalWidth() }))
    return 0
  }
  if (args.version) {
    console.log(require('../../package.json').version) // lazy: only --version reads it
    return 0
  }
  const files = args._.map(String)
  if (files.length !== 1) throw new UsageError(`give one result file (${files.length} given): benchrig report result.json --html report.html`)
  if (args.html === undefined && args.prometheus === undefined) throw new UsageError('nothing to write: give --html FILE and/or --prometheus FILE')
  const html = args.html === undefined ? undefined : checkOutputFile('--html', last(args.html))
  const prometheus = args.prometheus === undefined ? undefined : checkOutputFile('--prometheus', last(args.prometheus))
  const result = readResult(files[0], io.stdin ?? (() => fs.readFileSync(0, 'utf8')))
  // lazy: only --html renders the report
  if (html !== undefined) writeFileAtomic('--html', html, require('../report/html/index.js').renderHtml(result))
  // lazy: only --prometheus writes it
  if (prometheus !== undefined) writeFileAtomic('--prometheus', prometheus, require('../engine/result/prometheus.js').prometheusText(result))
  return 0
}

module.exports = { HELP, main }
