'use strict'
// What Node core's entry files (run.js, compare.js, scatter.js,
// calibrate-n.js) do, in one place: parse argv, run, set the exit code. The
// files at the package root are three lines that call `runEntry`, so that a
// copy of them in another project's benchmark folder works too: there they
// find this module in the installed package (require('benchrig/entry')), and
// `dir` (the copy's own folder) is the benchmark directory.
const { runMain } = require('./dispatch.js')

/** The entry files: their module in lib/cli and the name they print. */
const ENTRIES = {
  run: { module: './run.js', prog: 'run.js', rooted: true },
  compare: { module: './compare.js', prog: 'compare.js', rooted: true },
  scatter: { module: './scatter.js', prog: 'scatter.js', rooted: false },
  'calibrate-n': { module: './calibrate.js', prog: 'node calibrate-n.js', name: 'calibrate-n.js', rooted: true }
}

/**
 * Runs one entry file's command and sets process.exitCode.
 * @param {keyof typeof ENTRIES} name
 * @param {string} dir the folder of the entry file (its __dirname)
 * @param {string[]} [argv]
 * @returns {Promise<number>}
 */
function runEntry (name, dir, argv = process.argv.slice(2)) {
  const entry = ENTRIES[name]
  if (!entry) throw new TypeError(`runEntry: no entry file "${name}" (one of ${Object.keys(ENTRIES).join(', ')})`)
  const { main } = require(entry.module)
  const ctx = entry.rooted ? { defaultRoot: dir, prog: entry.prog } : { prog: entry.prog }
  return runMain((args) => main(args, ctx), argv, entry.name ?? entry.prog)
    .then((code) => { process.exitCode = code; return code })
}

module.exports = { runEntry, ENTRIES, endOnClosedStdout: require('../closed-stdout.js').endOnClosedStdout }
