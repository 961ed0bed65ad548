'use strict'
// Reads the files benchrig (and Node core's benchmark tools) write into
// history records: run/compare/scatter CSV, run and compare NDJSON, load JSON
// and calibrate JSON. A record is one measured value:
//   { file, configuration, measure, value, label, env }
// `file` is the benchmark file (or the URL of a load run), `value` the rate
// (operations per second, per CPU-second or per 10^9 instructions, as the
// measure says) or, for load runs, the named statistic.
// A label given by the caller wins; otherwise it comes from the data (the
// node version in NDJSON metadata); a record without one is an error that
// asks for --label. Anything that is not one of these formats is one error
// naming the file and the line.
const fs = require('node:fs')
const crypto = require('node:crypto')
const { parseCsv } = require('../record/csv.js')
const { formatConfiguration } = require('../record/text.js')
const { UsageError } = require('../errors.js')
const { envFromMeta } = require('./fingerprint.js')

/**
 * @typedef {{file: string, configuration: string, measure: string, value: number,
 *   label?: string, display?: string, pos?: number, env: Partial<import('./fingerprint.js').Env>, key?: string}} HistoryRecord
 *   key: the measurement's identity (measurementKey), where the format carries it;
 *   label: the stable id (a commit, a version), display: the name shown (a tag), pos: a commit's git position
 */

/**
 * The identity of one compare measurement: seed, pair, side, file,
 * configuration, measure and the start time of its process. A compare CSV and
 * its NDJSON sidecar give the same key for the same row; a rerun with the same
 * --seed does not (its start differs). undefined when a field is missing
 * (Node core's CSV): such rows cannot be told apart and are always added.
 * @param {{seed?: unknown, pair?: unknown, start?: unknown}} o
 * @param {string} side
 * @param {string} file
 * @param {string} configuration
 * @param {string} measure
 */
function measurementKey (o, side, file, configuration, measure) {
  const parts = [o.seed, o.pair, o.start]
  if (parts.some((p) => p === undefined || p === null || p === '')) return undefined
  return crypto.createHash('sha256').update(JSON.stringify([...parts.map(String), side, file, configuration, measure])).digest('hex').slice(0, 32)
}

const measureOf = (m) => (m === undefined || m === null || m === '' ? 'wall' : String(m))

function badInput (where, line, what) {
  return new UsageError(`${where}:${line}: ${what}`, 'BENCHRIG_ERR_HISTORY_INPUT')
}

/**
 * The label a compare side's rows are filed under when none is given: the
 * commit of a git-ref side (shown by its tag or describe), the installed
 * version of a package side, else the binary's node version (what changed
 * between the sides is what orders a series).
 * @param {any} side the side's metadata (lib/sides/*: describe())
 * @returns {{label: string, display?: string, pos?: number}|undefined}
 */
function sideLabel (side) {
  if (!side || typeof side !== 'object') return undefined
  if (side.commit) return { label: String(side.commit), display: String(side.describe ?? String(side.commit).slice(0, 12)), ...(Number.isInteger(side.position) ? { pos: side.position } : {}) }
  if (side.package_version) return { label: String(side.package_version), display: String(side.package_version) }
  return side.version ? { label: String(side.version) } : undefined
}

/**
 * Labels for the two sides of a comparison: "OLD..NEW" names both, a single
 * label names the new side (the old one is then not recorded).
 * @param {string|undefined} label
 */
function sideLabels (label) {
  if (label === undefined) return { old: undefined, new: undefined }
  const i = label.indexOf('..')
  if (i < 0) return { old: null, new: label }
  return { old: label.slice(0, i), new: label.slice(i + 2) }
}

/** A number from a CSV field, or an error naming the line. */
function numberAt (text, where, line, column) {
  const n = Number(text)
  if (text === '' || !Number.isFinite(n)) throw badInput(where, line, `column "${column}" holds ${JSON.stringify(text)}, not a number`)
  return n
}

/** Scatter's variable columns as a configuration string (numbers bare, text quoted, as run.js prints). */
function scatterConfiguration (names, values) {
  /** @type {Record<string, unknown>} */
  const conf = {}
  names.forEach((n, i) => { conf[n] = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(values[i]) ? Number(values[i]) : values[i] })
  return formatConfiguration(conf)
}

/**
 * @param {string} text
 * @param {string} where
 * @param {{label?: string}} opts
 * @returns {{kind: string, records: HistoryRecord[]}}
 */
function fromCsv (text, where, opts) {
  let rows
  try {
    rows = parseCsv(text).filter((r) => !(r.length === 1 && r[0] === ''))
  } catch (err) {
    throw badInput(where, text.split('\n').length, `not valid CSV (${err.message})`)
  }
  if (rows.length === 0) throw badInput(where, 1, 'empty: give a CSV written by run, compare or scatter (benchrig or Node core)')
  const header = rows[0].map((h) => h.trim())
  const col = (name) => header.indexOf(name)
  const records = []
  const nodeLine = (i) => i + 1 // rows[i] is on line i + 1 (no field spans lines in these files)
  if (col('binary') === 0 && col('filename') === 1 && col('configuration') === 2 && col('rate') === 3) {
    const labels = sideLabels(opts.label)
    if (labels.new === undefined) throw new UsageError(`${where}: a compare CSV carries no version; give --label NEW (the new binary's rows) or --label OLD..NEW`, 'BENCHRIG_ERR_HISTORY_LABEL')
    const mi = col('measure')
    for (let i = 1; i < rows.length; i++) {
      const r = rows[i]
      const side = r[0]
      if (side !== 'old' && side !== 'new') throw badInput(where, nodeLine(i), `binary "${side}": a compare CSV's first column holds "old" or "new"`)
      const value = numberAt(r[3], where, nodeLine(i), 'rate')
      const label = side === 'old' ? labels.old : labels.new
      if (label === null) continue
      const measure = measureOf(mi >= 0 ? r[mi] : undefined)
      const key = measurementKey({ seed: r[col('seed')], pair: r[col('pair')], start: r[col('start')] }, side, r[1], r[2], measure)
      records.push({ file: r[1], configuration: r[2], measure, value, label, env: {}, ...(key ? { key } : {}) })
    }
    return { kind: 'compare-csv', records }
  }
  const ri = col('rate')
  if (col('filename') === 0 && ri >= 1 && col('time') === ri + 1) {
    const kind = col('configuration') === 1 && ri === 2 ? 'run-csv' : 'scatter-csv'
    if (opts.label === undefined) throw new UsageError(`${where}: a ${kind === 'run-csv' ? 'run' : 'scatter'} CSV carries no version; give --label L (a node version, a commit, a ref)`, 'BENCHRIG_ERR_HISTORY_LABEL')
    const mi = col('measure')
    const vars = header.slice(1, ri)
    for (let i = 1; i < rows.length; i++) {
      const r = rows[i]
      if (r.length < ri + 2) throw badInput(where, nodeLine(i), `${r.length} fields, the header has ${header.length}`)
      const value = numberAt(r[ri], where, nodeLine(i), 'rate')
      const configuration = kind === 'run-csv' ? r[1] : scatterConfiguration(vars, r.slice(1, ri))
      records.push({ file: r[0], configuration, measure: measureOf(mi >= 0 ? r[mi] : undefined), value, label: opts.label, env: {} })
    }
    return { kind, records }
  }
  throw badInput(where, 1, `header ${header.slice(0, 6).map((h) => JSON.stringify(h)).join(',')} is not one of benchrig's or Node core's CSVs (run: "filename","configuration","rate","time"; compare: "binary","filename","configuration","rate","time"; scatter: "filename",<variables>,"rate","time")`)
}

/**
 * Run NDJSON (benchrig-run/1) and compare NDJSON (benchrig-compare/1).
 * @param {string} text
 * @param {string} where
 * @param {{label?: string}} opts
 */
function fromNdjson (text, where, opts) {
  const lines = text.split('\n')
  const records = []
  let compareMeta
  let kind
  const labels = sideLabels(opts.label)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim()
    if (line === '') continue
    let o
    try {
      o = JSON.parse(line)
    } catch (err) {
      throw badInput(where, i + 1, `not JSON (${err.message})`)
    }
    const schema = String(o?.schema ?? '')
    if (schema === 'benchrig-run/1') {
      kind = 'run-ndjson'
      if (o.type !== 'result') continue
      const label = opts.label ?? o.meta?.node?.version
      if (!label) throw new UsageError(`${where}:${i + 1}: the record names no node version; give --label L`, 'BENCHRIG_ERR_HISTORY_LABEL')
      if (!Number.isFinite(o.rate)) throw badInput(where, i + 1, `"rate" is ${JSON.stringify(o.rate)}, not a number`)
      records.push({ file: o.filename, configuration: o.configuration ?? '', measure: measureOf(o.measure), value: o.rate, label, env: envFromMeta(o.meta) })
    } else if (schema === 'benchrig-compare/1') {
      kind = 'compare-ndjson'
      if (o.type === 'meta') { compareMeta = o; continue }
      if (o.type !== 'measurement') continue
      const side = o.binary === 'old' ? 'old' : 'new'
      const given = labels[side]
      if (given === null) continue
      const fromMeta = given === undefined ? sideLabel(compareMeta?.[side]) : undefined
      const label = given ?? fromMeta?.label
      if (!label) throw new UsageError(`${where}:${i + 1}: the ${side} binary has no version in the metadata; give --label OLD..NEW`, 'BENCHRIG_ERR_HISTORY_LABEL')
      const value = Number(o.rate)
      if (!Number.isFinite(value)) throw badInput(where, i + 1, `"rate" is ${JSON.stringify(o.rate)}, not a number`)
      const measure = measureOf(o.measure ?? compareMeta?.measure)
      const key = measurementKey({ seed: o.seed ?? compareMeta?.seed, pair: o.pair, start: o.start }, side, o.filename, o.configuration ?? '', measure)
      records.push({ file: o.filename, configuration: o.configuration ?? '', measure, value, label, ...(fromMeta?.display ? { display: fromMeta.display } : {}), ...(fromMeta?.pos !== undefined ? { pos: fromMeta.pos } : {}), env: envFromMeta(compareMeta, side), ...(key ? { key } : {}) })
    } else {
      throw badInput(where, i + 1, `schema ${JSON.stringify(o?.schema)}: not a record of run --format ndjson (benchrig-run/1) or compare --ndjson (benchrig-compare/1)`)
    }
  }
  return { kind: kind ?? 'ndjson', records }
}

/** Load JSON (one result of `benchrig load -j`) or calibrate --json. */
function fromJson (doc, where, opts) {
  if (doc && typeof doc === 'object' && doc.requests && doc.latency) {
    if (opts.label === undefined) throw new UsageError(`${where}: a load result carries no version; give --label L`, 'BENCHRIG_ERR_HISTORY_LABEL')
    return { kind: 'load-json', records: loadRecords(doc, opts.label, {}) }
  }
  if (doc && typeof doc === 'object' && Array.isArray(doc.results) && ('cvThreshold' in doc || 'converge' in doc)) {
    if (opts.label === undefined) throw new UsageError(`${where}: a calibrate result carries no version; give --label L`, 'BENCHRIG_ERR_HISTORY_LABEL')
    const records = []
    for (const r of doc.results) {
      const step = (r.steps ?? []).find((s) => s.n === r.n)
      if (!step) continue
      for (const c of step.configs) {
        if (!Number.isFinite(c.rate)) continue
        records.push({ file: r.name, configuration: [c.configuration, `n=${r.n}`].filter(Boolean).join(' '), measure: measureOf(doc.measure), value: c.rate, label: opts.label, env: {} })
      }
    }
    return { kind: 'calibrate-json', records }
  }
  throw badInput(where, 1, 'a JSON document that is neither a load result (benchrig load -j) nor calibrate --json output')
}

/**
 * The measures of one load result worth a trend.
 * @type {[string, (r: any) => number|undefined][]}
 */
const LOAD_MEASURES = [
  ['requests/s', (r) => r.requests?.average],
  ['latency-p50-ms', (r) => r.latency?.p50],
  ['latency-p99-ms', (r) => r.latency?.p99],
  ['throughput-bytes/s', (r) => r.throughput?.average]
]

/**
 * @param {any} result a load result
 * @param {string} label
 * @param {Partial<import('./fingerprint.js').Env>} env
 * @returns {HistoryRecord[]}
 */
function loadRecords (result, label, env) {
  const fileOf = (r) => (Array.isArray(r.url) ? r.url.join(' ') : String(r.url ?? r.socketPath ?? 'load'))
  const out = []
  const add = (r, configuration) => {
    for (const [measure, get] of LOAD_MEASURES) {
      const v = get(r)
      if (Number.isFinite(v)) out.push({ file: fileOf(r), configuration, measure, value: v, label, env })
    }
  }
  add(result, `connections=${result.connections} pipelining=${result.pipelining}${result.workers ? ` workers=${result.workers}` : ''}`)
  // --scenarios: each scenario is a series of its own, keyed by its URL(s), name and executor
  // (not its connections: an arrival-rate scenario's may change with the server's speed)
  for (const [name, s] of Object.entries(result.scenarios ?? {})) add(s, `scenario=${name} executor=${s.scenario?.executor ?? ''}`)
  return out
}

/**
 * @param {string} file path
 * @param {{label?: string, runner?: string}} [opts] runner: the file is that runner's output (lib/runners/)
 * @returns {{kind: string, sha256: string, records: HistoryRecord[]}}
 */
function readResultFile (file, opts = {}) {
  let buf
  try {
    buf = fs.readFileSync(file)
  } catch (err) {
    throw new UsageError(`${file}: cannot read it (${err.code || err.message})`, 'BENCHRIG_ERR_HISTORY_INPUT')
  }
  const sha256 = crypto.createHash('sha256').update(buf).digest('hex')
  const text = buf.toString('utf8')
  // lazy: only --runner reads a runner's own files
  if (opts.runner !== undefined) return { ...require('../runners/ingest.js').runnerRecords(file, text, { runner: opts.runner, label: opts.label }), sha256 }
  const first = text.trimStart()[0]
  let parsed
  if (first === '{' || first === '[') {
    // one JSON document, or NDJSON (one per line)
    let doc
    try { doc = JSON.parse(text) } catch {}
    parsed = doc !== undefined && !(doc && typeof doc === 'object' && typeof doc.schema === 'string') ? fromJson(doc, file, opts) : fromNdjson(text, file, opts)
  } else {
    parsed = fromCsv(text, file, opts)
  }
  return { ...parsed, sha256 }
}

module.exports = { readResultFile, loadRecords, sideLabels, sideLabel, measurementKey, LOAD_MEASURES }
