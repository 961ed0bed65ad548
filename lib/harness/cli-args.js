'use strict'
// The one command-line parser of the drivers (run, compare, scatter, analyze):
// node:util parseArgs in strict mode, with its errors turned into UsageErrors
// that name the flag and say what to do.
//
// Why not yargs here (yargs parses load and serve): yargs 18 is an ES module
// that require() loads only on Node >= 20.19, and it costs ~90 ms per start;
// run.js and compare.js must start on any Node >= 20, and parseArgs gives the
// same `--x=y` form, repeatable options and strict unknown-option errors.
const { parseArgs } = require('node:util')
const { UsageError } = require('../errors.js')
const { parseDuration } = require('../engine/options/units.js')
const { didYouMean } = require('../suggest.js')

/**
 * Turns a parseArgs error into a message naming the flag.
 * @param {Error & {code?: string}} err
 * @param {string[]} argv
 * @param {Record<string, unknown>} options the known options, for "did you mean"
 */
function describeParseError (err, argv, options) {
  const flag = /Option '(-{1,2}[^' ]+)/.exec(err.message)?.[1] ?? /'(-{1,2}[^']+)'/.exec(err.message)?.[1]
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) return `unknown option ${flag}${didYouMean(flag, Object.keys(options))}`
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    if (/does not take an argument/.test(err.message)) return `${flag} takes no value`
    if (/ambiguous/.test(err.message)) {
      const value = argv[argv.indexOf(flag) + 1]
      return `${flag} ${value}: a value that starts with "-" must be joined to its flag, as in ${flag}=${value}`
    }
    return `${flag} needs a value`
  }
  return err.message.replace(/\. To specify a positional.*$/s, '')
}

/**
 * The options of a command, as node:util parseArgs takes them.
 * @typedef {Record<string, {type: 'string'|'boolean', multiple?: boolean, short?: string}>} CommandOptions
 */

/**
 * @param {string[]} argv
 * @param {CommandOptions} options
 * @returns {{values: Record<string, any>, positionals: string[]}}
 */
function parseCommandLine (argv, options) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (err) {
    if (!String(err.code).startsWith('ERR_PARSE_ARGS')) throw err
    throw new UsageError(`${describeParseError(err, argv, options)}; see --help`)
  }
}

/**
 * --timeout SECONDS of run, compare and scatter: seconds one configuration
 * may run (0: no limit), or a duration such as 5m or 1h30m (units.js);
 * undefined when not given (the default applies).
 * @param {string|undefined} value
 * @returns {number|undefined}
 */
function parseTimeout (value) {
  if (value === undefined) return undefined
  try {
    // bare seconds, or a duration as benchrig load takes it (5m, 1h30m)
    return parseDuration(value, '--timeout', { allowZero: true })
  } catch {
    throw new UsageError(`--timeout ${value}: give a number of seconds (0: no limit)`)
  }
}

module.exports = { parseCommandLine, parseTimeout }
