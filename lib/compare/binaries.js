'use strict'
// Checks the --old/--new binaries before anything runs, and describes them
// (version, path, sha256) for the metadata.
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { spawnSync } = require('node:child_process')
const { UsageError } = require('../errors.js')

/**
 * Resolves a binary given on the command line: a path, or a name on PATH.
 * Throws a UsageError naming the flag when it is missing or not executable.
 * @param {string|undefined} bin
 * @param {string} flag '--old' or '--new'
 * @returns {string} absolute path
 */
function resolveBinary (bin, flag) {
  if (!bin) throw new UsageError(`${flag} is required: give the node binary (or a wrapper script) to compare, e.g. ${flag} ./out/Release/node`)
  let candidate
  if (bin.includes('/')) candidate = path.resolve(bin)
  else {
    for (const dir of (process.env.PATH || '').split(path.delimiter)) {
      const p = path.join(dir, bin)
      if (dir && fs.existsSync(p)) { candidate = p; break }
    }
    if (!candidate) throw new UsageError(`${flag} ${bin}: not found on PATH; give a path to the binary`)
  }
  let st
  try {
    st = fs.statSync(candidate)
  } catch {
    throw new UsageError(`${flag} ${bin}: no such file; give the path of a node binary or wrapper script`)
  }
  if (!st.isFile()) throw new UsageError(`${flag} ${bin}: not a file; give the path of a node binary or wrapper script`)
  try {
    fs.accessSync(candidate, fs.constants.X_OK)
  } catch {
    throw new UsageError(`${flag} ${bin}: not executable; run chmod +x ${bin} or give another binary`)
  }
  checkRuns(candidate, bin, flag)
  return candidate
}

/**
 * A binary that cannot run `BIN -e 0` would fail every run of the comparison:
 * one usage error before anything starts instead.
 */
function checkRuns (candidate, bin, flag) {
  const r = spawnSync(candidate, ['-e', '0'], { encoding: 'utf8', timeout: 60000 })
  if (r.status === 0) return
  const why = r.error
    ? /** @type {NodeJS.ErrnoException} */ (r.error).code === 'ETIMEDOUT' ? 'did not finish within 60 s' : r.error.message
    : r.signal ? `was killed by ${r.signal}` : `exited with code ${r.status}`
  const said = String(r.stderr || '').trim().split('\n').slice(-2).join(' ').slice(0, 200)
  throw new UsageError(`${flag} ${bin}: "${bin} -e 0" ${why}${said ? ` (${said})` : ''}; give a node binary, or a wrapper that passes its arguments to node`)
}

/**
 * @param {string} bin absolute path
 * @returns {{path: string, version: string|null, sha256: string}}
 */
function describeBinary (bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10000 })
  const version = r.status === 0 ? r.stdout.trim() : null
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(bin)).digest('hex')
  return { path: bin, version, sha256 }
}

module.exports = { resolveBinary, describeBinary }
