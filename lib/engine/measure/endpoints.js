'use strict'
// Per-endpoint results: each URL, each request of a sequence or HAR file has
// its own latency histogram, status codes, errors, bytes and request count.
//
// A runner whose requests are all one endpoint (one URL per origin: a runner
// serves one origin) needs nothing here: its totals are that endpoint's, and
// fromTotals() makes the endpoint's stats from them at the end. A runner with
// several endpoints gets one EndpointRecorder, preallocated (typed arrays and
// one histogram per endpoint) before the run, fed by a stage of the recording
// chain (recorder.js): the hot path adds a lookup and counter increments,
// never an allocation.
//
// Which endpoint a response belongs to was chosen when its request was
// picked: the connection's ring keeps the request's index (requestIds), and
// the source maps it to an endpoint (RequestSource: the index itself;
// DynamicSource: seq[slot], the sequence entry the ring slot was built from).
// The connection keeps the index of the request it is recording in
// `lastRequest`, since HTTP/2 frees the slot before it records.
const { Histogram } = require('./histogram.js')
const C = require('../counters.js')

// the per-endpoint counters, in one Float64Array of n * STRIDE
const E = { COMPLETED: 0, BYTES: 1, MISMATCHES: 2, S1XX: 3, ERR: 8 }
const STRIDE = E.ERR + C.ERROR_KINDS.length
const CODES = 600

/**
 * The endpoint (0-based within the runner) of request index `id` of `conn`.
 * @param {any} conn a connection (HTTP/1.1 or HTTP/2, static or hooked)
 * @param {number} id its requestIds[slot]
 */
function endpointOf (conn, id) {
  // HTTP/1.1 keeps its request source as `source`; hooked HTTP/2 inside its
  // DynamicRequests (`requests.source`); static HTTP/2 ids are the endpoints
  const map = (conn.source ?? conn.requests?.source)?.endpoints
  return map === undefined || map === null || id < 0 ? id : map[id]
}

class EndpointRecorder {
  /** @param {number} n endpoints of this runner */
  constructor (n) {
    this.n = n
    this.counters = new Float64Array(n * STRIDE)
    this.statusCodes = new Float64Array(n * CODES)
    this.histograms = Array.from({ length: n }, () => new Histogram())
  }

  /** Clamps an index: a Client that replaced the sequence with a longer one counts its extra requests on the last endpoint. */
  index (e) {
    return e >= 0 && e < this.n ? e : (e < 0 ? 0 : this.n - 1)
  }

  /**
   * One finished response (the chain's stage, after the -x filter).
   * @param {any} conn @param {number} status @param {number} latencyMs @param {boolean} kept @param {boolean} mismatch
   */
  response (conn, status, latencyMs, kept, mismatch) {
    const e = this.index(endpointOf(conn, conn.lastRequest))
    const at = e * STRIDE
    const counters = this.counters
    counters[at + E.COMPLETED]++
    counters[at + E.S1XX + ((status / 100) | 0) - 1]++
    this.statusCodes[e * CODES + status]++
    if (mismatch) counters[at + E.MISMATCHES]++
    if (kept) this.histograms[e].record(latencyMs * 1000)
    else if (conn.scanner.resBytes !== undefined) counters[at + E.BYTES] -= conn.scanner.resBytes
  }

  /** A timed-out paced request, in the latency histogram as the totals have it (recorder.js recordGivenUp). */
  givenUp (conn, id, latencyMs) {
    this.histograms[this.index(endpointOf(conn, id))].record(latencyMs * 1000)
  }

  /** An error of kind C.ERR_*: the request it hit, or the one the connection sends next. */
  error (kind, conn) {
    const e = conn === undefined ? 0 : this.index(currentEndpoint(conn))
    this.counters[e * STRIDE + E.ERR + kind - C.ERR_CONNECT]++
  }

  /** Bytes of one read chunk: the request at the head of the connection (sum exact, split exact per response only on HTTP/1.1 without pipelining). */
  read (conn, n) {
    this.counters[this.index(currentEndpoint(conn)) * STRIDE + E.BYTES] += n
  }

  toTransfer () {
    return {
      n: this.n,
      counters: this.counters,
      statusCodes: this.statusCodes,
      histograms: this.histograms.map((h) => h.toTransfer())
    }
  }
}

/**
 * The endpoint of the oldest request a connection has in flight, or, with
 * none, of the one it sends next. Only on error and read paths (per chunk).
 */
function currentEndpoint (conn) {
  if (conn.head !== undefined) {
    // HTTP/1.1: a ring from head
    if (conn.inflight > 0) return endpointOf(conn, conn.requestIds[conn.head])
    return conn.source?.seq !== undefined ? conn.source.next : conn.cursor
  }
  // HTTP/2: the last stream recorded on it (slots are not in order)
  return conn.lastRequest >= 0 ? endpointOf(conn, conn.lastRequest) : conn.cursor ?? 0
}

/**
 * The stats of a runner with one endpoint, from its totals.
 * @param {{counters: Float64Array, statusCodes: Float64Array, histogram: any}} stats the runner's
 */
function fromTotals (stats) {
  const counters = new Float64Array(STRIDE)
  const c = stats.counters
  counters[E.COMPLETED] = c[C.COMPLETED]
  counters[E.BYTES] = c[C.BYTES]
  counters[E.MISMATCHES] = c[C.MISMATCHES]
  for (let k = 0; k < 5; k++) counters[E.S1XX + k] = c[C.S1XX + k]
  for (let k = 0; k < C.ERROR_KINDS.length; k++) counters[E.ERR + k] = c[C.ERR_CONNECT + k]
  return { n: 1, counters, statusCodes: Float64Array.from(stats.statusCodes), histograms: [stats.histogram] }
}

module.exports = { EndpointRecorder, fromTotals, endpointOf, E, STRIDE, CODES }
