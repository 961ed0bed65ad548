'use strict'
// The public API of the benchrig package. Parts load lazily so that using one
// (say, createBenchmark inside a benchmark child) never loads the others.
const api = {}

function lazy (name, load) {
  Object.defineProperty(api, name, { enumerable: true, get: load })
}

lazy('createBenchmark', () => require('./common.js').createBenchmark)
// `load` is shaped like autocannon's export (load(opts, cb), load.track, ...)
lazy('load', () => require('./lib/engine/api.js').load)
lazy('track', () => require('./lib/engine/track.js').track)
lazy('printResult', () => require('./lib/engine/print-result.js').printResult)
lazy('aggregateResult', () => require('./lib/engine/aggregate-result.js').aggregateResult)
lazy('merge', () => require('./lib/engine/merge.js').merge)
lazy('analyze', () => require('./lib/stats/analyze.js').analyze)
lazy('serve', () => require('./lib/serve/index.js').serve)

module.exports = api
