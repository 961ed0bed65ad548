'use strict'
// The API a benchmark file uses, shaped like Node core's benchmark/common.js:
//
//   const common = require('../common.js')
//   const bench = common.createBenchmark(main, { n: [1e6], len: [64, 1024] })
//   function main ({ n, len }) { bench.start(); ...; bench.end(n) }
//
// It lives in lib/harness/common-api.js. In the benchrig package this file
// loads it from ./lib; copied into another project's benchmark folder
// (docs/coming-from-node.md), from the installed package. Runs inside the
// binary under test: Node 18 APIs only.
const { existsSync } = require('node:fs')
const { join } = require('node:path')

if (existsSync(join(__dirname, 'lib', 'harness', 'common-api.js'))) {
  module.exports = require('./lib/harness/common-api.js')
  // A benchmark child ends itself after a failure, and shortly after its
  // report when open handles would keep it alive; lib/ never calls
  // process.exit, so the entry point installs the function that does.
  require('./lib/harness/bench.js').setExitHandler((code) => process.exit(code))
} else {
  module.exports = require('benchrig/common')
}

// For `import { createBenchmark } from '.../common.js'`: node finds the
// names of a CommonJS module by reading its source, not by running it, and
// the assignments above do not show them. Never runs; the names must be
// those of lib/harness/common-api.js (test/harness/esm.test.js checks).
if (typeof module === 'undefined') {
  exports.createBenchmark = exports.sendResult = exports.PORT = exports.Benchmark = exports.urls = undefined
  exports.searchParams = exports.urlDataTypes = exports.bakeUrlData = exports.binding = exports.buildType = undefined
}
