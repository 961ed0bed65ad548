'use strict'
// HTTP/2 flow control of one connection (RFC 9113 section 5.2), both ways.
//
// Receiving: DATA counts against the connection window and the stream's; we
// return what was read in WINDOW_UPDATEs once half a window is used, queued
// with the connection's next write.
//
// Sending request bodies: bodies up to 64 KiB go inside the request templates
// (every server grants that window first) and need nothing here. Larger ones
// (or, with hooks, any body the windows do not allow at once) are "streamed":
// per slot, the body bytes sent and our send window; pump() sends DATA as the
// windows allow. `bodiesLeft` counts open streams with body left, so the
// template path checks a single 0 per flush.
const H = require('./frames.js')

const { T, F, FRAME_HEADER, MAX_FRAME } = H

class FlowControl {
  /**
   * @param {import('./stream-table.js').StreamTable} table
   * @param {number} window our stream and connection receive window (--h2-window)
   * @param {Buffer[]|null} bodies streamed bodies, by request index (null: none)
   */
  constructor (table, window, bodies) {
    this.table = table
    this.window = window
    this.received = new Float64Array(table.slots) // DATA bytes since our last stream WINDOW_UPDATE
    this.useBodies(bodies)
    this.reset()
  }

  /** @param {Buffer[]|null} bodies streamed bodies, indexed as the table's requestIds */
  useBodies (bodies) {
    const m = this.table.slots
    this.bodies = bodies
    this.bodySent = bodies === null ? null : new Float64Array(m)
    this.streamWindow = bodies === null ? null : new Float64Array(m)
    this.pumpPlan = bodies === null ? null : new Float64Array(m) // bytes each stream sends in this write
    this.pumpFrom = 0
    this.bodiesLeft = 0
  }

  /** A new socket: the windows start at the protocol's defaults. */
  reset () {
    this.peerWindow = H.DEFAULT_WINDOW // the server's initial stream window
    this.sendWindow = H.DEFAULT_WINDOW // the connection's send window (request bodies)
    this.consumed = 0 // DATA bytes since our last connection WINDOW_UPDATE
    this.bodiesLeft = 0
  }

  // --- receiving ---------------------------------------------------------------

  /**
   * A DATA frame of `length` bytes on stream sid (slot -1: one we no longer
   * track); queues the WINDOW_UPDATEs that are due on `conn`.
   */
  onData (conn, sid, slot, length, endStream) {
    // connection window: all DATA counts, tracked stream or not
    this.consumed += length
    const half = this.window >>> 1
    if (this.consumed >= half) {
      conn.queue(T.WINDOW_UPDATE, 0, 0, 4, this.consumed, 0)
      this.consumed = 0
    }
    if (slot >= 0 && !endStream) {
      this.received[slot] += length
      if (this.received[slot] >= half) {
        conn.queue(T.WINDOW_UPDATE, 0, sid, 4, this.received[slot], 0)
        this.received[slot] = 0
      }
    }
  }

  // --- sending bodies ----------------------------------------------------------

  /** A (re-)sent stream in `slot` starts its body afresh, with the server's initial window. */
  startBody (slot, sent) {
    this.bodySent[slot] = sent
    this.streamWindow[slot] = this.peerWindow - sent
    this.sendWindow -= sent
    if (sent < this.bodies[this.table.requestIds[slot]].length) this.bodiesLeft++
  }

  /** True when the stream in `slot` still has body bytes to send. */
  bodyLeft (slot) {
    return this.bodies !== null && this.table.isOpen(slot) &&
      this.bodySent[slot] < this.bodies[this.table.requestIds[slot]].length
  }

  /** The stream in `slot` ends (answered, reset, given up or moved to another socket). */
  stop (slot) {
    if (this.bodiesLeft > 0 && this.bodyLeft(slot)) this.bodiesLeft--
  }

  /** A stream's WINDOW_UPDATE: more of its body may go. */
  streamUpdate (slot, inc) {
    if (slot >= 0 && this.bodies !== null) this.streamWindow[slot] += inc
  }

  /** SETTINGS_INITIAL_WINDOW_SIZE changed: the open streams' windows move with it (RFC 9113 6.9.2). */
  setPeerWindow (value) {
    if (this.bodies !== null) {
      const delta = value - this.peerWindow
      for (let slot = 0; slot < this.table.slots; slot++) {
        if (this.table.isOpen(slot)) this.streamWindow[slot] += delta
      }
    }
    this.peerWindow = value
  }

  /**
   * Sends what the connection window and each stream's window allow as DATA
   * frames (END_STREAM on a body's last one), in one write(). The streams
   * take turns from a rotating start, so one large body does not hold the
   * connection window for the others.
   * @param {{write: (b: Buffer) => unknown}} socket
   */
  pump (socket) {
    let budget = this.sendWindow
    if (budget <= 0) return
    const table = this.table
    const slots = table.slots
    const plan = this.pumpPlan
    let size = 0
    const from = this.pumpFrom
    if (++this.pumpFrom >= slots) this.pumpFrom = 0
    for (let i = 0; i < slots && budget > 0; i++) {
      const slot = (from + i) % slots
      if (!table.isOpen(slot)) continue
      const left = this.bodies[table.requestIds[slot]].length - this.bodySent[slot]
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
      const body = this.bodies[table.requestIds[slot]]
      const end = this.bodySent[slot] + n
      off = writeData(out, off, body, this.bodySent[slot], end, table.streamIds[slot])
      this.bodySent[slot] = end
      this.streamWindow[slot] -= n
      this.sendWindow -= n
      if (end === body.length) this.bodiesLeft--
    }
    socket.write(out)
  }
}

/**
 * Frames body[from..to) as DATA frames of stream sid into out at off (the
 * body's last byte carries END_STREAM); returns the new offset.
 */
function writeData (out, off, body, from, to, sid) {
  for (let at = from; at < to;) {
    const len = to - at < MAX_FRAME ? to - at : MAX_FRAME
    H.writeHeader(out, off, len, T.DATA, at + len === body.length ? F.END_STREAM : 0, sid)
    body.copy(out, off + FRAME_HEADER, at, at + len)
    off += FRAME_HEADER + len
    at += len
  }
  return off
}

module.exports = { FlowControl, writeData }
