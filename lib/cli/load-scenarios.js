'use strict'
// `benchrig load --scenarios FILE`: the flag, and what the command prints of
// a scenarios run beside what it prints of any run (the engine's side is
// lib/engine/scenarios/). The URLs on the command line, if any, are the
// default target of scenarios without a `url`; the flags of the request
// (-m, -H, -b, -t, --h2, -w, ...) are defaults too; the flags that an
// executor sets (-c, -d, -a, -R, --stages, ...) are refused by the engine;
// --shard I/N is passed to the engine, which splits each scenario.
const { UsageError } = require('../errors.js')

/** @type {import('./help.js').OptionSpec[]} */
const SCENARIO_OPTIONS = [
  { name: 'scenarios', type: 'string', value: 'FILE', group: 'Rate and traffic shape', describe: 'several named workloads at once, k6\'s scenarios: a .json or .js file { scenarios: { NAME: { executor, startTime, url, ... } }, thresholds }; executors constant-arrival-rate, ramping-arrival-rate, constant-vus, ramping-vus, shared-iterations, per-vu-iterations; results per scenario and overall (docs/load.md "Scenarios")' }
]

const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

/**
 * The scenarios file of the command, if it runs scenarios (the engine
 * refuses the flags an executor sets).
 * @param {Record<string, any>} args
 * @returns {string|undefined} the file
 */
function scenariosFile (args) {
  const file = last(args.scenarios)
  if (file === undefined) return undefined
  if (String(file) === '') throw new UsageError('--scenarios needs a file: --scenarios scenarios.json')
  return String(file)
}

/**
 * The header of a scenarios run (stderr), one line per scenario.
 * @param {{plan: {scenarios: {name: string, executor: string, startTimeMs: number, durationMs: number, opts: {urls: string[]}}[]}}} run
 */
function scenarioLines (run) {
  const list = run.plan.scenarios
  const rows = list.map((s) => `  ${s.name}: ${s.executor}, from ${s.startTimeMs / 1000}s for ${s.durationMs / 1000}s${s.executor.endsWith('iterations') ? ' at most' : ''} @ ${s.opts.urls.join(',')}`)
  return `Running ${list.length} scenario${list.length === 1 ? '' : 's'}\n${rows.join('\n')}\n\n`
}

/**
 * The thresholds of each scenario (the overall ones are the run's own,
 * printed by the caller): a block per scenario with its verdicts under the
 * text result, and one stderr line per failure naming the scenario.
 * @param {Record<string, any>} result
 * @param {boolean} json
 * @param {{stderr: NodeJS.WritableStream}} io
 * @returns {boolean} whether one failed
 */
function reportScenarioThresholds (result, json, io) {
  if (result.scenarios === undefined) return false
  // lazy: only --scenarios with thresholds reports them
  const { formatThresholds, failureLines } = require('../engine/thresholds.js')
  let failed = false
  for (const [name, r] of Object.entries(result.scenarios)) {
    if (r.thresholds === undefined || r.thresholds.length === 0) continue
    if (!json) io.stderr.write(`Thresholds of scenario "${name}":\n${formatThresholds(r.thresholds).join('\n')}\n`)
    for (const line of failureLines(r.thresholds)) {
      io.stderr.write(`benchrig load: scenario "${name}": ${line}\n`)
      failed = true
    }
  }
  return failed
}

module.exports = { SCENARIO_OPTIONS, scenariosFile, scenarioLines, reportScenarioThresholds }
