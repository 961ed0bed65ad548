'use strict'
// A project's dependencies for one side, installed once per lockfile: `npm
// ci` (or the command given with --install) runs in the side's own folder (its lifecycle scripts may need the
// project's files, and a `file:` dependency resolves from there), then its
// node_modules is kept in the cache under the hash of the lockfile, the node
// ABI and the platform; a later side or run with the same hash gets a copy.
// npm runs with the compared binary's folder first on PATH, so native
// modules are built for the node that will load them.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { spawn, spawnSync } = require('node:child_process')
const { BenchrigError, UsageError } = require('../errors.js')

const LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json']

/**
 * The cache folder of side builders: $BENCHRIG_CACHE, else
 * $XDG_CACHE_HOME/benchrig or ~/.cache/benchrig (bisect's node releases
 * live beside, in node/).
 * @param {string} [given] --cache
 * @param {NodeJS.ProcessEnv} [env]
 */
function cacheRoot (given, env = process.env) {
  if (given) return path.resolve(given)
  if (env.BENCHRIG_CACHE) return path.resolve(env.BENCHRIG_CACHE)
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'benchrig')
}

/** "ABI-platform-arch" of a node binary: what a native module is built for. */
function nodeTarget (execPath) {
  const r = spawnSync(execPath, ['-p', 'process.versions.modules + "-" + process.platform + "-" + process.arch'], { encoding: 'utf8', timeout: 60000 })
  return r.status === 0 ? r.stdout.trim() : 'unknown'
}

/**
 * Runs npm; resolves with its exit code and the end of its output.
 * @param {string[]} args
 * @param {{cwd: string, execPath: string}} o
 * @returns {Promise<{code: number|null, signal: string|null, output: string}>}
 */
function npm (args, { cwd, execPath }) {
  return new Promise((resolve) => {
    const env = { ...process.env, PATH: `${path.dirname(execPath)}${path.delimiter}${process.env.PATH || ''}` }
    const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const keep = (d) => { output = (output + d).slice(-4000) }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', (err) => resolve({ code: null, signal: null, output: `could not start npm: ${err.message}` }))
    child.on('close', (code, signal) => resolve({ code, signal, output }))
  })
}

/**
 * Runs another install command (pnpm, yarn, a script) as npm is run.
 * @param {string[]} argv
 * @param {{cwd: string, execPath: string}} o
 */
function runCommand (argv, { cwd, execPath }) {
  return new Promise((resolve) => {
    const env = { ...process.env, PATH: `${path.dirname(execPath)}${path.delimiter}${process.env.PATH || ''}` }
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const keep = (d) => { output = (output + d).slice(-4000) }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', (err) => resolve({ code: null, signal: null, output: `could not start ${argv[0]}: ${err.message}` }))
    child.on('close', (code, signal) => resolve({ code, signal, output }))
  })
}

/**
 * What a project folder needs: nothing (no package.json, or one without
 * dependencies), or an install keyed by its lockfile.
 * @param {string} dir
 * @returns {{kind: 'none'} | {kind: 'ci', lockfile: string} | {kind: 'no-lockfile'}}
 */
function installNeed (dir) {
  const pkgFile = path.join(dir, 'package.json')
  if (!fs.existsSync(pkgFile)) return { kind: 'none' }
  const lockfile = LOCKFILES.map((f) => path.join(dir, f)).find((f) => fs.existsSync(f))
  if (lockfile) return { kind: 'ci', lockfile }
  let pkg = {}
  try { pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) } catch { /* npm will say */ }
  const deps = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }
  return Object.keys(deps).length === 0 ? { kind: 'none' } : { kind: 'no-lockfile' }
}

const DEFAULT_INSTALL = ['npm', 'ci', '--no-audit', '--no-fund']

/**
 * --install CMD: the command that installs a side's dependencies from its
 * lockfile (default "npm ci --no-audit --no-fund"), as an argv: words split
 * on spaces, no shell. An npm command without dev dependencies, say, is
 * "npm ci --omit=dev".
 * @param {string|undefined} text
 * @returns {string[]}
 */
function parseInstallCommand (text) {
  if (text === undefined) return DEFAULT_INSTALL
  const argv = String(text).trim().split(/\s+/).filter(Boolean)
  if (argv.length === 0) throw new UsageError('--install needs a command, e.g. --install "npm ci --omit=dev"')
  if (/[|&;<>$`]/.test(text)) throw new UsageError(`--install ${text}: one command with its arguments, no shell (pipes, ;, &&, redirections); e.g. --install "npm ci --omit=dev"`)
  return argv
}

/**
 * The package an install failed on, as npm's output names it: a 404 of the
 * registry, a version it does not have, a git dependency it could not
 * fetch, a lifecycle script that failed (its folder under node_modules).
 * @param {string} output
 * @returns {string|undefined}
 */
function failedPackage (output) {
  const patterns = [
    /'((?:@[^/'\s]+\/)?[^@'\s]+)@[^']*' is not in (?:this|the npm) registry/,
    /404 Not Found - GET https?:\/\/\S+?\/((?:@[^/\s]+(?:\/|%2[fF]))?[^/\s]+?)(?:\/-\/\S+)?(?:\s|$)/,
    /No matching version found for ((?:@[^/\s]+\/)?[^@\s]+)@/,
    /(?:git dep preparation failed|ls-remote)[\s\S]*?\n[^\n]*?((?:git\+)?(?:ssh|https?|git):\/\/\S+|github:\S+)/,
    /(?:path|in) \S*node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\s*\n[^\n]*(?:command failed|code \d|ELIFECYCLE)/i,
    /node_modules\/((?:@[^/\s]+\/)?[^/\s]+)[^\n]*\n[^\n]*(?:command failed|ELIFECYCLE|exited with)/i,
    // a file: dependency whose tarball is missing: the tarball's name
    /ENOENT[^\n]*?'[^'\n]*\/([^/'\n]+?)-v?\d[^/'\n]*\.tgz'/
  ]
  for (const re of patterns) {
    const m = re.exec(output)
    if (m) return decodeURIComponent(m[1].replace(/%2[fF]/, '/'))
  }
  return undefined
}

/**
 * Installs a side's dependencies into `dir/node_modules`, from the cache when
 * the same lockfile was installed for the same node target before.
 * @param {object} o
 * @param {string} o.dir the project folder of the side (holds package.json)
 * @param {string} o.execPath the node binary that will run the side
 * @param {string} o.cache cache root
 * @param {string} o.what how errors name the side ("--old-ref main (1a2b3c4)")
 * @param {(m: string) => void} [o.log]
 * @param {typeof npm} [o.run]
 * @param {string[]} [o.command] the install command (parseInstallCommand); its words key the cache too
 * @returns {Promise<{installed: 'none'|'cache'|'npm ci', key?: string}>}
 */
async function installDeps ({ dir, execPath, cache, what, log = () => {}, run = npm, command = DEFAULT_INSTALL }) {
  const need = installNeed(dir)
  if (need.kind === 'none') return { installed: 'none' }
  if (need.kind === 'no-lockfile') {
    throw new BenchrigError('BENCHRIG_ERR_INSTALL', `${what}: package.json has dependencies but no package-lock.json; each side is installed with "npm ci" from its lockfile: commit one (npm install --package-lock-only)`, { exitCode: 2 })
  }
  const custom = command !== DEFAULT_INSTALL
  const key = crypto.createHash('sha256').update(fs.readFileSync(need.lockfile)).update('\0' + nodeTarget(execPath)).update(custom ? '\0' + command.join(' ') : '').digest('hex').slice(0, 24)
  const kept = path.join(cache, 'deps', key)
  if (fs.existsSync(path.join(kept, 'node_modules'))) {
    log(`${what}: dependencies from the cache (${key})`)
    // Links stay as they are: a file: dependency's relative link points into this side.
    fs.cpSync(path.join(kept, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })
    return { installed: 'cache', key }
  }
  const shown = custom ? command.join(' ') : 'npm ci'
  log(`${what}: ${shown} (lockfile ${key})`)
  const r = command[0] === 'npm' ? await run(command.slice(1), { cwd: dir, execPath }) : await runCommand(command, { cwd: dir, execPath })
  if (r.code !== 0) {
    const why = r.signal ? `was killed by ${r.signal}` : r.code === null ? 'did not start' : `exited with code ${r.code}`
    const tail = r.output.trim().split('\n').slice(-6).join('\n')
    const pkg = failedPackage(r.output)
    const hint = custom ? '' : '; to leave dev dependencies out, give --install "npm ci --omit=dev"'
    throw new BenchrigError('BENCHRIG_ERR_INSTALL', `${what}: "${shown}" ${why} in its worktree${pkg ? ` on the package ${pkg}` : ''}; nothing was run${hint}. It said:\n${tail}`, { exitCode: 1 })
  }
  fs.mkdirSync(path.join(cache, 'deps'), { recursive: true })
  const tmp = fs.mkdtempSync(path.join(cache, 'deps', `.${key}-`))
  try {
    if (fs.existsSync(path.join(dir, 'node_modules'))) {
      fs.cpSync(path.join(dir, 'node_modules'), path.join(tmp, 'node_modules'), { recursive: true, verbatimSymlinks: true })
    } else {
      fs.mkdirSync(path.join(tmp, 'node_modules'))
    }
    try {
      fs.renameSync(tmp, kept)
    } catch (err) {
      // another run cached the same lockfile meanwhile: keep theirs
      if (!fs.existsSync(kept)) throw err
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return { installed: 'npm ci', key }
}

module.exports = { installDeps, installNeed, cacheRoot, nodeTarget, npm, parseInstallCommand, failedPackage, DEFAULT_INSTALL }
