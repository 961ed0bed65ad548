'use strict'
// Runs a command pinned to one CPU under bash and reads its CPU time from
// the shell's `times` (user and system of its children, so every thread
// and process of the tool counts). Shared by the bench scripts that compare
// clients per CPU-second.
const { spawnSync } = require('node:child_process')

/**
 * @param {string[]} argv the command
 * @param {string} [cpu] taskset's CPU list (default 0)
 * @returns {{out: string, cpu: number, user: number, sys: number}} stdout (without the times lines) and CPU seconds
 */
function measurePinned (argv, cpu = '0') {
  const r = spawnSync('bash', ['-c', `taskset -c ${cpu} "$@" 2>/dev/null; times`, 'bench', ...argv], { encoding: 'utf8', maxBuffer: 64 << 20 })
  const lines = r.stdout.trimEnd().split('\n')
  const times = lines.pop()
  lines.pop() // the shell's own times
  const secs = times.trim().split(/\s+/).map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t)
    return Number(m[1]) * 60 + Number(m[2])
  })
  return { out: lines.join('\n'), cpu: secs[0] + secs[1], user: secs[0], sys: secs[1] }
}

module.exports = { measurePinned }
