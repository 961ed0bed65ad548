'use strict'
// Recording into the history store as a command runs (`run --history`,
// `load --history`, compare's history sink). Each flush is one add: one
// transaction, so a run cut short keeps every flushed part and nothing half
// of one. The store is opened lazily at the first flush and checked at
// creation (a bad --history fails before any benchmark runs).
const { openHistory } = require('./index.js')
const { localEnv, envFromMeta } = require('./fingerprint.js')
const { loadRecords, measurementKey, sideLabel } = require('./ingest.js')
const { formatConfiguration } = require('../record/text.js')

/**
 * @param {string} db --history
 * @param {{root?: string, source?: string, meta?: object}} [opts] source: names the batches in `history list`;
 *   meta: kept with each batch (the sources table's meta column)
 */
async function openSink (db, opts = {}) {
  const h = await openHistory(db, { root: opts.root, flag: '--history' })
  let pending = []
  let part = 0
  const stamp = `${new Date().toISOString()} ${process.pid}`
  return {
    where: h.where,
    /** @param {import('./ingest.js').HistoryRecord[]} records */
    push (records) { pending.push(...records) },
    async flush () {
      if (pending.length === 0) return { added: 0 }
      const batch = pending
      pending = []
      // the source name tells `history list` which run and which part it was
      return h.add(batch, { source: `${opts.source ?? 'run'} ${stamp} #${++part}`, ...(opts.meta ? { meta: opts.meta } : {}) })
    },
    async close () {
      try { await this.flush() } finally { await h.close() }
    }
  }
}

/**
 * `run --history`: one add per benchmark file. The label defaults to the
 * node version of the binary under test.
 * @param {string} db
 * @param {{execPath: string, nodeVersion: string|undefined, label?: string, measure: string, root?: string}} o
 */
async function runHistorySink (db, o) {
  const sink = await openSink(db, { root: o.root, source: 'run' })
  const label = o.label ?? o.nodeVersion
  const env = localEnv({ nodeVersion: o.nodeVersion, execPath: o.execPath })
  return {
    where: sink.where,
    /** @param {{name: string, conf: object, rate: number}} rep */
    result (rep) {
      if (Number.isFinite(rep.rate)) sink.push([{ file: rep.name, configuration: formatConfiguration(rep.conf), measure: o.measure, value: rep.rate, label, env }])
    },
    fileEnd: () => sink.flush(),
    close: () => sink.close()
  }
}

/**
 * `load --history`: the result's measures (requests/s, p50, p99, throughput)
 * under a label; opened before the run so a bad store fails first.
 * @param {string} db
 * @param {string} label
 */
async function loadHistorySink (db, label) {
  const sink = await openSink(db, { source: 'load' })
  return {
    where: sink.where,
    /** @param {any} result */
    async record (result) {
      sink.push(loadRecords(result, label, localEnv({ nodeVersion: process.version, execPath: process.execPath })))
      return sink.flush()
    },
    close: () => sink.close()
  }
}

/**
 * A sink of compare rows (the shape the CSV sink takes: binary, filename,
 * configuration, rate, measure), for compare's sinks. Rows of a side are
 * recorded under that side's label (default: its node version from the
 * metadata; a null label leaves the side out); flushed every `every` rows
 * and at close.
 * @param {string} db
 * @param {{meta: any, labels?: {old?: string|null, new?: string|null}, every?: number, root?: string}} o
 *   meta: compare's NDJSON metadata (machine fields, old/new binaries with version and sha256)
 */
async function compareHistorySink (db, o) {
  // the machine as the CPU probe saw it before the run travels with the rows' source;
  // it does not key the series (a reading differs every run)
  const machine = o.meta?.cpuProbe ? { cpuProbe: o.meta.cpuProbe, placement: o.meta.placement } : undefined
  const sink = await openSink(db, { root: o.root, source: 'compare', ...(machine ? { meta: machine } : {}) })
  const every = o.every ?? 200
  /** @returns {{label: string, display?: string, pos?: number}|null|undefined} */
  const labelOf = (side) => {
    const given = o.labels?.[side]
    if (given === null) return null
    return given !== undefined ? { label: given } : sideLabel(o.meta?.[side])
  }
  let count = 0
  return {
    where: sink.where,
    async write (row) {
      const side = row.binary === 'old' ? 'old' : 'new'
      const label = labelOf(side)
      const value = Number(row.rate)
      if (!label || !Number.isFinite(value)) return
      const measure = row.measure || 'wall'
      // the key a later add of this run's CSV or NDJSON computes: that add then adds nothing
      const key = measurementKey(row, side, row.filename, row.configuration ?? '', measure)
      sink.push([{ file: row.filename, configuration: row.configuration ?? '', measure, value, ...label, env: sideEnv(o.meta, side), ...(key ? { key } : {}) }])
      if (++count % every === 0) await sink.flush()
    },
    close: () => sink.close()
  }
}

/**
 * The environment of a side's rows. A git-ref or package side's sha256 names
 * the binary and the code together; the fingerprint takes the binary's own
 * (binary_sha256), so that commits or versions run on one binary make one
 * series ordered by their labels, not a series each.
 * @param {any} meta
 * @param {'old'|'new'} side
 */
function sideEnv (meta, side) {
  const env = envFromMeta(meta, side)
  const bin = meta?.[side]
  return bin?.binary_sha256 ? { ...env, nodeSha256: bin.binary_sha256 } : env
}

/**
 * compare's `history` sink (lib/compare/sinks.js): sinks there open and take
 * rows synchronously, so this one queues each step on a promise chain;
 * `ready()` (awaited before the first run) opens the store, so a bad
 * --history fails before anything runs, and `close()` resolves when the last
 * rows are in (or rejects with the store's error).
 * @param {{opts: {history: {db: string, labels?: {old?: string|null, new?: string|null}}, root?: string}, meta: any}} o
 */
function compareSink (o) {
  let chain = compareHistorySink(o.opts.history.db, { meta: o.meta, labels: o.opts.history.labels, root: o.opts.root })
  // a failed open is reported by ready() or close(), not as an unhandled rejection
  chain.catch(() => {})
  return {
    ready: () => chain.then(() => undefined),
    row (row) {
      chain = chain.then(async (sink) => { await sink.write(row); return sink })
      chain.catch(() => {})
    },
    close: () => chain.then((sink) => sink.close())
  }
}

module.exports = { runHistorySink, loadHistorySink, compareHistorySink, compareSink, sideEnv }
