'use strict'
// Strict RFC 4180 CSV: CRLF-free (LF line ends, which R, Node core's tools and
// spreadsheets all read), text fields always quoted with inner quotes doubled,
// numbers bare, no spaces after commas (except where a Node core tool's layout
// is the contract: run.js and scatter.js write ", "). One writer and one reader for every
// CSV benchrig makes or reads (run, compare, scatter, analyze, resume).
const { formatNodeConfiguration } = require('./text.js')

/**
 * @param {unknown} value
 * @returns {string}
 */
function csvField (value) {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  if (value instanceof NodeTime) return value.text
  if (value === undefined || value === null) return ''
  return `"${String(value).replace(/"/g, '""')}"`
}

/** A bare number field in a fixed text form (see nodeTime). */
class NodeTime {
  /** @param {string} text */
  constructor (text) { this.text = text }
}

/**
 * A "time" field as Node core's harness writes it: the elapsed
 * nanoseconds as seconds with exactly nine decimals (`0.000060070`, not
 * `0.00006007`), the text every Node core CSV (run.js, compare.js,
 * scatter.js) carries. A value that is not a finite number stays as it is.
 * @param {unknown} time seconds
 * @returns {unknown}
 */
function nodeTime (time) {
  return typeof time === 'number' && Number.isFinite(time) && Math.abs(time) < 1e21 ? new NodeTime(time.toFixed(9)) : time
}

/**
 * @param {unknown[]} values
 * @param {string} [separator] ',' (RFC 4180), or ', ' where a Node core tool's
 *   layout is the contract (scatter.js: the guide's sed filters count ", ")
 */
function csvRow (values, separator = ',') {
  return values.map(csvField).join(separator) + '\n'
}

/**
 * Parses CSV text into rows of strings (quotes removed). Bare fields that look
 * numeric stay strings: the caller knows its columns' types.
 * @param {string} text
 * @param {number[]} [lines] when given, gets the 1-based line each row starts on (a quoted field may span lines)
 * @returns {string[][]}
 */
function parseCsv (text, lines) {
  const rows = []
  let row = []
  let field = ''
  let quoted = false
  let fieldQuoted = false
  let i = 0
  let line = 1
  lines?.push(1)
  while (i < text.length) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue }
        quoted = false
      } else {
        if (ch === '\n') line++
        field += ch
      }
      i++
      continue
    }
    // Spaces at the start of a field are dropped: Node core's CSVs (older
    // compare.js, run.js --format csv) put ", " between fields.
    if (ch === ' ' && field === '' && !fieldQuoted) { i++; continue }
    if (ch === '"') { quoted = true; fieldQuoted = true } else if (ch === ',') { row.push(field); field = ''; fieldQuoted = false } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      row.push(field); rows.push(row); row = []; field = ''; fieldQuoted = false
      lines?.push(++line)
    } else {
      field += ch
    }
    i++
  }
  if (quoted) throw new SyntaxError('CSV ends inside a quoted field')
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row) }
  return rows
}

/**
 * Parses CSV with a header row into objects keyed by column name.
 * @param {string} text
 * @returns {{header: string[], records: Record<string, string>[]}}
 */
function parseCsvRecords (text) {
  const rows = parseCsv(text).filter((r) => !(r.length === 1 && r[0] === ''))
  if (rows.length === 0) return { header: [], records: [] }
  const [header, ...body] = rows
  const records = body.map((r) => Object.fromEntries(header.map((h, j) => [h, r[j] ?? ''])))
  return { header, records }
}

module.exports = { csvField, csvRow, nodeTime, parseCsv, parseCsvRecords }

// Node core's run.js writes its CSV with ", " after each comma and the
// configuration JSON-quoted, as in its text format: byte for byte the same
// here (our own readers and R read it like any CSV).
const RUN_SEPARATOR = ', '

/**
 * A streaming writer of run.js's CSV, as Node core's run.js writes it:
 * the header `"filename", "configuration", "rate", "time"`, then one row per
 * result (`"buffers/a.js", "n=1 method=""deepEqual""", 773200.49, 0.012900000`).
 * @param {{write: (s: string) => unknown}} out
 */
function createRunCsvWriter (out, { measure = 'wall' } = {}) {
  const tail = measureTail(measure)
  return {
    start () { out.write(csvRow(['filename', 'configuration', 'rate', 'time', ...tail.header], RUN_SEPARATOR)) },
    file () {},
    result (r) { out.write(csvRow([r.name, formatNodeConfiguration(r.conf), r.rate, nodeTime(r.time), ...tail.value], RUN_SEPARATOR)) },
    end () {}
  }
}

/**
 * Wall time keeps Node core's layout byte for byte; the other measures
 * (--measure cpu|instructions) add a last column "measure" naming theirs.
 * @param {string} measure
 */
function measureTail (measure) {
  return measure === 'wall' ? { header: [], value: [] } : { header: ['measure'], value: [measure] }
}

/** The columns `--format csv-wide` appends for the details a load generator reports. */
const WIDE_COLUMNS = ['benchmarker_version', 'latency_p50', 'latency_p90', 'latency_p99', 'latency_max', 'errors', 'non2xx']

/**
 * `--format csv-wide`: Node core's four columns first, in its layout (so its tools still
 * read the file), then the load generator's version, latency percentiles
 * (ms), errors and non-2xx of HTTP benchmarks; empty for other benchmarks.
 * @param {{write: (s: string) => unknown}} out
 */
function createWideCsvWriter (out, { measure = 'wall' } = {}) {
  const tail = measureTail(measure)
  return {
    start () { out.write(csvRow(['filename', 'configuration', 'rate', 'time', ...WIDE_COLUMNS, ...tail.header], RUN_SEPARATOR)) },
    file () {},
    result (r) {
      const x = r.extra ?? {}
      out.write(csvRow([r.name, formatNodeConfiguration(r.conf), r.rate, nodeTime(r.time), ...WIDE_COLUMNS.map((k) => x[k]), ...tail.value], RUN_SEPARATOR))
    },
    end () {}
  }
}

module.exports.createRunCsvWriter = createRunCsvWriter
module.exports.createWideCsvWriter = createWideCsvWriter
module.exports.WIDE_COLUMNS = WIDE_COLUMNS
