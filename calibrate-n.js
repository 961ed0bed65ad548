#!/usr/bin/env node
'use strict'
// node calibrate-n.js [--runs=N] [--cv-threshold=X] [--max-increases=N]
// [--start-n=N] [--increase=N] FILE.js: proposes the n that gives stable
// rates (like Node core's benchmark/calibrate-n.js). See --help.
const { runMain } = require('./lib/cli/dispatch.js')
const { main } = require('./lib/cli/calibrate.js')

runMain((argv) => main(argv, { defaultRoot: __dirname, prog: 'node calibrate-n.js' }), process.argv.slice(2), 'calibrate-n.js')
  .then((code) => { process.exitCode = code })
