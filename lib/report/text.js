'use strict'
// The simple text format of run.js and of a benchmark file run by hand:
//   buffers/buffer-tostring.js
//   buffers/buffer-tostring.js len=64 encoding='utf8': 9,178,624.59
// A result measured by a load generator (bench.http) gets a second, indented
// line with the tool's version, latency, errors and non-2xx, so that the
// result line itself keeps Node core's `name conf: rate` shape:
//   http/simple.js len=64 benchmarker='wrk': 51,165.64
//     wrk 4.1.0; latency ms p50 0.92, p90 1.41, p99 2.87, max 12.30; errors 0; non-2xx 0
// Also used inside benchmark processes: Node 18 APIs only.
const { inspect } = require('node:util')

/**
 * The configuration string shared by the text, CSV and NDJSON formats,
 * byte-identical to Node core's for the same file: keys in the conf's own
 * order (matrix.js builds it in Node's order), values as util.inspect prints
 * them (strings in single quotes, numbers and booleans bare), separated by
 * single spaces. Identical strings let Node's sed filters
 * (`encoding='ascii'`) match and rows of both tools join.
 * @param {Record<string, unknown>} conf
 */
function formatConfiguration (conf) {
  return Object.entries(conf || {}).map(([k, v]) => `${k}=${inspect(v)}`).join(' ')
}

/**
 * A rate with thousands separators and two decimals: 9178624.589 -> "9,178,624.59".
 * @param {number} rate
 */
function formatRate (rate) {
  if (typeof rate !== 'number' || !Number.isFinite(rate)) return String(rate)
  const [int, dec] = Math.abs(rate).toFixed(2).split('.')
  const sign = rate < 0 ? '-' : ''
  return `${sign}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${dec}`
}

/**
 * One result line (without newline).
 * @param {{name: string, conf: object, rate: number}} report
 */
function formatResultLine (report) {
  const conf = formatConfiguration(report.conf)
  return `${report.name}${conf ? ' ' + conf : ''}: ${formatRate(report.rate)}`
}

const LATENCY = [['p50', 'latency_p50'], ['p90', 'latency_p90'], ['p99', 'latency_p99'], ['max', 'latency_max']]
const isNumber = (x) => typeof x === 'number' && Number.isFinite(x)

/**
 * The indented detail line of a load-generator result (without newline), or
 * '' for a result without a tool version (every non-HTTP benchmark).
 * @param {{extra?: Record<string, unknown>}} report
 */
function formatExtraLine (report) {
  const x = report.extra
  if (!x || typeof x.benchmarker !== 'string' || x.benchmarker_version === undefined) return ''
  const parts = [`${x.benchmarker} ${x.benchmarker_version}`]
  const lat = LATENCY.filter(([, k]) => isNumber(x[k])).map(([label, k]) => `${label} ${/** @type {number} */ (x[k]).toFixed(2)}`)
  if (lat.length > 0) parts.push(`latency ms ${lat.join(', ')}`)
  if (isNumber(x.errors)) parts.push(`errors ${x.errors}`)
  if (isNumber(x.non2xx)) parts.push(`non-2xx ${x.non2xx}`)
  return `  ${parts.join('; ')}`
}

/**
 * One failure line (without newline), for stderr.
 * @param {{name: string, conf?: object|null, message: string}} error
 */
function formatErrorLine (error) {
  const conf = error.conf ? formatConfiguration(error.conf) : ''
  return `${error.name}${conf ? ' ' + conf : ''}: failed: ${error.message}`
}

/**
 * A streaming text writer for run.js, in Node core's shape: a blank line
 * and the file name before each file, then one line per result. The
 * indented detail line of load-generator results is left out with
 * `details: false` (test mode: Node's test contract allows exactly one
 * line per result).
 * @param {{write: (s: string) => unknown}} out
 * @param {{details?: boolean, measure?: string}} [opts]
 */
function createTextWriter (out, { details = true, measure = 'wall' } = {}) {
  return {
    // Wall time keeps Node core's output as it is; other measures say above
    // the first file what the rates count.
    start () { if (measure !== 'wall') out.write(require('../harness/measure.js').measureNote(measure) + '\n') }, // each file starts with a blank line
    file (name) {
      out.write(`\n${name}\n`)
    },
    result (report) {
      const detail = details ? formatExtraLine(report) : ''
      out.write(formatResultLine(report) + '\n' + (detail ? detail + '\n' : ''))
    },
    end () {}
  }
}

module.exports = { formatConfiguration, formatRate, formatResultLine, formatExtraLine, formatErrorLine, createTextWriter }
