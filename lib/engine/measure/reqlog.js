'use strict'
// --reqlog FILE: one line per finished request, `code;start;end;connection`
// with start and end in ns since the run's start (in rate mode, start is the
// planned send time, the one latency counts from); --reqlog-format gocannon
// writes gocannon's CSV layout instead (reqlog-writer.js).
//
// The hot path only stores four numbers into a typed array; full chunks are
// handed (transferred, not copied) to a writer thread that converts the
// times, formats and appends them, so none of that runs on a load thread.
const fs = require('node:fs')
const path = require('node:path')
const { performance } = require('node:perf_hooks')
const { Worker } = require('node:worker_threads')
const { UsageError, RunError } = require('../../errors.js')

const ROWS = 16384
const FIELDS = 4

/** A runner's buffer of rows; `flush` hands full chunks on. */
class RequestLogBuffer {
  /**
   * @param {number} t0 epoch ms of the run's start
   * @param {(chunk: Float64Array, rows: number, offsetMs: number) => void} flush
   */
  constructor (t0, flush) {
    // performance.now() of this thread -> ms since t0
    this.offsetMs = performance.timeOrigin - t0
    this.flushChunk = flush
    this.rows = new Float64Array(ROWS * FIELDS)
    this.n = 0
  }

  /** @param {number} startMs @param {number} endMs performance.now() clock */
  add (status, startMs, endMs, connection) {
    const at = this.n * FIELDS
    const rows = this.rows
    rows[at] = status
    rows[at + 1] = startMs
    rows[at + 2] = endMs
    rows[at + 3] = connection
    if (++this.n === ROWS) this.flush()
  }

  flush () {
    if (this.n === 0) return
    const full = this.rows
    const n = this.n
    this.rows = new Float64Array(ROWS * FIELDS)
    this.n = 0
    this.flushChunk(full, n, this.offsetMs)
  }
}

/**
 * Opens FILE (failing at once with a message naming --reqlog) and starts
 * the writer thread.
 * @param {string} file
 * @param {'default'|'gocannon'} [format] the line layout (reqlog-writer.js)
 * @returns {{write: (chunk: Float64Array, rows: number, offsetMs: number) => void, end: () => Promise<number>}}
 */
function openRequestLog (file, format = 'default') {
  let fd
  try {
    fd = fs.openSync(file, 'w')
  } catch (err) {
    throw new UsageError(`cannot write --reqlog "${file}": ${err.code || err.message}`)
  }
  const worker = new Worker(path.join(__dirname, 'reqlog-writer.js'), { workerData: { fd, format }, execArgv: [] })
  // the writer's failure (a full disk, an I/O error) is the user's to fix:
  // one coded message naming the file, no stack
  const failed = (why) => new RunError(`cannot write --reqlog "${file}" (${why}): the request log is incomplete; check the disk space and the path`, 'BENCHRIG_ERR_REQLOG')
  const finished = new Promise((resolve, reject) => {
    worker.on('message', (m) => { if (m.type === 'done') resolve(m.rows) })
    worker.on('error', (/** @type {NodeJS.ErrnoException} */ err) => reject(failed(err.code || err.message)))
    worker.on('exit', (code) => reject(failed(`the writer thread exited early with code ${code}`)))
  })
  finished.catch(() => {}) // observed by end()
  return {
    write (chunk, rows, offsetMs) { worker.postMessage({ type: 'rows', chunk, rows, offsetMs }, /** @type {ArrayBuffer[]} */ ([chunk.buffer])) },
    async end () {
      worker.postMessage({ type: 'end' })
      try {
        return await finished
      } finally {
        fs.closeSync(fd)
      }
    }
  }
}

module.exports = { RequestLogBuffer, openRequestLog, FIELDS }
