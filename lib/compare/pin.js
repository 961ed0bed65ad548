'use strict'
// Serial pairs on one CPU (the default of compare's serial executor where
// Linux and taskset allow it): both runs of a pair are pinned to the same
// CPU, drawn per pair from the seeded stream of the plan (recorded in the
// "cpuset" column), so a pair's ratio carries no difference between CPUs;
// over the pairs every CPU is used, so no CPU's speed decides the result.
// --float restores Node core's unpinned runs. A file that serves HTTP
// (bench.http(): a server and a load generator in one run) floats: one CPU
// would make the two take turns and measure the client.
const fs = require('node:fs')
const os = require('node:os')
const { createRng } = require('../prng.js')
const { allowedCpus, canPin } = require('../harness/cpu-probe.js')
const { parseCpuList } = require('../harness/cpuset.js')

/** At most this many CPUs are probed before a pair (a probe of one costs ~10 ms). */
const PROBE_CPUS = 8

/**
 * How a compare run places its runs on CPUs, and which CPUs it probes.
 * @param {{float?: boolean, cpuset?: string, duet?: {sets: [string, string]}}} opts
 * @param {{allowed?: number[], canPin?: () => boolean}} [env] for tests
 * @returns {{mode: 'one-cpu'|'cpuset'|'duet'|'float', cpus: number[], probe: number[]}}
 *   cpus: the CPUs a pair's CPU is drawn from (one-cpu); probe: the CPUs probed before each pair
 */
function placement (opts, env = {}) {
  const pinnable = (env.canPin ?? canPin)()
  const allowed = env.allowed ?? allowedCpus() ?? os.cpus().map((_, i) => i)
  const probe = (cpus) => (pinnable ? cpus.slice(0, PROBE_CPUS) : [])
  if (opts.duet) return { mode: 'duet', cpus: [], probe: probe([...parseCpuList(opts.duet.sets[0]), ...parseCpuList(opts.duet.sets[1])]) }
  if (opts.cpuset !== undefined) return { mode: 'cpuset', cpus: [], probe: probe(parseCpuList(opts.cpuset)) }
  if (opts.float || !pinnable || allowed.length < 2) return { mode: 'float', cpus: [], probe: probe(allowed) }
  return { mode: 'one-cpu', cpus: allowed, probe: probe(allowed) }
}

/**
 * The CPU of a pair: seeded by the plan's seed, the file and the pair, so a
 * resumed run puts a pair's missing run where its first one ran.
 * @param {number} seed
 * @param {string} name
 * @param {number} pair
 * @param {number[]} cpus
 */
function cpuForPair (seed, name, pair, cpus) {
  let h = (seed ^ 0x5bd1e995) >>> 0
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0
  return cpus[createRng((h ^ Math.imul(pair, 0x9e3779b1)) >>> 0).int(cpus.length)]
}

const serves = new Map()

/**
 * True when a benchmark file serves HTTP (calls bench.http()): it floats.
 * @param {string} file
 */
function servesHttp (file) {
  if (!serves.has(file)) {
    let src = ''
    try { src = fs.readFileSync(file, 'utf8') } catch {}
    serves.set(file, /\.http\s*\(/.test(src))
  }
  return serves.get(file)
}

module.exports = { placement, cpuForPair, servesHttp, PROBE_CPUS }
