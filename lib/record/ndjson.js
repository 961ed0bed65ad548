'use strict'
// run.js --format ndjson: one JSON object per line: one record per
// measurement (type "result") or failure (type "error"), then a "summary".
// Every line carries `schema`, so a reader can check it understands the
// records, and every result carries the run's metadata (benchrig and node
// version, node path, CPU, OS, date) so that lines can be filtered and
// concatenated across runs and still stand alone.
const { formatConfiguration } = require('./text.js')

const SCHEMA = 'benchrig-run/1'
const CORE = ['schema', 'type', 'filename', 'configuration', 'conf', 'rate', 'time', 'measure', 'run', 'meta']

/**
 * A result record. Extra fields of the report (latency percentiles, errors,
 * benchmarker version ...) become top-level fields; they never replace the core ones.
 * @param {{name: string, conf: object, rate: number, time: number, extra?: object}} report
 * @param {{run?: number, meta?: object, measure?: string}} [ctx] measure: what rate and
 *   time count (wall: seconds; cpu: CPU seconds; instructions: 10^9 instructions)
 */
function resultRecord (report, ctx = {}) {
  const rec = {
    schema: SCHEMA,
    type: 'result',
    filename: report.name,
    configuration: formatConfiguration(report.conf),
    conf: report.conf,
    rate: report.rate,
    time: report.time
  }
  // Absent = wall (the files written before measures existed read the same).
  if (ctx.measure !== undefined && ctx.measure !== 'wall') rec.measure = ctx.measure
  if (ctx.run !== undefined) rec.run = ctx.run
  for (const [k, v] of Object.entries(report.extra || {})) if (!CORE.includes(k)) rec[k] = v
  if (ctx.meta) rec.meta = ctx.meta
  return rec
}

/**
 * @param {{write: (s: string) => unknown}} out
 * @param {object} meta from meta.js collectMeta
 */
function createNdjsonWriter (out, meta, { measure = 'wall' } = {}) {
  const line = (o) => out.write(JSON.stringify(o) + '\n')
  let run
  return {
    start () {},
    file () {},
    setRun (n) { run = n },
    result (r) { line(resultRecord(r, { run, meta, measure })) },
    error (e) { line({ schema: SCHEMA, type: 'error', filename: e.name, configuration: e.conf ? formatConfiguration(e.conf) : null, conf: e.conf, message: e.message, run, meta }) },
    end (summary) { line({ schema: SCHEMA, type: 'summary', ...summary }) }
  }
}

module.exports = { createNdjsonWriter, resultRecord, SCHEMA }
