'use strict'
// The CPU sets of compare --duet: --cpuset-old/--cpuset-new, or an even
// split of this machine's CPUs; refused before any run when there are fewer
// than 2 CPUs or the sets overlap; a warning when a CPU of one set is an SMT
// sibling of a CPU of the other (two hardware threads of one core share its
// execution units, so one side's work slows the other's).
const fs = require('node:fs')
const os = require('node:os')
const { UsageError } = require('../errors.js')
const { parseCpuList, cpusetPrefix } = require('../harness/cpuset.js')

/**
 * @param {{old?: string, new?: string}} given --cpuset-old, --cpuset-new
 * @param {{cpuCount?: number, siblings?: (cpu: number) => number[], platform?: string, hasTaskset?: () => boolean}} [env] for tests
 * @returns {{sets: [string, string], warnings: string[]}} the two CPU lists (A, B) and warnings
 */
function duetCpuSets (given, env = {}) {
  const count = env.cpuCount ?? os.cpus().length
  if (count < 2) throw new UsageError(`--duet runs old and new at once, each on its own CPUs; this machine has ${count} CPU: run without --duet`)
  if ((given.old === undefined) !== (given.new === undefined)) throw new UsageError('--cpuset-old and --cpuset-new go together: give both, or neither for an even split of the CPUs')
  let a
  let b
  if (given.old !== undefined) {
    a = given.old
    b = given.new
  } else {
    const half = Math.floor(count / 2)
    a = half === 1 ? '0' : `0-${half - 1}`
    b = 2 * half - 1 === half ? String(half) : `${half}-${2 * half - 1}`
  }
  const A = parseCpuList(a)
  const B = parseCpuList(b)
  const both = A.filter((c) => B.includes(c))
  if (both.length > 0) throw new UsageError(`--cpuset-old ${a} and --cpuset-new ${b} share CPU ${both.join(', ')}: give the two sides disjoint CPU sets`)
  cpusetPrefix(a, env)
  cpusetPrefix(b, env)
  const siblings = env.siblings ?? smtSiblings
  const warnings = []
  const shared = A.filter((c) => siblings(c).some((s) => s !== c && B.includes(s)))
  if (shared.length > 0) warnings.push(`--duet: CPU ${shared.join(', ')} of ${a} and CPUs of ${b} are SMT siblings (hardware threads of one core): each side's work slows the other's; give CPU sets of different cores if the machine has them`)
  return { sets: [a, b], warnings }
}

/** The SMT siblings of a CPU (itself included), from sysfs; [cpu] when unknown. */
function smtSiblings (cpu) {
  try {
    return parseCpuList(fs.readFileSync(`/sys/devices/system/cpu/cpu${cpu}/topology/thread_siblings_list`, 'utf8').trim())
  } catch {
    return [cpu]
  }
}

module.exports = { duetCpuSets, smtSiblings }
