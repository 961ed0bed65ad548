'use strict'
// The public API of the benchrig package. Parts load lazily so that using one
// (say, createBenchmark inside a benchmark child) never loads the others.
const api = {}

function lazy (name, load) {
  Object.defineProperty(api, name, { enumerable: true, get: load })
}

// lazy: every entry below loads on first use, so one part never pays for the others
lazy('createBenchmark', () => require('./common.js').createBenchmark)
// `load` is shaped like autocannon's export (load(opts, cb), load.track, ...,
// and its CLI as functions, attached here from the CLI layer, loaded when called)
lazy('load', () => {
  // lazy: loaded on first use, as every entry here
  const { load } = require('./lib/engine/autocannon/api.js')
  load.parseArguments ??= (/** @type {string[]} */ argv) => require('./lib/cli/autocannon-start.js').parseArguments(argv)
  load.start ??= (/** @type {any} */ argv) => require('./lib/cli/autocannon-start.js').start(argv)
  return load
})
// lazy: loaded on first use, as every entry here
lazy('track', () => require('./lib/engine/autocannon/track.js').track)
lazy('printResult', () => require('./lib/engine/autocannon/print-result.js').printResult)
lazy('aggregateResult', () => require('./lib/engine/autocannon/aggregate-result.js').aggregateResult)
// autocannon's CLI as functions (wrappers build on them)
lazy('parseArguments', () => require('./lib/cli/autocannon-start.js').parseArguments)
lazy('start', () => require('./lib/cli/autocannon-start.js').start)
lazy('merge', () => require('./lib/engine/result/merge.js').merge)
lazy('analyze', () => require('./lib/stats/analyze.js').analyze)
lazy('serve', () => require('./lib/serve/index.js').serve)

module.exports = api
