'use strict'
// The requests of an --h2 run with request hooks (sequences, setupRequest,
// setupClient, [<id>]): the connection's `requests` in place of the shared
// templates (request-templates.js), given by scripting/h2-hooks.js. Each new
// stream takes the next request of the connection's DynamicSource (its
// sequence, context and Client, shared with HTTP/1.1), built when the stream
// opens and HPACK-encoded into the write of that flush: still one write() per
// read chunk. The source's ring slot is the stream slot, so a re-sent stream
// (GOAWAY, reconnect) re-encodes exactly the request it held.
const { encodeRequestInto, requestBound } = require('./hpack.js')
const H = require('./frames.js')
const { writeData } = require('./flow-control.js')

const { T, F, FRAME_HEADER, MAX_FRAME } = H
const EMPTY = Buffer.alloc(0)

class DynamicRequests {
  /**
   * @param {import('./connection.js').H2Connection} conn
   * @param {import('../scripting/dynamic-source.js').DynamicSource} source
   *   built with an `encode` that keeps each request as a spec ({method, path,
   *   host, headers, body, block, sent})
   */
  constructor (conn, source) {
    this.source = source
    this.scheme = conn.runner.opts.target.protocol === 'https:' ? 'https' : 'http'
    this.count = source.count
    /** bodies vary per request: none is inside a template */
    this.bodyLength = 0
    // each stream's body, by slot: it goes into the write of its HEADERS when
    // both windows allow it, else FlowControl.pump() sends it as they open
    this.bodies = new Array(conn.table.slots).fill(EMPTY)
    conn.flow.useBodies(this.bodies)
    this.blockBuf = Buffer.allocUnsafe(1024) // one request's header block, then framed into the write
  }

  /** Builds the request of a new stream in `slot` (setupRequest runs here); its index is the slot. */
  next (conn, slot) {
    this.source.build(slot)
    return slot
  }

  /** The most bytes write() takes for request `req` (frame headers included); grows the block buffer to fit. */
  size (req) {
    const spec = this.source.built[req]
    const b = spec.block !== null ? spec.block.length : requestBound(spec, this.scheme)
    if (b > this.blockBuf.length) this.blockBuf = Buffer.allocUnsafe(b)
    let size = b + FRAME_HEADER * Math.ceil((b || 1) / MAX_FRAME)
    const body = spec.body
    if (body !== undefined && body.length > 0) size += body.length + FRAME_HEADER * Math.ceil(body.length / MAX_FRAME)
    return size
  }

  /**
   * Frames request `req` (= slot) into out at off as stream sid: HEADERS
   * (+CONTINUATION), and its body as DATA when both windows allow.
   */
  write (conn, out, off, slot, req, sid) {
    const spec = this.source.built[req]
    let block = spec.block
    let blockLength
    if (block !== null) {
      blockLength = block.length
    } else {
      block = this.blockBuf
      blockLength = encodeRequestInto(spec, this.scheme, block, 0)
      // sent a second time: a request the source reuses unchanged (no
      // setupRequest, no [<id>]; or a re-send) keeps its encoded block
      if (spec.sent) spec.block = Buffer.from(block.subarray(0, blockLength))
      spec.sent = true
    }
    const body = spec.body
    const bodyLength = body === undefined ? 0 : body.length
    for (let at = 0; at === 0 || at < blockLength; at += MAX_FRAME) {
      const len = blockLength - at < MAX_FRAME ? blockLength - at : MAX_FRAME
      let flags = at + len >= blockLength ? F.END_HEADERS : 0
      if (at === 0 && bodyLength === 0) flags |= F.END_STREAM
      H.writeHeader(out, off, len, at === 0 ? T.HEADERS : T.CONTINUATION, flags, sid)
      block.copy(out, off + FRAME_HEADER, at, at + len)
      off += FRAME_HEADER + len
    }
    this.bodies[slot] = bodyLength === 0 ? EMPTY : body
    const flow = conn.flow
    const inline = bodyLength > 0 && bodyLength <= flow.peerWindow && bodyLength <= flow.sendWindow
    if (inline) off = writeData(out, off, body, 0, bodyLength, sid)
    flow.startBody(slot, inline ? bodyLength : 0)
    return off
  }
}

module.exports = { DynamicRequests }
