'use strict'
// The simple text format of run.js and of a benchmark file run by hand:
//   buffers/buffer-tostring.js
//   buffers/buffer-tostring.js encoding="utf8" len=64: 9,178,624.59
// Also used inside benchmark processes: Node 18 APIs only.

/**
 * The configuration string shared by the text, CSV and NDJSON formats:
 * keys in declaration order, values JSON-encoded (strings quoted, numbers
 * and booleans bare), separated by single spaces.
 * @param {Record<string, unknown>} conf
 */
function formatConfiguration (conf) {
  return Object.entries(conf || {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')
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

/**
 * One failure line (without newline), for stderr.
 * @param {{name: string, conf?: object|null, message: string}} error
 */
function formatErrorLine (error) {
  const conf = error.conf ? formatConfiguration(error.conf) : ''
  return `${error.name}${conf ? ' ' + conf : ''}: failed: ${error.message}`
}

/**
 * A streaming text writer for run.js: a header line per file, then one line
 * per result; a blank line separates files.
 * @param {{write: (s: string) => unknown}} out
 */
function createTextWriter (out) {
  let files = 0
  return {
    start () {},
    file (name) {
      out.write(`${files++ > 0 ? '\n' : ''}${name}\n`)
    },
    result (report) {
      out.write(formatResultLine(report) + '\n')
    },
    end () {}
  }
}

module.exports = { formatConfiguration, formatRate, formatResultLine, formatErrorLine, createTextWriter }
