'use strict'
// A NODE_PATH folder that holds only a link named "benchrig" to this
// benchrig, so a benchmark folder that does `require('benchrig')` runs on a
// side (a worktree or a package prefix) without installing it there. Node
// reads NODE_PATH after every node_modules folder, so a side's own
// installed benchrig still wins.
const fs = require('node:fs')
const path = require('node:path')

const PACKAGE_ROOT = path.join(__dirname, '..', '..')

/**
 * Makes `dir/node-path/benchrig` and returns the NODE_PATH value (the
 * caller's NODE_PATH kept after it).
 * @param {string} dir a temporary folder of the side builder
 * @param {NodeJS.ProcessEnv} [env]
 */
function benchrigPath (dir, env = process.env) {
  const folder = path.join(dir, 'node-path')
  fs.mkdirSync(folder, { recursive: true })
  const link = path.join(folder, 'benchrig')
  if (!fs.existsSync(link)) fs.symlinkSync(PACKAGE_ROOT, link, 'dir')
  return [folder, env.NODE_PATH].filter(Boolean).join(path.delimiter)
}

module.exports = { benchrigPath, PACKAGE_ROOT }
