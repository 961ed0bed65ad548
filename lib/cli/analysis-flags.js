'use strict'
// The analysis flags that analyze and compare --analyze share (--format,
// --threshold, --alpha, --max-regression, --min-effect, --unpaired, --wide,
// --plot, --marker): their table, their parsing into the options of
// lib/stats/analyze.js, and the gate's check that no data never passes.
// A module of its own so that no command imports another command.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { markerOf } = require('../report/github.js')

const FORMATS = ['text', 'markdown', 'json', 'github']

/** @type {import('../harness/cli-args.js').CommandOptions} */
const OPTIONS = {
  format: { type: 'string' },
  threshold: { type: 'string' },
  alpha: { type: 'string' },
  'max-regression': { type: 'string' },
  'min-effect': { type: 'string' },
  unpaired: { type: 'boolean' },
  wide: { type: 'boolean' },
  plot: { type: 'string' },
  marker: { type: 'string' },
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

/** @param {string|undefined} raw @param {string} flag */
function nonNegativeNumber (raw, flag) {
  if (raw === undefined) return undefined
  const v = Number(raw)
  if (raw.trim() === '' || !(v >= 0) || !Number.isFinite(v)) throw new UsageError(`${flag} ${raw}: give a number >= 0 (a change in %)`)
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
 * Analysis options shared by analyze and compare --analyze.
 * @param {Record<string, any>} v the parsed flags
 * @returns {import('../compare/options.js').AnalysisOptions}
 */
function analysisOptions (v) {
  if (v.format !== undefined && !FORMATS.includes(v.format)) throw new UsageError(`--format ${v.format}: use one of ${FORMATS.join(', ')}`)
  if (v.marker !== undefined) {
    if (v.format !== 'github') throw new UsageError(`--marker ${v.marker}: goes with --format github`)
    try {
      markerOf(v.marker)
    } catch {
      throw new UsageError(`--marker ${v.marker}: use letters, digits, ".", "_" and "-" (at most 64)`)
    }
  }
  return {
    marker: v.marker,
    plot: plotPath(v.plot),
    format: v.format ?? 'text',
    threshold: positiveNumber(v.threshold, '--threshold') ?? 1,
    alpha: positiveNumber(v.alpha, '--alpha', { max: 1 }) ?? 0.05,
    maxRegression: positiveNumber(v['max-regression'], '--max-regression'),
    minEffect: nonNegativeNumber(v['min-effect'], '--min-effect'),
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

module.exports = { OPTIONS, analysisOptions, positiveNumber, noDataGuard }
