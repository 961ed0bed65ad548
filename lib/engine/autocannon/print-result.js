'use strict'
// printResult(result, opts): autocannon's API for the text report. It returns
// the same tables `benchrig load` prints, laid out as autocannon's (a blank
// line first, a newline after every line), coloured when opts.outputStream
// (stderr by default) is a terminal that shows colour. It also takes results
// that lack benchrig's own keys (an aggregateResult, a result from autocannon).
const { formatResult } = require('../result/format.js')

/**
 * Whether a stream shows colour, by the rules of the color-support package
 * autocannon asks: a TTY, a TERM that is not dumb, no CI; NO_COLOR (a
 * convention autocannon ignores) turns it off, FORCE_COLOR on.
 * @param {{isTTY?: boolean}|undefined} stream
 * @param {NodeJS.ProcessEnv} [env]
 */
function showsColor (stream, env = process.env) {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  if (stream?.isTTY !== true) return false
  const term = env.TERM ?? ''
  if (term === 'dumb' && !env.COLORTERM) return false
  if (env.TMUX) return true
  if ((env.CI || env.TEAMCITY_VERSION) && !env.TRAVIS) return false
  return env.TERM_PROGRAM !== undefined || /^screen|^xterm|^vt100|color|ansi|cygwin|linux/i.test(term) || Boolean(env.COLORTERM)
}

/**
 * @param {object} result from load(), 'done' or aggregateResult()
 * @param {{outputStream?: {isTTY?: boolean}, renderResultsTable?: boolean, renderLatencyTable?: boolean,
 *   renderStatusCodes?: boolean, verbose?: boolean} | null} [opts]
 * @returns {string}
 */
function printResult (result, opts) {
  if (!result || typeof result !== 'object' || !result.latency || !result.requests) {
    throw new TypeError('printResult(result): result must be the result of a load run')
  }
  const o = opts ?? {}
  const r = { samples: 0, duration: 0, non2xx: 0, ...result }
  // a result built by hand may lack statistics (autocannon prints them empty): 0 here
  for (const k of ['latency', 'requests', 'throughput']) r[k] = { ...STAT_ZEROS, ...r[k] }
  // autocannon's README: renderResultsTable false leaves the table out
  // (its code reads only verbose); either leaves the summary lines
  const tables = o.renderResultsTable !== false && o.verbose !== false
  const text = formatResult(r, {
    latency: o.renderLatencyTable === true,
    statusCodes: o.renderStatusCodes === true,
    color: showsColor(o.outputStream ?? process.stderr),
    tables
  })
  // no title line: autocannon prints none (the title is in the JSON); the
  // blank line before the tables only with them, as autocannon's
  return (tables ? '\n' : '') + text + '\n'
}

const PERCENTILES = ['p0_001', 'p0_01', 'p0_1', 'p1', 'p2_5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']
const STAT_ZEROS = Object.freeze(Object.fromEntries(['average', 'mean', 'stddev', 'min', 'max', 'total', ...PERCENTILES].map((k) => [k, 0])))

module.exports = { printResult, showsColor }
