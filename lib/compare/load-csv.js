'use strict'
// Reads a compare CSV (ours, or Node core's five columns) into rows for
// lib/stats/analyze.js, with errors that name the file.
const fs = require('node:fs')
const { parseCsvRecords } = require('../record/csv.js')
const { UsageError } = require('../errors.js')

const REQUIRED = ['binary', 'filename', 'configuration', 'rate']

/**
 * @param {string} text
 * @param {string} where file name (or "stdin") for messages
 */
function rowsFromCsvText (text, where) {
  let parsed
  try {
    parsed = parseCsvRecords(text)
  } catch (err) {
    throw new UsageError(`${where}: not valid CSV (${err.message})`)
  }
  // `cat a.csv b.csv`: the second file's header is a record that repeats
  // the header; drop it, so concatenated runs read as the files would
  parsed.records = parsed.records.filter((r) => !parsed.header.every((h) => r[h] === h))
  const missing = REQUIRED.filter((c) => !parsed.header.includes(c))
  if (missing.length > 0) {
    throw new UsageError(`${where}: no "${missing.join('", "')}" column; give a CSV written by compare.js (header "binary","filename","configuration","rate","time",...)`)
  }
  const binaries = new Set(parsed.records.map((r) => r.binary))
  if (parsed.records.length > 0 && (!binaries.has('old') || !binaries.has('new'))) {
    throw new UsageError(`${where}: the "binary" column must hold both "old" and "new" rows (found ${[...binaries].join(', ') || 'none'})`)
  }
  return parsed.records
}

/** @param {string} file path, or "-" for stdin */
function readCompareCsv (file) {
  let text
  try {
    text = fs.readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (err) {
    throw new UsageError(`${file}: cannot read it (${err.code || err.message})`)
  }
  return rowsFromCsvText(text, file === '-' ? 'stdin' : file)
}

module.exports = { readCompareCsv, rowsFromCsvText }
