'use strict'
// The public API of the benchrig package. Parts load lazily so that using one
// (say, createBenchmark inside a benchmark child) never loads the others.
const api = {}

function lazy (name, load) {
  Object.defineProperty(api, name, { enumerable: true, get: load })
}

lazy('createBenchmark', () => require('./common.js').createBenchmark)
lazy('load', () => require('./lib/engine/index.js').load)
lazy('merge', () => require('./lib/engine/merge.js').merge)
lazy('analyze', () => require('./lib/stats/analyze.js').analyze)

module.exports = api
