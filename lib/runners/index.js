'use strict'
// The readers of the ecosystem's benchmark runners: one module per runner,
// each `{ name, stat, parse(text) -> RunnerResult | undefined }` (pure: the
// runner's output in, its tasks out; undefined when the text is not that
// runner's output). `compare --cmd`, `analyze --runner` and `history add
// --runner` read through readRunnerOutput(), which turns undefined into one
// error naming the source and the runner.
const { UsageError, BenchrigError } = require('../errors.js')

/**
 * @typedef {object} RunnerTask
 * @property {string} name the task (a configuration of the rows)
 * @property {number} rate operations (or runs) per second: the run's value
 * @property {string} stat which of the runner's statistics `rate` is (median or mean)
 * @property {number[]} [samples] the runner's own samples inside the run
 * @property {string} [sampleUnit] their unit (ms, ns, s per operation; ops/s)
 * @property {number} [count] how many samples the runner averaged
 * @property {number} [perSampleNs] the time one sample took (the timer's share)
 * @property {number} [cpuRate] operations per CPU-second, when the runner measures CPU time
 * @typedef {{tasks: RunnerTask[], errors: {name: string, message: string}[], noopRate?: number}} RunnerResult
 * @typedef {{name: string, stat: string, parse: (text: string) => RunnerResult|undefined}} Runner
 */

/** @type {Record<string, () => Runner>} */
const RUNNERS = {
  // lazy: each reader loads when its runner is named (a run reads one runner)
  tinybench: () => require('./tinybench.js'),
  vitest: () => require('./vitest.js'),
  mitata: () => require('./mitata.js'),
  benchmarkjs: () => require('./benchmarkjs.js'),
  'bench-node': () => require('./bench-node.js'),
  'node-bench': () => require('./node-bench.js'),
  hyperfine: () => require('./hyperfine.js')
}
const ALIASES = { 'benchmark.js': 'benchmarkjs', benchmark: 'benchmarkjs', 'node:bench': 'node-bench', 'vitest-bench': 'vitest' }

/** The runner names, as flags take them. */
const RUNNER_NAMES = Object.keys(RUNNERS)

/**
 * The reader of a runner, or a usage error naming the flag and the runners.
 * @param {string|undefined} name
 * @param {string} flag
 * @returns {Runner}
 */
function runnerFor (name, flag) {
  const key = name === undefined ? undefined : (ALIASES[name] ?? name)
  if (key !== undefined && Object.prototype.hasOwnProperty.call(RUNNERS, key)) return RUNNERS[key]()
  if (name === undefined || name === '') throw new UsageError(`${flag} needs a runner: ${RUNNER_NAMES.join(', ')}`, 'BENCHRIG_ERR_RUNNER')
  // lazy: the suggestion code is needed only for an unknown runner's error
  const near = require('../suggest.js').nearest(name, RUNNER_NAMES)
  throw new UsageError(`${flag} ${name}: unknown runner${near ? ` (did you mean ${near}?)` : ''}; use one of ${RUNNER_NAMES.join(', ')}`, 'BENCHRIG_ERR_RUNNER')
}

/**
 * A runner's tasks from its output, or one error naming where the output
 * came from and the runner.
 * @param {Runner} runner
 * @param {string} text
 * @param {string} where "FILE" or "the old side's command ..."
 * @returns {RunnerResult}
 */
function readRunnerOutput (runner, text, where) {
  const r = runner.parse(text)
  if (r === undefined) {
    const shown = text.trim().split('\n').slice(0, 3).join(' | ').slice(0, 80)
    throw new BenchrigError('BENCHRIG_ERR_RUNNER_OUTPUT', `${where}: this is not ${runner.name} output (${shown ? `it starts "${shown}"` : 'it is empty'}); ${HOW[runner.name]}`, { exitCode: 2 })
  }
  if (r.tasks.length === 0 && r.errors.length === 0) {
    throw new BenchrigError('BENCHRIG_ERR_RUNNER_OUTPUT', `${where}: ${runner.name} output with no task in it; ${HOW[runner.name]}`, { exitCode: 2 })
  }
  return r
}

/** What each runner's output must be (docs/runners/NAME.md). */
const HOW = {
  tinybench: 'print the tasks as JSON: console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result })))) (docs/runners/tinybench.md)',
  vitest: 'run "vitest bench --run --outputJson {out}" (docs/runners/tinybench.md)',
  mitata: 'call run({ format: "json" }) (docs/runners/mitata.md)',
  benchmarkjs: 'print String(event.target) on "cycle", or use benchrig/benchmarkjs-reporter (docs/runners/benchmarkjs.md)',
  'bench-node': 'give the suite { reporter: jsonReport } (docs/runners/bench-node.md)',
  'node-bench': 'run node --experimental-bench --bench --bench-reporter=json (docs/runners/node-bench.md)',
  hyperfine: 'run hyperfine --export-json {out} (docs/runners/hyperfine.md)'
}

module.exports = { RUNNERS, RUNNER_NAMES, runnerFor, readRunnerOutput }
