'use strict'
// The side builder of `compare --old-pkg NAME@V1 --new-pkg NAME@V2`: each
// version installed from the npm registry into a prefix of its own in the
// cache (once per version, spec and node target), and the same benchmark
// files run on one node binary with require(NAME) resolving to that side's
// version (require-hook.js, preloaded; NODE_PATH as a fall-back).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { UsageError, BenchrigError } = require('../errors.js')
const { binarySide } = require('../compare/sides.js')
const { describeBinary } = require('../compare/binaries.js')
const { cacheRoot, nodeTarget, npm: runNpm } = require('./install.js')
const { benchrigPath } = require('./node-path.js')
const { onCleanup } = require('./cleanup.js')

const HOOK = path.join(__dirname, 'require-hook.js')

/**
 * NAME@VERSION (NAME may be scoped: @scope/name@1.2.3).
 * @param {string|undefined} spec
 * @param {string} flag
 */
function parsePackageSpec (spec, flag) {
  const at = typeof spec === 'string' ? spec.lastIndexOf('@') : -1
  if (!spec || at <= 0 || at === spec.length - 1) {
    throw new UsageError(`${flag} ${spec ?? ''}: give NAME@VERSION (a version, range or tag of the npm registry), e.g. ${flag} escape-html@1.0.3`.replace(`${flag}  :`, `${flag}:`))
  }
  return { name: spec.slice(0, at), version: spec.slice(at + 1), spec }
}

/**
 * Installs one spec into the cache (a fresh folder renamed into place).
 * @returns {Promise<string>} the prefix
 */
async function ensurePackage (spec, flag, { cache, execPath, target, log, run }) {
  const key = crypto.createHash('sha256').update(`${spec}\0${target}`).digest('hex').slice(0, 24)
  const dir = path.join(cache, 'pkg', key)
  if (fs.existsSync(path.join(dir, 'package.json'))) return dir
  fs.mkdirSync(path.dirname(dir), { recursive: true })
  const tmp = fs.mkdtempSync(path.join(path.dirname(dir), `.${key}-`))
  try {
    // A package.json of its own keeps npm from climbing to a project above.
    fs.writeFileSync(path.join(tmp, 'package.json'), '{"private":true}\n')
    log(`${flag} ${spec}: npm install`)
    const r = await run(['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', tmp, spec], { cwd: tmp, execPath })
    if (r.code !== 0) {
      const tail = r.output.trim().split('\n').slice(-4).join('\n')
      throw new BenchrigError('BENCHRIG_ERR_INSTALL', `${flag} ${spec}: "npm install" failed (${r.signal ?? `exit code ${r.code}`}); nothing was run. npm said:\n${tail}`, { exitCode: 1 })
    }
    try {
      fs.renameSync(tmp, dir)
    } catch (err) {
      if (!fs.existsSync(dir)) throw err
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return dir
}

/**
 * The sides of two versions of one package.
 * @param {object} o
 * @param {string} o.oldPkg NAME@V1
 * @param {string} o.newPkg NAME@V2
 * @param {string} o.execPath the node binary of both sides
 * @param {string} [o.cache]
 * @param {(m: string) => void} [o.log]
 * @param {typeof runNpm} [o.npm]
 * @returns {Promise<{sides: import('../compare/sides.js').Sides, cleanup: () => void}>}
 */
async function packageSides ({ oldPkg, newPkg, execPath, cache, log = () => {}, npm = runNpm }) {
  const specs = { old: parsePackageSpec(oldPkg, '--old-pkg'), new: parsePackageSpec(newPkg, '--new-pkg') }
  if (specs.old.name !== specs.new.name) {
    throw new UsageError(`--old-pkg ${oldPkg} --new-pkg ${newPkg}: two versions of one package are compared (the benchmark's require(NAME) picks the side's); give the same NAME twice`)
  }
  const cacheDir = cacheRoot(cache)
  const target = nodeTarget(execPath)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-pkg-'))
  const cleanup = onCleanup(() => fs.rmSync(tmp, { recursive: true, force: true }))
  let binary
  const sides = {}
  try {
    for (const label of /** @type {const} */ (['old', 'new'])) {
      const s = specs[label]
      const flag = `--${label}-pkg`
      const prefix = await ensurePackage(s.spec, flag, { cache: cacheDir, execPath, target, log, run: npm })
      const installed = JSON.parse(fs.readFileSync(path.join(prefix, 'node_modules', s.name, 'package.json'), 'utf8')).version
      const nodeModules = path.join(prefix, 'node_modules')
      sides[label] = binarySide(label, execPath, {
        execArgv: ['--require', HOOK],
        env: {
          BENCHRIG_PKG_NAME: s.name,
          BENCHRIG_PKG_PREFIX: prefix,
          NODE_PATH: [nodeModules, benchrigPath(tmp)].join(path.delimiter)
        },
        describe: () => {
          binary ??= describeBinary(execPath)
          const sha256 = crypto.createHash('sha256').update(`${binary.sha256}:${s.name}@${installed}`).digest('hex')
          return { ...binary, sha256, binary_sha256: binary.sha256, package: s.name, spec: s.spec, package_version: installed }
        }
      })
    }
  } catch (err) {
    cleanup()
    throw err
  }
  return { sides: /** @type {import('../compare/sides.js').Sides} */ (sides), cleanup }
}

module.exports = { packageSides, parsePackageSpec, HOOK }
