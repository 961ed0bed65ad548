'use strict'
// What a side is, as the executors and rules see it; lib/sides/ builds sides from
// the flags (git refs, package versions) with the worktrees and installs this file never touches.
// The two sides of a comparison and how to start a process on each. The
// executors and the stopping rules see only sides; what a side is made of
// (a node binary, a git ref's worktree, a package version's prefix) is the
// job of a side builder. binarySides() is the builder of --old/--new; a git
// ref builder gives each side its own benchmark directory (cwd, root) and one
// node binary, a package builder an env (NODE_PATH) and one binary.
const path = require('node:path')
const { describeBinary } = require('./binaries.js')

/**
 * @typedef {object} Side
 * @property {'old'|'new'} label the value of the CSV "binary" column
 * @property {string} execPath the node binary (or wrapper) that runs the benchmark file
 * @property {string} [root] this side's benchmark directory, when it has its
 *   own copy of the plan's files (a git ref's worktree); the plan's files are
 *   named relative to the plan's root and found under this one
 * @property {string} [cwd] working directory of the benchmark process
 * @property {NodeJS.ProcessEnv} [env] variables added to the process's environment
 * @property {string[]} [execArgv] node options put before the benchmark file
 * @property {() => {path: string, version: string|null, sha256: string} & Record<string, unknown>} describe
 *   the metadata of this side (NDJSON meta, resume's check, the plan hash's identity)
 * @typedef {{old: Side, new: Side}} Sides
 */

/**
 * The sides of `--old BIN --new BIN`: each a binary, nothing else.
 * @param {{old: string, new: string}} binaries absolute paths
 * @returns {Sides}
 */
function binarySides (binaries) {
  return { old: binarySide('old', binaries.old), new: binarySide('new', binaries.new) }
}

/**
 * @param {'old'|'new'} label
 * @param {string} execPath
 * @param {Partial<Side>} [more] root, cwd, env, execArgv, describe
 * @returns {Side}
 */
function binarySide (label, execPath, more = {}) {
  let described
  return {
    label,
    execPath,
    // hashing a binary reads ~100 MB: once per side
    describe: () => (described ??= describeBinary(execPath)),
    ...more
  }
}

/**
 * The benchmark file a side runs for a file of the plan.
 * @param {Side} side
 * @param {string} file absolute path under planRoot
 * @param {string} [planRoot]
 */
function fileOnSide (side, file, planRoot) {
  if (!side.root || !planRoot) return file
  return path.join(side.root, path.relative(planRoot, file))
}

/**
 * The environment of a side's process: the run's, then the side's own.
 * @param {Side} side
 * @param {NodeJS.ProcessEnv|undefined} base
 */
function envOnSide (side, base) {
  if (!side.env) return base
  return { ...(base ?? process.env), ...side.env }
}

module.exports = { binarySides, binarySide, fileOnSide, envOnSide }
