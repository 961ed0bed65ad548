'use strict'
// The WebSocket frame parser of a client (RFC 6455 §5), in place on the read
// buffer: frames from a server, split across reads or several in one read.
// It copies nothing of a data message unless its sink asks for the payload
// (`capture`: id matching, hooks, tests); control frames (at most 125 bytes)
// are gathered in a small buffer of their own, since a ping's payload goes
// back in the pong and a close carries its code.
//
// A stream that breaks the protocol stops the reader with `error` (a kind:
// the counters' names, KINDS below) and `closeCode` (what the client would
// send: 1002 protocol error, 1009 too big). The checks and their order are
// those of the `ws` package's Receiver, with no extension negotiated, so
// test/engine/ws-frame-diff.test.js can hold the two to the same verdicts:
// RSV bits; a continuation outside a message, a new message inside one;
// unknown opcodes; a control frame that is fragmented, longer than 125 bytes
// or a close of one byte; a masked frame (a server must not mask); a 64-bit
// length beyond 2^53 - 1; a close code outside the registered ranges. Text
// is not checked for UTF-8 (as `ws` with skipUTF8Validation): a load test
// counts replies, and checking every byte would cost what counting saves.

/** Protocol violations a server can commit, by kind (result.ws.protocolErrors). */
const KINDS = ['reserved-bits', 'opcode', 'control-fragmented', 'control-length', 'masked', 'length', 'close-code']
const K = Object.fromEntries(KINDS.map((k, i) => [k.toUpperCase().replace(/-/g, '_'), i]))

const OP_CONT = 0x0
const OP_TEXT = 0x1
const OP_BINARY = 0x2
const OP_CLOSE = 0x8
const OP_PING = 0x9
const OP_PONG = 0xa

// 2^53 - 1 as a 64-bit length: the high 32 bits may hold at most 21 bits
const MAX_HIGH = 2 ** 21 - 1

/**
 * What the reader calls. `message` gets the opcode of a whole data message
 * (text 1, binary 2) and its length; `payload` gets its bytes as they arrive
 * (only with `capture`); `control` gets ping (9), pong (10) and close (8)
 * with their payload in `buf[0, len)` (a close's code is read by the reader:
 * `closeCode`, 1005 when none).
 * @typedef {object} FrameSink
 * @property {(opcode: number, length: number) => void} message
 * @property {(opcode: number, buf: Buffer, len: number) => void} control
 * @property {(buf: Buffer, start: number, end: number) => void} [payload]
 */

/** @param {number} code a close frame's status code */
function validCloseCode (code) {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999)
}

class FrameReader {
  /**
   * @param {FrameSink} sink
   * @param {{capture?: boolean}} [options] capture: hand data payloads to sink.payload
   */
  constructor (sink, options = {}) {
    this.sink = sink
    this.capture = options.capture === true
    this.head = Buffer.alloc(14) // a header split across reads
    this.ctrl = Buffer.alloc(125)
    this.reset()
  }

  /** A new socket: no frame in progress. */
  reset () {
    this.headLen = 0
    this.remaining = 0 // payload bytes of the current frame still to read
    this.inPayload = false
    this.opcode = 0 // of the current frame
    this.fin = false
    this.fragmented = 0 // opcode of the data message whose fragments are arriving, or 0
    this.messageLength = 0
    this.ctrlLen = 0
    this.closed = false // a close frame was read: nothing after it is
    this.closeCode = 0 // of the close frame read, or the one to send on an error
    /** @type {string|null} the protocol violation that stopped the reader (KINDS) */
    this.error = null
    this.errorKind = -1
  }

  /**
   * Reads buf[pos, end). Returns false on a protocol violation (`error`).
   * @param {Buffer} buf @param {number} pos @param {number} end
   * @returns {boolean}
   */
  scan (buf, pos, end) {
    while (pos < end) {
      if (this.closed) return true
      if (this.inPayload) {
        let take = end - pos
        if (take > this.remaining) take = this.remaining
        if (this.opcode >= OP_CLOSE) {
          buf.copy(this.ctrl, this.ctrlLen, pos, pos + take)
          this.ctrlLen += take
        } else if (this.capture) {
          this.sink.payload(buf, pos, pos + take)
        }
        pos += take
        this.remaining -= take
        if (this.remaining > 0) return true
        if (!this.frameDone()) return false
        continue
      }
      // a header: whole in this chunk (the usual case), or gathered
      let at
      let src
      let size
      if (this.headLen === 0 && end - pos >= 2 && end - pos >= (size = headerSize(buf[pos], buf[pos + 1]))) {
        src = buf
        at = pos
        pos += size
      } else {
        const need = this.headLen < 2 ? 2 : headerSize(this.head[0], this.head[1])
        const take = Math.min(need - this.headLen, end - pos)
        buf.copy(this.head, this.headLen, pos, pos + take)
        this.headLen += take
        pos += take
        if (this.headLen < need) continue
        if (need === 2) {
          const full = headerSize(this.head[0], this.head[1])
          if (full > 2) {
            // validate before waiting for the rest: a bad frame is refused at once
            if (!this.checkInfo(this.head[0], this.head[1])) return false
            continue
          }
        }
        src = this.head
        at = 0
        this.headLen = 0
      }
      if (!this.header(src, at)) return false
    }
    return true
  }

  /**
   * The first two bytes of a frame, checked as ws's Receiver checks them.
   * @returns {boolean}
   */
  checkInfo (b0, b1) {
    if ((b0 & 0x70) !== 0) return this.fail(K.RESERVED_BITS, 1002)
    const op = b0 & 0x0f
    const fin = (b0 & 0x80) !== 0
    const len7 = b1 & 0x7f
    if (op === OP_CONT) {
      if (this.fragmented === 0) return this.fail(K.OPCODE, 1002)
    } else if (op === OP_TEXT || op === OP_BINARY) {
      if (this.fragmented !== 0) return this.fail(K.OPCODE, 1002)
    } else if (op >= OP_CLOSE && op <= OP_PONG) {
      if (!fin) return this.fail(K.CONTROL_FRAGMENTED, 1002)
      if (len7 > 125 || (op === OP_CLOSE && len7 === 1)) return this.fail(K.CONTROL_LENGTH, 1002)
    } else {
      return this.fail(K.OPCODE, 1002)
    }
    if ((b1 & 0x80) !== 0) return this.fail(K.MASKED, 1002)
    return true
  }

  /** A whole header at src[at...]: checks it and starts its payload. */
  header (src, at) {
    const b0 = src[at]
    const b1 = src[at + 1]
    if (!this.checkInfo(b0, b1)) return false
    let len = b1 & 0x7f
    if (len === 126) {
      len = (src[at + 2] << 8) | src[at + 3]
    } else if (len === 127) {
      const high = src.readUInt32BE(at + 2)
      if (high > MAX_HIGH) return this.fail(K.LENGTH, 1009)
      len = high * 4294967296 + src.readUInt32BE(at + 6)
    }
    const op = b0 & 0x0f
    this.fin = (b0 & 0x80) !== 0
    this.opcode = op
    if (op === OP_CONT) {
      this.opcode = this.fragmented
    } else if (op < OP_CLOSE) {
      if (!this.fin) this.fragmented = op
      this.messageLength = 0
    } else {
      this.ctrlLen = 0
    }
    if (op < OP_CLOSE) this.messageLength += len
    this.remaining = len
    this.inPayload = true
    if (len === 0) return this.frameDone()
    return true
  }

  /** The current frame's payload is read. */
  frameDone () {
    this.inPayload = false
    const op = this.opcode
    if (op >= OP_CLOSE) {
      if (op === OP_CLOSE) {
        const code = this.ctrlLen === 0 ? 1005 : (this.ctrl[0] << 8) | this.ctrl[1]
        if (this.ctrlLen > 0 && !validCloseCode(code)) return this.fail(K.CLOSE_CODE, 1002)
        this.closed = true
        this.closeCode = code
      }
      this.sink.control(op, this.ctrl, this.ctrlLen)
      return true
    }
    if (!this.fin) return true
    this.fragmented = 0
    this.sink.message(op, this.messageLength)
    return true
  }

  fail (kind, closeCode) {
    this.errorKind = kind
    this.error = KINDS[kind]
    this.closeCode = closeCode
    return false
  }

  /** No frame is half read (the socket may close here without losing a reply). */
  idle () {
    return !this.inPayload && this.headLen === 0 && this.fragmented === 0
  }
}

/** Bytes of a server frame's header from its first two bytes (a server frame has no mask key, but a masked one is refused only after these). */
function headerSize (b0, b1) {
  const len7 = b1 & 0x7f
  return 2 + (len7 === 126 ? 2 : (len7 === 127 ? 8 : 0)) + ((b1 & 0x80) !== 0 ? 4 : 0)
}

module.exports = { FrameReader, KINDS, validCloseCode, OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG }
