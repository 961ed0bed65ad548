'use strict'
// HTTP/2 framing constants (RFC 9113) and the byte builders the client uses
// once per connection (preface, settings) or once per run (request
// templates). Nothing here runs per request except writeStreamId.

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1')
const FRAME_HEADER = 9
/** The largest frame payload we accept (we never raise SETTINGS_MAX_FRAME_SIZE). */
const MAX_FRAME = 16384
const DEFAULT_WINDOW = 65535
const MAX_WINDOW = 2 ** 31 - 1
const MAX_STREAM_ID = 2 ** 31 - 1

const T = {
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9
}
const F = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 }
const S = {
  HEADER_TABLE_SIZE: 1,
  ENABLE_PUSH: 2,
  MAX_CONCURRENT_STREAMS: 3,
  INITIAL_WINDOW_SIZE: 4,
  MAX_FRAME_SIZE: 5,
  MAX_HEADER_LIST_SIZE: 6
}
const ERROR_NAMES = [
  'NO_ERROR', 'PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT',
  'STREAM_CLOSED', 'FRAME_SIZE_ERROR', 'REFUSED_STREAM', 'CANCEL', 'COMPRESSION_ERROR',
  'CONNECT_ERROR', 'ENHANCE_YOUR_CALM', 'INADEQUATE_SECURITY', 'HTTP_1_1_REQUIRED'
]

/** The name of an error code (RFC 9113 section 7), or its number. */
function errorName (code) {
  return ERROR_NAMES[code] ?? `error 0x${code.toString(16)}`
}

function writeHeader (buf, off, length, type, flags, streamId) {
  buf[off] = (length >>> 16) & 0xff
  buf[off + 1] = (length >>> 8) & 0xff
  buf[off + 2] = length & 0xff
  buf[off + 3] = type
  buf[off + 4] = flags
  writeStreamId(buf, off + 5, streamId)
}

function writeStreamId (buf, off, id) {
  buf[off] = (id >>> 24) & 0x7f
  buf[off + 1] = (id >>> 16) & 0xff
  buf[off + 2] = (id >>> 8) & 0xff
  buf[off + 3] = id & 0xff
}

/**
 * One frame as a new Buffer.
 * @param {number} type
 * @param {number} flags
 * @param {number} streamId
 * @param {Buffer} [payload]
 */
function frame (type, flags, streamId, payload = Buffer.alloc(0)) {
  const b = Buffer.allocUnsafe(FRAME_HEADER + payload.length)
  writeHeader(b, 0, payload.length, type, flags, streamId)
  payload.copy(b, FRAME_HEADER)
  return b
}

/**
 * The client's first bytes: the preface, our SETTINGS (no server push, the
 * stream window) and one WINDOW_UPDATE that opens the connection window to
 * the same size, so that the server is never throttled by us.
 * @param {number} window bytes
 */
function clientPreface (window) {
  const settings = Buffer.alloc(12)
  settings.writeUInt16BE(S.ENABLE_PUSH, 0)
  settings.writeUInt32BE(0, 2)
  settings.writeUInt16BE(S.INITIAL_WINDOW_SIZE, 6)
  settings.writeUInt32BE(window, 8)
  const parts = [PREFACE, frame(T.SETTINGS, 0, 0, settings)]
  if (window > DEFAULT_WINDOW) {
    const inc = Buffer.alloc(4)
    inc.writeUInt32BE(window - DEFAULT_WINDOW, 0)
    parts.push(frame(T.WINDOW_UPDATE, 0, 0, inc))
  }
  return Buffer.concat(parts)
}

/**
 * A request as fixed bytes: HEADERS (+ CONTINUATION when the block is larger
 * than a frame) then DATA frames for the body. Only the stream id changes
 * between requests: `idOffsets` are the positions of the stream-id fields.
 * @param {Buffer} block the HPACK header block
 * @param {Buffer|undefined} body
 * @param {{streamed?: boolean}} [opts] streamed: the HEADERS only (no
 *   END_STREAM when there is a body); the client sends the body as DATA
 *   frames as the flow-control windows allow
 * @returns {{bytes: Buffer, idOffsets: number[], bodyLength: number}}
 */
function requestTemplate (block, body, { streamed = false } = {}) {
  const parts = []
  const idOffsets = []
  let off = 0
  const hasBody = body !== undefined && body.length > 0
  for (let at = 0; at === 0 || at < block.length; at += MAX_FRAME) {
    const piece = block.subarray(at, at + MAX_FRAME)
    const last = at + MAX_FRAME >= block.length
    const type = at === 0 ? T.HEADERS : T.CONTINUATION
    let flags = last ? F.END_HEADERS : 0
    if (type === T.HEADERS && !hasBody) flags |= F.END_STREAM
    parts.push(frame(type, flags, 1, piece))
    idOffsets.push(off + 5)
    off += FRAME_HEADER + piece.length
  }
  if (hasBody && !streamed) {
    for (let at = 0; at < body.length; at += MAX_FRAME) {
      const piece = body.subarray(at, at + MAX_FRAME)
      const last = at + MAX_FRAME >= body.length
      parts.push(frame(T.DATA, last ? F.END_STREAM : 0, 1, piece))
      idOffsets.push(off + 5)
      off += FRAME_HEADER + piece.length
    }
  }
  return { bytes: Buffer.concat(parts), idOffsets, bodyLength: hasBody ? body.length : 0 }
}

module.exports = {
  PREFACE,
  FRAME_HEADER,
  MAX_FRAME,
  DEFAULT_WINDOW,
  MAX_WINDOW,
  MAX_STREAM_ID,
  T,
  F,
  S,
  ERROR_NAMES,
  errorName,
  writeHeader,
  writeStreamId,
  frame,
  clientPreface,
  requestTemplate
}
