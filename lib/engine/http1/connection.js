'use strict'
// One load connection: a socket, a ring of the requests in flight (send time
// and request index), and the response scanner. Sending is a sliding window:
// after each read chunk, one write() refills the window with a cached slice
// of the prebuilt request bytes. Socket handlers are module-level functions
// (no per-request closures); the connection is found through socket[kConn].
const { performance } = require('node:perf_hooks')
const { ResponseScanner } = require('./response-scanner.js')
const C = require('../counters.js')

const kConn = Symbol('benchrig.connection')
const RETRY_MIN_MS = 10
const RETRY_MAX_MS = 1000

class Connection {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   */
  constructor (runner, id) {
    this.runner = runner
    this.id = id
    this.source = runner.source
    this.depth = runner.pipelining
    // window: refill after every read chunk (always `depth` in flight);
    // half: refill once half the window is free (fewer, larger writes);
    // batch: refill once the whole window is answered, like wrk's pipelining
    // (bench/engine-vs-peers, p=10 against nginx, start-up excluded: window
    // 137k, half 153k, batch 144k requests per CPU-s in one interleaved run)
    this.lowWater = runner.refill === 'batch' ? 0 : (runner.refill === 'half' ? this.depth >> 1 : this.depth - 1)
    this.sendTimes = new Float64Array(this.depth)
    this.requestIds = new Int32Array(this.depth)
    this.head = 0
    this.inflight = 0
    // start connections at different requests so several URLs share load
    this.cursor = id % this.source.count
    this.socket = null
    this.connected = false
    this.connectStarted = 0
    this.answeredSinceConnect = 0
    this.retryMs = RETRY_MIN_MS
    this.retryTimer = null
    this.resetting = false
    this.socketFailed = false
    this.unsolicited = false
    this.readAt = 0
    this.lastRequest = -1 // the request being recorded (measure/endpoints.js)
    // -M/--max-connection-requests and -D/--reconnect-rate: requests this
    // socket may still send (Infinity unless set; one compare per refill)
    this.maxRequests = runner.opts.maxConnectionRequests > 0 ? runner.opts.maxConnectionRequests : Infinity
    this.reconnectRate = runner.opts.reconnectRate > 0 ? runner.opts.reconnectRate : Infinity
    this.allowance = Math.min(this.maxRequests, this.reconnectRate)
    this.grant = this.allowance // the allowance this socket started with
    this.finished = false
    // --breakout: when the head response's first byte was read
    this.breakout = runner.breakout
    this.firstByteAt = 0
    // --local-address: the connections take the source addresses in turn
    const sources = runner.opts.localAddresses
    this.localAddress = sources !== undefined && sources.length > 0 ? sources[id % sources.length] : undefined
    this.scanner = new ResponseScanner(this, runner.expectBody, runner.opts.maxHeaderSize)
  }

  open () {
    if (this.runner.stopping || this.finished) return
    this.retryTimer = null
    this.connected = false
    this.answeredSinceConnect = 0
    this.resetting = false
    this.socketFailed = false
    this.unsolicited = false
    this.scanner.reset()
    this.connectStarted = performance.now()
    const socket = this.runner.transport.connect(onRead, this.localAddress)
    socket[kConn] = this
    socket.setNoDelay(true)
    socket.once(this.runner.transport.readyEvent, onReady)
    socket.on('error', onError)
    socket.on('end', onEnd)
    socket.on('close', onClose)
    this.socket = socket
  }

  ready () {
    this.connected = true
    this.retryMs = RETRY_MIN_MS
    this.allowance = this.grant = Math.min(this.maxRequests, this.reconnectRate)
    this.runner.connected(performance.now() - this.connectStarted)
    // re-send what a previous socket left unanswered, then fill the window
    if (this.inflight > 0) {
      const n = this.inflight
      const first = this.requestIds[this.head]
      const now = performance.now()
      for (let j = 0; j < n; j++) this.sendTimes[(this.head + j) % this.depth] = now
      this.runner.counters[C.RESENT] += n
      this.socket.write(this.source.slice(first, n))
    }
    this.refill()
  }

  /**
   * Writes as many new requests as the window and the budget allow, in one
   * write() of a cached slice.
   */
  refill () {
    if (this.inflight > this.lowWater) return
    let k = this.depth - this.inflight
    if (k > this.allowance) k = this.allowance
    k = this.runner.take(k)
    if (k === 0) return
    this.allowance -= k
    const first = this.cursor
    const now = performance.now()
    let slot = (this.head + this.inflight) % this.depth
    for (let j = 0; j < k; j++) {
      this.sendTimes[slot] = now
      this.requestIds[slot] = (first + j) % this.source.count
      if (++slot === this.depth) slot = 0
    }
    this.inflight += k
    this.cursor = this.source.advance(first, k)
    this.runner.counters[C.SENT] += k
    this.socket.write(this.source.slice(first, k))
  }

  /** The clock of response times (PacedConnection: the runner's, injected in tests). */
  now () {
    return performance.now()
  }

  // --- called by the scanner -------------------------------------------
  noBodyExpected () {
    return this.source.noBody[this.requestIds[this.head]] === 1
  }

  informational () {
    this.runner.counters[C.INFORMATIONAL]++
  }

  complete (status, mismatch) {
    if (this.runner.stopping) {
      // the run ended inside this chunk (amount reached, bailout): ignore the rest
      this.scanner.halted = true
      return
    }
    if (this.inflight === 0) {
      // a response nobody asked for: treat the stream as broken
      this.scanner.halted = true
      this.unsolicited = true
      return
    }
    const slot = this.head
    if (++this.head === this.depth) this.head = 0
    this.inflight--
    this.answeredSinceConnect++
    if (this.breakout) {
      this.runner.firstByte(this.firstByteAt - this.sendTimes[slot], this.readAt - this.firstByteAt)
      this.firstByteAt = this.readAt // the next response starts in this chunk or later
    }
    // the request's index, for per-endpoint results (measure/endpoints.js)
    this.lastRequest = this.requestIds[slot]
    this.record(slot, status, mismatch)
  }

  /** Records the response to the request in ring slot `slot`. */
  record (slot, status, mismatch) {
    this.runner.response(status, this.readAt - this.sendTimes[slot], mismatch, this)
  }

  // --- socket events -----------------------------------------------------
  read (n, buf) {
    const runner = this.runner
    // one clock read per chunk: every response in it arrived at this time
    this.readAt = this.now()
    runner.counters[C.BYTES] += n
    if (runner.endpoints !== null) runner.endpoints.read(this, n)
    if (this.breakout && this.scanner.idle()) this.firstByteAt = this.readAt
    if (!this.scanner.scan(buf, 0, n)) {
      // bytes after the run's last response are not read as part of the run
      if (runner.stopping) return
      runner.error(C.ERR_PARSE, this.scanner.error, this)
      this.dropHead()
      this.restart()
      return
    }
    if (this.unsolicited) {
      this.unsolicited = false
      runner.error(C.ERR_PARSE, 'response without a request', this)
      this.restart()
      return
    }
    if (runner.stopping || this.socket === null) return
    if (this.allowance === 0 && this.inflight === 0) {
      // before the server's close below: with --connection close both apply,
      // and the reconnect is the planned one
      this.exhausted()
      return
    }
    if (this.scanner.closeAfter) {
      // a complete response said the server closes: reconnect now and
      // re-send the requests after it (nothing of their answers was read)
      this.restart()
      return
    }
    this.refill()
  }

  /** This socket sent what -M or -D allow: reconnect, or retire the connection. */
  exhausted () {
    this.spend()
    retireOrReconnect(this)
  }

  ended () {
    this.readAt = performance.now()
    // a close-delimited body ends here, with the server's FIN (a reset or
    // our own destroy leaves it incomplete: see closed())
    if (this.scanner.readingUntilClose()) this.scanner.eof()
  }

  errored (err) {
    const kind = err.syscall === 'connect' || !this.connected
      ? C.ERR_CONNECT
      : (err.syscall === 'write' || err.code === 'EPIPE' ? C.ERR_WRITE : C.ERR_READ)
    this.socketFailed = true
    this.runner.error(kind, err.code || err.message, this)
  }

  closed () {
    this.socket = null
    this.readAt = performance.now()
    const wasConnected = this.connected
    if (wasConnected) {
      this.runner.disconnected()
      this.spend()
      if (!this.resetting && !this.scanner.idle() && !this.runner.stopping) {
        // the server closed mid-response (a body cut short, a head without
        // its end): that request failed and is not sent again, since the
        // server may have acted on it; the ones after it are re-sent
        if (!this.socketFailed) this.runner.error(C.ERR_READ, 'connection closed mid-response', this)
        this.dropHead()
        this.answeredSinceConnect++ // settled: reconnectAfterClose drops no other
      }
    }
    reconnectAfterClose(this, wasConnected, this.inflight)
  }

  /** Something is left to send or re-send (else a closed socket is not reopened). */
  hasWork () {
    return this.inflight > 0 || this.runner.budget > 0
  }

  /** Charges what this socket sent against -M/--max-connection-requests. */
  spend () {
    this.maxRequests -= this.grant - this.allowance
    this.grant = this.allowance
  }

  /** The oldest request timed out at `now`: it is dropped (counted by the caller). */
  timedOutHead (now) {
    this.dropHead()
  }

  /** Forgets the oldest request in flight (it failed); it counts as finished. */
  dropHead () {
    if (this.inflight === 0) return
    if (++this.head === this.depth) this.head = 0
    this.inflight--
    this.runner.dropped()
  }

  /** Resets the socket; 'close' reconnects and re-sends what is in flight. */
  restart () {
    this.scanner.halted = true
    const socket = this.socket
    if (socket === null) return
    this.resetting = true
    socket.destroy()
  }

  /** The oldest request was sent before `limit` (ms, performance.now clock). */
  timedOut (limit) {
    if (this.socket === null) return false
    if (!this.connected) return this.connectStarted < limit
    return this.inflight > 0 && this.sendTimes[this.head] < limit
  }

  close () {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer)
    this.retryTimer = null
    if (this.socket !== null) this.socket.destroy()
  }
}

function reopen (conn) { conn.open() }

/**
 * After a socket sent what -M or -D allow and all of it is answered (HTTP/1.1
 * and HTTP/2): retire the connection once -M is reached, else reconnect (-D).
 */
function retireOrReconnect (conn) {
  if (conn.maxRequests <= 0) {
    conn.finished = true
    conn.close()
    conn.runner.connectionFinished()
    return
  }
  conn.runner.counters[C.PLANNED_RECONNECTS]++
  conn.restart()
}

/**
 * What an HTTP/1.1 or HTTP/2 connection does once its socket has closed and
 * it has settled what was on it: retry a failed connect with a growing delay;
 * otherwise count the reconnect, drop the oldest request if the socket
 * answered nothing (so a server that always closes, or always sends GOAWAY,
 * cannot keep us re-sending forever), and reopen while there is work.
 * @param {Connection|import('../http2/connection.js').H2Connection} conn
 * @param {boolean} wasConnected the socket had been established
 * @param {number} outstanding requests sent on it and not answered
 */
function reconnectAfterClose (conn, wasConnected, outstanding) {
  const runner = conn.runner
  if (runner.stopping || conn.finished) return
  if (!wasConnected) {
    // connect failed (counted in errored)
    runner.connectFailed()
    if (runner.stopping) return
    conn.retryTimer = setTimeout(reopen, conn.retryMs, conn)
    conn.retryMs = Math.min(conn.retryMs * 2, RETRY_MAX_MS)
    return
  }
  runner.counters[C.RECONNECTS]++
  if (outstanding > 0 && conn.answeredSinceConnect === 0 && !conn.resetting) {
    if (!conn.socketFailed) runner.error(C.ERR_READ, 'connection closed before a response', conn)
    conn.dropHead()
  }
  if (runner.stopping || !conn.hasWork()) return
  conn.open()
}
function onRead (n, buf) { this[kConn].read(n, buf) }
function onReady () { this[kConn].ready() }
function onError (err) { this[kConn].errored(err) }
function onEnd () { this[kConn].ended() }
function onClose () { this[kConn].closed() }

module.exports = { Connection, reconnectAfterClose, retireOrReconnect, RETRY_MIN_MS }
