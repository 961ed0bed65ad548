#!/usr/bin/env node
'use strict'
// node run.js [options] <category ...|all>: runs benchmark categories of the
// folder this file is in (like Node core's benchmark/run.js). See --help.
const { runMain } = require('./lib/cli/dispatch.js')
const { main } = require('./lib/cli/run.js')

runMain((argv) => main(argv, { defaultRoot: __dirname, prog: 'run.js' }), process.argv.slice(2), 'run.js')
  .then((code) => { process.exitCode = code })
