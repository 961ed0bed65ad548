'use strict'
// The environment fingerprint of a series: CPU model, kernel, governor, node
// version and binary sha256, V8 flags, host. Series of different fingerprints
// are never mixed. One exception: where the label IS the node version (a
// history across node releases), the node version and binary vary with the
// label by design, so they leave the key (the series is "this machine, these
// flags, along node versions"); they stay in the source's metadata.
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const { fileSha256, harnessFlags } = require('../record/meta.js')

/**
 * @typedef {{cpu: string, kernel: string, governor: string, nodeVersion: string,
 *   nodeSha256: string, v8Flags: string, host: string}} Env
 */

const FIELDS = /** @type {(keyof Env)[]} */ (['cpu', 'kernel', 'governor', 'nodeVersion', 'nodeSha256', 'v8Flags', 'host'])

/** @param {Partial<Env>} [e] @returns {Env} */
function normalizeEnv (e = {}) {
  const out = /** @type {Env} */ ({})
  for (const f of FIELDS) out[f] = e[f] === undefined || e[f] === null ? '' : String(e[f]).trim().replace(/\s+/g, ' ')
  return out
}

/** "v20.1.0" and "20.1.0" are the same version. */
const bareVersion = (v) => String(v ?? '').replace(/^v/, '')

/**
 * The env that keys a series for this label (see the header).
 * @param {Partial<Env>} env
 * @param {string} label
 * @returns {{env: Env, hash: string}}
 */
function seriesEnv (env, label) {
  const e = normalizeEnv(env)
  if (e.nodeVersion !== '' && bareVersion(e.nodeVersion) === bareVersion(label)) {
    e.nodeVersion = ''
    e.nodeSha256 = ''
  }
  const hash = crypto.createHash('sha256').update(JSON.stringify(FIELDS.map((f) => e[f]))).digest('hex').slice(0, 16)
  return { env: e, hash }
}

/** Flags as one string (the metadata holds a list; older files may hold a string). */
const flagText = (f) => (Array.isArray(f) ? f.join(' ') : f)

/**
 * The env recorded in our metadata (run NDJSON `meta`: `node` with its sha256
 * and `v8Flags`; compare NDJSON `meta` with its `old`/`new` binaries, each
 * with its sha256 and `v8Flags`). Files written before the flags were
 * recorded read as "no flags", as a run without flags does.
 * @param {any} meta
 * @param {'old'|'new'} [side] for compare metadata
 * @returns {Partial<Env>}
 */
function envFromMeta (meta, side) {
  if (!meta || typeof meta !== 'object') return {}
  const bin = side ? meta[side] ?? {} : meta.node ?? {}
  return {
    cpu: meta.cpu?.model,
    kernel: meta.os?.release,
    governor: meta.governor,
    nodeVersion: bin.version,
    // a git-ref or package side's sha256 names binary and code together; the
    // binary's own (binary_sha256) keys the series, as compare's live sink does
    nodeSha256: bin.binary_sha256 ?? bin.sha256,
    v8Flags: flagText(bin.v8Flags ?? meta.v8Flags),
    host: meta.hostname
  }
}

/** The governor of CPU 0, where Linux shows it. */
function readGovernor () {
  try {
    return fs.readFileSync('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'utf8').trim()
  } catch {
    return ''
  }
}

/**
 * This machine's env, for a command that records as it goes.
 * @param {{nodeVersion?: string, execPath?: string, v8Flags?: string}} [o]
 * @returns {Env}
 */
function localEnv (o = {}) {
  const cpus = os.cpus()
  return normalizeEnv({
    cpu: cpus[0]?.model,
    kernel: os.release(),
    governor: readGovernor(),
    nodeVersion: o.nodeVersion,
    nodeSha256: o.execPath ? fileSha256(o.execPath) : undefined,
    // the same flags run's NDJSON metadata records (report/meta.js), so a live
    // recording and a later add of the NDJSON key the same series
    v8Flags: o.v8Flags ?? harnessFlags(process.env).join(' '),
    host: os.hostname()
  })
}

module.exports = { normalizeEnv, seriesEnv, envFromMeta, localEnv, fileSha256, bareVersion, FIELDS }
