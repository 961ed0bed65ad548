'use strict'
// What an HTTP/1.1 and an HTTP/2 load connection share: the socket's life
// (open, established, errors, close), reconnecting with a growing delay,
// -M/-D's allowance of requests per socket and retiring, the timeout test,
// and recording a finished request. The protocol classes (http1/connection.js,
// http2/connection.js) keep their requests in slots of their own (a ring of
// pipelined requests, a table of streams) and say through a few methods what
// a slot is: oldestSlot(), release(slot), outstanding(), sentBefore(limit),
// settleClosed(), halt(). None of these is on the per-request path: the
// per-request steps stay in the protocol classes, where V8 sees one shape.
//
// Socket handlers are module-level functions (no per-request closures); the
// connection is found through socket[kConn].
const { performance } = require('node:perf_hooks')
const C = require('./counters.js')

const kConn = Symbol('benchrig.connection')
const RETRY_MIN_MS = 10
const RETRY_MAX_MS = 1000

class ConnectionBase {
  /**
   * @param {import('./runner.js').Runner} runner
   * @param {number} id
   */
  constructor (runner, id) {
    this.runner = runner
    this.id = id
    /** @type {any} the transport's socket (net.Socket or tls.TLSSocket) */
    this.socket = null
    this.connected = false
    this.connectStarted = 0
    this.answeredSinceConnect = 0
    this.retryMs = RETRY_MIN_MS
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.retryTimer = null
    this.resetting = false
    this.socketFailed = false
    /** when the chunk being read arrived: every response in it counts from here */
    this.readAt = 0
    this.lastRequest = -1 // the request being recorded (measure/endpoints.js)
    // -M/--max-connection-requests and -D/--reconnect-rate: requests this
    // socket may still send (Infinity unless set; one compare per refill)
    this.maxRequests = runner.opts.maxConnectionRequests > 0 ? runner.opts.maxConnectionRequests : Infinity
    this.reconnectRate = runner.opts.reconnectRate > 0 ? runner.opts.reconnectRate : Infinity
    this.allowance = Math.min(this.maxRequests, this.reconnectRate)
    this.grant = this.allowance // the allowance this socket started with
    this.finished = false
    // a ramp down retired it with its requests in flight: it closes once they
    // are answered, or is cut at this time (the runner's clock; 0: not retiring)
    this.retireBy = 0
    this.heldAllowance = 0 // its allowance before it was retired (connection-stages.js)
    this.breakout = runner.breakout === true
    // --local-address: the connections take the source addresses in turn
    const sources = runner.opts.localAddresses
    this.localAddress = sources !== undefined && sources.length > 0 ? sources[id % sources.length] : undefined
    /** @type {Float64Array} each slot's send time (the protocol class allocates it) */
    this.sendTimes = new Float64Array(0)
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
    const transport = this.transport()
    const socket = transport.connect(onRead, this.localAddress)
    socket[kConn] = this
    socket.setNoDelay(true)
    socket.once(transport.readyEvent, onReady)
    socket.on('error', onError)
    socket.on('end', onEnd)
    socket.on('close', onClose)
    this.socket = socket
  }

  /**
   * How sockets are made (transport.js), read at each open (tests replace the runner's).
   * @returns {{connect: (onread: Function, localAddress?: string) => any, readyEvent: string}}
   */
  transport () {
    return this.runner.transport
  }

  /** A new socket starts from a clean protocol state. */
  resetSocketState () {}

  /** The socket can carry requests (HTTP/2: the server's SETTINGS arrived). */
  established () {
    this.connected = true
    this.retryMs = RETRY_MIN_MS
    this.allowance = this.grant = Math.min(this.maxRequests, this.reconnectRate)
    // connect time as the user waits for it: TCP (+TLS) (+ the h2 SETTINGS)
    this.runner.connected(performance.now() - this.connectStarted)
  }

  /** The clock of send and response times (paced connections: the runner's, injected in tests). */
  now () {
    return performance.now()
  }

  /** The server's FIN (HTTP/1.1 ends a close-delimited body here). */
  ended () {}

  errored (err) {
    const kind = err.syscall === 'connect' || !this.connected
      ? C.ERR_CONNECT
      : (err.syscall === 'write' || err.code === 'EPIPE' ? C.ERR_WRITE : C.ERR_READ)
    this.socketFailed = true
    this.runner.error(kind, this.errorDetail(err), this)
  }

  /** What an error report says about a socket error. */
  errorDetail (err) {
    return err.code || err.message
  }

  closed () {
    this.socket = null
    this.readAt = this.now()
    const wasConnected = this.connected
    if (wasConnected) {
      this.runner.disconnected()
      this.spend()
    }
    const outstanding = this.settleClosed(wasConnected)
    reconnectAfterClose(this, wasConnected, outstanding)
  }

  /**
   * The socket closed: settle what was on it, and say how many requests it
   * sent that are still unanswered (they are re-sent on the next socket).
   * @param {boolean} wasConnected
   * @returns {number}
   */
  settleClosed (wasConnected) { return this.outstanding() }

  /** Requests sent and not answered (on this socket or waiting to be re-sent). */
  outstanding () { return 0 }

  /** Something is left to send or re-send (else a closed socket is not reopened). */
  hasWork () {
    return this.outstanding() > 0 || this.moreToSend()
  }

  /** New requests remain (closed loop: the amount budget; paced: the plan). */
  moreToSend () {
    return this.runner.budget > 0
  }

  /** This socket sent what -M or -D allow and all of it is answered: reconnect, or retire. */
  exhausted () {
    if (this.retireBy > 0) {
      // retired by a ramp down (connection-stages.js), its last request answered
      this.retireBy = 0
      this.allowance = this.heldAllowance
      this.resetting = true
      this.close()
      return
    }
    this.spend()
    if (this.maxRequests <= 0) {
      this.finished = true
      this.close()
      this.runner.connectionFinished()
      return
    }
    this.runner.counters[C.PLANNED_RECONNECTS]++
    this.restart()
  }

  /** Charges what this socket sent against -M/--max-connection-requests. */
  spend () {
    this.maxRequests -= this.grant - this.allowance
    this.grant = this.allowance
  }

  /** The slot of the oldest request in flight, or -1. */
  oldestSlot () { return -1 }

  /** Frees the slot of a finished or failed request. */
  release (slot) {}

  /** Forgets the oldest request in flight (it failed); it counts as finished. */
  dropHead () {
    const slot = this.oldestSlot()
    if (slot < 0) return
    this.release(slot)
    this.runner.dropped()
  }

  /** The oldest request timed out at `now` (counted by the caller): it is given up. */
  timedOutHead (now) {
    const slot = this.oldestSlot()
    if (slot < 0) return
    this.givenUp(slot, now)
    this.release(slot)
    this.runner.dropped()
  }

  /** A request given up at the timeout (closed loop: counted, not timed). */
  givenUp (slot, now) {}

  /** Records the response to the request in `slot` (latency from its send). */
  record (slot, status, mismatch) {
    this.runner.response(status, this.readAt - this.sendTimes[slot], mismatch, this)
  }

  /** --breakout: the response of `slot` had its first byte at `firstAt` and ends now. */
  recordBreakout (slot, firstAt) {
    this.runner.firstByte(firstAt - this.sendTimes[slot], this.readAt - firstAt)
  }

  /** Nothing more is read from this socket. */
  halt () {}

  /** Resets the socket; 'close' reconnects and re-sends what is in flight. */
  restart () {
    this.halt()
    const socket = this.socket
    if (socket === null) return
    this.resetting = true
    socket.destroy()
  }

  /** The connect, or the oldest request, started before `limit` (ms, the runner's clock). */
  timedOut (limit) {
    if (this.socket === null) return false
    if (!this.connected) return this.connectStarted < limit
    return this.sentBefore(limit)
  }

  /** A request in flight was sent before `limit`. */
  sentBefore (limit) { return false }

  close () {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer)
    this.retryTimer = null
    if (this.socket !== null) this.socket.destroy()
  }
}

function reopen (conn) { conn.open() }

/**
 * What a connection does once its socket has closed and it has settled what
 * was on it: retry a failed connect with a growing delay; otherwise count the
 * reconnect, drop the oldest request if the socket answered nothing (so a
 * server that always closes, or always sends GOAWAY, cannot keep us
 * re-sending forever), and reopen while there is work.
 * @param {ConnectionBase} conn
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

module.exports = { ConnectionBase, RETRY_MIN_MS }
