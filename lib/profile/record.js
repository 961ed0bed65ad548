'use strict'
// compare --profile --ndjson: the differential self-time tables travel in the
// NDJSON file itself, one "profile" record per configuration profiled, after
// the measurements. `analyze --format github` reads them from there, so the
// file a CI job uploads is all the PR report needs; the .cpuprofile files are
// named relative to the NDJSON file's folder (keep them beside it for
// Chrome DevTools), never needed for the table.
const fs = require('node:fs')
const path = require('node:path')

const SCHEMA = 'benchrig-compare/1'

/**
 * @typedef {{filename: string, configuration: string, files: {old: string, new: string},
 *   rows: import('./diff.js').ProfileRow[]}} ProfileTable
 */

/**
 * Appends one profile record per table to an NDJSON file compare wrote.
 * @param {string} file the --ndjson file
 * @param {ProfileTable[]} tables
 */
function appendProfileRecords (file, tables) {
  const dir = path.dirname(path.resolve(file))
  const rel = (f) => path.relative(dir, f).split(path.sep).join('/')
  const lines = tables.map((t) => JSON.stringify({
    schema: SCHEMA,
    type: 'profile',
    filename: t.filename,
    configuration: t.configuration,
    files: { old: rel(t.files.old), new: rel(t.files.new) },
    rows: t.rows
  }) + '\n')
  if (lines.length > 0) fs.appendFileSync(file, lines.join(''))
}

/**
 * A profile record back to a table; undefined when it is not one.
 * @param {Record<string, any>} rec
 * @returns {ProfileTable|undefined}
 */
function profileFromRecord (rec) {
  if (rec.type !== 'profile' || typeof rec.filename !== 'string' || !Array.isArray(rec.rows)) return undefined
  return { filename: rec.filename, configuration: String(rec.configuration ?? ''), files: { old: String(rec.files?.old ?? ''), new: String(rec.files?.new ?? '') }, rows: rec.rows }
}

module.exports = { appendProfileRecords, profileFromRecord }
