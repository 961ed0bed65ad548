'use strict'
// HdrHistogram V2 "compressed" encoding, so results can be read by any
// HdrHistogram library (Java, Go, hdr-histogram-js, HistogramLogAnalyzer):
//   int32 compressed cookie | int32 deflated length | zlib(deflate(V2 body))
// and the V2 body is
//   int32 cookie | int32 payload length | int32 normalizing offset (0) |
//   int32 significant digits | int64 lowest | int64 highest | float64 ratio (1)
//   payload: counts as ZigZag LEB128 (max 9 bytes), a run of k zero counts
//   written as the single value -k.
// All integers are big-endian, as in Java's ByteBuffer.
const zlib = require('node:zlib')
const { Histogram } = require('./histogram.js')

const V2_COOKIE = 0x1c849303 | 0x10
const V2_COMPRESSED_COOKIE = 0x1c849304 | 0x10
const HEADER_BYTES = 40

/** ZigZag LEB128 of a safe integer, into bytes[] at pos; returns the new pos. */
function putZigZag (bytes, pos, value) {
  // zigzag on a double: 2v for v >= 0, -2v-1 for v < 0 (exact below 2^52)
  let z = value >= 0 ? value * 2 : -value * 2 - 1
  for (let n = 0; n < 8; n++) {
    const low = z % 128
    z = (z - low) / 128
    if (z === 0) {
      bytes[pos++] = low
      return pos
    }
    bytes[pos++] = low | 0x80
  }
  bytes[pos++] = z & 0xff // the 9th byte carries 8 bits
  return pos
}

function getZigZag (buf, state) {
  let z = 0
  let mul = 1
  for (let n = 0; n < 9; n++) {
    const b = buf[state.pos++]
    if (n === 8) {
      z += b * mul
      break
    }
    z += (b & 0x7f) * mul
    if ((b & 0x80) === 0) break
    mul *= 128
  }
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2
}

/**
 * @param {Histogram} h
 * @returns {Buffer} the uncompressed V2 encoding
 */
function encodeV2 (h) {
  const last = h.lastIndex()
  const payload = Buffer.alloc((last + 1) * 9 + 9)
  let pos = 0
  const c = h.counts
  for (let i = 0; i <= last; i++) {
    if (c[i] === 0) {
      let zeros = 1
      while (i + 1 <= last && c[i + 1] === 0) {
        zeros++
        i++
      }
      pos = putZigZag(payload, pos, zeros > 1 ? -zeros : 0)
    } else {
      pos = putZigZag(payload, pos, c[i])
    }
  }
  const out = Buffer.alloc(HEADER_BYTES + pos)
  out.writeInt32BE(V2_COOKIE, 0)
  out.writeInt32BE(pos, 4)
  out.writeInt32BE(0, 8)
  out.writeInt32BE(h.digits, 12)
  out.writeBigInt64BE(BigInt(h.lowest), 16)
  out.writeBigInt64BE(BigInt(h.highest), 24)
  out.writeDoubleBE(1, 32)
  payload.copy(out, HEADER_BYTES, 0, pos)
  return out
}

/**
 * The histogram as HdrHistogram V2 compressed base64.
 * @param {Histogram} h
 * @returns {string}
 */
function encode (h) {
  const deflated = zlib.deflateSync(encodeV2(h))
  const head = Buffer.alloc(8)
  head.writeInt32BE(V2_COMPRESSED_COOKIE, 0)
  head.writeInt32BE(deflated.length, 4)
  return Buffer.concat([head, deflated]).toString('base64')
}

/**
 * Decodes HdrHistogram V2 compressed base64 (or a raw V2 buffer).
 * @param {string|Buffer} input
 * @returns {Histogram}
 */
function decode (input) {
  let buf = typeof input === 'string' ? Buffer.from(input, 'base64') : input
  if (buf.length < 8) throw new RangeError('not an HdrHistogram encoding: too short')
  if ((buf.readInt32BE(0) & ~0xf0) === (V2_COMPRESSED_COOKIE & ~0xf0)) {
    const len = buf.readInt32BE(4)
    buf = zlib.inflateSync(buf.subarray(8, 8 + len))
  }
  if ((buf.readInt32BE(0) & ~0xf0) !== (V2_COOKIE & ~0xf0)) {
    throw new RangeError('not an HdrHistogram V2 encoding (unknown cookie)')
  }
  const payloadLength = buf.readInt32BE(4)
  const offset = buf.readInt32BE(8)
  const digits = buf.readInt32BE(12)
  const lowest = Number(buf.readBigInt64BE(16))
  const highest = Number(buf.readBigInt64BE(24))
  if (lowest !== 1 || offset !== 0) throw new RangeError('only histograms with a unit of 1 and no index offset are supported')
  const h = new Histogram({ highest: Math.min(highest, 0xffffffff), digits })
  const end = HEADER_BYTES + payloadLength
  const state = { pos: HEADER_BYTES }
  let index = 0
  while (state.pos < end) {
    const v = getZigZag(buf, state)
    if (v < 0) {
      index += -v
    } else {
      if (index >= h.length) throw new RangeError('HdrHistogram payload exceeds its declared range')
      h.counts[index++] = v
    }
  }
  return h.recount()
}

module.exports = { encode, decode, encodeV2 }
