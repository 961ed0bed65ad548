#!/usr/bin/env node
'use strict'
// node compare.js --old BIN --new BIN [options] <category ...|all>: compares
// two node binaries over the benchmarks of the folder this file is in (like
// Node core's benchmark/compare.js). See --help.
const { runMain } = require('./lib/cli/dispatch.js')
const { main } = require('./lib/cli/compare.js')

runMain((argv) => main(argv, { defaultRoot: __dirname, prog: 'compare.js' }), process.argv.slice(2), 'compare.js')
  .then((code) => { process.exitCode = code })
