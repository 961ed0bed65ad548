'use strict'
// One HTTP/2 load connection (--h2): a socket carrying up to --max-streams
// concurrent streams, with its own framing (no node:http2, whose client
// makes several objects per stream). It offers the Runner the interface of
// connection.js: open, close, timedOut, timedOutHead, dropHead, restart,
// connected, socket, id.
//
// Per connection: typed arrays indexed by stream slot (send time, request
// index, stream id, status, bytes received, body match), a free-slot stack,
// and a stream-id -> slot table. Requests are byte templates built once per
// run (http2/frames.js requestTemplate) in which only the stream ids change; one
// write() per read chunk carries every new HEADERS(+DATA) and the control
// frames the chunk asked for (SETTINGS/PING acks, WINDOW_UPDATEs). The frame
// parser works on the read buffer in place and copies only a frame that is
// split across reads; DATA payloads are never copied.
//
// -M/-D (a socket's allowance of new streams), --breakout and --local-address
// live here as in connection.js; a constant rate (-R, -r, --burst) is the
// subclass in http2/paced-connection.js, chosen once by the runner, which
// overrides take/stamp/record/timedOutHead so that this path has no rate
// branch.
const { performance } = require('node:perf_hooks')
const { HpackDecoder, encodeRequest } = require('./hpack.js')
const H = require('./frames.js')
const C = require('../counters.js')
const { chooseTransport } = require('../transport.js')
const { reconnectAfterClose, retireOrReconnect, RETRY_MIN_MS } = require('../http1/connection.js')

const { T, F, S, FRAME_HEADER, MAX_FRAME } = H
const kConn = Symbol('benchrig.h2connection')
const NO_STREAM = 0
const HTTP1_AS_LENGTH = 0x485454 // "HTT" as a 24-bit frame length
const EMPTY = Buffer.alloc(0)
const CANCEL = 0x8
// frame parser states (this.state)
const P_HEADER = 0 // reading a 9-byte frame header
const P_PAYLOAD = 1 // copying a frame payload that a read cut
const P_DATA = 2 // streaming a DATA payload (never copied)
// what the run's 'response' event reads as conn.scanner.resBytes: like the
// HTTP/1.1 static scanner, the HTTP/2 client does not count bytes per response
const NO_CAPTURE = Object.freeze({ resBytes: undefined })

/** What every connection of a runner shares: request templates and the preface. */
const sharedByRunner = new WeakMap()
function shared (runner) {
  let s = sharedByRunner.get(runner)
  if (s !== undefined) return s
  const h2 = runner.opts.h2
  const scheme = runner.opts.target.protocol === 'https:' ? 'https' : 'http'
  // Bodies up to 64 KiB go inside the templates (every server grants that
  // window first); larger ones are streamed as the windows allow (pump()).
  // a worker's options are structured clones, in which Buffers are Uint8Arrays
  const requests = runner.opts.requests.map((r) => (r.body === undefined || Buffer.isBuffer(r.body)
    ? r
    : { ...r, body: Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength) }))
  const largest = requests.reduce((m, r) => Math.max(m, r.body === undefined ? 0 : r.body.length), 0)
  const streamed = largest > H.DEFAULT_WINDOW
  const templates = requests.map((spec) => H.requestTemplate(encodeRequest(spec, scheme), spec.body, { streamed }))
  s = {
    bytes: templates.map((t) => t.bytes),
    idOffsets: templates.map((t) => Int32Array.from(t.idOffsets)),
    // body bytes inside the templates (0 when streamed)
    bodyLength: streamed ? 0 : templates.reduce((m, t) => Math.max(m, t.bodyLength), 0),
    // streamed: each request's body, sent by pump()
    bodies: streamed ? requests.map((r) => r.body ?? EMPTY) : null,
    count: templates.length,
    preface: H.clientPreface(h2.window),
    // the runner's transport offers ALPN http/1.1; ours asks for h2
    transport: chooseTransport({ ...runner.opts.target, h2: true }),
    window: h2.window,
    maxStreams: h2.maxStreams,
    // the last stream id we may open (below 2^31; lower in tests)
    lastStreamId: h2.lastStreamId ?? H.MAX_STREAM_ID
  }
  sharedByRunner.set(runner, s)
  return s
}

class H2Connection {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   */
  constructor (runner, id) {
    this.runner = runner
    this.id = id
    const s = shared(runner)
    this.shared = s
    const m = s.maxStreams
    this.slots = m
    this.sendTimes = new Float64Array(m)
    this.requestIds = new Int32Array(m).fill(-1) // -1: the slot is free
    this.streamIds = new Int32Array(m) // 0: waiting to be (re-)sent
    this.status = new Int16Array(m)
    this.received = new Float64Array(m) // DATA bytes since our last stream WINDOW_UPDATE
    this.matched = new Int32Array(m) // bytes of expectBody matched so far, -1: mismatch
    this.free = new Int32Array(m)
    for (let i = 0; i < m; i++) this.free[i] = m - 1 - i
    this.freeTop = m
    let size = 64
    while (size < 4 * m) size *= 2
    this.lookup = new Int32Array(size) // (streamId >> 1) & mask -> slot + 1
    this.lookupMask = size - 1
    this.active = 0 // slots holding a request
    this.live = 0 // of them, open as streams on this socket
    this.pending = 0 // of them, waiting to be re-sent on this socket
    this.cursor = id % s.count
    this.expectBody = runner.expectBody
    this.socket = null
    this.connected = false
    this.connectStarted = 0
    this.answeredSinceConnect = 0
    this.retryMs = RETRY_MIN_MS
    this.retryTimer = null
    this.resetting = false
    this.socketFailed = false
    this.readAt = 0
    this.lastRequest = -1 // the request being recorded (measure/endpoints.js)
    this.control = Buffer.allocUnsafe(256) // frames to send with the next write
    this.controlLength = 0
    this.headerBlock = Buffer.allocUnsafe(MAX_FRAME) // a block split over CONTINUATION frames
    this.frameHeader = Buffer.allocUnsafe(FRAME_HEADER)
    this.payload = Buffer.allocUnsafe(MAX_FRAME) // a frame split across reads
    this.error = ''
    this.scanner = NO_CAPTURE
    // -M/--max-connection-requests and -D/--reconnect-rate: new streams this
    // socket may still open (Infinity unless set; one compare per flush)
    this.maxRequests = runner.opts.maxConnectionRequests > 0 ? runner.opts.maxConnectionRequests : Infinity
    this.reconnectRate = runner.opts.reconnectRate > 0 ? runner.opts.reconnectRate : Infinity
    this.allowance = Math.min(this.maxRequests, this.reconnectRate)
    this.grant = this.allowance // the allowance this socket started with
    this.finished = false
    // --breakout: when each stream's final HEADERS arrived (time to first byte)
    this.breakout = runner.breakout === true
    this.headersAt = this.breakout ? new Float64Array(m) : null
    // --local-address: the connections take the source addresses in turn
    const sources = runner.opts.localAddresses
    this.localAddress = sources !== undefined && sources.length > 0 ? sources[id % sources.length] : undefined
    // bodies over 64 KiB (send-side flow control): per stream, the body bytes
    // sent and our send window; `bodiesLeft` counts open streams with body
    // left, so the template path checks a single 0 per flush
    this.bodies = s.bodies
    this.bodySent = s.bodies === null ? null : new Float64Array(m)
    this.streamWindow = s.bodies === null ? null : new Float64Array(m)
    this.bodiesLeft = 0
    this.pumpFrom = 0
    this.pumpPlan = s.bodies === null ? null : new Float64Array(m)
    this.resetSocketState()
  }

  resetSocketState () {
    this.hpack = new HpackDecoder()
    this.nextStreamId = 1
    this.peerMaxStreams = Infinity
    this.peerWindow = H.DEFAULT_WINDOW // the server's initial stream window
    this.sendWindow = H.DEFAULT_WINDOW // the connection's send window (request bodies)
    this.consumed = 0 // DATA bytes since our last connection WINDOW_UPDATE
    this.bodiesLeft = 0
    this.draining = false // GOAWAY received or stream ids used up: no new streams
    this.halted = false
    this.controlLength = 0
    // parser state: P_HEADER, P_PAYLOAD or P_DATA
    this.state = P_HEADER
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

  open () {
    if (this.runner.stopping || this.finished) return
    this.retryTimer = null
    this.connected = false
    this.answeredSinceConnect = 0
    this.resetting = false
    this.socketFailed = false
    this.resetSocketState()
    this.connectStarted = performance.now()
    const socket = this.shared.transport.connect(onRead, this.localAddress)
    socket[kConn] = this
    socket.setNoDelay(true)
    socket.once(this.shared.transport.readyEvent, onReady)
    socket.on('error', onError)
    socket.on('close', onClose)
    this.socket = socket
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
    socket.write(this.shared.preface)
  }

  /** The server's first SETTINGS arrived: the connection is usable. */
  settled () {
    this.connected = true
    this.retryMs = RETRY_MIN_MS
    this.allowance = this.grant = Math.min(this.maxRequests, this.reconnectRate)
    // connect time as the user waits for it: TCP (+TLS) and the server's SETTINGS
    this.runner.connected(performance.now() - this.connectStarted)
  }

  // --- sending ---------------------------------------------------------------

  /** Writes the queued control frames and as many requests as the limits allow, in one write(). */
  flush () {
    const s = this.shared
    let capacity = 0
    if (this.connected && !this.draining) {
      capacity = Math.min(s.maxStreams, this.peerMaxStreams) - this.live
      const ids = ((s.lastStreamId - this.nextStreamId) >> 1) + 1
      if (ids < capacity) capacity = ids
      if (s.bodyLength > 0) {
        const byWindow = Math.floor(this.sendWindow / s.bodyLength)
        if (byWindow < capacity) capacity = byWindow
      }
    }
    let resend = 0
    if (capacity > 0 && this.pending > 0) resend = Math.min(capacity, this.pending)
    let k = capacity - resend
    if (k > this.freeTop) k = this.freeTop
    if (k > this.allowance) k = this.allowance
    k = k > 0 ? this.take(k) : 0
    this.allowance -= k
    const n = resend + k
    if (n === 0 && this.controlLength === 0) {
      if (this.bodiesLeft > 0) this.pump()
      else this.checkDrained()
      return
    }
    this.send(resend, k, n)
  }

  /**
   * Writes the queued control frames, `resend` pending streams and k new
   * ones (n = resend + k) in one write(). Here each request is its template;
   * the hooked subclass (http2/hooked-connection.js) encodes them per request.
   */
  send (resend, k, n) {
    const s = this.shared
    let size = this.controlLength
    // the templates' sizes: pending slots hold their request index
    if (resend > 0) {
      for (let slot = 0, left = resend; slot < this.slots && left > 0; slot++) {
        if (this.requestIds[slot] >= 0 && this.streamIds[slot] === NO_STREAM) {
          size += s.bytes[this.requestIds[slot]].length
          left--
        }
      }
    }
    let c = this.cursor
    for (let j = 0; j < k; j++) {
      size += s.bytes[c].length
      if (++c === s.count) c = 0
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
          off = this.place(out, off, slot, this.requestIds[slot], now)
          left--
        }
      }
      this.pending -= resend
      this.runner.counters[C.RESENT] += resend
    }
    for (let j = 0; j < k; j++) {
      const slot = this.free[--this.freeTop]
      off = this.place(out, off, slot, this.cursor, now)
      this.stamp(slot, j, now)
      if (++this.cursor === s.count) this.cursor = 0
    }
    this.active += k
    this.live += n
    this.sendWindow -= n * s.bodyLength
    this.runner.counters[C.SENT] += k
    this.socket.write(out)
    if (this.bodiesLeft > 0) this.pump()
    if (this.nextStreamId > s.lastStreamId) this.draining = true
  }

  /**
   * Streamed bodies: sends what the connection window and each stream's
   * window allow as DATA frames (END_STREAM on a body's last one), in one
   * write(). The streams take turns from a rotating start, so one large body
   * does not hold the connection window for the others.
   */
  pump () {
    let budget = this.sendWindow
    if (budget <= 0) return
    const slots = this.slots
    const plan = this.pumpPlan // bytes each stream sends in this write
    let size = 0
    const from = this.pumpFrom
    if (++this.pumpFrom >= slots) this.pumpFrom = 0
    for (let i = 0; i < slots && budget > 0; i++) {
      const slot = (from + i) % slots
      if (this.requestIds[slot] < 0 || this.streamIds[slot] === NO_STREAM) continue
      const left = this.bodies[this.requestIds[slot]].length - this.bodySent[slot]
      if (left <= 0) continue
      let n = left < this.streamWindow[slot] ? left : this.streamWindow[slot]
      if (n > budget) n = budget
      if (n <= 0) continue
      plan[slot] = n
      budget -= n
      size += n + FRAME_HEADER * Math.ceil(n / MAX_FRAME)
    }
    if (size === 0) return
    const out = Buffer.allocUnsafe(size)
    let off = 0
    for (let i = 0; i < slots; i++) {
      const slot = (from + i) % slots
      const n = plan[slot]
      if (n === 0) continue
      plan[slot] = 0
      const body = this.bodies[this.requestIds[slot]]
      let at = this.bodySent[slot]
      const end = at + n
      while (at < end) {
        const len = end - at < MAX_FRAME ? end - at : MAX_FRAME
        const last = at + len === body.length
        H.writeHeader(out, off, len, T.DATA, last ? F.END_STREAM : 0, this.streamIds[slot])
        body.copy(out, off + FRAME_HEADER, at, at + len)
        off += FRAME_HEADER + len
        at += len
      }
      this.bodySent[slot] = end
      this.streamWindow[slot] -= n
      this.sendWindow -= n
      if (end === body.length) this.bodiesLeft--
    }
    this.socket.write(out)
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

  /** Copies request `req` into out at off as stream nextStreamId, in slot. */
  place (out, off, slot, req, now) {
    const s = this.shared
    const bytes = s.bytes[req]
    out.set(bytes, off)
    const sid = this.nextStreamId
    this.nextStreamId += 2
    const ids = s.idOffsets[req]
    for (let i = 0; i < ids.length; i++) {
      const at = off + ids[i]
      out[at] = (sid >>> 24) & 0x7f
      out[at + 1] = (sid >>> 16) & 0xff
      out[at + 2] = (sid >>> 8) & 0xff
      out[at + 3] = sid & 0xff
    }
    this.sendTimes[slot] = now
    this.requestIds[slot] = req
    this.streamIds[slot] = sid
    this.status[slot] = 0
    this.received[slot] = 0
    this.matched[slot] = 0
    this.lookup[(sid >>> 1) & this.lookupMask] = slot + 1
    if (this.bodies !== null && this.bodies[req].length > 0) {
      // a (re-)sent stream starts its body afresh, with the server's initial window
      this.bodySent[slot] = 0
      this.streamWindow[slot] = this.peerWindow
      this.bodiesLeft++
    }
    return off + bytes.length
  }

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
    this.readAt = performance.now()
    runner.counters[C.BYTES] += n
    if (runner.endpoints !== null) runner.endpoints.read(this, n)
    if (!this.parse(buf, 0, n)) {
      runner.error(C.ERR_PARSE, this.error, this)
      this.restart()
      return
    }
    if (runner.stopping || this.socket === null || this.halted) return
    if (this.allowance === 0 && this.active === 0) {
      this.exhausted()
      return
    }
    this.flush()
  }

  /** This socket opened what -M or -D allow and all is answered: reconnect, or retire. */
  exhausted () {
    this.spend()
    // a polite end (GOAWAY, NO_ERROR, last stream 0: we accept no pushes)
    this.queue(T.GOAWAY, 0, 0, 8, 0, 0)
    this.socket.write(this.control.subarray(0, this.controlLength))
    this.controlLength = 0
    if (this.maxRequests <= 0) this.halted = true // nothing more is read from this socket
    retireOrReconnect(this)
  }

  /** Charges the streams this socket opened against -M/--max-connection-requests. */
  spend () {
    this.maxRequests -= this.grant - this.allowance
    this.grant = this.allowance
  }

  /** Feeds bytes to the frame parser; false on a connection error (this.error). */
  parse (buf, p, end) {
    while (p < end && !this.halted) {
      if (this.state === P_HEADER) {
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
          this.state = P_DATA
          continue
        }
        if (end - p >= length) {
          if (!this.frame(buf, p, p + length)) return false
          p += length
          continue
        }
        this.state = P_PAYLOAD
      } else if (this.state === P_PAYLOAD) {
        const take = Math.min(this.fLength - this.have, end - p)
        buf.copy(this.payload, this.have, p, p + take)
        this.have += take
        p += take
        if (this.have < this.fLength) return true
        this.have = 0
        this.state = P_HEADER
        if (!this.frame(this.payload, 0, this.fLength)) return false
      } else { // P_DATA
        const take = this.remaining < end - p ? this.remaining : end - p
        if (this.dataSlot >= 0 && this.expectBody !== undefined) this.match(this.dataSlot, buf, p, p + take)
        p += take
        this.remaining -= take
        if (this.remaining === 0) {
          this.state = P_HEADER
          this.dataEnd()
        }
      }
    }
    return true
  }

  fail (msg) {
    this.error = msg
    return false
  }

  /** A whole frame payload in buf[p..end) (DATA here only when padded). */
  frame (buf, p, end) {
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
        if ((this.fFlags & F.ACK) === 0) this.queue(T.PING, F.ACK, 0, 8, buf.readUInt32BE(p), buf.readUInt32BE(p + 4))
        return true
      case T.WINDOW_UPDATE:
        if (end - p !== 4) return this.fail('FRAME_SIZE_ERROR: a WINDOW_UPDATE of the wrong size')
        if (this.fStream === 0) this.sendWindow += buf.readUInt32BE(p) & 0x7fffffff
        else if (this.bodies !== null) this.windowUpdate(this.fStream, buf.readUInt32BE(p) & 0x7fffffff)
        return true
      case T.RST_STREAM:
        if (end - p !== 4) return this.fail('FRAME_SIZE_ERROR: a RST_STREAM of the wrong size')
        this.reset(this.fStream, buf.readUInt32BE(p))
        return true
      case T.GOAWAY:
        if (end - p < 8) return this.fail('FRAME_SIZE_ERROR: a GOAWAY shorter than 8 bytes')
        this.goaway(buf.readUInt32BE(p) & 0x7fffffff, buf.readUInt32BE(p + 4))
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
    const slot = this.slotOf(sid)
    if (slot < 0) return true
    if (this.status[slot] === 0) {
      const status = this.hpack.status
      if (status >= 100 && status < 200 && status !== 101) {
        // an interim response: the final one follows on the same stream
        this.runner.counters[C.INFORMATIONAL]++
        return true
      }
      if (status < 200 || status > 599) {
        this.runner.error(C.ERR_PARSE, status < 0 ? 'a response without :status' : `an invalid :status ${status}`, this)
        this.queue(T.RST_STREAM, 0, sid, 4, 1, 0)
        this.forget(slot)
        this.runner.dropped()
        return true
      }
      this.status[slot] = status
      if (this.breakout) this.headersAt[slot] = this.readAt
    }
    if (endStream) this.complete(slot)
    return true
  }

  /** Called at the start of every DATA frame: flow control and the stream's slot. */
  dataStart () {
    const length = this.fLength
    if (this.fStream === 0) return this.fail('PROTOCOL_ERROR: DATA on stream 0')
    const slot = this.slotOf(this.fStream)
    this.dataSlot = slot
    // connection window: all DATA counts, tracked stream or not
    this.consumed += length
    if (this.consumed >= this.shared.window >>> 1) {
      this.queue(T.WINDOW_UPDATE, 0, 0, 4, this.consumed, 0)
      this.consumed = 0
    }
    if (slot >= 0 && (this.fFlags & F.END_STREAM) === 0) {
      this.received[slot] += length
      if (this.received[slot] >= this.shared.window >>> 1) {
        this.queue(T.WINDOW_UPDATE, 0, this.fStream, 4, this.received[slot], 0)
        this.received[slot] = 0
      }
    }
    return true
  }

  dataEnd () {
    const slot = this.dataSlot
    this.dataSlot = -1
    if (slot < 0 || (this.fFlags & F.END_STREAM) === 0) return
    if (this.status[slot] === 0) {
      this.runner.error(C.ERR_PARSE, 'DATA before the response headers', this)
      this.forget(slot)
      this.runner.dropped()
      return
    }
    this.complete(slot)
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
      if (id === S.MAX_CONCURRENT_STREAMS) {
        this.peerMaxStreams = value
      } else if (id === S.INITIAL_WINDOW_SIZE) {
        if (value > H.MAX_WINDOW) return this.fail('FLOW_CONTROL_ERROR: SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1')
        // a change applies to the windows of the open streams too (RFC 9113 6.9.2)
        if (this.bodies !== null) this.shiftWindows(value - this.peerWindow)
        this.peerWindow = value
      }
      // HEADER_TABLE_SIZE: our encoder uses no dynamic table; MAX_FRAME_SIZE:
      // our frames never exceed the 16384 every peer accepts
    }
    this.queue(T.SETTINGS, F.ACK, 0, 0, 0, 0)
    if (!this.connected) {
      if (this.shared.bodyLength > this.peerWindow) {
        this.runner.error(C.ERR_WRITE, `the request body (${this.shared.bodyLength} bytes) is larger than the server's stream window (${this.peerWindow} bytes)`, this)
        this.runner.stop('bailout')
        return true
      }
      this.settled()
    }
    return true
  }

  /** A stream's WINDOW_UPDATE (streamed bodies): more of its body may go. */
  windowUpdate (sid, inc) {
    const slot = this.slotOf(sid)
    if (slot >= 0) this.streamWindow[slot] += inc
  }

  shiftWindows (delta) {
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.requestIds[slot] >= 0 && this.streamIds[slot] !== NO_STREAM) this.streamWindow[slot] += delta
    }
  }

  /** True when the stream in `slot` still has body bytes to send (streamed bodies). */
  bodyLeft (slot) {
    return this.bodies !== null && this.streamIds[slot] !== NO_STREAM &&
      this.bodySent[slot] < this.bodies[this.requestIds[slot]].length
  }

  /** RST_STREAM from the server: the stream is finished as an error. */
  reset (sid, code) {
    const slot = this.slotOf(sid)
    if (slot < 0) return
    this.runner.error(C.ERR_RESET, H.errorName(code), this)
    this.forget(slot)
    this.runner.dropped()
    this.checkDrained()
  }

  /** GOAWAY: streams above lastId were not processed and go to a new connection. */
  goaway (lastId, code) {
    this.runner.counters[C.GOAWAYS]++
    if (code !== 0) this.runner.error(C.ERR_GOAWAY, H.errorName(code), this)
    this.draining = true
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.requestIds[slot] >= 0 && this.streamIds[slot] > lastId) {
        if (this.bodiesLeft > 0 && this.bodyLeft(slot)) this.bodiesLeft--
        this.streamIds[slot] = NO_STREAM
        this.live--
        this.pending++
      }
    }
    this.checkDrained()
  }

  /** After GOAWAY or the last stream id: reconnect once no stream is left open. */
  checkDrained () {
    if (this.draining && this.live === 0 && this.socket !== null && !this.runner.stopping) {
      this.halted = true
      this.resetting = true
      this.socket.destroy()
    }
  }

  complete (slot) {
    const runner = this.runner
    if (runner.stopping) {
      this.halted = true
      return
    }
    const status = this.status[slot]
    const mismatch = this.expectBody !== undefined && this.matched[slot] !== this.expectBody.length
    // the server answered before the whole body was sent: stop sending it
    if (this.bodiesLeft > 0 && this.bodyLeft(slot)) this.queue(T.RST_STREAM, 0, this.streamIds[slot], 4, CANCEL, 0)
    // the request's index, for per-endpoint results (measure/endpoints.js)
    this.lastRequest = this.requestIds[slot]
    // forget() keeps the slot's times: they are read below, before any reuse
    this.forget(slot)
    this.answeredSinceConnect++
    if (this.breakout) runner.firstByte(this.headersAt[slot] - this.sendTimes[slot], this.readAt - this.headersAt[slot])
    this.record(slot, status, mismatch)
    if (runner.stopping) this.halted = true
    else if (this.draining) this.checkDrained()
  }

  /** Records the response of the stream in `slot`. */
  record (slot, status, mismatch) {
    this.runner.response(status, this.readAt - this.sendTimes[slot], mismatch, this)
  }

  /** Frees a slot whose stream is open on this socket. */
  forget (slot) {
    if (this.bodiesLeft > 0 && this.bodyLeft(slot)) this.bodiesLeft--
    if (this.streamIds[slot] !== NO_STREAM) this.live--
    else this.pending--
    this.requestIds[slot] = -1
    this.streamIds[slot] = NO_STREAM
    this.free[this.freeTop++] = slot
    this.active--
  }

  /** The slot of an open stream, or -1. */
  slotOf (sid) {
    if (sid === 0) return -1
    const guess = this.lookup[(sid >>> 1) & this.lookupMask] - 1
    if (guess >= 0 && this.streamIds[guess] === sid) return guess
    // the table entry was reused by a newer stream while this one stayed open
    for (let slot = 0; slot < this.slots; slot++) if (this.streamIds[slot] === sid) return slot
    return -1
  }

  // --- socket events -----------------------------------------------------------

  errored (err) {
    const kind = err.syscall === 'connect' || !this.connected
      ? C.ERR_CONNECT
      : (err.syscall === 'write' || err.code === 'EPIPE' ? C.ERR_WRITE : C.ERR_READ)
    this.socketFailed = true
    // node's TLS servers refuse a handshake whose ALPN offers only h2 when they lack it
    const detail = err.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL'
      ? `${err.code}: the server did not choose h2 in ALPN: is HTTP/2 enabled on it?`
      : err.code || err.message
    this.runner.error(kind, detail, this)
  }

  closed () {
    this.socket = null
    this.readAt = performance.now()
    const wasConnected = this.connected
    if (wasConnected) {
      this.runner.disconnected()
      this.spend()
    }
    // what was open on this socket is re-sent on the next one
    if (this.live > 0) {
      for (let slot = 0; slot < this.slots; slot++) {
        if (this.requestIds[slot] >= 0 && this.streamIds[slot] !== NO_STREAM) this.streamIds[slot] = NO_STREAM
      }
      this.pending += this.live
      this.live = 0
    }
    this.bodiesLeft = 0 // the streams' bodies start afresh when re-sent
    reconnectAfterClose(this, wasConnected, this.active)
  }

  /** Something is left to send or re-send (else a closed socket is not reopened). */
  hasWork () {
    return this.active > 0 || this.runner.budget > 0
  }

  /** The slot of the oldest request (by send time), or -1. */
  oldest () {
    let oldest = -1
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.requestIds[slot] >= 0 && (oldest < 0 || this.sendTimes[slot] < this.sendTimes[oldest])) oldest = slot
    }
    return oldest
  }

  /** Forgets the oldest request (it failed); it counts as finished. */
  dropHead () {
    const oldest = this.oldest()
    if (oldest < 0) return
    this.forget(oldest)
    this.runner.dropped()
  }

  /** The oldest request timed out at `now` (counted by the caller). */
  timedOutHead (now) {
    this.dropHead()
  }

  /** Resets the socket; 'close' reconnects and re-sends what is in flight. */
  restart () {
    this.halted = true
    const socket = this.socket
    if (socket === null) return
    this.resetting = true
    socket.destroy()
  }

  /** The oldest request was sent before `limit` (ms, performance.now clock). */
  timedOut (limit) {
    if (this.socket === null) return false
    if (!this.connected) return this.connectStarted < limit
    if (this.active === 0) return false
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.requestIds[slot] >= 0 && this.sendTimes[slot] < limit) return true
    }
    return false
  }

  close () {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer)
    this.retryTimer = null
    if (this.socket !== null) this.socket.destroy()
  }
}

function onRead (n, buf) { this[kConn].read(n, buf) }
function onReady () { this[kConn].ready() }
function onError (err) { this[kConn].errored(err) }
function onClose () { this[kConn].closed() }

module.exports = { H2Connection }
