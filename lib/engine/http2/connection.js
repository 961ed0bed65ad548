'use strict'
// One HTTP/2 load connection (--h2): a socket carrying up to --max-streams
// concurrent streams, with its own framing (no node:http2, whose client
// makes several objects per stream). The socket's life (reconnect, -M/-D,
// timeouts, recording) is connection-base.js, shared with HTTP/1.1; the
// jobs of HTTP/2 are one module each:
//   stream-table.js       the requests by stream slot, free slots, id -> slot
//   flow-control.js       windows both ways, streamed request bodies
//   frame-reader.js       the frame parser and HPACK decoder (`scanner`)
//   request-templates.js  the bytes of each request (`requests`)
// This file sends (one write() per read chunk carries every new HEADERS(+DATA)
// and the control frames the chunk asked for) and settles streams (complete,
// RST_STREAM, GOAWAY). Hooks replace `scanner` and `requests` on the
// connections that need them (scripting/h2-hooks.js), as hooks.js does for
// HTTP/1.1; a constant rate (-R, -r, --burst) is the subclass in
// paced-connection.js, chosen once by the runner, which overrides take/stamp/
// record/givenUp so that this path has no rate branch.
const { ConnectionBase } = require('../connection-base.js')
const { StreamTable } = require('./stream-table.js')
const { FlowControl } = require('./flow-control.js')
const { FrameReader } = require('./frame-reader.js')
const { RequestTemplates } = require('./request-templates.js')
const H = require('./frames.js')
const C = require('../counters.js')
const { chooseTransport } = require('../transport.js')

const { T, S, FRAME_HEADER } = H
const CANCEL = 0x8

/** What every connection of a runner shares: its preface, transport and limits. */
const settingsByRunner = new WeakMap()
function settingsOf (runner) {
  let s = settingsByRunner.get(runner)
  if (s !== undefined) return s
  const h2 = runner.opts.h2
  s = {
    preface: H.clientPreface(h2.window),
    // the runner's transport offers ALPN http/1.1; ours asks for h2
    transport: chooseTransport({ ...runner.opts.target, h2: true }),
    window: h2.window,
    maxStreams: h2.maxStreams,
    // the last stream id we may open (below 2^31; lower in tests)
    lastStreamId: h2.lastStreamId ?? H.MAX_STREAM_ID
  }
  settingsByRunner.set(runner, s)
  return s
}

class H2Connection extends ConnectionBase {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   */
  constructor (runner, id) {
    super(runner, id)
    const s = settingsOf(runner)
    this.settings = s
    this.table = new StreamTable(s.maxStreams)
    // gRPC calls (--proto): each stream's grpc-status, counted when it ends (grpc/stats.js)
    this.grpc = runner.grpc ?? null
    // the base class's record() and the paced one read send times by slot
    this.sendTimes = this.table.sendTimes
    // the request index of each slot, read by the shared paced and per-endpoint recording
    this.requestIds = this.table.requestIds
    /** @type {import('./request-templates.js').RequestTemplates|import('./dynamic-requests.js').DynamicRequests} */
    this.requests = RequestTemplates.of(runner)
    this.flow = new FlowControl(this.table, s.window, this.requests.bodies)
    /** @type {FrameReader} */
    this.scanner = new FrameReader(this, runner.expectBody)
    this.cursor = id % this.requests.count
    this.newSlots = new Int32Array(s.maxStreams) // a flush's new streams: slot, request
    this.newRequests = new Int32Array(s.maxStreams)
    this.control = Buffer.allocUnsafe(256) // frames to send with the next write
    this.controlLength = 0
    // --breakout: when each stream's final HEADERS arrived (time to first byte)
    this.headersAt = this.breakout ? new Float64Array(s.maxStreams) : null
    this.resetSocketState()
  }

  transport () {
    return this.settings.transport
  }

  resetSocketState () {
    this.scanner.reset()
    this.flow.reset()
    this.nextStreamId = 1
    this.peerMaxStreams = Infinity
    this.draining = false // GOAWAY received or stream ids used up: no new streams
    this.controlLength = 0
  }

  /** The socket is open (TLS: handshake done): send the preface, wait for the server's SETTINGS. */
  ready () {
    const socket = this.socket
    if (socket.alpnProtocol !== undefined && socket.alpnProtocol !== 'h2') {
      // counted as a connect error; `closed` retries, and a server that never
      // speaks h2 ends the run as unreachable with this message
      this.runner.error(C.ERR_CONNECT, `the server did not choose h2 in ALPN (it chose ${socket.alpnProtocol || 'nothing'}): is HTTP/2 enabled on it?`, this)
      this.socketFailed = true
      socket.destroy()
      return
    }
    socket.write(this.settings.preface)
  }

  errorDetail (err) {
    // node's TLS servers refuse a handshake whose ALPN offers only h2 when they lack it
    return err.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL'
      ? `${err.code}: the server did not choose h2 in ALPN: is HTTP/2 enabled on it?`
      : err.code || err.message
  }

  // --- sending ---------------------------------------------------------------

  /** Writes the queued control frames and as many requests as the limits allow, in one write(). */
  flush () {
    const s = this.settings
    const table = this.table
    let capacity = 0
    if (this.connected && !this.draining) {
      capacity = Math.min(s.maxStreams, this.peerMaxStreams) - table.live
      const ids = ((s.lastStreamId - this.nextStreamId) >> 1) + 1
      if (ids < capacity) capacity = ids
      const bodyLength = this.requests.bodyLength
      if (bodyLength > 0) {
        const byWindow = Math.floor(this.flow.sendWindow / bodyLength)
        if (byWindow < capacity) capacity = byWindow
      }
    }
    let resend = 0
    if (capacity > 0 && table.pending > 0) resend = Math.min(capacity, table.pending)
    let k = capacity - resend
    if (k > table.freeTop) k = table.freeTop
    if (k > this.allowance) k = this.allowance
    k = k > 0 ? this.take(k) : 0
    this.allowance -= k
    const n = resend + k
    if (n === 0 && this.controlLength === 0) {
      if (this.flow.bodiesLeft > 0) this.flow.pump(this.socket)
      else this.checkDrained()
      return
    }
    this.send(resend, k, n)
  }

  /**
   * Writes the queued control frames, `resend` pending streams and k new
   * ones (n = resend + k) in one write(). The new streams' requests are
   * chosen (with hooks: built) first, outside the timed part, and the write
   * is sized from them.
   */
  send (resend, k, n) {
    const table = this.table
    const requests = this.requests
    let size = this.controlLength
    for (let j = 0; j < k; j++) {
      const slot = table.take()
      const req = requests.next(this, slot)
      this.newSlots[j] = slot
      this.newRequests[j] = req
      size += requests.size(req)
    }
    if (resend > 0) {
      for (let slot = 0, left = resend; slot < table.slots && left > 0; slot++) {
        if (table.isPending(slot)) {
          size += requests.size(table.requestIds[slot])
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
    const now = this.now()
    if (resend > 0) {
      for (let slot = 0, left = resend; slot < table.slots && left > 0; slot++) {
        if (table.isPending(slot)) {
          off = this.place(out, off, slot, table.requestIds[slot], now)
          left--
        }
      }
      table.pending -= resend
      this.runner.counters[C.RESENT] += resend
    }
    for (let j = 0; j < k; j++) {
      const slot = this.newSlots[j]
      off = this.place(out, off, slot, this.newRequests[j], now)
      this.stamp(slot, j, now)
    }
    table.active += k
    table.live += n
    this.flow.sendWindow -= n * requests.bodyLength
    this.runner.counters[C.SENT] += k
    this.socket.write(off === size ? out : out.subarray(0, off))
    if (this.flow.bodiesLeft > 0) this.flow.pump(this.socket)
    if (this.nextStreamId > this.settings.lastStreamId) this.draining = true
  }

  /** Writes request `req` into out at off as a new stream in `slot`. */
  place (out, off, slot, req, now) {
    const sid = this.nextStreamId
    this.nextStreamId += 2
    this.table.open(slot, sid, req, now)
    this.flow.received[slot] = 0
    this.scanner.opened(slot)
    return this.requests.write(this, out, off, slot, req, sid)
  }

  /** Up to k new requests (closed loop: from the run's amount budget). */
  take (k) {
    return this.runner.take(k)
  }

  /**
   * The j-th new request of this flush went into `slot` (closed loop:
   * nothing to add; a monomorphic no-op that V8 inlines away).
   */
  stamp (slot, j, now) {}

  /** Queues a frame with a payload of `len` (0, 4 or 8) bytes a, b for the next write. */
  queue (type, flags, streamId, len, a, b) {
    if (this.controlLength + FRAME_HEADER + len > this.control.length) {
      const bigger = Buffer.allocUnsafe(this.control.length * 2)
      this.control.copy(bigger, 0, 0, this.controlLength)
      this.control = bigger
    }
    const buf = this.control
    const off = this.controlLength
    H.writeHeader(buf, off, len, type, flags, streamId)
    if (len >= 4) buf.writeUInt32BE(a >>> 0, off + FRAME_HEADER)
    if (len === 8) buf.writeUInt32BE(b >>> 0, off + FRAME_HEADER + 4)
    this.controlLength = off + FRAME_HEADER + len
  }

  // --- receiving -------------------------------------------------------------

  read (n, buf) {
    const runner = this.runner
    // one clock read per chunk: every response in it arrived at this time
    this.readAt = this.now()
    runner.counters[C.BYTES] += n
    if (runner.endpoints !== null) runner.endpoints.read(this, n)
    if (!this.scanner.parse(buf, 0, n)) {
      runner.error(C.ERR_PARSE, this.scanner.error, this)
      this.restart()
      return
    }
    if (runner.stopping || this.socket === null || this.scanner.halted) return
    if (this.allowance === 0 && this.table.active === 0) {
      this.exhausted()
      return
    }
    this.flush()
  }

  /** This socket opened what -M or -D allow and all is answered: reconnect, or retire. */
  exhausted () {
    // a polite end (GOAWAY, NO_ERROR, last stream 0: we accept no pushes)
    this.queue(T.GOAWAY, 0, 0, 8, 0, 0)
    this.socket.write(this.control.subarray(0, this.controlLength))
    this.controlLength = 0
    this.halt() // nothing more is read from this socket
    super.exhausted()
  }

  /** A complete header block of stream sid, with its :status (-1: none). */
  headerBlock (sid, status, endStream) {
    const table = this.table
    const slot = table.slotOf(sid)
    if (slot < 0) return
    if (table.status[slot] === 0) {
      if (status >= 100 && status < 200 && status !== 101) {
        // an interim response: the final one follows on the same stream
        this.runner.counters[C.INFORMATIONAL]++
        return
      }
      if (status < 200 || status > 599) {
        this.runner.error(C.ERR_PARSE, status < 0 ? 'a response without :status' : `an invalid :status ${status}`, this)
        this.queue(T.RST_STREAM, 0, sid, 4, 1, 0)
        this.dropSlot(slot)
        return
      }
      table.status[slot] = status
      if (this.breakout) this.headersAt[slot] = this.readAt
    }
    if (endStream) {
      // the block that ends a gRPC call holds its grpc-status (trailers, or a trailers-only response)
      if (this.grpc !== null) this.grpc.status(this.scanner.hpack.grpcStatus)
      this.complete(slot)
    }
  }

  /** A DATA frame starts: flow control; returns the stream's slot (-1: not ours). */
  dataStart (sid, length, endStream) {
    const slot = this.table.slotOf(sid)
    this.flow.onData(this, sid, slot, length, endStream)
    return slot
  }

  /** The DATA frame that ends the stream in `slot` was read. */
  dataEnd (slot) {
    if (this.table.status[slot] === 0) {
      this.runner.error(C.ERR_PARSE, 'DATA before the response headers', this)
      this.dropSlot(slot)
      return
    }
    if (this.grpc !== null) this.grpc.status(-1) // a call that ended without trailers
    this.complete(slot)
  }

  /** One setting of the server's SETTINGS. */
  setting (id, value) {
    if (id === S.MAX_CONCURRENT_STREAMS) this.peerMaxStreams = value
    else if (id === S.INITIAL_WINDOW_SIZE) this.flow.setPeerWindow(value)
    // HEADER_TABLE_SIZE: our encoder uses no dynamic table; MAX_FRAME_SIZE:
    // our frames never exceed the 16384 every peer accepts
  }

  /** The server's SETTINGS were applied: acknowledge; the first ones make the connection usable. */
  settingsEnd () {
    this.queue(T.SETTINGS, H.F.ACK, 0, 0, 0, 0)
    if (this.connected) return
    const bodyLength = this.requests.bodyLength
    if (bodyLength > this.flow.peerWindow) {
      this.runner.error(C.ERR_WRITE, `the request body (${bodyLength} bytes) is larger than the server's stream window (${this.flow.peerWindow} bytes)`, this)
      this.runner.stop('bailout')
      return
    }
    // connect time as the user waits for it: TCP (+TLS) and the server's SETTINGS
    this.established()
  }

  /** WINDOW_UPDATE: the connection's (sid 0) or a stream's send window grows. */
  windowUpdate (sid, inc) {
    if (sid === 0) this.flow.sendWindow += inc
    else if (this.flow.bodies !== null) this.flow.streamUpdate(this.table.slotOf(sid), inc)
  }

  /** RST_STREAM from the server: the stream is finished as an error. */
  reset (sid, code) {
    const slot = this.table.slotOf(sid)
    if (slot < 0) return
    this.runner.error(C.ERR_RESET, H.errorName(code), this)
    this.dropSlot(slot)
    this.checkDrained()
  }

  /** GOAWAY: streams above lastId were not processed and go to a new connection. */
  goaway (lastId, code) {
    this.runner.counters[C.GOAWAYS]++
    if (code !== 0) this.runner.error(C.ERR_GOAWAY, H.errorName(code), this)
    this.draining = true
    const table = this.table
    for (let slot = 0; slot < table.slots; slot++) {
      if (table.requestIds[slot] >= 0 && table.streamIds[slot] > lastId) {
        this.flow.stop(slot)
        table.unsend(slot)
      }
    }
    this.checkDrained()
  }

  /** After GOAWAY or the last stream id: reconnect once no stream is left open. */
  checkDrained () {
    if (this.draining && this.table.live === 0 && this.socket !== null && !this.runner.stopping) {
      this.halt()
      this.resetting = true
      this.socket.destroy()
    }
  }

  complete (slot) {
    const runner = this.runner
    if (runner.stopping) {
      this.halt()
      return
    }
    const status = this.table.status[slot]
    // the server answered before the whole body was sent: stop sending it
    if (this.flow.bodiesLeft > 0 && this.flow.bodyLeft(slot)) this.queue(T.RST_STREAM, 0, this.table.streamIds[slot], 4, CANCEL, 0)
    // the request's index, for per-endpoint results (measure/endpoints.js)
    this.lastRequest = this.table.requestIds[slot]
    // release() keeps the slot's times: they are read below, before any reuse
    this.release(slot)
    this.answeredSinceConnect++
    if (this.breakout) this.recordBreakout(slot, this.headersAt[slot])
    const mismatch = this.scanner.finish(slot, status)
    this.record(slot, status, mismatch)
    if (runner.stopping) this.halt()
    else if (this.draining) this.checkDrained()
  }

  /** A stream that failed (reset, a bad response): it counts as finished. */
  dropSlot (slot) {
    this.release(slot)
    this.runner.dropped()
  }

  // --- the base class's view of the slots ---------------------------------------

  release (slot) {
    this.flow.stop(slot)
    this.table.forget(slot)
  }

  oldestSlot () {
    return this.table.oldest()
  }

  outstanding () {
    return this.table.active
  }

  sentBefore (limit) {
    return this.table.sentBefore(limit)
  }

  halt () {
    this.scanner.halted = true
  }

  settleClosed (wasConnected) {
    // what was open on this socket is re-sent on the next one
    this.table.unsendAll()
    this.flow.bodiesLeft = 0 // the streams' bodies start afresh when re-sent
    return this.table.active
  }
}

module.exports = { H2Connection }
