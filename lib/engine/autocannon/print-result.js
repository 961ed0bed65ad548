'use strict'
// printResult(result, opts): autocannon's API for the text report. It returns
// the same tables `benchrig load` prints; it also accepts results that lack
// benchrig's own keys (an aggregateResult, a result from autocannon).
const { formatResult } = require('../result/format.js')

/**
 * @param {object} result from load(), 'done' or aggregateResult()
 * @param {{renderResultsTable?: boolean, renderLatencyTable?: boolean, renderStatusCodes?: boolean}} [opts]
 * @returns {string}
 */
function printResult (result, opts = {}) {
  if (!result || typeof result !== 'object' || !result.latency || !result.requests) {
    throw new TypeError('printResult(result): result must be the result of a load run')
  }
  const r = { errorsByKind: {}, samples: 0, duration: 0, non2xx: 0, ...result }
  if (r.throughput === undefined) r.throughput = { total: 0 }
  const text = formatResult(r, { latency: opts.renderLatencyTable === true, statusCodes: opts.renderStatusCodes === true })
  const title = result.title === undefined ? '' : `${result.title}\n`
  if (opts.renderResultsTable === false) {
    // only the summary lines after the tables
    const at = text.lastIndexOf('# of samples')
    return title + text.slice(text.indexOf('\n', at) + 1).replace(/^\n+/, '')
  }
  return title + text
}

module.exports = { printResult }
