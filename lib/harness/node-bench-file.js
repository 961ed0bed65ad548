'use strict'
// Is a benchmark file a node:bench one? Its source requires or imports
// 'node:bench'; such a file has no createBenchmark root, so the driver runs
// it through lib/node-bench/root.js instead. Read once per file and driver.
const fs = require('node:fs')

const USES_NODE_BENCH = /\brequire\s*\(\s*['"]node:bench['"]\s*\)|\bfrom\s*['"]node:bench['"]|\bimport\s*\(\s*['"]node:bench['"]\s*\)/
const seen = new Map()

/** @param {string} file absolute path */
function isNodeBenchFile (file) {
  if (!seen.has(file)) {
    let source = ''
    try { source = fs.readFileSync(file, 'utf8') } catch { source = '' }
    seen.set(file, USES_NODE_BENCH.test(source))
  }
  return seen.get(file)
}

module.exports = { isNodeBenchFile, USES_NODE_BENCH }
