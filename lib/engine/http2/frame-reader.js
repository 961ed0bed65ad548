'use strict'
// The receiving half of an HTTP/2 connection: a frame parser that works on
// the read buffer in place (only a frame split across reads is copied; DATA
// payloads never are), the HPACK decoder, and what a response's frames say
// about its stream. It is the connection's `scanner`, as ResponseScanner is
// HTTP/1.1's: hooks swap it for CaptureFrameReader (capture-frame-reader.js)
// on the connections that need bytes, headers or bodies, so this path does no
// per-stream work for any of it.
//
// What concerns streams, windows and the run goes back to the connection:
// headerBlock(), dataStart()/dataEnd(), setting()/settingsEnd(), control
// frames (queue(), streamUpdate(), reset(), goaway()).
const { HpackDecoder } = require('./hpack.js')
const H = require('./frames.js')

const { T, F, S, FRAME_HEADER, MAX_FRAME } = H
const HTTP1_AS_LENGTH = 0x485454 // "HTT" as a 24-bit frame length

/** Parser states (`state`). */
const READ_HEADER = 0 // reading a 9-byte frame header
const COPY_PAYLOAD = 1 // copying a frame payload that a read cut
const STREAM_DATA = 2 // streaming a DATA payload (never copied)

class FrameReader {
  /**
   * @param {import('./connection.js').H2Connection} conn
   * @param {Buffer|undefined} expectBody compare every body with this (--expectBody)
   */
  constructor (conn, expectBody) {
    this.conn = conn
    this.expectBody = expectBody
    this.matched = new Int32Array(conn.table.slots) // bytes of expectBody matched so far, -1: mismatch
    this.headerBlock = Buffer.allocUnsafe(MAX_FRAME) // a block split over CONTINUATION frames
    this.frameHeader = Buffer.allocUnsafe(FRAME_HEADER)
    this.payload = Buffer.allocUnsafe(MAX_FRAME) // a frame split across reads
    this.error = ''
    /** the recording chain's -x stage reads it: no bytes per response here */
    this.resBytes = undefined
    this.reset()
  }

  /** A new socket: a new HPACK table and no frame in progress. */
  reset () {
    this.hpack = this.decoder()
    this.halted = false
    this.state = READ_HEADER
    this.have = 0
    this.fLength = 0
    this.fType = 0
    this.fFlags = 0
    this.fStream = 0
    this.dataSlot = -1
    this.remaining = 0
    this.blockLength = 0
    this.continuing = 0 // the stream whose header block awaits CONTINUATION
    this.blockEndStream = false
  }

  /** The HPACK decoder of a socket (sizes and :status only). */
  decoder () {
    return new HpackDecoder()
  }

  /** A request goes out in `slot`: its response starts afresh. */
  opened (slot) {
    this.matched[slot] = 0
  }

  /** The response of `slot` is complete: whether its body failed the check. */
  finish (slot, status) {
    return this.expectBody !== undefined && this.matched[slot] !== this.expectBody.length
  }

  fail (msg) {
    this.error = msg
    return false
  }

  /** Feeds bytes to the parser; false on a connection error (this.error). */
  parse (buf, p, end) {
    while (p < end && !this.halted) {
      if (this.state === READ_HEADER) {
        let h = buf
        let at = p
        if (this.have === 0 && end - p >= FRAME_HEADER) {
          p += FRAME_HEADER
        } else {
          const take = Math.min(FRAME_HEADER - this.have, end - p)
          buf.copy(this.frameHeader, this.have, p, p + take)
          this.have += take
          p += take
          if (this.have < FRAME_HEADER) return true
          this.have = 0
          h = this.frameHeader
          at = 0
        }
        const length = (h[at] << 16) | (h[at + 1] << 8) | h[at + 2]
        this.fLength = length
        this.fType = h[at + 3]
        this.fFlags = h[at + 4]
        this.fStream = ((h[at + 5] & 0x7f) * 0x1000000) + ((h[at + 6] << 16) | (h[at + 7] << 8) | h[at + 8])
        if (length > MAX_FRAME) {
          // "HTTP/1.1 400 ..." read as a frame header: the server does not speak HTTP/2 here
          if (length === HTTP1_AS_LENGTH && h[at + 3] === 0x50) return this.fail('the server answered in HTTP/1.x, not HTTP/2')
          return this.fail(`FRAME_SIZE_ERROR: a frame of ${length} bytes (at most ${MAX_FRAME})`)
        }
        if (this.continuing !== 0 && (this.fType !== T.CONTINUATION || this.fStream !== this.continuing)) {
          return this.fail('PROTOCOL_ERROR: a header block was interrupted before its CONTINUATION')
        }
        if (this.fType === T.DATA && (this.fFlags & F.PADDED) === 0) {
          if (!this.dataStart()) return false
          if (length === 0) {
            this.dataEnd()
            continue
          }
          this.remaining = length
          this.state = STREAM_DATA
          continue
        }
        if (end - p >= length) {
          if (!this.frame(buf, p, p + length)) return false
          p += length
          continue
        }
        this.state = COPY_PAYLOAD
      } else if (this.state === COPY_PAYLOAD) {
        const take = Math.min(this.fLength - this.have, end - p)
        buf.copy(this.payload, this.have, p, p + take)
        this.have += take
        p += take
        if (this.have < this.fLength) return true
        this.have = 0
        this.state = READ_HEADER
        if (!this.frame(this.payload, 0, this.fLength)) return false
      } else { // STREAM_DATA
        const take = this.remaining < end - p ? this.remaining : end - p
        if (this.dataSlot >= 0 && this.expectBody !== undefined) this.match(this.dataSlot, buf, p, p + take)
        p += take
        this.remaining -= take
        if (this.remaining === 0) {
          this.state = READ_HEADER
          this.dataEnd()
        }
      }
    }
    return true
  }

  /** A whole frame payload in buf[p..end) (DATA here only when padded). */
  frame (buf, p, end) {
    const conn = this.conn
    switch (this.fType) {
      case T.HEADERS: return this.headers(buf, p, end)
      case T.CONTINUATION: return this.continuation(buf, p, end)
      case T.DATA: {
        if (!this.dataStart()) return false
        const pad = buf[p]
        if (pad >= end - p) return this.fail('PROTOCOL_ERROR: DATA padding longer than the frame')
        if (this.dataSlot >= 0 && this.expectBody !== undefined) this.match(this.dataSlot, buf, p + 1, end - pad)
        this.dataEnd()
        return true
      }
      case T.SETTINGS: return this.settings(buf, p, end)
      case T.PING:
        if (end - p !== 8) return this.fail('FRAME_SIZE_ERROR: a PING of the wrong size')
        if ((this.fFlags & F.ACK) === 0) conn.queue(T.PING, F.ACK, 0, 8, buf.readUInt32BE(p), buf.readUInt32BE(p + 4))
        return true
      case T.WINDOW_UPDATE:
        if (end - p !== 4) return this.fail('FRAME_SIZE_ERROR: a WINDOW_UPDATE of the wrong size')
        conn.windowUpdate(this.fStream, buf.readUInt32BE(p) & 0x7fffffff)
        return true
      case T.RST_STREAM:
        if (end - p !== 4) return this.fail('FRAME_SIZE_ERROR: a RST_STREAM of the wrong size')
        conn.reset(this.fStream, buf.readUInt32BE(p))
        return true
      case T.GOAWAY:
        if (end - p < 8) return this.fail('FRAME_SIZE_ERROR: a GOAWAY shorter than 8 bytes')
        conn.goaway(buf.readUInt32BE(p) & 0x7fffffff, buf.readUInt32BE(p + 4))
        return true
      case T.PUSH_PROMISE:
        return this.fail('PROTOCOL_ERROR: PUSH_PROMISE although we disabled push')
      default:
        return true // PRIORITY and unknown frame types are ignored (RFC 9113 4.1)
    }
  }

  headers (buf, p, end) {
    if (this.fFlags & F.PADDED) {
      const pad = buf[p++]
      if (pad > end - p) return this.fail('PROTOCOL_ERROR: HEADERS padding longer than the frame')
      end -= pad
    }
    if (this.fFlags & F.PRIORITY) p += 5
    if (p > end) return this.fail('FRAME_SIZE_ERROR: HEADERS too short')
    const endStream = (this.fFlags & F.END_STREAM) !== 0
    if (this.fFlags & F.END_HEADERS) return this.block(this.fStream, buf, p, end, endStream)
    this.continuing = this.fStream
    this.blockEndStream = endStream
    this.blockLength = 0
    return this.appendBlock(buf, p, end)
  }

  continuation (buf, p, end) {
    if (this.continuing === 0) return this.fail('PROTOCOL_ERROR: CONTINUATION without HEADERS')
    if (!this.appendBlock(buf, p, end)) return false
    if ((this.fFlags & F.END_HEADERS) === 0) return true
    const sid = this.continuing
    this.continuing = 0
    return this.block(sid, this.headerBlock, 0, this.blockLength, this.blockEndStream)
  }

  appendBlock (buf, p, end) {
    const need = this.blockLength + (end - p)
    if (need > this.headerBlock.length) {
      if (need > 1 << 24) return this.fail('a header block over 16 MiB')
      const bigger = Buffer.allocUnsafe(Math.max(need, this.headerBlock.length * 2))
      this.headerBlock.copy(bigger, 0, 0, this.blockLength)
      this.headerBlock = bigger
    }
    buf.copy(this.headerBlock, this.blockLength, p, end)
    this.blockLength = need
    return true
  }

  /** A complete header block of stream sid. */
  block (sid, buf, p, end, endStream) {
    // decode even for a stream we no longer track: the table must stay in sync
    if (!this.hpack.decode(buf, p, end)) return this.fail(`COMPRESSION_ERROR: ${this.hpack.error}`)
    this.conn.headerBlock(sid, this.hpack.status, endStream)
    return true
  }

  /** At the start of every DATA frame: the stream's slot, and flow control. */
  dataStart () {
    if (this.fStream === 0) return this.fail('PROTOCOL_ERROR: DATA on stream 0')
    this.dataSlot = this.conn.dataStart(this.fStream, this.fLength, (this.fFlags & F.END_STREAM) !== 0)
    return true
  }

  dataEnd () {
    const slot = this.dataSlot
    this.dataSlot = -1
    if (slot >= 0 && (this.fFlags & F.END_STREAM) !== 0) this.conn.dataEnd(slot)
  }

  /** Compares body bytes with --expectBody at the stream's offset. */
  match (slot, buf, p, end) {
    let at = this.matched[slot]
    if (at < 0) return
    const want = this.expectBody
    if (at + (end - p) > want.length) {
      this.matched[slot] = -1
      return
    }
    for (let i = p; i < end; i++) {
      if (buf[i] !== want[at++]) {
        this.matched[slot] = -1
        return
      }
    }
    this.matched[slot] = at
  }

  settings (buf, p, end) {
    if (this.fStream !== 0) return this.fail('PROTOCOL_ERROR: SETTINGS on a stream')
    if (this.fFlags & F.ACK) return true
    if ((end - p) % 6 !== 0) return this.fail('FRAME_SIZE_ERROR: SETTINGS not a multiple of 6 bytes')
    for (; p < end; p += 6) {
      const id = buf.readUInt16BE(p)
      const value = buf.readUInt32BE(p + 2)
      if (id === S.INITIAL_WINDOW_SIZE && value > H.MAX_WINDOW) return this.fail('FLOW_CONTROL_ERROR: SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1')
      this.conn.setting(id, value)
    }
    this.conn.settingsEnd()
    return true
  }
}

module.exports = { FrameReader }
