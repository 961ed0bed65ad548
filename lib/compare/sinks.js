'use strict'
// Where a comparison's rows, failures and progress go. Each sink is opened
// from the run's options and metadata and takes what it wants of
//   row(row, extra)   every measured row, as it is measured
//   failure(f)        a run that failed after its retry
//   progress(e)       the executor's start/config/report/end events
//   end(summary)      once, after the last run: {rows, stops, stopped}
//   close()           always, also after an error or Ctrl-C
// A sink may also have ready() (awaited before the first run: it may fail
// there, before any work) and a close() that returns a promise (awaited).
const { createCsvSink, createNdjsonSink } = require('./output.js')
const { createCompareProgress } = require('./progress.js')

/**
 * @typedef {{row?: (row: object, extra?: object) => void, failure?: (f: object) => void,
 *   progress?: (e: object) => void, end?: (summary: object) => void, close?: () => void|Promise<void>,
 *   clear?: () => void, ready?: () => Promise<void>}} Sink
 * @typedef {{opts: import('./options.js').CompareOptions, meta: Record<string, any>, stdout: {write: (s: string) => unknown},
 *   stderr: NodeJS.WritableStream, env?: NodeJS.ProcessEnv, append: (file: string) => boolean}} SinkContext
 *   append(file): the file is continued (resume) rather than started
 * @typedef {{name: string, open: (o: SinkContext) => Sink|undefined}} SinkKind
 */

/** @type {SinkKind[]} */
const SINKS = [
  {
    name: 'csv',
    open: (o) => {
      const csv = createCsvSink({ file: o.opts.output, flag: o.opts.resume ? '--resume' : '--output', append: o.opts.resume && o.append(o.opts.output), stdout: o.opts.analyze && !o.opts.csv ? { write: () => true } : o.stdout })
      return { row: (r) => csv.write(r), close: () => csv.close() }
    }
  },
  {
    name: 'ndjson',
    open: (o) => {
      if (!o.opts.ndjson) return undefined
      const nd = createNdjsonSink(o.opts.ndjson, o.meta, o.opts.resume && o.append(o.opts.ndjson))
      return { row: (r, extra) => nd.write(r, extra), failure: (f) => nd.writeFailure(f), end: (s) => { if (s.stops && s.stops.length) nd.writeStops(s.stops) }, close: () => nd.close() }
    }
  },
  // --history DB: every row into the history store (lib/history/sink.js)
  // lazy: the history store (and its SQL drivers) loads only with --history
  { name: 'history', open: (o) => (o.opts.history ? require('../history/sink.js').compareSink(/** @type {any} */ (o)) : undefined) },
  {
    name: 'progress',
    open: (o) => {
      const p = createCompareProgress({ stream: /** @type {NodeJS.WriteStream} */ (o.stderr), enabled: o.opts.progress, env: o.env })
      return { progress: (e) => p.update(e), clear: () => p.clear(), close: () => p.stop() }
    }
  }
]

/**
 * Opens every sink that the options ask for; one that fails to open closes
 * those opened before it.
 * @param {SinkContext} o
 * @param {SinkKind[]} [kinds]
 */
function openSinks (o, kinds = SINKS) {
  /** @type {Sink[]} */
  const open = []
  try {
    for (const k of kinds) {
      const s = k.open(o)
      if (s) open.push(s)
    }
  } catch (err) {
    for (const s of open) if (s.close) s.close()
    throw err
  }
  const each = (/** @type {keyof Sink} */ m, ...args) => { for (const s of open) if (s[m]) /** @type {Function} */ (s[m])(...args) }
  let closed = false
  return {
    row: (row, extra) => each('row', row, extra),
    failure: (f) => each('failure', f),
    progress: (e) => each('progress', e),
    end: (summary) => each('end', summary),
    /** A message to the user: the progress line is cleared first. */
    notice: (/** @type {string} */ msg) => { each('clear'); o.stderr.write(msg) },
    /** Stops the progress line at once (Ctrl-C), before the rest closes. */
    quiet: () => { for (const s of open) if (s.progress && s.close) s.close() },
    /** Waits for the sinks that open asynchronously (the history store). */
    ready: async () => { for (const s of open) if (s.ready) await s.ready() },
    /** Closes every sink; resolves when those that finish asynchronously have. */
    close: async () => {
      if (closed) return
      closed = true
      const pending = []
      for (const s of open) if (s.close) pending.push(s.close())
      await Promise.all(pending)
    }
  }
}

module.exports = { SINKS, openSinks }
