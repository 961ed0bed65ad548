'use strict'
// Git commits as bisect candidates (--refs GOOD..BAD): GOOD, then the
// commits on the first-parent line from GOOD to BAD, oldest first, as `git
// bisect --first-parent` walks them. Each comparison then runs on two git-ref
// sides (lib/sides/git-ref.js: a worktree per commit, the working tree's
// benchmark folder in both, dependencies per lockfile).
const { spawnSync } = require('node:child_process')
const { UsageError } = require('../errors.js')
const { commitLabel } = require('../history/git-label.js')

function git (cwd, args) {
  const r = spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8' })
  return { ok: r.status === 0, out: String(r.stdout || '').trim(), err: String(r.stderr || r.error?.message || '').trim() }
}

/**
 * @param {string} range "GOOD..BAD"
 * @param {string} dir a folder inside the repository
 * @returns {{label: string, display: string, pos?: number, commit: string}[]} label: the full commit id
 *   (as compare's history rows), display: its tag or `git describe`, pos: its git position
 */
function commitsInRange (range, dir) {
  const parts = String(range).split('..')
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw new UsageError(`--refs ${range}: give GOOD..BAD, two commits or refs, e.g. --refs v1.2.0..main`)
  const top = git(dir, ['rev-parse', '--show-toplevel'])
  if (!top.ok) throw new UsageError(`--refs ${range}: ${dir} is not inside a git repository; give --repo DIR or --root DIR inside one`)
  const [good, bad] = parts.map((ref) => {
    const r = git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    if (!r.ok) throw new UsageError(`--refs ${range}: ${ref} is not a commit of ${top.out}`)
    return r.out
  })
  if (good === bad) throw new UsageError(`--refs ${range}: both name commit ${good.slice(0, 12)}`)
  if (!git(dir, ['merge-base', '--is-ancestor', good, bad]).ok) throw new UsageError(`--refs ${range}: ${parts[0]} is not an ancestor of ${parts[1]}; the good commit must come first in the history`)
  const list = git(dir, ['rev-list', '--first-parent', '--reverse', `${good}..${bad}`])
  const commits = [good, ...list.out.split('\n').filter(Boolean)]
  if (commits[commits.length - 1] !== bad) throw new UsageError(`--refs ${range}: ${parts[1]} is not on the first-parent line from ${parts[0]}`)
  return commits.map((commit) => ({ ...commitLabel(top.out, commit), commit }))
}

module.exports = { commitsInRange }
