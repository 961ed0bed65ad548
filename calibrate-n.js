#!/usr/bin/env node
'use strict'
// node calibrate-n.js [--runs=N] [--cv-threshold=X] [--max-increases=N]
// [--start-n=N] [--increase=N] FILE.js: proposes the n that gives stable
// rates (like Node core's benchmark/calibrate-n.js). See --help.
// In the benchrig package this loads ./lib; copied into another project's
// benchmark folder (docs/coming-from-node.md), the installed package.
const { existsSync } = require('node:fs')
const { join } = require('node:path')
let lib
try {
  lib = require(existsSync(join(__dirname, 'lib', 'cli', 'entry.js')) ? './lib/cli/entry.js' : 'benchrig/entry')
} catch (err) {
  if (err.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes('benchrig/entry')) throw err
  console.error('calibrate-n.js: benchrig is not installed where this copy is: run "npm install --save-dev benchrig" in its project')
  process.exit(2)
}
// a reader that closed stdout early (| head) ends the run quietly
if (lib.endOnClosedStdout) lib.endOnClosedStdout((code) => process.exit(code))
lib.runEntry('calibrate-n', __dirname)
