'use strict'
// The yargs set-up `benchrig load` and `benchrig merge` share: strict
// options, --help captured instead of printed by yargs, no process exit, and
// a bad flag turned into a UsageError that points at the command's --help.
const { UsageError } = require('../errors.js')

/**
 * @param {import('yargs').Argv} y the command's options
 * @param {string} command e.g. 'benchrig load'
 * @param {string[]} argv
 * @returns {{args: object, helpText: string|undefined}}
 */
function parseStrict (y, command, argv) {
  y.help('help').alias('help', 'h')
    .version(false)
    .strictOptions()
    .wrap(null)
    .exitProcess(false)
    .fail((msg, err) => {
      throw new UsageError(`${err ? err.message : msg}; see ${command} --help`)
    })
  let helpText
  const args = y.parse(argv, (_err, _parsed, output) => { if (output) helpText = output })
  return { args, helpText }
}

module.exports = { parseStrict }
