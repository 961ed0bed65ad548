'use strict'
// Metadata that makes a result traceable: which benchrig, which node binary,
// which machine, when, and how busy it was. Shared by run (NDJSON) and compare.
const os = require('node:os')
const fs = require('node:fs')
const crypto = require('node:crypto')
const { spawnSync } = require('node:child_process')

const versions = new Map()

/**
 * The version of a node binary ("v20.20.2"), asked once per path.
 * @param {string} execPath
 * @returns {string|undefined}
 */
function nodeVersionOf (execPath) {
  if (execPath === process.execPath) return process.version
  if (!versions.has(execPath)) {
    const r = spawnSync(execPath, ['-p', 'process.version'], { encoding: 'utf8', timeout: 10000 })
    versions.set(execPath, r.status === 0 ? r.stdout.trim() : undefined)
  }
  return versions.get(execPath)
}

const hashes = new Map()

/**
 * sha256 of a file (a node binary), hashed once per path, size and mtime: a
 * run hashes its binary once, however many files and records it writes.
 * @param {string} file
 * @returns {string|undefined} undefined when the file cannot be read
 */
function fileSha256 (file) {
  let st
  try { st = fs.statSync(file) } catch { return undefined }
  const key = `${file}\0${st.size}\0${st.mtimeMs}`
  if (!hashes.has(key)) {
    try { hashes.set(key, crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')) } catch { return undefined }
  }
  return hashes.get(key)
}

/**
 * The node/V8 flags the driver knows the benchmark children run with, in the
 * order root.js's childFlags puts them: BENCHRIG_FLAGS, Node core's
 * NODE_BENCHMARK_FLAGS, the execArgv the root is started with (a compare
 * side's own), then NODE_OPTIONS, which every child inherits. A file's own
 * `options.flags` are not seen by the driver (the root adds them) and stay
 * out; they are the same for every record of that file anyway.
 * @param {NodeJS.ProcessEnv} [env] the children's environment
 * @param {string[]} [execArgv]
 * @returns {string[]}
 */
function harnessFlags (env = process.env, execArgv = []) {
  const split = (s) => (s || '').split(/\s+/).filter(Boolean)
  return [...split(env.BENCHRIG_FLAGS), ...split(env.NODE_BENCHMARK_FLAGS), ...execArgv, ...split(env.NODE_OPTIONS)]
}

/** The CPU frequency governor of CPU 0, where Linux exposes it. */
function readGovernor () {
  try {
    return fs.readFileSync('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'utf8').trim()
  } catch {
    return undefined
  }
}

/**
 * @param {{execPath?: string, date?: Date, env?: NodeJS.ProcessEnv, execArgv?: string[]}} [opts]
 *   execPath: the node binary under test; env, execArgv: what its children run with (harnessFlags)
 * @returns {{benchrig: string, node: {version: string|undefined, path: string, sha256: string|undefined},
 *   v8Flags: string[],
 *   driverNode: {version: string, path: string}, cpu: {model: string|undefined, count: number},
 *   os: {platform: string, release: string, arch: string}, governor: string|undefined,
 *   loadavg: number[], date: string, hostname: string}}
 */
function collectMeta ({ execPath = process.execPath, date = new Date(), env = process.env, execArgv = [] } = {}) {
  const { benchrig, ...machine } = machineMeta(date)
  return {
    benchrig,
    node: { version: nodeVersionOf(execPath), path: execPath, sha256: fileSha256(execPath) },
    v8Flags: harnessFlags(env, execArgv),
    ...machine
  }
}

/**
 * The part of collectMeta that is not a node binary's: benchrig, the driver,
 * the machine, when. compare describes its two sides itself and takes only
 * this part (hashing the driver's binary would cost it ~0.5 CPU-s a run).
 * @param {Date} [date]
 */
function machineMeta (date = new Date()) {
  const cpus = os.cpus()
  const meta = {
    benchrig: require('../../package.json').version, // lazy: read once per run, in the parent only (a child's start-up)
    driverNode: { version: process.version, path: process.execPath },
    cpu: { model: cpus[0] ? cpus[0].model.trim() : undefined, count: cpus.length },
    os: { platform: process.platform, release: os.release(), arch: process.arch },
    governor: readGovernor(),
    loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
    date: date.toISOString(),
    hostname: os.hostname()
  }
  if (meta.governor === undefined) delete meta.governor
  return meta
}

module.exports = { collectMeta, machineMeta, nodeVersionOf, fileSha256, harnessFlags }
