'use strict'
// Client frames (RFC 6455 §5.2-5.3): FIN set, the opcode, the payload length
// in 7, 7+16 or 7+64 bits, and a masking key that is new for every frame
// (§5.3: "the masking key MUST be derived from a strong source of entropy",
// and one key per connection is exactly what it forbids, since a proxy could
// then be fed chosen bytes). Keys are taken 4 bytes at a time from a pool
// filled by crypto.randomFillSync, 16,384 keys per fill, one pool per thread:
// no call into the random source and no allocation per frame.
const { randomFillSync } = require('node:crypto')

const POOL_BYTES = 64 * 1024

class MaskPool {
  /** @param {number} [bytes] pool size (a multiple of 4; tests use small ones to refill often) */
  constructor (bytes = POOL_BYTES) {
    this.buf = randomFillSync(Buffer.allocUnsafe(bytes))
    this.pos = 0
    this.fills = 1
  }

  /** The offset in `buf` of a fresh 4-byte key. */
  next () {
    if (this.pos + 4 > this.buf.length) {
      randomFillSync(this.buf)
      this.fills++
      this.pos = 0
    }
    const at = this.pos
    this.pos += 4
    return at
  }
}

/** Header bytes of a client frame with a payload of `len` bytes (mask key included). */
function headerBytes (len) {
  return (len < 126 ? 2 : (len < 65536 ? 4 : 10)) + 4
}

/**
 * Writes one masked client frame into out at `at`: header, key, and the
 * payload src[start, start+len) XOR the key. Returns the offset after it.
 * @param {Buffer} out @param {number} at @param {number} opcode
 * @param {Buffer} src @param {number} start @param {number} len
 * @param {MaskPool} pool
 * @returns {number}
 */
function writeFrame (out, at, opcode, src, start, len, pool) {
  out[at++] = 0x80 | opcode
  if (len < 126) {
    out[at++] = 0x80 | len
  } else if (len < 65536) {
    out[at++] = 0x80 | 126
    out[at++] = len >>> 8
    out[at++] = len & 0xff
  } else {
    out[at++] = 0x80 | 127
    out.writeUInt32BE(Math.floor(len / 4294967296), at)
    out.writeUInt32BE(len >>> 0, at + 4)
    at += 8
  }
  const keys = pool.buf
  const k = pool.next()
  const m0 = keys[k]
  const m1 = keys[k + 1]
  const m2 = keys[k + 2]
  const m3 = keys[k + 3]
  out[at] = m0
  out[at + 1] = m1
  out[at + 2] = m2
  out[at + 3] = m3
  at += 4
  // byte by byte: a message template is tens to hundreds of bytes, where
  // this loop beats setting up a 32-bit view (ws's JS fallback does the same)
  let i = 0
  const whole = len & ~3
  for (; i < whole; i += 4) {
    out[at + i] = src[start + i] ^ m0
    out[at + i + 1] = src[start + i + 1] ^ m1
    out[at + i + 2] = src[start + i + 2] ^ m2
    out[at + i + 3] = src[start + i + 3] ^ m3
  }
  for (; i < len; i++) out[at + i] = src[start + i] ^ keys[k + (i & 3)]
  return at + len
}

/**
 * A close frame with `code` (and no reason), masked: the answer to a
 * server's close, or our own on a protocol error (1002).
 * @param {number} code 0: no code (an empty close)
 * @param {MaskPool} pool
 */
function closeFrame (code, pool) {
  const body = code === 0 ? Buffer.alloc(0) : Buffer.from([code >>> 8, code & 0xff])
  const out = Buffer.allocUnsafe(headerBytes(body.length) + body.length)
  writeFrame(out, 0, 0x8, body, 0, body.length, pool)
  return out
}

/** A pong echoing a ping's payload (§5.5.3), masked. */
function pongFrame (payload, len, pool) {
  const out = Buffer.allocUnsafe(headerBytes(len) + len)
  writeFrame(out, 0, 0xa, payload, 0, len, pool)
  return out
}

module.exports = { MaskPool, writeFrame, headerBytes, closeFrame, pongFrame, POOL_BYTES }
