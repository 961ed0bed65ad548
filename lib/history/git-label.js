'use strict'
// A commit as a history label: its full id (stable: the same commit is the
// same label whichever command added it), a display name (the tag on it, else
// `git describe --tags`, else the short id) and its place in the history (the
// number of commits it reaches: an ancestor always reaches fewer, so sorting
// by it is a git order that needs no checkout when the series is read).
const { spawnSync } = require('node:child_process')

function git (dir, args) {
  const r = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' })
  return r.status === 0 ? String(r.stdout).trim() : undefined
}

/**
 * @typedef {{label: string, display: string, pos?: number}} LabelInfo
 */

/**
 * @param {string} dir a folder inside the repository
 * @param {string} commit a full commit id
 * @returns {LabelInfo}
 */
function commitLabel (dir, commit) {
  const display = git(dir, ['describe', '--tags', '--exact-match', commit]) ??
    git(dir, ['describe', '--tags', commit]) ??
    commit.slice(0, 12)
  const count = git(dir, ['rev-list', '--count', commit])
  return { label: commit, display, ...(count && /^\d+$/.test(count) ? { pos: Number(count) } : {}) }
}

/**
 * A name given as a label (--label v1.2.0) that is a ref of the repository
 * around `dir`: its commit's label; undefined when it is none (a node or
 * package version, a name of the user's own).
 * @param {string} dir
 * @param {string} name
 * @returns {LabelInfo|undefined}
 */
function gitLabel (dir, name) {
  if (!/^[\w./@{}~^-]+$/.test(name) || name.startsWith('-')) return undefined
  const commit = git(dir, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`])
  if (!commit || !/^[0-9a-f]{40}$/.test(commit)) return undefined
  return commitLabel(dir, commit)
}

module.exports = { commitLabel, gitLabel }
