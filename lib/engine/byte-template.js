'use strict'
// Bytes kept to recognise them when they come again: the HTTP/1.1 scanner's
// last head (http1/response-scanner.js) and the HPACK decoder's last block
// that left the dynamic table alone (http2/hpack.js). A server under load
// sends the same head again and again, and comparing it costs a fraction of
// reading it. The bytes are kept as little-endian 8-byte words read as
// doubles through a DataView, the cheapest read V8 has here (a 148-byte nginx
// head: 625 instructions, where a native Buffer#compare with offsets costs
// 1,146: bench/instructions-of-parts.js), the last word overlapping the one before it when the length
// is not a multiple of 8. Two doubles that compare equal have the same bits
// unless they are zeros (+0 === -0) or NaN (never equal), so bytes with a
// word that reads as a zero, a subnormal or a NaN (NUL and 0x7f-0xff bytes,
// not text) are not kept.

// the smallest normal double (2^-1022)
const MIN_NORMAL = 2.2250738585072014e-308

class ByteTemplate {
  /** @param {number} maxBytes longer byte runs are not kept */
  constructor (maxBytes) {
    this.max = maxBytes
    this.words = new Float64Array(maxBytes >> 3)
    this.tail = 0
    /** bytes kept; -1: none (0: the empty run) */
    this.length = -1
  }

  /**
   * Keeps view[at, at + length), or nothing (returns false) when it is too
   * long, 1 to 7 bytes, or has a word that could compare equal with other bits.
   * @param {DataView} view
   * @param {number} at
   * @param {number} length
   */
  learn (view, at, length) {
    this.length = -1
    if (length > this.max || (length > 0 && length < 8)) return false
    if (length > 0) {
      const words = this.words
      const n = length >> 3
      for (let w = 0; w < n; w++) {
        const x = view.getFloat64(at + (w << 3), true)
        if (!(Math.abs(x) >= MIN_NORMAL)) return false
        words[w] = x
      }
      const tail = view.getFloat64(at + length - 8, true)
      if (!(Math.abs(tail) >= MIN_NORMAL)) return false
      this.tail = tail
    }
    this.length = length
    return true
  }

  /**
   * view[at, at + this.length) are the kept bytes; the caller has checked
   * that they lie inside the bytes read.
   * @param {DataView} view
   * @param {number} at
   */
  matches (view, at) {
    const length = this.length
    if (length < 8) return length === 0
    if (view.getFloat64(at + length - 8, true) !== this.tail) return false
    const words = this.words
    const n = length >> 3
    for (let w = 0; w < n; w++) if (view.getFloat64(at + (w << 3), true) !== words[w]) return false
    return true
  }
}

/**
 * The DataView the word reads go through, made once per buffer: a connection
 * reads into one buffer, so this is once per connection, not per chunk (TLS
 * hands each chunk in a new Buffer, and gets a new view each time).
 */
class ViewCache {
  constructor () {
    /** @type {Uint8Array|null} the buffer `view` reads */
    this.of = null
    /** @type {DataView<ArrayBufferLike>} */
    this.view = new DataView(new ArrayBuffer(0))
  }

  /** @param {Uint8Array} buf */
  over (buf) {
    if (buf !== this.of) {
      this.of = buf
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
    }
    return this.view
  }
}

module.exports = { ByteTemplate, ViewCache }
