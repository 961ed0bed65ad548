'use strict'
// What the drivers (run, compare, scatter) do with --set values before they
// reach the benchmark files: Node core's `--set CPUSET=LIST` becomes
// --cpuset, everything else goes to the files as key=value; and the warning
// for a key a file does not declare is printed once per run, however many
// files lack it.
const { UsageError } = require('../errors.js')

/**
 * @param {string[]} set the --set values
 * @param {string|undefined} cpuset the --cpuset value, if any
 * @returns {{args: string[], cpuset: string|undefined}}
 */
function splitSetArgs (set, cpuset) {
  const args = []
  for (const s of set) {
    if (!/^[^=\s]+=/.test(s)) throw new UsageError(`--set ${s}: expected key=value, e.g. --set n=1000`)
    const m = /^CPUSET=(.*)$/.exec(s)
    if (m) {
      if (cpuset !== undefined && cpuset !== m[1]) throw new UsageError(`--set CPUSET=${m[1]} and --cpuset ${cpuset} disagree: give one of them`)
      cpuset = m[1]
    } else {
      args.push(s)
    }
  }
  return { args, cpuset }
}

/**
 * One warning per undeclared key per run (the first file that lacks it names
 * its nearest key).
 * @param {{write: (s: string) => unknown}} stderr
 * @param {string} prog e.g. 'run.js'
 * @returns {(w: {key: string, message: string}) => void}
 */
function createKeyWarner (stderr, prog) {
  const seen = new Set()
  return (w) => {
    if (seen.has(w.key)) return
    seen.add(w.key)
    stderr.write(`${prog}: warning: ${w.message}\n`)
  }
}

module.exports = { splitSetArgs, createKeyWarner }
