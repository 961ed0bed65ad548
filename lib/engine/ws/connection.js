'use strict'
// One WebSocket load connection over the socket life that connection-base.js
// shares with HTTP/1.1 and HTTP/2: the opening handshake (handshake.js),
// then messages out as masked frames (message.js, frames.js) and replies in
// through the frame reader (frame-reader.js). A message is done when its
// reply arrives: the oldest one in flight (order), or the one whose number
// the reply carries (--ws-id). The closed loop keeps one message in flight
// per connection (send, wait for the reply, send); the paced subclass
// (paced-connection.js) sends on the plan with up to PACED_DEPTH in flight.
//
// Messages in flight are slots of a ring indexed by message number modulo
// the depth: send time and number per slot, a pending flag, and the oldest
// unanswered number (`headSeq`), so replies may come in any order with ids
// and the timeout sweep still finds the oldest. A socket that closes takes
// its unanswered messages with it: they are not sent again (a new socket is
// a new session, and the server may have acted on them).
const { performance } = require('node:perf_hooks')
const { ConnectionBase } = require('../connection-base.js')
const { FrameReader, OP_PING, OP_PONG, OP_CLOSE } = require('./frame-reader.js')
const { Handshake } = require('./handshake.js')
const { closeFrame, pongFrame } = require('./frames.js')
const C = require('../counters.js')

const OUT_MIN = 16 * 1024

class WsConnection extends ConnectionBase {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   * @param {number} [depth] messages in flight (the closed loop: 1)
   */
  constructor (runner, id, depth = 1) {
    super(runner, id)
    const ws = runner.wsRun
    this.ws = ws
    this.stats = runner.ws
    this.template = ws.template
    this.pool = ws.pool
    this.depth = depth
    this.sendTimes = new Float64Array(depth)
    this.seqs = new Float64Array(depth)
    this.pending = new Uint8Array(depth)
    // for the recording chain's per-request fields (one endpoint: index 0)
    this.requestIds = new Int32Array(depth)
    this.nextSeq = 0
    this.headSeq = 0
    this.inflight = 0
    this.upgraded = false
    this.handshakeAt = 0
    this.handshake = new Handshake(ws.prefix)
    this.peerClose = -1 // the code of a close frame the server sent on this socket
    // replies matched by id need their bytes; by order, only their end
    this.idMode = this.template.idField !== undefined
    this.reader = new FrameReader(this, { capture: this.idMode })
    this.reply = this.idMode ? Buffer.allocUnsafe(1024) : null
    this.replyLen = 0
    // the output buffer is reused while writes complete at once (the usual
    // case); one still queued in the socket keeps its buffer, and the next
    // write takes a new one
    this.out = Buffer.allocUnsafe(Math.max(OUT_MIN, this.template.frameBytes * depth))
    this.view = this.out.subarray(0, 0)
  }

  resetSocketState () {
    this.upgraded = false
    this.peerClose = -1
    this.replyLen = 0
    this.reader.reset()
  }

  ready () {
    this.handshakeAt = performance.now()
    this.socket.write(this.handshake.request())
  }

  /** Sends what the window and the budget allow (the closed loop: one message once the last is answered). */
  refill () {
    if (!this.upgraded || this.socket === null) return
    let k = this.depth - (this.nextSeq - this.headSeq)
    if (k > this.allowance) k = this.allowance
    if (k <= 0) return
    k = this.runner.take(k)
    if (k === 0) return
    this.send(k, performance.now())
  }

  /**
   * Writes k messages in one write and stamps their slots with `now`.
   * @param {number} k @param {number} now
   */
  send (k, now) {
    const t = this.template
    let bytes
    try {
      bytes = t.bytesFor(k, this.nextSeq, this.id)
    } catch (err) {
      this.ws.hookFailed(this.runner, err)
      return
    }
    this.allowance -= k
    let out = this.out
    if (this.socket.writableLength > 0 || out.length < bytes) {
      out = this.out = Buffer.allocUnsafe(Math.max(OUT_MIN, bytes))
    }
    let at = 0
    for (let j = 0; j < k; j++) {
      const seq = this.nextSeq++
      const slot = seq % this.depth
      this.sendTimes[slot] = now
      this.seqs[slot] = seq
      this.pending[slot] = 1
      this.stamp(slot, j, now)
      at = t.write(out, at, seq, this.pool, j)
    }
    this.inflight += k
    this.runner.counters[C.SENT] += k
    // one view per size and buffer (k and the frame size rarely change)
    let view = this.view
    if (view.length !== at || view.buffer !== out.buffer || view.byteOffset !== out.byteOffset) view = this.view = out.subarray(0, at)
    this.socket.write(view)
  }

  /** The paced subclass records the plan's time of a message here. */
  stamp (slot, j, now) {}

  // --- socket events -------------------------------------------------------
  read (n, buf) {
    const runner = this.runner
    this.readAt = this.now()
    runner.counters[C.BYTES] += n
    let pos = 0
    if (!this.upgraded) {
      pos = this.handshake.feed(buf, n)
      if (pos === -1) return
      if (pos === -2) {
        this.stats.handshakeRefused(this.handshake.error)
        this.socketFailed = true
        runner.error(C.ERR_CONNECT, `handshake: ${this.handshake.detail}`, this)
        this.socket.destroy()
        return
      }
      this.upgraded = true
      this.stats.handshake.record((performance.now() - this.handshakeAt) * 1000)
      this.established()
      if (runner.stopping || this.socket === null) return
    }
    if (pos < n && !this.reader.scan(buf, pos, n)) {
      if (runner.stopping) return
      this.violation()
      return
    }
    if (runner.stopping || this.socket === null) return
    if (this.peerClose >= 0) {
      this.closedByPeer()
      return
    }
    if (this.allowance === 0 && this.inflight === 0) {
      this.exhausted()
      return
    }
    this.refill()
  }

  /** The server broke the protocol: count it by kind, say 1002 (or 1009), drop the socket. */
  violation () {
    const r = this.reader
    this.stats.protocol(r.errorKind)
    this.runner.error(C.ERR_PARSE, `protocol: ${r.error}`, this)
    this.stats.count('closesSent')
    this.socket.write(closeFrame(r.closeCode, this.pool))
    this.dropInflight()
    this.restart()
  }

  /** The server sent a close frame: answer it with the same code, count the messages it left unanswered, and reconnect once the socket closes. */
  closedByPeer () {
    const code = this.peerClose
    this.stats.closedBy(code)
    this.stats.count('closesSent')
    this.socket.write(closeFrame(code === 1005 ? 0 : code, this.pool))
    if (this.inflight > 0) this.runner.error(C.ERR_READ, `closed by the server (code ${code}) with messages unanswered`, this)
    this.dropInflight()
    this.answeredSinceConnect++ // settled: the reconnect drops nothing more
    this.socket.end()
  }

  // --- called by the frame reader -----------------------------------------
  payload (buf, start, end) {
    const len = end - start
    if (this.replyLen + len > this.reply.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.reply.length * 2, this.replyLen + len))
      this.reply.copy(bigger, 0, 0, this.replyLen)
      this.reply = bigger
    }
    buf.copy(this.reply, this.replyLen, start, end)
    this.replyLen += len
  }

  message (opcode, length) {
    if (this.runner.stopping) return
    let seq = this.headSeq
    if (this.idMode) {
      seq = this.template.idOf(this.reply, this.replyLen)
      this.replyLen = 0
      if (seq < this.headSeq || seq >= this.nextSeq || this.pending[seq % this.depth] === 0) {
        this.stats.count('unmatched')
        return
      }
    } else if (this.inflight === 0) {
      this.stats.count('unsolicited')
      return
    }
    const slot = seq % this.depth
    this.pending[slot] = 0
    this.inflight--
    this.answeredSinceConnect++
    this.advance()
    this.lastRequest = 0
    this.record(slot, 200, false)
  }

  control (opcode, buf, len) {
    if (opcode === OP_PING) {
      this.stats.count('pings')
      if (this.socket !== null) this.socket.write(pongFrame(buf, len, this.pool))
    } else if (opcode === OP_PONG) {
      this.stats.count('pongs')
    } else if (opcode === OP_CLOSE) {
      this.peerClose = this.reader.closeCode
    }
  }

  // --- the slots, for the base class --------------------------------------
  /** Moves headSeq past answered messages. */
  advance () {
    while (this.headSeq < this.nextSeq && this.pending[this.headSeq % this.depth] === 0) this.headSeq++
  }

  /** Every message in flight is lost with its socket: each counts as finished. */
  dropInflight () {
    while (this.inflight > 0) this.dropHead()
  }

  settleClosed (wasConnected) {
    if (wasConnected && !this.resetting && this.inflight > 0 && !this.runner.stopping) {
      if (!this.socketFailed) this.runner.error(C.ERR_READ, 'connection closed with messages unanswered', this)
      this.answeredSinceConnect++ // counted here: the reconnect drops nothing more
    }
    this.dropInflight()
    return 0
  }

  /** A new socket also means a new session (nothing is re-sent), so closing one with nothing in flight is not a failure. */
  outstanding () {
    return this.inflight
  }

  oldestSlot () {
    return this.inflight === 0 ? -1 : this.headSeq % this.depth
  }

  release (slot) {
    this.pending[slot] = 0
    this.inflight--
    this.advance()
  }

  halt () {
    this.reader.closed = true
  }

  sentBefore (limit) {
    return this.inflight > 0 && this.sendTimes[this.headSeq % this.depth] < limit
  }
}

module.exports = { WsConnection }
