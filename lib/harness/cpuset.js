'use strict'
// --cpuset LIST: pins a benchmark file (its root and children) to CPUs with
// `taskset -c LIST`. Checked once, before anything runs, so a bad list or a
// missing taskset is a clear error rather than a failed child per file.
const os = require('node:os')
const { spawnSync } = require('node:child_process')
const { UsageError, ToolMissingError } = require('../errors.js')

const LIST_RE = /^\d+(-\d+)?(,\d+(-\d+)?)*$/

/**
 * Expands a taskset CPU list ("0,2-3") into CPU numbers.
 * @param {string} list
 * @returns {number[]}
 */
function parseCpuList (list) {
  if (typeof list !== 'string' || !LIST_RE.test(list)) {
    throw new UsageError(`--cpuset ${list}: not a CPU list; use numbers and ranges such as 0, 1-3 or 0,2`)
  }
  const cpus = new Set()
  for (const part of list.split(',')) {
    const [a, b = a] = part.split('-').map(Number)
    if (b < a) throw new UsageError(`--cpuset ${list}: the range ${part} runs backwards`)
    for (let c = a; c <= b; c++) cpus.add(c)
  }
  return [...cpus].sort((x, y) => x - y)
}

/**
 * Validates a --cpuset value for this machine and returns the command prefix
 * that applies it.
 * @param {string} list
 * @param {{platform?: string, cpuCount?: number, hasTaskset?: () => boolean}} [env] for tests
 * @returns {string[]} e.g. ['taskset', '-c', '0,1']
 */
function cpusetPrefix (list, env = {}) {
  const platform = env.platform ?? process.platform
  if (platform !== 'linux') {
    throw new UsageError(`--cpuset needs Linux (taskset); this is ${platform}: run without --cpuset`)
  }
  const cpus = parseCpuList(list)
  const count = env.cpuCount ?? os.cpus().length
  const bad = cpus.filter((c) => c >= count)
  if (bad.length > 0) {
    throw new UsageError(`--cpuset ${list}: CPU ${bad.join(', ')} does not exist; this machine has CPUs 0-${count - 1}`)
  }
  const hasTaskset = env.hasTaskset ?? (() => !spawnSync('taskset', ['--version'], { stdio: 'ignore' }).error)
  if (!hasTaskset()) {
    throw new ToolMissingError('taskset', 'install the Debian package "util-linux" or run without --cpuset')
  }
  return ['taskset', '-c', list]
}

module.exports = { parseCpuList, cpusetPrefix }
