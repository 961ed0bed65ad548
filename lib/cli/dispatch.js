'use strict'
const path = require('node:path')
const { isUserFacing } = require('../errors.js')

const COMMANDS = {
  run: 'run benchmark categories (like node benchmark/run.js)',
  compare: 'compare two node binaries, interleaved, and write CSV',
  scatter: 'sweep one parameter of one benchmark file',
  analyze: 'analyse a compare CSV: change, CI, verdicts',
  bisect: 'find the first slower binary or Node release between a good and a bad one',
  plan: 'plan the next round of a sharded comparison (--next)',
  calibrate: 'propose n per benchmark file for a target CV (like calibrate-n.js)',
  load: 'load-test an HTTP server with the built-in engine',
  merge: 'merge the JSON results of several load runs exactly',
  report: 'an HTML report (or Prometheus metrics) of a saved load result',
  serve: 'start a configurable target server for trying load generators',
  history: 'keep results in a store (SQLite or PostgreSQL); show series and change points',
  doctor: 'check this machine for compare: CPU speeds, steal, load, limits; which design suits it now'
}

function usage () {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length))
  const lines = Object.entries(COMMANDS).map(([c, d]) => `  ${c.padEnd(width)}  ${d}`)
  return `Usage: benchrig <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "benchrig help <command>" (or "benchrig <command> --help") for the options and examples of one command.`
}

/**
 * Runs one CLI command and turns its outcome into an exit code. User-facing
 * errors print their message alone; anything else is a bug and keeps its stack.
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
async function runCli (argv) {
  let [command, ...rest] = argv
  // `benchrig help load` is `benchrig load --help`
  if (command === 'help' && rest.length > 0) [command, rest] = [rest[0], ['--help', ...rest.slice(1)]]
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(usage())
    return command ? 0 : 2
  }
  if (command === '--version' || command === '-V') {
    console.log(require('../../package.json').version) // lazy: only --version reads it
    return 0
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    // lazy: only a mistyped command needs the suggestion
    const hint = require('../suggest.js').nearest(command, Object.keys(COMMANDS))
    console.error(`benchrig: unknown command "${command}"${hint ? ` (did you mean "${hint}"?)` : ''}\n\n${usage()}`)
    return 2
  }
  let mod
  try {
    mod = require(path.join(__dirname, `${command}.js`))
  } catch (err) {
    if (err.code === 'MODULE_NOT_FOUND' && String(err.message).includes(`${command}.js`)) {
      console.error(`benchrig: the "${command}" command is not available in this version`)
      return 2
    }
    throw err
  }
  return runMain(mod.main, rest, `benchrig ${command}`)
}

/**
 * Calls an entry point's main and maps errors to exit codes; shared by the
 * bin and by run.js / compare.js / scatter.js.
 * @param {(argv: string[]) => Promise<number>|number} main
 * @param {string[]} argv
 * @param {string} prog name used as the message prefix
 */
async function runMain (main, argv, prog) {
  try {
    const code = await main(argv)
    return typeof code === 'number' ? code : 0
  } catch (err) {
    if (isUserFacing(err)) {
      console.error(`${prog}: ${err.message}`)
      return err.exitCode
    }
    console.error(err && err.stack ? err.stack : err)
    return 1
  }
}

module.exports = { runCli, runMain, COMMANDS }
