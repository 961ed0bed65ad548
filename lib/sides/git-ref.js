'use strict'
// The side builder of `compare --old-ref A --new-ref B`: one git worktree per
// ref in a temporary folder (git worktree add --detach: the user's working
// tree, index and branches are not touched), the same benchmark files on both
// sides (by default the working tree's benchmark folder is copied into each
// worktree, so relative requires resolve into that side's code), each ref's
// dependencies installed once per lockfile (install.js), and one node binary
// for both. Everything is checked before the first run, and removed when the
// comparison ends or is cut short (cleanup.js).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { spawnSync } = require('node:child_process')
const { UsageError } = require('../errors.js')
const { binarySide } = require('../compare/sides.js')
const { describeBinary } = require('../compare/binaries.js')
const { commitLabel } = require('../history/git-label.js')
const { installDeps, cacheRoot } = require('./install.js')
const { onCleanup } = require('./cleanup.js')
const { benchrigPath } = require('./node-path.js')

const BENCH_FROM = ['worktree', 'old', 'new']

/**
 * Runs git; throws a UsageError with git's own words when it fails.
 * @param {string} cwd
 * @param {string[]} args
 * @param {string} what the message's start
 */
function git (cwd, args, what) {
  const r = spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8' })
  if (r.error) throw new UsageError(`${what}: git is not available (${r.error.message}); install the Debian package "git"`, 'BENCHRIG_ERR_GIT')
  if (r.status !== 0) throw new UsageError(`${what}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' ') || `git ${args[0]} failed`}`, 'BENCHRIG_ERR_GIT')
  return r.stdout.trim()
}

/**
 * The commit a ref names, or a UsageError naming the flag.
 * @param {string} top
 * @param {string} ref
 * @param {string} flag
 */
function resolveRef (top, ref, flag) {
  if (!ref) throw new UsageError(`${flag} needs a git ref (a branch, tag or commit)`, 'BENCHRIG_ERR_GIT')
  const r = spawnSync('git', ['-C', top, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { encoding: 'utf8' })
  if (r.status !== 0) {
    throw new UsageError(`${flag} ${ref}: no such commit, branch or tag in ${top}; "git -C ${top} log --oneline" lists the commits`, 'BENCHRIG_ERR_GIT')
  }
  return r.stdout.trim()
}

/**
 * A ref whose tree is HEAD's compares what is committed, not the files on
 * disk: uncommitted changes to tracked files (outside the benchmark folder
 * when that is copied from the working tree) are an error, not a surprise.
 */
function checkClean (top, refs, benchRel, benchFrom) {
  const headTree = spawnSync('git', ['-C', top, 'rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { encoding: 'utf8' }).stdout.trim()
  const atHead = refs.filter((r) => git(top, ['rev-parse', `${r.commit}^{tree}`], r.flag) === headTree)
  if (atHead.length === 0) return
  const pathspec = benchFrom === 'worktree' ? ['--', '.', `:(exclude)${benchRel}`] : []
  // tracked files that differ from HEAD, staged or not
  const changed = git(top, ['diff', '--name-only', 'HEAD', ...pathspec], 'git diff').split('\n').filter(Boolean)
  if (changed.length === 0) return
  const shown = changed.slice(0, 5).join(', ') + (changed.length > 5 ? `, and ${changed.length - 5} more` : '')
  const r = atHead[0]
  throw new UsageError(`${r.flag} ${r.ref}: its tree is HEAD's, and the working tree has uncommitted changes (${shown}) that it would not measure: a ref is compared as committed, not as the files on disk; commit or stash them first`, 'BENCHRIG_ERR_GIT_DIRTY')
}

/**
 * The sides of two git refs.
 * @param {object} o
 * @param {string} o.root the benchmark directory (in the working tree)
 * @param {string} [o.repo] a folder of the repository whose package.json is the project's (default: the repository's top folder)
 * @param {string} o.oldRef
 * @param {string} o.newRef
 * @param {'worktree'|'old'|'new'} [o.benchFrom] where the benchmark files come from
 * @param {string} o.execPath the node binary of both sides
 * @param {string} [o.cache] cache root (--cache)
 * @param {string[]} [o.install] the install command (--install; default npm ci)
 * @param {(m: string) => void} [o.log]
 * @param {typeof import('./install.js').npm} [o.npm]
 * @param {boolean} [o.copyBench] false for compare --cmd: root is the folder the
 *   command runs in (the repository's top folder allowed), and each ref runs its own files
 * @returns {Promise<{sides: import('../compare/sides.js').Sides, cleanup: () => void, worktrees: string[]}>}
 */
async function gitRefSides ({ root, repo, oldRef, newRef, benchFrom = 'worktree', execPath, cache, install, log = () => {}, npm, copyBench = true }) {
  if (!BENCH_FROM.includes(benchFrom)) throw new UsageError(`--bench-from ${benchFrom}: use one of ${BENCH_FROM.join(', ')}`)
  const start = repo ?? root
  if (!fs.existsSync(start)) throw new UsageError(`--repo ${start}: no such folder`)
  const top = fs.realpathSync(git(start, ['rev-parse', '--show-toplevel'], `--repo ${start}: not inside a git repository`))
  const benchRel = path.relative(top, fs.realpathSync(root))
  if ((copyBench && benchRel === '') || benchRel.startsWith('..') || path.isAbsolute(benchRel)) {
    throw new UsageError(`--root ${root}: the benchmark folder must be a folder inside the repository ${top} (not its top folder), so that both refs run the same benchmark files against their own code`)
  }
  const projectRel = repo ? path.relative(top, fs.realpathSync(repo)) : ''
  /** @type {{label: 'old'|'new', flag: string, ref: string, commit: string, dir?: string, shown?: import('../history/git-label.js').LabelInfo}[]} */
  const refs = [
    { label: 'old', flag: '--old-ref', ref: oldRef, commit: resolveRef(top, oldRef, '--old-ref') },
    { label: 'new', flag: '--new-ref', ref: newRef, commit: resolveRef(top, newRef, '--new-ref') }
  ]
  checkClean(top, refs, benchRel, copyBench ? benchFrom : 'old')

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-refs-'))
  const made = []
  const cleanup = onCleanup(() => {
    for (const dir of made) spawnSync('git', ['-C', top, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' })
    fs.rmSync(tmp, { recursive: true, force: true })
    spawnSync('git', ['-C', top, 'worktree', 'prune'], { stdio: 'ignore' })
  })
  try {
    for (const r of refs) {
      r.dir = path.join(tmp, r.label)
      git(top, ['worktree', 'add', '--detach', '--quiet', r.dir, r.commit], `${r.flag} ${r.ref}: git worktree add`)
      made.push(r.dir)
    }
    const source = !copyBench ? undefined : benchFrom === 'worktree' ? path.join(top, benchRel) : path.join(refs.find((r) => r.label === benchFrom).dir, benchRel)
    if (source !== undefined && !fs.existsSync(source)) throw new UsageError(`--bench-from ${benchFrom}: ${benchRel} does not exist there`)
    for (const r of source === undefined ? [] : refs) {
      const target = path.join(r.dir, benchRel)
      if (target === source) continue
      fs.rmSync(target, { recursive: true, force: true })
      fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== 'node_modules' })
    }
    const cacheDir = cacheRoot(cache)
    for (const r of refs) {
      await installDeps({ dir: path.join(r.dir, projectRel), execPath, cache: cacheDir, what: `${r.flag} ${r.ref} (${r.commit.slice(0, 7)})`, log, run: npm, ...(install ? { command: install } : {}) })
    }
  } catch (err) {
    cleanup()
    throw err
  }
  const env = { NODE_PATH: benchrigPath(tmp) }
  let binary
  const sides = {}
  for (const r of refs) {
    sides[r.label] = binarySide(r.label, execPath, {
      root: path.join(r.dir, benchRel),
      cwd: path.join(r.dir, benchRel),
      env,
      describe: () => {
        binary ??= describeBinary(execPath)
        // sha256 names what runs: the binary and the commit together, so a
        // plan, a resume and a history row tell two refs apart.
        const sha256 = crypto.createHash('sha256').update(`${binary.sha256}:${r.commit}`).digest('hex')
        // the tag or `git describe` and the git position: a history label's display and order
        r.shown ??= commitLabel(top, r.commit)
        return { ...binary, sha256, binary_sha256: binary.sha256, ref: r.ref, commit: r.commit, describe: r.shown.display, ...(r.shown.pos === undefined ? {} : { position: r.shown.pos }) }
      }
    })
  }
  return { sides: /** @type {import('../compare/sides.js').Sides} */ (sides), cleanup, worktrees: made }
}

module.exports = { gitRefSides, resolveRef, BENCH_FROM }
