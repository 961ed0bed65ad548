'use strict'
// Metadata that makes a result traceable: which benchrig, which node binary,
// which machine, when, and how busy it was. Shared by run (NDJSON) and compare.
const os = require('node:os')
const fs = require('node:fs')
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

/** The CPU frequency governor of CPU 0, where Linux exposes it. */
function readGovernor () {
  try {
    return fs.readFileSync('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'utf8').trim()
  } catch {
    return undefined
  }
}

/**
 * @param {{execPath?: string, date?: Date}} [opts] execPath: the node binary under test
 * @returns {{benchrig: string, node: {version: string|undefined, path: string},
 *   driverNode: {version: string, path: string}, cpu: {model: string|undefined, count: number},
 *   os: {platform: string, release: string, arch: string}, governor: string|undefined,
 *   loadavg: number[], date: string, hostname: string}}
 */
function collectMeta ({ execPath = process.execPath, date = new Date() } = {}) {
  const cpus = os.cpus()
  const meta = {
    benchrig: require('../../package.json').version,
    node: { version: nodeVersionOf(execPath), path: execPath },
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

module.exports = { collectMeta, nodeVersionOf }
