'use strict'
// Where compare rows go: a CSV file written with one fs.writeSync per row
// (so an interrupted run keeps every finished row), or stdout; and an
// optional NDJSON file with the metadata.
const fs = require('node:fs')
const { csvRow } = require('../report/csv.js')

/** Node core's five columns first, then ours. */
const COLUMNS = ['binary', 'filename', 'configuration', 'rate', 'time', 'pair', 'order', 'run', 'seed', 'start', 'configs']

/** @param {object} row */
function rowValues (row) {
  return COLUMNS.map((c) => row[c])
}

/**
 * @param {{file?: string, append?: boolean, stdout?: NodeJS.WritableStream}} opts
 *   append: the file already holds a header (resume)
 */
function createCsvSink ({ file, append = false, stdout = process.stdout }) {
  if (file === undefined) {
    stdout.write(csvRow(COLUMNS))
    return { write: (row) => stdout.write(csvRow(rowValues(row))), close () {} }
  }
  const fd = fs.openSync(file, append ? 'a' : 'w')
  if (!append) fs.writeSync(fd, csvRow(COLUMNS))
  return {
    write: (row) => { fs.writeSync(fd, csvRow(rowValues(row))) },
    close: () => fs.closeSync(fd)
  }
}

/**
 * NDJSON: a meta record, then one record per measurement (with extra data).
 * @param {string} file
 * @param {object} meta
 * @param {boolean} append
 */
function createNdjsonSink (file, meta, append = false) {
  const fd = fs.openSync(file, append ? 'a' : 'w')
  fs.writeSync(fd, JSON.stringify({ schema: 'benchrig-compare/1', type: 'meta', ...meta }) + '\n')
  return {
    write: (row, extra) => { fs.writeSync(fd, JSON.stringify({ schema: 'benchrig-compare/1', type: 'measurement', ...row, ...(extra ? { extra } : {}) }) + '\n') },
    writeFailure: (f) => { fs.writeSync(fd, JSON.stringify({ schema: 'benchrig-compare/1', type: 'failure', ...f }) + '\n') },
    close: () => fs.closeSync(fd)
  }
}

module.exports = { COLUMNS, createCsvSink, createNdjsonSink }
