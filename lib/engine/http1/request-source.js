'use strict'
// The request source: every request the run will send, built to bytes once.
// Requests are sent round-robin per connection, so a connection's next k
// requests always form one contiguous slice of `bytes` (the cycle of
// requests repeated enough times), and the pipelined refill is one write of
// a cached subarray: no per-request allocation.
//
// Later modes (request sequences with hooks) plug in here: a source that
// builds bytes on demand exposes the same slice(cursor, k) / advance().

/**
 * @typedef {object} RequestSpec
 * @property {string} method
 * @property {string} path     path and query
 * @property {string} host     Host header value
 * @property {Record<string,string>} headers
 * @property {Buffer|undefined} body
 */

/**
 * @param {RequestSpec} spec
 * @returns {Buffer} the HTTP/1.1 request bytes
 */
function buildRequest (spec) {
  const lines = [`${spec.method} ${spec.path} HTTP/1.1`]
  const names = new Set(Object.keys(spec.headers).map((k) => k.toLowerCase()))
  if (!names.has('host')) lines.push(`Host: ${spec.host}`)
  for (const [k, v] of Object.entries(spec.headers)) lines.push(`${k}: ${v}`)
  const body = spec.body
  if (body !== undefined && !names.has('content-length') && !names.has('transfer-encoding')) {
    lines.push(`Content-Length: ${body.length}`)
  }
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1')
  return body === undefined ? head : Buffer.concat([head, body])
}

class RequestSource {
  /**
   * @param {RequestSpec[]} specs one per URL (round-robin order)
   * @param {number} depth the most requests one write may hold (pipelining)
   */
  constructor (specs, depth) {
    const requests = specs.map(buildRequest)
    this.count = requests.length
    this.depth = depth
    /** 1 where the request's response has no body whatever its headers (HEAD). */
    this.noBody = Uint8Array.from(specs, (s) => (s.method === 'HEAD' ? 1 : 0))
    // Enough cycles that any start in the first cycle plus `depth` requests fits.
    const cycles = Math.ceil(depth / this.count) + 1
    const parts = []
    this.offsets = new Float64Array(this.count * cycles + 1)
    let off = 0
    for (let c = 0; c < cycles; c++) {
      for (let r = 0; r < this.count; r++) {
        this.offsets[c * this.count + r] = off
        parts.push(requests[r])
        off += requests[r].length
      }
    }
    this.offsets[this.count * cycles] = off
    this.bytes = Buffer.concat(parts)
    /** @type {Buffer[][]} cache[cursor][k] */
    this.cache = Array.from({ length: this.count }, () => new Array(depth + 1))
    this.sizes = requests.map((r) => r.length)
  }

  /**
   * The bytes of k consecutive requests starting at request index cursor.
   * @param {number} cursor 0..count-1
   * @param {number} k 1..depth
   */
  slice (cursor, k) {
    let b = this.cache[cursor][k]
    if (b === undefined) {
      b = this.bytes.subarray(this.offsets[cursor], this.offsets[cursor + k])
      this.cache[cursor][k] = b
    }
    return b
  }

  /** The request index k requests after cursor. */
  advance (cursor, k) {
    return (cursor + k) % this.count
  }
}

module.exports = { RequestSource, buildRequest }
