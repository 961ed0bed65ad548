#!/usr/bin/env node
'use strict'
// node scatter.js [options] FILE.js: runs one benchmark file many times and
// writes CSV with one column per variable (like Node core's
// benchmark/scatter.js). See --help.
const { runMain } = require('./lib/cli/dispatch.js')
const { main } = require('./lib/cli/scatter.js')

runMain((argv) => main(argv, { prog: 'scatter.js' }), process.argv.slice(2), 'scatter.js').then((code) => { process.exitCode = code })
