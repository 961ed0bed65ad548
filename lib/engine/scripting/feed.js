'use strict'
// A connection's view of a --feed (options/feed-options.js): which row its
// next iteration takes, the row as an object for hooks (context.row), and a
// request with {{column}} filled from it. The rows stay in the shared
// buffers every thread was given; a field is decoded when a request uses it.
//   sequential  one cursor in shared memory (Atomics), so the rows go out in
//               file order across every connection and worker thread
//   random      a seeded generator per connection (the seed and its id)
//   unique      connection i of c takes rows i, i+c, i+2c...: no two share one
// With --feed-end stop the run's budget (sequential) or each connection's
// (unique) is set to the rows, so no iteration finds the data used up;
// wrap starts the rows again.
const { TAG } = require('../options/feed-options.js')
const { createRng } = require('../../prng.js')

class FeedCursor {
  /**
   * @param {import('../options/feed-options.js').FeedSpec} spec
   * @param {number} id the connection's id (0 .. connections - 1 over the run)
   */
  constructor (spec, id) {
    this.spec = spec
    this.bytes = Buffer.from(spec.data)
    this.width = spec.columns.length
    this.uses = 0
    // unique: this connection's rows (id, id + c, ...)
    this.own = spec.mode === 'unique' ? ownRows(spec.rows, spec.connections, id) : 0
    this.id = id
    this.random = spec.mode === 'random' ? createRng((spec.seed ^ Math.imul(id + 1, 0x9e3779b1)) >>> 0) : null
  }

  /** The row of the next iteration. */
  next () {
    const s = this.spec
    if (s.mode === 'sequential') return (Atomics.add(s.cursor, 0, 1) >>> 0) % s.rows
    if (s.mode === 'random') return Math.floor(this.random.uniform() * s.rows)
    return this.id + (this.uses++ % this.own) * s.connections
  }

  /** Row i as {column: value}. */
  row (i) {
    const out = {}
    const o = this.spec.offsets
    const base = i * this.width
    for (let j = 0; j < this.width; j++) out[this.spec.columns[j]] = this.bytes.toString('utf8', o[base + j], o[base + j + 1])
    return out
  }

  /**
   * The request with {{column}} filled from row (path, header values, body).
   * @param {{path: string, headers?: Record<string,string>, body?: any}} spec
   * @param {Record<string,string>} row
   */
  fill (spec, row) {
    const sub = (s) => (s.includes('{{') ? s.replace(TAG, (m, name) => row[name] ?? m) : s)
    // in the request line a value is percent-encoded (a space or a newline there would break it)
    const subPath = (s) => (s.includes('{{') ? s.replace(TAG, (m, name) => (row[name] === undefined ? m : encodeURIComponent(row[name]))) : s)
    const headers = {}
    for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k] = sub(String(v))
    let body = spec.body
    if (body !== undefined && body !== null) {
      const text = ArrayBuffer.isView(body) ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString() : (typeof body === 'string' ? body : JSON.stringify(body))
      if (text.includes('{{')) body = Buffer.from(sub(text))
    }
    return { ...spec, path: subPath(String(spec.path)), headers, body }
  }
}

/** How many rows connection `id` of `connections` owns in unique mode. */
function ownRows (rows, connections, id) {
  return Math.floor((rows - 1 - id) / connections) + 1
}

/**
 * --feed: the connection's cursor over the shared rows; with --feed-end stop
 * in unique mode, the connection retires after its own rows (as -M retires
 * it), so no iteration finds them used up.
 * @param {{feed?: import('../options/feed-options.js').FeedSpec}} hooks
 * @param {any} conn @param {number} perIteration requests per pass of the sequence
 */
function feedOf (hooks, conn, perIteration) {
  if (hooks.feed === undefined) return undefined
  const f = hooks.feed
  if (f.mode === 'unique' && f.end === 'stop') conn.maxRequests = Math.min(conn.maxRequests, ownRows(f.rows, f.connections, conn.id) * perIteration)
  return new FeedCursor(f, conn.id)
}

module.exports = { FeedCursor, ownRows, feedOf }
