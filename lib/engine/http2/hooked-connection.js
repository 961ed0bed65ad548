'use strict'
// HTTP/2 connections of runs with hooks (request sequences, setupRequest,
// onResponse, setupClient, -I, verifyBody, -x, a 'response' listener from
// the start): a subclass of H2Connection, or of PacedH2Connection for a rate
// run, chosen once per run by h2-hooks.js. The plain --h2 path keeps its
// templates and does no per-stream work for any of this.
//
// Two independent parts, each on only when the run needs it:
//   requests  (hooks.dynamic) each new stream takes the next request of the
//             connection's DynamicSource (its sequence, context and Client,
//             shared with HTTP/1.1), built when the stream opens and
//             HPACK-encoded into the write buffer of that flush: still one
//             write() per read chunk. The source's ring slot is the stream
//             slot, so a re-sent stream (GOAWAY, reconnect) re-encodes
//             exactly the request it held, and seq[slot] names its hook.
//   capture   per stream: the bytes of its frames (resBytes, for -x and the
//             'response' event), its final headers (decoded by a `full`
//             HpackDecoder, which keeps the same dynamic table as the plain
//             one) and its DATA payloads, copied and joined only when a
//             hook or verifyBody reads the body.
const { performance } = require('node:perf_hooks')
const { HpackDecoder, encodeRequestInto, requestBound } = require('./hpack.js')
const H = require('./frames.js')
const C = require('../counters.js')

const { T, F, FRAME_HEADER, MAX_FRAME } = H
const EMPTY = Buffer.alloc(0)
// set as expectBody when bodies are captured: the parser then hands every
// DATA payload to match(), which copies it (as CaptureScanner does for HTTP/1.1)
const CAPTURE = Buffer.alloc(0)
const NO_STREAM = 0

/** Per runner: the shared state of the plain client, without template bodies. */
const dynamicShared = new WeakMap()

/**
 * @param {typeof import('./connection.js').H2Connection} Base
 *   H2Connection or PacedH2Connection
 */
function withHooks (Base) {
  return class HookedH2Connection extends Base {
    /**
     * @param {import('../runner.js').Runner} runner
     * @param {number} id
     * @param {import('../pacer.js').Pacer|undefined} pacer (PacedH2Connection only)
     * @param {{dynamic: boolean, wantHeaders: boolean, wantBody: boolean,
     *   finished: (conn: object, slot: number, status: number, body: Buffer, headers: object|null) => boolean}} how
     *   finished() runs the response's hooks and says whether its body mismatched
     */
    constructor (runner, id, pacer, how) {
      super(runner, id, pacer)
      const m = this.slots
      this.how = how
      this.source = null // a DynamicSource, set by h2-hooks.js when hooks.dynamic
      this.client = null
      this.scheme = runner.opts.target.protocol === 'https:' ? 'https' : 'http'
      // what the recording chain's -x and 'response' stages read (measure/recorder.js)
      this.scanner = { resBytes: 0 }
      this.resBytes = new Float64Array(m)
      this.wantHeaders = how.wantHeaders
      this.headersOf = new Array(m).fill(null)
      this.collect = null // the headers object the decoder fills
      this.wantBody = false
      this.bodyParts = new Array(m).fill(null)
      if (how.wantBody) this.captureBodies()
      if (how.dynamic) {
        // bodies vary per request: each stream's body goes into the write of
        // its HEADERS when both windows allow it, else pump() sends it as the
        // windows open (the plain client's streamed mode, indexed by slot)
        let s = dynamicShared.get(runner)
        if (s === undefined) dynamicShared.set(runner, (s = { ...this.shared, bodyLength: 0, bodies: null }))
        this.shared = s
        this.bodies = new Array(m).fill(EMPTY)
        this.bodySent = new Float64Array(m)
        this.streamWindow = new Float64Array(m)
        this.pumpPlan = new Float64Array(m)
        this.newSlots = new Int32Array(m)
        this.blockBuf = Buffer.allocUnsafe(1024) // one request's header block, then framed into the write
      }
      this.resetSocketState()
    }

    /** Keeps each response's body (for hooks, verifyBody, the Client's 'body' event). */
    captureBodies () {
      this.wantBody = true
      this.expectBody = CAPTURE
    }

    resetSocketState () {
      super.resetSocketState()
      // undefined while the base constructor runs; open() calls this again
      if (this.wantHeaders === true) {
        this.hpack = new HpackDecoder({ full: true })
        this.hpack.onHeader = (name, value) => this.header(name, value)
      }
    }

    // --- sending -------------------------------------------------------------

    send (resend, k, n) {
      const source = this.source
      if (source === null) return super.send(resend, k, n)
      const s = this.shared
      // build the new requests first (setupRequest runs here), outside the
      // timed part, and size the write from their specs
      let size = this.controlLength
      for (let j = 0; j < k; j++) {
        const slot = this.free[--this.freeTop]
        this.newSlots[j] = slot
        source.build(slot)
        size += this.bound(source.built[slot])
      }
      if (resend > 0) {
        for (let slot = 0, left = resend; slot < this.slots && left > 0; slot++) {
          if (this.requestIds[slot] >= 0 && this.streamIds[slot] === NO_STREAM) {
            size += this.bound(source.built[slot])
            left--
          }
        }
      }
      const out = Buffer.allocUnsafe(size)
      let off = 0
      if (this.controlLength > 0) {
        out.set(this.control.subarray(0, this.controlLength), 0)
        off = this.controlLength
        this.controlLength = 0
      }
      const now = performance.now()
      if (resend > 0) {
        for (let slot = 0, left = resend; slot < this.slots && left > 0; slot++) {
          if (this.requestIds[slot] >= 0 && this.streamIds[slot] === NO_STREAM) {
            off = this.encode(out, off, slot, now)
            left--
          }
        }
        this.pending -= resend
        this.runner.counters[C.RESENT] += resend
      }
      for (let j = 0; j < k; j++) {
        const slot = this.newSlots[j]
        off = this.encode(out, off, slot, now)
        this.stamp(slot, j, now)
      }
      this.active += k
      this.live += n
      this.runner.counters[C.SENT] += k
      this.socket.write(off === size ? out : out.subarray(0, off))
      if (this.bodiesLeft > 0) this.pump()
      if (this.nextStreamId > s.lastStreamId) this.draining = true
    }

    /** The most bytes encode() writes for req (frame headers included); grows the block buffer to fit. */
    bound (req) {
      const b = req.block !== null ? req.block.length : requestBound(req, this.scheme)
      if (b > this.blockBuf.length) this.blockBuf = Buffer.allocUnsafe(b)
      let size = b + FRAME_HEADER * Math.ceil((b || 1) / MAX_FRAME)
      const body = req.body
      if (body !== undefined && body.length > 0) size += body.length + FRAME_HEADER * Math.ceil(body.length / MAX_FRAME)
      return size
    }

    /**
     * Frames the request of `slot` into out at off as stream nextStreamId:
     * HEADERS (+CONTINUATION), and its body as DATA when both windows allow.
     */
    encode (out, off, slot, now) {
      const req = this.source.built[slot]
      let block = req.block
      let blockLength
      if (block !== null) {
        blockLength = block.length
      } else {
        block = this.blockBuf
        blockLength = encodeRequestInto(req, this.scheme, block, 0)
        // sent a second time: a request the source reuses unchanged (no
        // setupRequest, no [<id>]; or a re-send) keeps its encoded block
        if (req.sent) req.block = Buffer.from(block.subarray(0, blockLength))
        req.sent = true
      }
      const sid = this.nextStreamId
      this.nextStreamId += 2
      const body = req.body
      const bodyLength = body === undefined ? 0 : body.length
      for (let at = 0; at === 0 || at < blockLength; at += MAX_FRAME) {
        const len = blockLength - at < MAX_FRAME ? blockLength - at : MAX_FRAME
        const last = at + len >= blockLength
        let flags = last ? F.END_HEADERS : 0
        if (at === 0 && bodyLength === 0) flags |= F.END_STREAM
        H.writeHeader(out, off, len, at === 0 ? T.HEADERS : T.CONTINUATION, flags, sid)
        block.copy(out, off + FRAME_HEADER, at, at + len)
        off += FRAME_HEADER + len
      }
      this.bodies[slot] = bodyLength === 0 ? EMPTY : body
      this.bodySent[slot] = 0
      this.streamWindow[slot] = this.peerWindow
      if (bodyLength > 0) {
        if (bodyLength <= this.peerWindow && bodyLength <= this.sendWindow) {
          for (let at = 0; at < bodyLength; at += MAX_FRAME) {
            const len = bodyLength - at < MAX_FRAME ? bodyLength - at : MAX_FRAME
            H.writeHeader(out, off, len, T.DATA, at + len === bodyLength ? F.END_STREAM : 0, sid)
            body.copy(out, off + FRAME_HEADER, at, at + len)
            off += FRAME_HEADER + len
          }
          this.bodySent[slot] = bodyLength
          this.streamWindow[slot] -= bodyLength
          this.sendWindow -= bodyLength
        } else {
          this.bodiesLeft++
        }
      }
      this.sendTimes[slot] = now
      this.requestIds[slot] = slot
      this.streamIds[slot] = sid
      this.status[slot] = 0
      this.received[slot] = 0
      this.matched[slot] = 0
      this.lookup[(sid >>> 1) & this.lookupMask] = slot + 1
      // a (re-)sent stream's response starts afresh
      this.resBytes[slot] = 0
      this.headersOf[slot] = null
      this.bodyParts[slot] = null
      return off
    }

    // --- receiving -----------------------------------------------------------

    headers (buf, p, end) {
      this.countFrame(this.slotOf(this.fStream))
      return super.headers(buf, p, end)
    }

    continuation (buf, p, end) {
      this.countFrame(this.slotOf(this.fStream))
      return super.continuation(buf, p, end)
    }

    dataStart () {
      if (!super.dataStart()) return false
      this.countFrame(this.dataSlot)
      return true
    }

    countFrame (slot) {
      if (slot >= 0) this.resBytes[slot] += FRAME_HEADER + this.fLength
    }

    block (sid, buf, p, end, endStream) {
      if (this.wantHeaders) {
        // the first header block of a stream, or the final one after a 1xx,
        // fills a fresh object; trailers (status already set) are not kept
        const slot = this.slotOf(sid)
        this.collect = slot >= 0 && this.status[slot] === 0 ? (this.headersOf[slot] = {}) : null
      }
      return super.block(sid, buf, p, end, endStream)
    }

    /** One decoded header (full decoder): into the stream's object, repeats joined as HTTP/1.1's are. */
    header (name, value) {
      const h = this.collect
      if (h === null || name.charCodeAt(0) === 58 /* : */) return
      h[name] = h[name] === undefined ? value : `${h[name]}, ${value}`
    }

    match (slot, buf, p, end) {
      if (!this.wantBody) return super.match(slot, buf, p, end)
      if (end <= p) return
      // the read buffer is reused: keep a copy
      const part = Buffer.from(buf.subarray(p, end))
      if (this.bodyParts[slot] === null) this.bodyParts[slot] = [part]
      else this.bodyParts[slot].push(part)
    }

    record (slot, status, mismatch) {
      this.scanner.resBytes = this.resBytes[slot]
      let body = EMPTY
      if (this.wantBody) {
        const parts = this.bodyParts[slot]
        if (parts !== null) body = parts.length === 1 ? parts[0] : Buffer.concat(parts)
        this.bodyParts[slot] = null
      }
      const headers = this.headersOf[slot]
      this.headersOf[slot] = null
      if (this.how.finished(this, slot, status, body, headers)) mismatch = true
      super.record(slot, status, mismatch)
    }
  }
}

module.exports = { withHooks, CAPTURE }
