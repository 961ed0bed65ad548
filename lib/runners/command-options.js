'use strict'
// compare's flags of a --cmd comparison, checked before any work starts:
// --cmd "COMMAND" with --runner NAME (or --format NAME: a runner's name given
// to --format names the runner; analyze's formats keep their meaning). A
// question file (lib/cli/question.js) may give "cmd" and "runner" too; a
// message names where each thing came from: the flag, or the file and key.
const { UsageError } = require('../errors.js')
const { RUNNERS, runnerFor } = require('./index.js')
const { commandName } = require('./run-command.js')

const CMD_MEASURES = ['wall', 'cpu']

/**
 * Why a benchmark-file setting does not go with a command; the flags and a
 * question file's keys give the same reason.
 */
const NOT_WITH_CMD = {
  categories: 'the command runs on each side instead of benchmark files',
  set: 'the command\'s runner decides what runs',
  filter: 'the command\'s runner decides what runs',
  exclude: 'the command\'s runner decides what runs',
  // lib/profile/run.js runs each configuration found slower once more, alone
  // (its key=value arguments narrow the file to it), with --cpu-prof in
  // BENCHRIG_FLAGS, which reaches that configuration's own child process only
  profile: 'it runs each configuration found slower once more on each side, narrowed to it alone in its own process ' +
    'under node --cpu-prof, so the profile holds that configuration\'s work only; a command runs all its tasks together in ' +
    'the runner\'s process(es) and cannot be narrowed to one task, so its profile would mix every task with the runner\'s own loop. ' +
    'Profile the command by hand on each side (e.g. node --cpu-prof bench.mjs)'
}

/**
 * The canonical name of a runner given by a name or an alias, or undefined
 * when it names none.
 * @param {string} name
 * @returns {string|undefined}
 */
function runnerName (name) {
  try {
    return runnerFor(name, '').name
  } catch {
    return undefined
  }
}

/**
 * @param {Record<string, any>} v parsed values, a question file's merged in (a runner given as --format is taken out of v.format)
 * @param {string[]} categories the categories (the command line's, or the question's)
 * @param {import('../cli/question.js').Question} [question] the question file, when one was given
 * @returns {{line: string, name: string, runner: import('./index.js').Runner}|undefined}
 */
function commandOptions (v, categories, question) {
  const fromFile = (/** @type {string} */ key) => {
    const qv = key === 'categories' ? question && question.categories : question && question.values[key]
    return qv !== undefined && !(Array.isArray(qv) && qv.length === 0)
  }
  const keyName = (key) => (key === 'runner' && question && question.content.format !== undefined ? 'format' : key)
  // what gave a value: the flag, or the question file's key
  const subject = (key, value = '') => (fromFile(key) ? `--question ${question.file}: "${keyName(key)}"` : `--${key}`) + (value === '' ? '' : ` ${value}`)
  const cmdFor = (key) => (!fromFile('cmd') ? '--cmd' : fromFile(key) ? '"cmd"' : `"cmd" of --question ${question.file}`)
  if (v.cmd === undefined) {
    if (v.runner !== undefined) throw new UsageError(`${subject('runner', v.runner)} goes with --cmd "COMMAND" (the benchmark command whose output it reads)`)
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
  if (categories.length > 0) {
    if (fromFile('categories')) throw new UsageError(`${subject('categories', `(${categories.join(' ')})`)} does not go with ${cmdFor('categories')}: ${NOT_WITH_CMD.categories}`)
    throw new UsageError(`${cmdFor('')} runs the command on each side instead of benchmark files: give no benchmark categories (${categories.join(' ')})`)
  }
  for (const f of ['set', 'filter', 'exclude', 'profile']) {
    if (v[f] !== undefined && v[f] !== false && !(Array.isArray(v[f]) && v[f].length === 0)) throw new UsageError(`${subject(f)} does not go with ${cmdFor(f)}: ${NOT_WITH_CMD[f]}`)
  }
  if (v.measure !== undefined && !CMD_MEASURES.includes(v.measure)) throw new UsageError(`${subject('measure', v.measure)} does not go with ${cmdFor('measure')}: use wall (the runner's own rate) or cpu (its CPU time where the runner reports it, else the process's)`)
  return { line: String(v.cmd), name: commandName(String(v.cmd)), runner }
}

module.exports = { commandOptions, runnerName, NOT_WITH_CMD }
