'use strict'
// Writing response bodies of any size without allocating per request: every
// generated body is a view of one shared fill buffer, written in pieces with
// backpressure, so a 1 GiB `/bytes/` response costs 64 KiB of memory.
const { MAX_PIECE } = require('./options.js')

/** Printable filler, so bodies are readable when a user curls them. */
const FILL = Buffer.alloc(MAX_PIECE, 'abcdefghijklmnopqrstuvwxyz0123456789\n')

/**
 * Writes `length` bytes to `res` in pieces of at most `piece` bytes, then ends it.
 * With HTTP/1.1 chunked encoding each piece becomes one chunk.
 * @param {import('node:http').ServerResponse|import('node:http2').Http2ServerResponse} res
 * @param {Buffer|null} source the body, or null for `length` bytes of filler
 * @param {number} length
 * @param {number} piece 1..MAX_PIECE
 */
function writeBody (res, source, length, piece) {
  if (length <= piece) {
    res.end(source ?? FILL.subarray(0, length))
    return
  }
  let offset = 0
  const next = () => {
    while (offset < length) {
      const n = Math.min(piece, length - offset)
      const chunk = source ? source.subarray(offset, offset + n) : FILL.subarray(0, n)
      offset += n
      if (offset === length) {
        res.end(chunk)
        return
      }
      if (!res.write(chunk)) {
        res.once('drain', next)
        return
      }
    }
  }
  next()
}

module.exports = { writeBody, FILL }
