'use strict'
// The frame reader of --h2 runs whose hooks read responses (-x and the
// 'response' event: bytes; onResponse and the Client: headers; verifyBody
// and 'body' listeners: bodies): the connection's `scanner` in place of the
// plain FrameReader, given by scripting/h2-hooks.js, as CaptureScanner is for
// HTTP/1.1. Per stream slot it keeps the bytes of the stream's frames, its
// final headers (decoded by a `full` HpackDecoder, which keeps the same
// dynamic table as the plain one) and its DATA payloads, copied and joined
// only when a hook or verifyBody reads the body.
const { FrameReader } = require('./frame-reader.js')
const { HpackDecoder } = require('./hpack.js')
const { FRAME_HEADER } = require('./frames.js')

const EMPTY = Buffer.alloc(0)
// set as expectBody when bodies are captured: the parser then hands every
// DATA payload to match(), which copies it (as CaptureScanner does for HTTP/1.1)
const CAPTURE = Buffer.alloc(0)

class CaptureFrameReader extends FrameReader {
  /**
   * @param {import('./connection.js').H2Connection} conn
   * @param {{wantHeaders: boolean, wantBody: boolean,
   *   finished: (conn: object, slot: number, status: number, body: Buffer, headers: object|null) => boolean}} how
   *   finished() runs the response's hooks and says whether its body mismatched
   */
  constructor (conn, how) {
    super(conn, conn.runner.expectBody)
    const m = conn.table.slots
    this.how = how
    this.wantHeaders = how.wantHeaders
    this.resBytes = 0 // of the response last finished
    this.bytesOf = new Float64Array(m)
    this.headersOf = new Array(m).fill(null)
    this.collect = null // the headers object the decoder fills
    this.wantBody = false
    this.bodyParts = new Array(m).fill(null)
    if (how.wantBody) this.captureBodies()
    this.reset() // with the decoder this reader needs
  }

  /** Keeps each response's body (for hooks, verifyBody, the Client's 'body' event). */
  captureBodies () {
    this.wantBody = true
    this.expectBody = CAPTURE
  }

  decoder () {
    // undefined while the base constructor runs; the constructor resets again
    if (this.wantHeaders !== true) return new HpackDecoder()
    const hpack = new HpackDecoder({ full: true })
    hpack.onHeader = (name, value) => this.header(name, value)
    return hpack
  }

  opened (slot) {
    super.opened(slot)
    // a (re-)sent stream's response starts afresh
    this.bytesOf[slot] = 0
    this.headersOf[slot] = null
    this.bodyParts[slot] = null
  }

  headers (buf, p, end) {
    this.countFrame(this.conn.table.slotOf(this.fStream))
    return super.headers(buf, p, end)
  }

  continuation (buf, p, end) {
    this.countFrame(this.conn.table.slotOf(this.fStream))
    return super.continuation(buf, p, end)
  }

  dataStart () {
    if (!super.dataStart()) return false
    this.countFrame(this.dataSlot)
    return true
  }

  countFrame (slot) {
    if (slot >= 0) this.bytesOf[slot] += FRAME_HEADER + this.fLength
  }

  block (sid, buf, p, end, endStream) {
    if (this.wantHeaders) {
      // the first header block of a stream, or the final one after a 1xx,
      // fills a fresh object; trailers (status already set) are not kept
      const table = this.conn.table
      const slot = table.slotOf(sid)
      this.collect = slot >= 0 && table.status[slot] === 0 ? (this.headersOf[slot] = {}) : null
    }
    return super.block(sid, buf, p, end, endStream)
  }

  /** One decoded header (full decoder): into the stream's object, a repeated one as an array, as HTTP/1.1's are. */
  header (name, value) {
    const h = this.collect
    if (h === null || name.charCodeAt(0) === 58 /* : */) return
    const had = h[name]
    h[name] = had === undefined ? value : (Array.isArray(had) ? (had.push(value), had) : [had, value])
  }

  match (slot, buf, p, end) {
    if (!this.wantBody) return super.match(slot, buf, p, end)
    if (end <= p) return
    // the read buffer is reused: keep a copy
    const part = Buffer.from(buf.subarray(p, end))
    if (this.bodyParts[slot] === null) this.bodyParts[slot] = [part]
    else this.bodyParts[slot].push(part)
  }

  finish (slot, status) {
    let mismatch = super.finish(slot, status)
    this.resBytes = this.bytesOf[slot]
    let body = EMPTY
    if (this.wantBody) {
      const parts = this.bodyParts[slot]
      if (parts !== null) body = parts.length === 1 ? parts[0] : Buffer.concat(parts)
      this.bodyParts[slot] = null
    }
    const headers = this.headersOf[slot]
    this.headersOf[slot] = null
    if (this.how.finished(this.conn, slot, status, body, headers)) mismatch = true
    return mismatch
  }
}

module.exports = { CaptureFrameReader }
