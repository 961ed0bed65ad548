'use strict'
// The message a WebSocket connection sends: a template built once per run
// (text or binary, from -b, -i or a default), written as masked frames into
// the connection's output buffer. With an id field (--ws-id NAME) the
// template holds a fixed-width slot where each message's number is written
// before masking (digits, then spaces: `{"id":17              }` is still
// JSON), and replies are matched by the number found after `"NAME":` in
// them; without one, replies are matched in order. A hook (--ws-message)
// builds each message instead (HookedMessage): it is called once per
// message, so the run pays for what it allocates.
const { writeFrame, headerBytes } = require('./frames.js')

const ID_MARK = '{{id}}'
const ID_WIDTH = 16 // 10^16 > 2^53: any message number fits

class MessageTemplate {
  /**
   * @param {{payload: Buffer, binary: boolean, idField?: string}} spec
   *   payload holds {{id}} where the number goes when idField is set
   */
  constructor (spec) {
    this.opcode = spec.binary ? 0x2 : 0x1
    this.idField = spec.idField
    let payload = spec.payload
    this.idAt = -1
    if (spec.idField !== undefined) {
      const at = payload.indexOf(ID_MARK)
      payload = Buffer.concat([payload.subarray(0, at), Buffer.alloc(ID_WIDTH, 0x20), payload.subarray(at + ID_MARK.length)])
      this.idAt = at
      // `"NAME"` as it appears in a reply, to find the number after it
      this.needle = Buffer.from(JSON.stringify(spec.idField))
    }
    /** the payload with spaces where the id goes (patched in place per message) */
    this.payload = payload
    this.length = payload.length
    this.frameBytes = headerBytes(payload.length) + payload.length
  }

  /**
   * Bytes the frames of the next k messages take (first number `seq`).
   * @param {number} k @param {number} seq @param {number} connection
   */
  bytesFor (k, seq, connection) {
    return k * this.frameBytes
  }

  /**
   * Writes message number `seq` as a frame at out[at]; returns the offset after it.
   * @param {Buffer} out @param {number} at @param {number} seq
   * @param {import('./frames.js').MaskPool} pool
   * @param {number} j its place among the messages of bytesFor()
   */
  write (out, at, seq, pool, j) {
    if (this.idAt >= 0) writeId(this.payload, this.idAt, seq)
    return writeFrame(out, at, this.opcode, this.payload, 0, this.length, pool)
  }

  /**
   * The message number in a reply: the digits after `"NAME"`, `:` and
   * optional spaces or a quote; -1 if there is none.
   * @param {Buffer} buf @param {number} len bytes of the reply in buf
   */
  idOf (buf, len) {
    const needle = this.needle
    let i = buf.indexOf(needle)
    if (i < 0 || i + needle.length > len) return -1
    i += needle.length
    while (i < len && (buf[i] === 0x20 || buf[i] === 0x09)) i++
    if (i >= len || buf[i] !== 0x3a) return -1
    i++
    while (i < len && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === 0x22)) i++
    let n = 0
    const start = i
    while (i < len && buf[i] >= 0x30 && buf[i] <= 0x39) n = n * 10 + buf[i++] - 0x30
    return i === start ? -1 : n
  }
}

/**
 * Messages built by a hook: `hook(seq, connection)` returns the message
 * (a string is sent as UTF-8); with --ws-id it must put `seq` in the field
 * itself. bytesFor() calls the hook for each of the next messages, write()
 * frames what it returned.
 */
class HookedMessage {
  /**
   * @param {(seq: number, connection: number) => string|Uint8Array} hook
   * @param {{binary: boolean, idField?: string}} spec
   */
  constructor (hook, spec) {
    this.hook = hook
    this.opcode = spec.binary ? 0x2 : 0x1
    this.idField = spec.idField
    this.needle = spec.idField === undefined ? null : Buffer.from(JSON.stringify(spec.idField))
    /** @type {Buffer[]} */
    this.next = []
    this.frameBytes = 0 // unknown before the hook runs: the output buffer grows as needed
  }

  bytesFor (k, seq, connection) {
    let total = 0
    for (let j = 0; j < k; j++) {
      const m = this.hook(seq + j, connection)
      if (typeof m !== 'string' && !(m instanceof Uint8Array)) throw new TypeError(`it returned ${m === null ? 'null' : typeof m}, not a string or a Buffer`)
      const b = typeof m === 'string' ? Buffer.from(m) : Buffer.from(m.buffer, m.byteOffset, m.byteLength)
      this.next[j] = b
      total += headerBytes(b.length) + b.length
    }
    return total
  }

  write (out, at, seq, pool, j) {
    const b = this.next[j]
    this.next[j] = null
    return writeFrame(out, at, this.opcode, b, 0, b.length, pool)
  }
}
HookedMessage.prototype.idOf = MessageTemplate.prototype.idOf

/** Writes n as decimal digits at buf[at], then spaces to ID_WIDTH. */
function writeId (buf, at, n) {
  let digits = 1
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++
  let i = at + digits
  for (let x = n; i > at; x = Math.floor(x / 10)) buf[--i] = 0x30 + (x % 10)
  for (let j = at + digits; j < at + ID_WIDTH; j++) buf[j] = 0x20
}

/** Bytes of each message a spec sends (the id slot is ID_WIDTH wide; a hook's: undefined, they vary). */
function messageLength (spec) {
  if (spec.hook !== undefined) return undefined
  return spec.payload.length + (spec.idField === undefined ? 0 : ID_WIDTH - ID_MARK.length)
}

module.exports = { MessageTemplate, HookedMessage, messageLength, ID_MARK, ID_WIDTH }
