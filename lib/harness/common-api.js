'use strict'
// The API a benchmark file uses, shaped like Node core's benchmark/common.js:
//
//   const common = require('../common.js')
//   const bench = common.createBenchmark(main, { n: [1e6], len: [64, 1024] })
//   function main ({ n, len }) { bench.start(); ...; bench.end(n) }
//
// common.js at the package root loads this module (so that a copy of
// common.js in another project's benchmark folder can load it from the
// installed package). Everything this file loads runs inside the binary
// under test, so it uses Node 18 syntax and APIs only.
const { BenchmarkCore, sendResult } = require('./bench.js')
const { createBenchmarkWith } = require('./create.js')

class Benchmark extends BenchmarkCore {
  /**
   * Runs an HTTP load against a server of this benchmark and reports its
   * rate (requests per second). The generator runs on the driver's node
   * (BENCHRIG_DRIVER_NODE), never on the binary under test.
   * @param {object} options url/path, connections, duration, benchmarker, ...
   * @param {(err: Error|null, result?: object) => void} [cb] called when the load is over
   */
  // lazy: only HTTP benchmarks load the adapters (a child's start-up)
  http (options, cb) { require('./bench-http.js').http(this, options, cb) }
}

/**
 * Declares a benchmark. In the root process it forks one child per
 * combination of `configs`; in a child it calls `main(conf)` once.
 * @param {(conf: object) => unknown} main
 * @param {Record<string, Array<string|number|boolean>|string|number|boolean>} configs
 * @param {{flags?: string[], combinationFilter?: (conf: object) => boolean,
 *   byGroups?: boolean, test?: Record<string, unknown>,
 *   setup?: (combinations: object[]) => unknown}} [options]
 * @returns {Benchmark}
 */
function createBenchmark (main, configs, options) {
  return /** @type {Benchmark} */ (createBenchmarkWith(Benchmark, main, configs, options))
}

// Node core's default port for benchmark servers.
const PORT = Number(process.env.PORT) || 12346

// The helpers Node core's url/ and querystring/ files use (our own data, Node's shapes).
const { urls, searchParams, urlDataTypes, bakeUrlData, binding, buildType } = require('./url-data.js')

module.exports = { createBenchmark, sendResult, PORT, Benchmark, urls, searchParams, urlDataTypes, bakeUrlData, binding, buildType }
