'use strict'
// The benchmark folder a command uses when --root is not given: ./benchmark
// when there is one (Node core's layout), else the current folder. Shared by
// run, bisect and history, so that no command imports another.
const fs = require('node:fs')
const path = require('node:path')

/** The default benchmark directory of `benchrig run` (and bisect, history). */
function defaultRoot (cwd = process.cwd()) {
  const dir = path.join(cwd, 'benchmark')
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? dir : cwd
}

module.exports = { defaultRoot }
