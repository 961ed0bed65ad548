'use strict'
// Checks that need the selected files, made by run, compare and scatter
// before the first configuration starts, so a mistake is one usage error
// (exit 2) instead of the same failure once per configuration.
const fs = require('node:fs')
const { UsageError } = require('../errors.js')
const { didYouMean } = require('../suggest.js')
const { list } = require('../adapters/registry.js')

/**
 * `--set benchmarker=NAME` must name a known load generator. A benchmark file
 * may register a tool of its own (`register(adapter)` in the benchmark
 * process), so a name that one of the selected files has as a string literal
 * is let through for the file to decide.
 * @param {string[]} set the --set values, key=value
 * @param {string[]} files absolute paths of the selected benchmark files
 */
function checkBenchmarkers (set, files) {
  const names = set.filter((s) => s.startsWith('benchmarker=')).map((s) => s.slice('benchmarker='.length))
  if (names.length === 0) return
  const known = list()
  for (const name of names) {
    if (known.includes(name)) continue
    if (files.some((f) => spellsName(readText(f), name))) continue
    throw new UsageError(`--set benchmarker=${name}: unknown benchmarker${didYouMean(name, known).replace(/--/, 'benchmarker=')}; use one of ${known.join(', ')}`)
  }
}

/** True when `name` stands in `source` as a quoted string ('x', "x" or `x`). */
function spellsName (source, name) {
  return ["'", '"', '`'].some((q) => source.includes(q + name + q))
}

function readText (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

module.exports = { checkBenchmarkers }
