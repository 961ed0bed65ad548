'use strict'
// --feed FILE: rows of data (CSV with a header, a JSON array of objects, or
// NDJSON) that fill {{column}} in the URL's path, the headers and the body,
// a row per iteration. The file is read and checked once, here, before any
// connection: a row that does not fit is refused with its line. The rows go
// into SharedArrayBuffers (every field's UTF-8 bytes in one, their offsets
// in another, and the shared cursor of sequential mode), which worker
// threads receive without a copy (k6's SharedArray idea);
// scripting/feed.js reads them where the requests are built.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../../errors.js')

const MODES = ['sequential', 'random', 'unique']
const ENDS = ['wrap', 'stop']
const FORMATS = { '.csv': 'csv', '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson' }
const TAG = /\{\{\s*([^{}\s]+)\s*\}\}/g

const given = (v) => v !== undefined && v !== null && v !== false

/**
 * The shared form of a feed, as runner options carry it to every thread.
 * @typedef {object} FeedSpec
 * @property {string} file
 * @property {string[]} columns
 * @property {number} rows
 * @property {SharedArrayBuffer} data the fields' UTF-8 bytes, row by row
 * @property {Int32Array} offsets (over a SharedArrayBuffer) rows * columns + 1 byte offsets into data
 * @property {Int32Array} cursor (over a SharedArrayBuffer) sequential mode's next row, shared by every thread
 * @property {'sequential'|'random'|'unique'} mode
 * @property {'wrap'|'stop'} end
 * @property {number} seed random mode's seed
 * @property {number} connections the run's connections (unique mode's slices)
 */

/**
 * @param {object} o the user's options
 * @param {{connections: number}} base
 * @returns {FeedSpec|undefined}
 */
function normalizeFeed (o, base) {
  if (!given(o.feed)) {
    for (const [k, flag] of [['feedMode', '--feed-mode'], ['feedSeed', '--feed-seed'], ['feedEnd', '--feed-end'], ['feedFormat', '--feed-format']]) {
      if (given(o[k])) throw new UsageError(`${flag} applies to a data feed: add --feed FILE`)
    }
    return undefined
  }
  const file = String(o.feed)
  const mode = given(o.feedMode) ? String(o.feedMode) : 'sequential'
  if (!MODES.includes(mode)) throw new UsageError(`invalid --feed-mode "${mode}": give sequential (one cursor over the file, in order, shared by every connection), random (seeded) or unique (each connection its own rows)`)
  const end = given(o.feedEnd) ? String(o.feedEnd) : 'wrap'
  if (!ENDS.includes(end)) throw new UsageError(`invalid --feed-end "${end}": give wrap (start the rows again) or stop (end the run when they are used up)`)
  if (end === 'stop' && mode === 'random') throw new UsageError('--feed-end stop: random rows never run out; use --feed-mode sequential or unique, or a duration')
  const seed = given(o.feedSeed) ? Number(o.feedSeed) : 1
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new UsageError(`invalid --feed-seed "${o.feedSeed}": give a whole number from 0 to 4294967295`)
  if (given(o.feedSeed) && mode !== 'random') throw new UsageError('--feed-seed seeds --feed-mode random: add it, or drop the seed')
  const format = given(o.feedFormat) ? String(o.feedFormat) : FORMATS[path.extname(file).toLowerCase()]
  if (format === undefined || !Object.values(FORMATS).includes(format)) {
    throw new UsageError(`--feed "${file}": say its format with --feed-format csv, json or ndjson (or name it .csv, .json, .ndjson)`)
  }
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read --feed "${file}": ${err.code || err.message}`)
  }
  const { columns, rows, lines: lineOf } = format === 'csv' ? csvRows(text, file) : jsonRows(text, file, format)
  if (rows.length === 0) throw new UsageError(`--feed "${file}" has no rows: give at least one after the ${format === 'csv' ? 'header' : 'start'}`)
  if (mode === 'unique' && rows.length < base.connections) {
    throw new UsageError(`--feed "${file}" has ${rows.length} rows for ${base.connections} connections: unique mode gives each connection its own rows; give more rows or fewer connections`)
  }
  const spec = /** @type {FeedSpec} */ ({ file, columns, rows: rows.length, ...share(rows, columns.length), mode, end, seed, connections: base.connections })
  // where each row came from, for checkTemplates' messages (not sent to the workers)
  LINES.set(spec, { lines: rows.map((r, i) => lineOf[i]), values: rows })
  return spec
}

/** The lines and values of each feed's rows, while the options are checked. */
const LINES = new WeakMap()

/** CSV with a header row; every row has its fields. */
function csvRows (text, file) {
  const lines = []
  const all = (() => {
    try {
      // lazy: only a CSV feed is parsed as CSV
      return require('../../record/csv.js').parseCsv(text.replace(/^\uFEFF/, ''), lines)
    } catch (err) {
      throw new UsageError(`--feed "${file}": ${err.message}`)
    }
  })()
  const kept = all.map((r, i) => ({ r, line: lines[i] })).filter(({ r }) => !(r.length === 1 && r[0] === ''))
  if (kept.length === 0) throw new UsageError(`--feed "${file}" is empty: give a header row of column names, then rows`)
  const columns = kept[0].r
  checkColumns(columns, file, kept[0].line)
  const rows = kept.slice(1).map(({ r, line }) => {
    if (r.length !== columns.length) throw new UsageError(`--feed "${file}" line ${line}: ${r.length} fields where the header has ${columns.length} (${columns.join(', ')})`)
    return r
  })
  return { columns, rows, lines: kept.slice(1).map(({ line }) => line) }
}

/** A JSON array of flat objects, or NDJSON: one such object a line. */
function jsonRows (text, file, format) {
  let items
  if (format === 'json') {
    let all
    try {
      all = JSON.parse(text)
    } catch (err) {
      throw new UsageError(`--feed "${file}" is not JSON: ${err.message}`)
    }
    if (!Array.isArray(all)) throw new UsageError(`--feed "${file}": give a JSON array of objects, one per row`)
    const starts = elementLines(text)
    items = all.map((v, i) => ({ v, line: starts[i] }))
  } else {
    items = []
    text.split('\n').forEach((s, i) => {
      if (s.trim() === '') return
      try {
        items.push({ v: JSON.parse(s), line: i + 1 })
      } catch (err) {
        throw new UsageError(`--feed "${file}" line ${i + 1} is not JSON: ${err.message}`)
      }
    })
  }
  const columns = []
  const rows = items.map(({ v, line }, i) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`--feed "${file}" line ${line}: a row must be an object of column: value`)
    const keys = Object.keys(v)
    if (i === 0) {
      columns.push(...keys)
      checkColumns(columns, file, line)
    } else if (keys.length !== columns.length || keys.some((k) => !columns.includes(k))) {
      throw new UsageError(`--feed "${file}" line ${line}: columns ${keys.join(', ')} where the first row has ${columns.join(', ')}`)
    }
    return columns.map((k) => {
      const x = v[k]
      if (x !== null && typeof x === 'object') throw new UsageError(`--feed "${file}" line ${line}: "${k}" is an ${Array.isArray(x) ? 'array' : 'object'}; a field is a string, number, boolean or null`)
      return x === null ? '' : String(x)
    })
  })
  return { columns, rows, lines: items.map(({ line }) => line) }
}

/** The line each element of a top-level JSON array starts on. */
function elementLines (text) {
  const out = []
  let depth = 0
  let line = 1
  let inString = false
  let expect = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '\n') line++
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
      continue
    }
    if (expect && !/\s/.test(ch) && ch !== ']') {
      out.push(line)
      expect = false
    }
    if (ch === '"') inString = true
    else if (ch === '[' || ch === '{') {
      if (ch === '[' && depth === 0) expect = true
      depth++
    } else if (ch === ']' || ch === '}') depth--
    else if (ch === ',' && depth === 1) expect = true
  }
  return out
}

function checkColumns (columns, file, line) {
  const seen = new Set()
  for (const c of columns) {
    if (c === '' || /[{}\s]/.test(c)) throw new UsageError(`--feed "${file}" line ${line}: column name "${c}" cannot be used as {{${c}}}: give names without spaces or braces`)
    if (seen.has(c)) throw new UsageError(`--feed "${file}" line ${line}: column "${c}" appears twice`)
    seen.add(c)
  }
}

/** The rows in shared memory: UTF-8 bytes and offsets, and the shared cursor. */
function share (rows, width) {
  const encoded = rows.flatMap((r) => r.map((f) => Buffer.from(f)))
  const total = encoded.reduce((a, b) => a + b.length, 0)
  const data = new SharedArrayBuffer(Math.max(1, total))
  const offsets = new Int32Array(new SharedArrayBuffer(4 * (encoded.length + 1)))
  const bytes = Buffer.from(data)
  let at = 0
  encoded.forEach((b, i) => {
    offsets[i] = at
    b.copy(bytes, at)
    at += b.length
  })
  offsets[encoded.length] = at
  return { data, offsets, cursor: new Int32Array(new SharedArrayBuffer(4)) }
}

/**
 * Refuses a {{name}} that no column has, in the request's path, headers or
 * body, naming where it is; a path's braces arrive percent-encoded from the
 * URL parser and are put back first.
 * @param {FeedSpec} feed
 * @param {{path: string, headers: Record<string,string>, body?: Buffer}[]} requests
 */
function checkTemplates (feed, requests) {
  for (const r of requests) {
    r.path = r.path.replace(/%7B%7B(.*?)%7D%7D/gi, '{{$1}}')
    const places = [['the URL', r.path], ...Object.entries(r.headers).map(([k, v]) => [`header ${k}`, v]), ['the body', r.body?.toString() ?? '']]
    for (const [where, text] of places) {
      for (const m of text.matchAll(TAG)) {
        if (!feed.columns.includes(m[1])) throw new UsageError(`{{${m[1]}}} in ${where}: --feed "${feed.file}" has no column "${m[1]}" (its columns: ${feed.columns.join(', ')})`)
        if (where.startsWith('header')) checkHeaderValues(feed, m[1], where)
      }
    }
  }
}

/** A column used in a header must hold no CR, LF or NUL (it would end the header). */
function checkHeaderValues (feed, column, where) {
  const { lines, values } = LINES.get(feed)
  const j = feed.columns.indexOf(column)
  const bad = values.findIndex((r) => /[\r\n\0]/.test(r[j]))
  if (bad >= 0) throw new UsageError(`--feed "${feed.file}" line ${lines[bad]}: "${column}" holds a CR, LF or NUL, and {{${column}}} is in ${where}`)
}

module.exports = { normalizeFeed, checkTemplates, TAG, MODES }
