'use strict'
// compare --profile: one more run of each configuration found slower on each
// side, with node's --cpu-prof in the configuration's child (BENCHRIG_FLAGS
// reaches the children only, so the profile is the configuration's own
// process), the same binaries, flags and environment as the measured runs.
// The .cpuprofile files are kept (Chrome DevTools opens them) and reduced to
// the differential self-time table (diff.js).
const fs = require('node:fs')
const path = require('node:path')
const { runBenchmarkFile } = require('../harness/run-file.js')
const { fileOnSide, envOnSide } = require('../compare/sides.js')
const { diffProfiles } = require('./diff.js')

const SAMPLE_INTERVAL_US = 100

/**
 * The key=value arguments that narrow a file to one configuration, from its
 * configuration string (Node core's form: n=100 type='utf8').
 * @param {string} configuration
 * @returns {string[]}
 */
function configurationArgs (configuration) {
  const args = []
  const re = /([^\s=]+)=('(?:[^'\\]|\\.)*'|\S+)/g
  let m
  while ((m = re.exec(configuration)) !== null) {
    const raw = m[2]
    const value = raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw
    args.push(`${m[1]}=${value}`)
  }
  return args
}

/** A file-name-safe name of a configuration. */
function slug (filename, configuration) {
  return `${filename}-${configuration}`.replace(/[^A-Za-z0-9._=-]+/g, '_').slice(0, 120)
}

/**
 * Profiles one configuration on one side; resolves with the profile's path.
 * @returns {Promise<string|undefined>}
 */
async function profileOnce ({ side, file, root, configuration, measure, env, dir, name, runFile }) {
  const tmp = fs.mkdtempSync(path.join(dir, '.run-'))
  try {
    // NODE_V8_COVERAGE (set by c8 and by node's own coverage runs) is made
    // empty: under V8's block-coverage counters the profiler charges a
    // callee's samples to its caller (seen: 75 of 130 samples of hashItems()
    // charged to main() in test/fixtures/profile), so the table would name
    // the wrong function. Empty, not absent: node's child_process copies a
    // parent's NODE_V8_COVERAGE into any env that lacks the key, and an empty
    // value turns coverage off. The measured runs keep it; only this one drops it.
    /** @type {NodeJS.ProcessEnv} */
    const base = { ...(envOnSide(side, env) ?? process.env), NODE_V8_COVERAGE: '' }
    // a sample every 100 µs, not node's 1 ms: a configuration's process often
    // measures for a fraction of a second, and a share estimated from ~100
    // samples moves by several points between two profiles of the same run
    const flags = [base.BENCHRIG_FLAGS, '--cpu-prof', `--cpu-prof-dir=${tmp}`, `--cpu-prof-interval=${SAMPLE_INTERVAL_US}`].filter(Boolean).join(' ')
    await runFile({
      file: fileOnSide(side, file, root),
      execPath: side.execPath,
      execArgv: side.execArgv,
      cwd: side.cwd,
      env: { ...base, BENCHRIG_FLAGS: flags },
      args: configurationArgs(configuration),
      // valgrind and a profiler do not mix: a profile of the instructions measure runs on the wall clock
      measure: measure === 'instructions' ? 'wall' : measure,
      output: fs.createWriteStream('/dev/null')
    })
    const made = fs.readdirSync(tmp).filter((f) => f.endsWith('.cpuprofile'))
    if (made.length === 0) return undefined
    const target = path.join(dir, name)
    fs.renameSync(path.join(tmp, made[0]), target)
    return target
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * Profiles every configuration the analysis found slower, old and new.
 * @param {object} o
 * @param {{filename: string, configuration: string, verdict: string}[]} o.results the analysis' results
 * @param {import('../compare/sides.js').Sides} o.sides
 * @param {string} o.root the plan's benchmark directory
 * @param {string} [o.measure]
 * @param {NodeJS.ProcessEnv} [o.env]
 * @param {string} o.dir where the .cpuprofile files are kept
 * @param {(m: string) => void} [o.log]
 * @param {typeof runBenchmarkFile} [o.runFile]
 * @returns {Promise<{filename: string, configuration: string, files: {old: string, new: string}, rows: import('./diff.js').ProfileRow[]}[]>}
 */
async function profileSlower ({ results, sides, root, measure, env, dir, log = () => {}, runFile = runBenchmarkFile }) {
  const slower = results.filter((r) => r.verdict === 'slower')
  if (slower.length === 0) return []
  fs.mkdirSync(dir, { recursive: true })
  const tables = []
  for (const r of slower) {
    log(`profiling ${r.filename} ${r.configuration} on each side`)
    const file = path.join(root, r.filename)
    const files = {}
    for (const label of /** @type {const} */ (['old', 'new'])) {
      files[label] = await profileOnce({ side: sides[label], file, root, configuration: r.configuration, measure, env, dir, name: `${slug(r.filename, r.configuration)}.${label}.cpuprofile`, runFile })
    }
    if (!files.old || !files.new) {
      log(`no profile of ${r.filename} ${r.configuration}: the configuration's process wrote none (did it fail?)`)
      continue
    }
    const read = (f) => JSON.parse(fs.readFileSync(f, 'utf8'))
    const rows = diffProfiles(read(files.old), read(files.new), { oldBase: sides.old.root ?? root, newBase: sides.new.root ?? root })
    tables.push({ filename: r.filename, configuration: r.configuration, files: { old: files.old, new: files.new }, rows })
  }
  return tables
}

module.exports = { profileSlower, configurationArgs }
