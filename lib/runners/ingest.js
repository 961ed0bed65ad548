'use strict'
// Runner outputs read directly, without compare: `analyze --runner R --old
// FILE... --new FILE...` (each file one run of its side: rows without pairs,
// so the analysis is unpaired) and `history add --runner R --label L FILE...`
// (each task one series). The file's tasks are its configurations; the
// filename of the rows is the runner's name. A file that is not the
// runner's output is one error naming the file and the runner.
const fs = require('node:fs')
const { UsageError } = require('../errors.js')
const { runnerFor, readRunnerOutput } = require('./index.js')

/** @param {string} file */
function readText (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`${file}: cannot read it (${err.code || err.message})`)
  }
}

/**
 * The rows of labelled runs: --old and --new files of one runner.
 * @param {{runner?: string, old?: string[], new?: string[]}} v analyze's parsed values
 * @returns {{file: string, rows: Record<string, any>[], meta?: Record<string, any>, profiles?: any[]}[]|undefined} undefined without --runner
 */
function runnerInputs (v) {
  if (v.runner === undefined) {
    if (v.old !== undefined || v.new !== undefined) throw new UsageError('--old and --new name the runs of a runner\'s output files: give --runner R too')
    return undefined
  }
  const runner = runnerFor(v.runner, '--runner')
  if (!v.old?.length || !v.new?.length) throw new UsageError(`--runner ${v.runner}: give the runs of each side, --old FILE and --new FILE (each repeatable: one file per run of the runner)`)
  const inputs = []
  let run = 0
  for (const side of /** @type {const} */ (['old', 'new'])) {
    for (const file of v[side]) {
      const result = readRunnerOutput(runner, readText(file), file)
      run++
      inputs.push({ file, rows: result.tasks.map((t) => ({ binary: side, filename: runner.name, configuration: t.name, rate: t.rate, time: '', run, measure: 'wall', configs: result.tasks.length })) })
    }
  }
  return inputs
}

/**
 * History records of one runner output file.
 * @param {string} file
 * @param {string} text
 * @param {{runner: string, label?: string}} opts
 * @returns {{kind: string, records: import('../history/ingest.js').HistoryRecord[]}}
 */
function runnerRecords (file, text, opts) {
  const runner = runnerFor(opts.runner, '--runner')
  const result = readRunnerOutput(runner, text, file)
  if (opts.label === undefined) throw new UsageError(`${file}: ${runner.name} output carries no version; give --label L`, 'BENCHRIG_ERR_HISTORY_LABEL')
  return { kind: runner.name, records: result.tasks.map((t) => ({ file: runner.name, configuration: t.name, measure: 'wall', value: t.rate, label: opts.label, env: {} })) }
}

module.exports = { runnerInputs, runnerRecords }
