#!/usr/bin/env node
'use strict'
// One CLI for everything: `benchrig <command> [options]`. Each command lives in
// lib/cli/<command>.js and exports `main(argv) -> Promise<exitCode>`.
const { runCli } = require('../lib/cli/dispatch.js')

// a reader that closed stdout early (| head) ends the command quietly
require('../lib/closed-stdout.js').endOnClosedStdout((code) => process.exit(code))

runCli(process.argv.slice(2)).then((code) => { process.exitCode = code })
