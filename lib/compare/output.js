'use strict'
// Where compare rows go: a CSV file written with one fs.writeSync per row
// (so an interrupted run keeps every finished row), or stdout; and an
// optional NDJSON file with the metadata.
const fs = require('node:fs')
const { csvRow, nodeTime } = require('../record/csv.js')
const { UsageError } = require('../errors.js')

/**
 * Node core's five columns first, then ours. Node's compare.R reads the file
 * with colClasses c('character','character','character','numeric','numeric'),
 * which R recycles over further columns: column k+5 is read with the type of
 * column k. So columns 9, 10, 14, 15, 19, 20, 24, 25, 29 and 30 (4 and 5 modulo 5) hold
 * only bare numbers or nothing: seed, start (epoch milliseconds), shard_index,
 * shard_count, section_start, section_end, alloc_bytes, max_rss_kb, cpu_speed and cpu_spread; the others may hold any text
 * (a number in a text column is read as text, which the analyses convert). test/r/node-contract.test.js
 * reads every CSV we write with that exact call.
 */
const COLUMNS = [
  'binary', 'filename', 'configuration', 'rate', 'time', // 1-5: Node core's
  'pair', 'order', 'run', 'seed', 'start', // 6-8 text, 9-10 numeric
  'configs', 'measure', 'plan', 'shard_index', 'shard_count', // 11-13 text, 14-15 numeric
  'host', 'executor', 'rule', // 16-18 text
  'section_start', 'section_end', // 19-20 numeric: a duet run's measured section (epoch ms)
  'cpuset', 'starved', 'section_cpu', // 21-23 text: a duet side's CPUs, a starved pair, its CPU seconds in the section
  'alloc_bytes', 'max_rss_kb', // 24-25 numeric: bytes allocated on the V8 heap (--measure heap), max RSS
  'gc_ms', 'server_cpu_us', 'generator_bound', // 26-28 text: GC time, bench.http(): the server's CPU µs per request, "true" when the generator was the limit
  'cpu_speed', 'cpu_spread', // 29-30 numeric: the probe before the pair: this run's CPU(s) speed (loop iterations per µs), fastest over slowest CPU probed
  'cpu_block' // 31 text: a duet crossover block (two pairs: old on set A, then on set B, in a seeded order)
]

/** Columns read as numbers by Node's recycled colClasses (1-based k with k % 5 of 4 or 0). */
const NUMERIC_COLUMNS = COLUMNS.filter((_, i) => (i + 1) % 5 === 4 || (i + 1) % 5 === 0)

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

/**
 * A row's values in column order; a numeric column gets a number (time: in
 * Node core's nine-decimal text) or nothing
 * (a value that is not a finite number would break Node's reader).
 * @param {object} row
 */
function rowValues (row) {
  return COLUMNS.map((c) => {
    const v = row[c]
    if (!NUMERIC_COLUMNS.includes(c)) return v
    if (v === undefined || v === null || v === '') return undefined
    const n = Number(v)
    if (!Number.isFinite(n)) throw new TypeError(`compare CSV column "${c}" takes numbers, got ${JSON.stringify(v)}`)
    // time: Node core's text of it (nine decimals), as its compare.js writes it
    return c === 'time' ? nodeTime(n) : n
  })
}

/**
 * @param {{file?: string, append?: boolean, stdout?: {write: (s: string) => unknown}, flag?: string}} opts
 *   stdout: only written to (compare.js passes a null sink with --analyze)
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
    /** @param {object[]} stops per configuration: the rule that stopped it, after how many pairs, why */
    writeStops: (stops) => { for (const s of stops) fs.writeSync(fd, JSON.stringify({ schema: 'benchrig-compare/1', type: 'stop', ...s }) + '\n') },
    close: () => fs.closeSync(fd)
  }
}

module.exports = { COLUMNS, NUMERIC_COLUMNS, rowValues, createCsvSink, createNdjsonSink, openForWriting }
