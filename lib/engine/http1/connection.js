'use strict'
// One HTTP/1.1 load connection: a ring of the requests in flight (send time
// and request index) and the response scanner, over the socket life that
// connection-base.js shares with HTTP/2. Sending is a sliding window: after
// each read chunk, one write() refills the window with a cached slice of the
// prebuilt request bytes.
const { performance } = require('node:perf_hooks')
const { ResponseScanner } = require('./response-scanner.js')
const { ConnectionBase } = require('../connection-base.js')
const C = require('../counters.js')

class Connection extends ConnectionBase {
  /**
   * @param {import('../runner.js').Runner} runner
   * @param {number} id
   */
  constructor (runner, id) {
    super(runner, id)
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
    this.unsolicited = false
    // --breakout: when the head response's first byte was read
    this.firstByteAt = 0
    this.scanner = new ResponseScanner(this, runner.expectBody, runner.opts.maxHeaderSize)
  }

  resetSocketState () {
    this.unsolicited = false
    this.scanner.reset()
  }

  ready () {
    this.established()
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

  // --- called by the scanner -------------------------------------------
  noBodyExpected () {
    return this.source.noBody[this.requestIds[this.head]] === 1
  }

  informational () {
    // as complete() does: an interim response after the run's last one, or
    // with no request in flight, is not one of the run's (it was counted
    // when it followed the last response in the same read)
    if (this.runner.stopping || this.inflight === 0) {
      this.scanner.halted = true
      if (!this.runner.stopping) this.unsolicited = true
      return
    }
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
      this.recordBreakout(slot, this.firstByteAt)
      this.firstByteAt = this.readAt // the next response starts in this chunk or later
    }
    // the request's index, for per-endpoint results (measure/endpoints.js)
    this.lastRequest = this.requestIds[slot]
    this.record(slot, status, mismatch)
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

  ended () {
    this.readAt = this.now()
    // a close-delimited body ends here, with the server's FIN (a reset or
    // our own destroy leaves it incomplete: see settleClosed())
    if (this.scanner.readingUntilClose()) this.scanner.eof()
  }

  settleClosed (wasConnected) {
    if (wasConnected && !this.resetting && !this.scanner.idle() && !this.runner.stopping) {
      // the server closed mid-response (a body cut short, a head without
      // its end): that request failed and is not sent again, since the
      // server may have acted on it; the ones after it are re-sent
      if (!this.socketFailed) this.runner.error(C.ERR_READ, 'connection closed mid-response', this)
      this.dropHead()
      this.answeredSinceConnect++ // settled: the reconnect drops no other
    }
    return this.inflight
  }

  outstanding () {
    return this.inflight
  }

  oldestSlot () {
    return this.inflight === 0 ? -1 : this.head
  }

  /** Frees the oldest slot (only the ring's head is ever released). */
  release (slot) {
    if (++this.head === this.depth) this.head = 0
    this.inflight--
  }

  halt () {
    this.scanner.halted = true
  }

  sentBefore (limit) {
    return this.inflight > 0 && this.sendTimes[this.head] < limit
  }
}

module.exports = { Connection }
