'use strict'
// The yargs set-up `benchrig load` and `benchrig merge` share: strict
// options, no help or version of yargs' own (lib/cli/help.js renders help from
// the same specs), no process exit, and a bad flag turned into a UsageError
// that names the nearest known flag and points at the command's --help.
const { UsageError } = require('../errors.js')
const { didYouMean } = require('../suggest.js')
const { registerOptions } = require('./help.js')

/**
 * Parses argv against the command's option specs.
 * @param {string} command e.g. 'benchrig load'
 * @param {string[]} argv
 * @param {import('./help.js').OptionSpec[]} specs the command's options
 * @returns {Record<string, any>} the parsed flags (kebab and camelCase keys), `_` the rest
 */
function parseStrict (command, argv, specs) {
  const yargs = require('yargs') // lazy: yargs costs a third of benchrig load's start-up: the plain argv does without it
  const y = yargs(argv).help(false).version(false).scriptName(command)
  return registerOptions(y, specs)
    .strictOptions()
    .exitProcess(false)
    .fail((msg, err) => {
      throw new UsageError(`${describeFailure(err ? err.message : msg, specs)}; see ${command} --help`)
    })
    .parse(argv)
}

/** "Unknown argument: overalRate" -> "unknown option --overalRate (did you mean --overall-rate?)". */
function describeFailure (msg, specs) {
  const unknown = /^Unknown arguments?: (.*)$/.exec(msg)
  if (!unknown) return msg
  const known = specs.map((o) => o.name)
  return unknown[1].split(', ').map((name) => {
    const flag = name.length > 1 ? `--${name}` : `-${name}`
    return `unknown option ${flag}${didYouMean(name, known)}`
  }).join('; ')
}

module.exports = { parseStrict }
