'use strict'
// Where compare rows go: a CSV file written with one fs.writeSync per row
// (so an interrupted run keeps every finished row), or stdout; and an
// optional NDJSON file with the metadata.
const fs = require('node:fs')
const { csvRow } = require('../report/csv.js')
const { UsageError } = require('../errors.js')

/** Node core's five columns first, then ours. */
const COLUMNS = ['binary', 'filename', 'configuration', 'rate', 'time', 'pair', 'order', 'run', 'seed', 'start', 'configs', 'measure']

/**
 * Opens a file the user named for writing; a path that cannot be written is
 * a usage error naming the flag, raised before any benchmark runs.
 * @param {string} file
 * @param {'w'|'a'} mode
 * @param {string} flag e.g. '--output'
 */
function openForWriting (file, mode, flag) {
  try {
    return fs.openSync(file, mode)
  } catch (err) {
    if (!err.code) throw err
    const why = err.code === 'ENOENT' ? 'its folder does not exist' : err.code === 'EISDIR' ? 'it is a folder' : err.code === 'EACCES' ? 'permission denied' : err.code
    throw new UsageError(`${flag} ${file}: cannot write it (${why}); give a file in an existing, writable folder`)
  }
}

/** @param {object} row */
function rowValues (row) {
  return COLUMNS.map((c) => row[c])
}

/**
 * @param {{file?: string, append?: boolean, stdout?: NodeJS.WritableStream, flag?: string}} opts
 *   append: the file already holds a header (resume); flag: the option that named the file
 */
function createCsvSink ({ file, append = false, stdout = process.stdout, flag = '--output' }) {
  if (file === undefined) {
    stdout.write(csvRow(COLUMNS))
    return { write: (row) => stdout.write(csvRow(rowValues(row))), close () {} }
  }
  const fd = openForWriting(file, append ? 'a' : 'w', flag)
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
  const fd = openForWriting(file, append ? 'a' : 'w', '--ndjson')
  fs.writeSync(fd, JSON.stringify({ schema: 'benchrig-compare/1', type: 'meta', ...meta }) + '\n')
  return {
    write: (row, extra) => { fs.writeSync(fd, JSON.stringify({ schema: 'benchrig-compare/1', type: 'measurement', ...row, ...(extra ? { extra } : {}) }) + '\n') },
    writeFailure: (f) => { fs.writeSync(fd, JSON.stringify({ schema: 'benchrig-compare/1', type: 'failure', ...f }) + '\n') },
    close: () => fs.closeSync(fd)
  }
}

module.exports = { COLUMNS, createCsvSink, createNdjsonSink, openForWriting }
