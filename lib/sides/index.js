'use strict'
// The side builders: they make the two sides from the flags (worktrees, installs,
// cleanup); lib/compare/sides.js is what a built side is, all the compare core sees.
// What compare compares, from its flags: two binaries (--old/--new), two git
// refs of the user's project (--old-ref/--new-ref, lib/sides/git-ref.js) or
// two versions of a package (--old-pkg/--new-pkg, lib/sides/npm-package.js).
// The flags are checked when the command line is parsed; the refs and
// packages are built (worktrees, installs) before the first run, and cleaned
// up after the last.
const { UsageError } = require('../errors.js')
const { resolveBinary } = require('../compare/binaries.js')
const { binarySides } = require('../compare/sides.js')

/** compare's options of the side builders. @type {import('../harness/cli-args.js').CommandOptions} */
const SIDE_OPTIONS = {
  'old-ref': { type: 'string' },
  'new-ref': { type: 'string' },
  repo: { type: 'string' },
  'bench-from': { type: 'string' },
  'old-pkg': { type: 'string' },
  'new-pkg': { type: 'string' },
  node: { type: 'string' },
  cache: { type: 'string' },
  install: { type: 'string' }
}

/**
 * @typedef {{kind: 'binaries', sides: import('../compare/sides.js').Sides}
 *   | {kind: 'refs', oldRef: string, newRef: string, repo?: string, benchFrom: 'worktree'|'old'|'new', execPath: string, cache?: string, install?: string[], cmd?: boolean}
 *   | {kind: 'pkgs', oldPkg: string, newPkg: string, execPath: string, cache?: string}} SideSource
 */

/**
 * Which sides the flags ask for; one clear error for a mix or a half pair.
 * @param {Record<string, any>} v parsed values
 * @returns {SideSource}
 */
function sideSource (v) {
  const given = (names) => names.filter((n) => v[n] !== undefined)
  const bins = given(['old', 'new'])
  const refs = given(['old-ref', 'new-ref'])
  const pkgs = given(['old-pkg', 'new-pkg'])
  const kinds = [bins, refs, pkgs].filter((g) => g.length > 0)
  if (kinds.length > 1) {
    throw new UsageError(`${kinds.map((g) => '--' + g[0]).join(' and ')}: compare two binaries (--old/--new), two git refs (--old-ref/--new-ref) or two package versions (--old-pkg/--new-pkg), one kind at a time`)
  }
  const only = (flags, kind) => {
    for (const f of flags) if (v[f] !== undefined) throw new UsageError(`--${f} goes with ${kind}`)
  }
  const execPath = () => (v.node === undefined ? process.execPath : resolveBinary(v.node, '--node'))
  if (refs.length > 0) {
    if (refs.length < 2) throw new UsageError(`--${refs[0]} needs --${refs[0] === 'old-ref' ? 'new-ref' : 'old-ref'} too: the two git refs to compare`)
    only(['old-pkg', 'new-pkg'], '--old-pkg/--new-pkg')
    const benchFrom = v['bench-from'] ?? 'worktree'
    if (!['worktree', 'old', 'new'].includes(benchFrom)) throw new UsageError(`--bench-from ${benchFrom}: use worktree (the working tree's benchmark folder, the default), old or new (that ref's)`)
    // lazy: only refs install
    return { kind: 'refs', oldRef: v['old-ref'], newRef: v['new-ref'], repo: v.repo, benchFrom, execPath: execPath(), cache: v.cache, install: require('./install.js').parseInstallCommand(v.install) }
  }
  only(['repo', 'bench-from', 'install'], '--old-ref/--new-ref')
  if (pkgs.length > 0) {
    if (pkgs.length < 2) throw new UsageError(`--${pkgs[0]} needs --${pkgs[0] === 'old-pkg' ? 'new-pkg' : 'old-pkg'} too: the two versions to compare`)
    return { kind: 'pkgs', oldPkg: v['old-pkg'], newPkg: v['new-pkg'], execPath: execPath(), cache: v.cache }
  }
  only(['node', 'cache'], '--old-ref/--new-ref or --old-pkg/--new-pkg (with --old/--new each side is its own binary)')
  return { kind: 'binaries', sides: binarySides({ old: resolveBinary(v.old, '--old'), new: resolveBinary(v.new, '--new') }) }
}

/**
 * Builds the sides of a source (worktrees and installs for refs, prefixes for
 * packages); `cleanup` removes what was made.
 * @param {SideSource} source
 * @param {{root: string, log?: (m: string) => void}} ctx
 * @returns {Promise<{sides: import('../compare/sides.js').Sides, cleanup: () => void}>}
 */
async function buildSides (source, { root, log }) {
  if (source.kind === 'binaries') return { sides: source.sides, cleanup: () => {} }
  if (source.kind === 'refs') {
    // lazy: only refs make worktrees
    return require('./git-ref.js').gitRefSides({ root, repo: source.repo, oldRef: source.oldRef, newRef: source.newRef, benchFrom: source.benchFrom, execPath: source.execPath, cache: source.cache, install: source.install, log, copyBench: !source.cmd })
  }
  // lazy: only packages install from the registry
  return require('./npm-package.js').packageSides({ oldPkg: source.oldPkg, newPkg: source.newPkg, execPath: source.execPath, cache: source.cache, log })
}

module.exports = { SIDE_OPTIONS, sideSource, buildSides }
