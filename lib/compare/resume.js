'use strict'
// --resume FILE: keeps the finished pairs of an interrupted compare, drops
// the rows of runs that did not finish (fewer rows than the file's
// configurations) and of pairs whose other run did not, and tells the
// scheduler which runs are left. A pair is run again whole rather than
// completed by its missing side: its two runs belong together in time (the
// drift of the machine cancels in their ratio; a duet pair shares its
// barrier), and an interruption may lie hours between them. The run's
// --ndjson FILE loses the same records, so both files hold the same rows.
// Whether the file is the same comparison (sides, seed, plan) is checked
// against FILE.sides.json first (sides-file.js), before anything is rewritten.
const fs = require('node:fs')
const { parseCsvRecords, csvRow } = require('../record/csv.js')
const { UsageError } = require('../errors.js')
const { COLUMNS, rowValues } = require('./output.js')
const { runKey } = require('./schedule.js')

/**
 * Reads a compare CSV for resuming and rewrites it with complete runs only.
 * @param {string} file
 * @returns {{seed: number|undefined, done: Set<string>, rows: object[], maxPair: number, dropped: number}}
 */
function loadForResume (file) {
  const r = readForResume(file)
  r.rewrite()
  return r
}

/**
 * Reads a compare CSV for resuming, touching nothing: rewrite() then keeps
 * its complete runs only (after every check has passed).
 * @param {string} file
 * @returns {{seed: number|undefined, done: Set<string>, rows: object[], maxPair: number, dropped: number, rewrite: () => void}}
 */
function readForResume (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`--resume ${file}: cannot read it (${err.code || err.message}); give the --output file of the interrupted run`)
  }
  const { header, records } = parseCsvRecords(text)
  if (header.length === 0) return { seed: undefined, done: new Set(), rows: [], maxPair: 0, dropped: 0, rewrite () {} }
  for (const col of ['binary', 'filename', 'configuration', 'rate', 'pair', 'seed', 'configs']) {
    if (!header.includes(col)) {
      throw new UsageError(`--resume ${file}: the CSV has no "${col}" column; only files written by compare --output can be resumed`)
    }
  }
  const groups = new Map()
  let seed
  for (const r of records) {
    if (seed === undefined && r.seed !== '') seed = Number(r.seed)
    const key = runKey(r.filename, r.binary, Number(r.pair))
    const g = groups.get(key) ?? []
    g.push(r)
    groups.set(key, g)
  }
  const finished = new Set()
  for (const [key, g] of groups) {
    const configs = Number(g[0].configs)
    const unique = new Set(g.map((r) => r.configuration))
    if (Number.isFinite(configs) && unique.size >= configs) finished.add(key)
  }
  const done = new Set()
  const rows = []
  let maxPair = 0
  for (const [key, g] of groups) {
    const { filename, pair } = g[0]
    const whole = finished.has(runKey(filename, 'old', Number(pair))) && finished.has(runKey(filename, 'new', Number(pair)))
    if (whole) {
      done.add(key)
      const seen = new Set()
      for (const r of g) {
        if (seen.has(r.configuration)) continue
        seen.add(r.configuration)
        rows.push(r)
        maxPair = Math.max(maxPair, Number(r.pair))
      }
    }
  }
  const dropped = records.length - rows.length
  // Rewritten when runs were dropped, or when the file has an older layout
  // (the rows appended next must fall under the same header).
  const rewrite = () => {
    if (dropped > 0 || header.join(',') !== COLUMNS.join(',')) fs.writeFileSync(file, csvRow(COLUMNS) + rows.map((r) => csvRow(rowValues(typedRow(r)))).join(''))
  }
  return { seed, done, rows, maxPair, dropped, rewrite }
}

// A row read back from the file: the columns we write bare (numbers) become
// numbers again so that they are written bare; files of an older layout
// (ISO dates in "start", fewer columns) are rewritten in today's layout.
const BARE = new Set(['rate', 'time', 'pair', 'order', 'run', 'seed', 'start', 'configs', 'shard_index', 'shard_count', 'section_start', 'section_end', 'section_cpu', 'alloc_bytes', 'max_rss_kb', 'gc_ms', 'server_cpu_us'])
function typedRow (r) {
  const out = {}
  for (const c of COLUMNS) {
    const v = r[c]
    if (v === undefined || v === '') continue
    if (c === 'start' && !/^-?[\d.]+(e[+-]?\d+)?$/i.test(v)) {
      const ms = Date.parse(v)
      if (Number.isFinite(ms)) out.start = ms
      continue
    }
    out[c] = BARE.has(c) && Number.isFinite(Number(v)) ? Number(v) : v
  }
  return out
}

/**
 * Rewrites the --ndjson file of a resumed run with what the CSV kept: its
 * metadata and failure records, and the measurement records of the kept
 * runs (each configuration once); the stop records of the interrupted run
 * go, the resumed run writes its own at its end.
 * @param {string} file
 * @param {Set<string>} done runKey()s kept (loadForResume)
 * @returns {number} measurement records dropped
 */
function trimNdjsonForResume (file, done) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return 0 // no NDJSON yet
  }
  const seen = new Set()
  let dropped = 0
  const kept = text.split('\n').filter((line) => {
    if (line.trim() === '') return false
    let rec
    try {
      rec = JSON.parse(line)
    } catch {
      throw new UsageError(`--ndjson ${file}: a line is not JSON; give the --ndjson file of the interrupted run, or a new file`)
    }
    if (rec.type === 'stop') return false
    if (rec.type !== 'measurement') return true
    const key = runKey(rec.filename, rec.binary, Number(rec.pair))
    const row = `${key}\u0000${rec.configuration}`
    if (!done.has(key) || seen.has(row)) {
      dropped++
      return false
    }
    seen.add(row)
    return true
  })
  fs.writeFileSync(file, kept.map((l) => l + '\n').join(''))
  return dropped
}

module.exports = { loadForResume, readForResume, trimNdjsonForResume }
