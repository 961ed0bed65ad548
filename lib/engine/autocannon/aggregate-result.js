'use strict'
// aggregateResult(results, opts): autocannon's API to combine the results of
// several runs (autocannon: runs made with skipAggregateResult, typically on
// several machines at once). A benchrig result is always mergeable (it keeps
// its HdrHistogram and its per-second counts on absolute time), so this is
// `benchrig merge` (lib/engine/result/merge.js, exact) with the run-describing keys
// that autocannon takes from opts.
const { merge } = require('../result/merge.js')
const { UsageError } = require('../../errors.js')

const FROM_OPTS = ['title', 'url', 'socketPath', 'connections', 'sampleInt', 'pipelining', 'workers']

/**
 * @param {object[]} results results of load() runs (skipAggregateResult or not)
 * @param {{url?: string|string[], title?: string, socketPath?: string, connections?: number,
 *   pipelining?: number, workers?: number, sampleInt?: number}} [opts]
 * @returns {object} one result with the keys of a single run's result
 */
function aggregateResult (results, opts = {}) {
  if (!Array.isArray(results) || results.length === 0) {
    throw new UsageError('aggregateResult(results, opts): results must be a non-empty array of load() results')
  }
  const out = merge(results)
  for (const k of FROM_OPTS) if (opts[k] !== undefined) out[k] = opts[k]
  return out
}

module.exports = { aggregateResult }
