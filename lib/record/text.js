'use strict'
// The text format of run.js and of a benchmark file run by hand, byte for
// byte as Node core's run.js and common.js print them (numbers aside):
//
//   buffers/buffer-tostring.js
//   buffers/buffer-tostring.js len=64 encoding="utf8": 9,178,624.589123
//
// the configuration JSON-quoted (JSON.stringify of each value) and the rate
// with every digit (thousands separators in its integer part only). The
// human form (run.js --human) rounds the rate to two decimals, quotes
// strings as compare.js does, and adds, under a result measured by a load
// generator, an indented line with the tool's version, latency, errors and
// non-2xx:
//   http/simple.js len=64 benchmarker='wrk': 51,165.64
//     wrk 4.1.0; latency ms p50 0.92, p90 1.41, p99 2.87, max 12.30; errors 0; non-2xx 0
// Also used inside benchmark processes: Node 18 APIs only.
const { inspect } = require('node:util')
const { measureNote } = require('./measures.js')

/**
 * The configuration string of compare.js's CSV (and of our NDJSON, the
 * history and every key that joins rows), byte-identical to Node core's
 * compare.js for the same file: keys in the conf's own order (matrix.js
 * builds it in Node's order), values as util.inspect prints them (strings in
 * single quotes, numbers and booleans bare), separated by single spaces.
 * Identical strings let Node's sed filters (`encoding='ascii'`) match and
 * rows of both tools join. A non-finite number reaches the driver as null
 * (IPC is JSON), and prints as Node prints it then: `null`.
 * @param {Record<string, unknown>} conf
 */
function formatConfiguration (conf) {
  return Object.entries(conf || {}).map(([k, v]) => `${k}=${inspect(v)}`).join(' ')
}

/**
 * The configuration string of Node core's run.js and of its common.js run by
 * hand: each value as JSON.stringify writes it (`method="deepEqual"`,
 * `n=1000`, a non-finite number as `null`).
 * @param {Record<string, unknown>} conf
 */
function formatNodeConfiguration (conf) {
  return Object.entries(conf || {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')
}

/**
 * A rate as Node core prints it: every digit of the number's own text, with
 * thousands separators in the part before the decimal point only
 * (773200.4995493788 -> "773,200.4995493788"; 1e-7 stays "1e-7").
 * @param {number} rate
 */
function formatNodeRate (rate) {
  const [int, ...rest] = String(rate).split('.')
  const grouped = int.replace(/(\d)(?=(\d{3})+(?!\d))/g, '$1,')
  return rest.length > 0 && rest[0] !== '' ? `${grouped}.${rest.join('.')}` : grouped
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
 * One result line (without newline), in the human form: util.inspect
 * quoting, two decimals.
 * @param {{name: string, conf: object, rate: number}} report
 */
function formatResultLine (report) {
  const conf = formatConfiguration(report.conf)
  return `${report.name}${conf ? ' ' + conf : ''}: ${formatRate(report.rate)}`
}

/**
 * One result line (without newline) as Node core prints it. Node's run.js
 * joins name and configuration with a space even when the configuration is
 * empty (`misc/x.js : 12`), its common.js run by hand does not
 * (`misc/x.js: 12`): `by` says which of the two.
 * @param {{name: string, conf: object, rate: number}} report
 * @param {'run'|'hand'} [by]
 */
function formatNodeResultLine (report, by = 'run') {
  const conf = formatNodeConfiguration(report.conf)
  const sep = conf !== '' || by === 'run' ? ' ' : ''
  return `${report.name}${sep}${conf}: ${formatNodeRate(report.rate)}`
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
 * and the file name before each file, then one line per result. By default
 * the lines are Node's own (formatNodeResultLine); `human` gives the
 * rounded form and the indented detail line of load-generator results
 * (left out with `details: false`: test mode, where Node's test contract
 * allows exactly one line per result).
 * @param {{write: (s: string) => unknown}} out
 * @param {{details?: boolean, measure?: string, human?: boolean}} [opts]
 */
function createTextWriter (out, { details = true, measure = 'wall', human = false } = {}) {
  return {
    // Wall time keeps Node core's output as it is; other measures say above
    // the first file what the rates count.
    start () { if (measure !== 'wall') out.write(measureNote(measure) + '\n') }, // each file starts with a blank line
    file (name) {
      out.write(`\n${name}\n`)
    },
    result (report) {
      if (!human) {
        out.write(formatNodeResultLine(report, 'run') + '\n')
        return
      }
      const detail = details ? formatExtraLine(report) : ''
      out.write(formatResultLine(report) + '\n' + (detail ? detail + '\n' : ''))
    },
    end () {}
  }
}

module.exports = { formatConfiguration, formatNodeConfiguration, formatRate, formatNodeRate, formatResultLine, formatNodeResultLine, formatExtraLine, formatErrorLine, createTextWriter }
