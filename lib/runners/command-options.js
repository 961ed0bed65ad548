'use strict'
// compare's flags of a --cmd comparison, checked before any work starts:
// --cmd "COMMAND" with --runner NAME (or --format NAME: a runner's name given
// to --format names the runner; analyze's formats keep their meaning).
const { UsageError } = require('../errors.js')
const { RUNNERS, runnerFor } = require('./index.js')
const { commandName } = require('./run-command.js')

const CMD_MEASURES = ['wall', 'cpu']

/**
 * @param {Record<string, any>} v parsed values (a runner given as --format is taken out of v.format)
 * @param {string[]} positionals
 * @returns {{line: string, name: string, runner: import('./index.js').Runner}|undefined}
 */
function commandOptions (v, positionals) {
  if (v.cmd === undefined) {
    if (v.runner !== undefined) throw new UsageError(`--runner ${v.runner} goes with --cmd "COMMAND" (the benchmark command whose output it reads)`)
    return undefined
  }
  if (String(v.cmd).trim() === '') throw new UsageError('--cmd needs a command, e.g. --cmd "node bench.mjs"')
  let name = v.runner
  if (v.format !== undefined && (Object.prototype.hasOwnProperty.call(RUNNERS, v.format) || name === undefined)) {
    if (name !== undefined) throw new UsageError(`--format ${v.format} and --runner ${name}: name the runner once`)
    name = v.format
    // --format names the runner here; the analysis keeps its default format
    delete v.format
  }
  const runner = runnerFor(name, name === v.runner ? '--runner' : '--format')
  if (positionals.length > 0) throw new UsageError(`--cmd runs the command on each side: give no benchmark categories (${positionals.join(' ')})`)
  for (const f of ['set', 'filter', 'exclude', 'duet', 'profile', 'plan']) {
    if (v[f] !== undefined && v[f] !== false && !(Array.isArray(v[f]) && v[f].length === 0)) throw new UsageError(`--${f} does not go with --cmd: the command's runner decides what runs`)
  }
  if (v.measure !== undefined && !CMD_MEASURES.includes(v.measure)) throw new UsageError(`--measure ${v.measure} does not go with --cmd: use wall (the runner's own rate) or cpu (its CPU time where the runner reports it, else the process's)`)
  return { line: String(v.cmd), name: commandName(String(v.cmd)), runner }
}

module.exports = { commandOptions }
