'use strict'
// What `benchrig load` writes of a result: the tables (text), JSON (-j or
// --format json) or YAML (--format yaml, gocannon's -f yaml), and the
// histogram files beside it (--hist-out as HdrHistogram text, --hist-raw as
// gocannon's 1 µs bins; a scenarios run's scenarios each get theirs too).
// JSON and YAML leave stdout to the result alone.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')

const FORMATS = ['text', 'json', 'yaml']
const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

/**
 * The output format from -j and --format (gocannon's "default" is our text).
 * @param {{json?: boolean, format?: string|string[]}} args
 * @returns {'text'|'json'|'yaml'}
 */
function outputFormat (args) {
  const given = last(args.format)
  if (given === undefined) return args.json ? 'json' : 'text'
  const f = String(given) === 'default' ? 'text' : String(given)
  if (!FORMATS.includes(f)) throw new UsageError(`invalid --format "${given}": give text, json or yaml`)
  if (args.json && f !== 'json') throw new UsageError(`-j/--json is --format json: it cannot be combined with --format ${f}`)
  return /** @type {'text'|'json'|'yaml'} */ (f)
}

/**
 * The result as the format asks (one document, newline-terminated).
 * @param {object} result
 * @param {'text'|'json'|'yaml'} format
 * @param {{latency?: boolean, statusCodes?: boolean}} textOpts
 */
function renderResult (result, format, textOpts) {
  if (format === 'json') return JSON.stringify(result) + '\n'
  if (format === 'yaml') return require('../engine/result/yaml.js').toYaml(result) // lazy: only --format yaml needs it
  return require('../engine/result/format.js').formatResult(result, textOpts) + '\n'
}

/**
 * The file of a scenario beside a histogram file: its name before the
 * extension (latency.hgrm -> latency.browse.hgrm), so the files sort together.
 * @param {string} file @param {string} scenario
 */
function scenarioFile (file, scenario) {
  const ext = path.extname(file)
  return ext === '' ? `${file}.${scenario}` : `${file.slice(0, -ext.length)}.${scenario}${ext}`
}

/**
 * Writes one histogram file of the result, and with --scenarios one more per
 * scenario beside it (scenarioFile).
 * @param {(file: string, histogram: string) => void} write
 * @param {string} file
 * @param {any} result
 */
function writeEach (write, file, result) {
  write(file, result.histogram)
  for (const [name, s] of Object.entries(result.scenarios ?? {})) write(scenarioFile(file, name), s.histogram)
}

/**
 * Writes --hist-out and --hist-raw once the run is over.
 * @param {object} result
 * @param {{histOut?: string|string[], histRaw?: string|string[]}} args
 */
function writeHistograms (result, args) {
  // lazy: only --hist-out writes it
  if (args.histOut !== undefined) writeEach(require('../engine/measure/hist-text.js').writeHistText, String(last(args.histOut)), result)
  // lazy: only --hist-raw writes it
  if (args.histRaw !== undefined) writeEach(require('../engine/measure/hist-raw.js').writeHistRaw, String(last(args.histRaw)), result)
}

/**
 * Fails before the run, naming the flag, if a histogram file's folder cannot
 * be written (the files are written after it).
 * @param {{histOut?: string|string[], histRaw?: string|string[]}} args
 */
function checkOutputFiles (args) {
  for (const [flag, value] of [['--hist-out', args.histOut], ['--hist-raw', args.histRaw]]) {
    if (value === undefined) continue
    const file = String(last(value))
    try {
      fs.accessSync(path.dirname(path.resolve(file)), fs.constants.W_OK)
    } catch (err) {
      throw new UsageError(`cannot write ${flag} "${file}": ${err.code || err.message}; give a file in a folder you can write`)
    }
  }
}

module.exports = { outputFormat, renderResult, writeHistograms, checkOutputFiles, scenarioFile, FORMATS }
