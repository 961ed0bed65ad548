'use strict'
// The requests of one HTTP/2 connection, by stream slot: typed arrays indexed
// by slot (send time, request, stream id, status), a free-slot stack and a
// stream id -> slot table. A slot holds a request from its first send until
// it is answered or given up; across a reconnect it stays, "pending" (stream
// id 0) until it is re-sent on the next socket. Nothing here allocates after
// the constructor.

const NO_STREAM = 0

class StreamTable {
  /** @param {number} slots at most this many requests at once (--max-streams) */
  constructor (slots) {
    this.slots = slots
    this.sendTimes = new Float64Array(slots)
    this.requestIds = new Int32Array(slots).fill(-1) // -1: the slot is free
    this.streamIds = new Int32Array(slots) // NO_STREAM: waiting to be (re-)sent
    this.status = new Int16Array(slots)
    this.free = new Int32Array(slots)
    for (let i = 0; i < slots; i++) this.free[i] = slots - 1 - i
    this.freeTop = slots
    let size = 64
    while (size < 4 * slots) size *= 2
    this.lookup = new Int32Array(size) // (streamId >> 1) & mask -> slot + 1
    this.lookupMask = size - 1
    this.active = 0 // slots holding a request
    this.live = 0 // of them, open as streams on this socket
    this.pending = 0 // of them, waiting to be re-sent on this socket
  }

  /** Takes a free slot (the caller checked freeTop > 0). */
  take () {
    return this.free[--this.freeTop]
  }

  /** The request `req` of `slot` goes out now as stream `sid`. */
  open (slot, sid, req, now) {
    this.sendTimes[slot] = now
    this.requestIds[slot] = req
    this.streamIds[slot] = sid
    this.status[slot] = 0
    this.lookup[(sid >>> 1) & this.lookupMask] = slot + 1
  }

  /** A slot that holds a request whose stream is open on this socket. */
  isOpen (slot) {
    return this.requestIds[slot] >= 0 && this.streamIds[slot] !== NO_STREAM
  }

  /** A slot that holds a request waiting to be re-sent. */
  isPending (slot) {
    return this.requestIds[slot] >= 0 && this.streamIds[slot] === NO_STREAM
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

  /** Frees a slot; its send time stays readable until it is reused. */
  forget (slot) {
    if (this.streamIds[slot] !== NO_STREAM) this.live--
    else this.pending--
    this.requestIds[slot] = -1
    this.streamIds[slot] = NO_STREAM
    this.free[this.freeTop++] = slot
    this.active--
  }

  /** The stream in `slot` will be re-sent on another socket. */
  unsend (slot) {
    this.streamIds[slot] = NO_STREAM
    this.live--
    this.pending++
  }

  /** The socket closed: every open stream is re-sent on the next one. */
  unsendAll () {
    if (this.live === 0) return
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.streamIds[slot] !== NO_STREAM) this.streamIds[slot] = NO_STREAM
    }
    this.pending += this.live
    this.live = 0
  }

  /** The slot of the oldest request (by send time), or -1. */
  oldest () {
    let oldest = -1
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.requestIds[slot] >= 0 && (oldest < 0 || this.sendTimes[slot] < this.sendTimes[oldest])) oldest = slot
    }
    return oldest
  }

  /** A request was sent before `limit`. */
  sentBefore (limit) {
    if (this.active === 0) return false
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.requestIds[slot] >= 0 && this.sendTimes[slot] < limit) return true
    }
    return false
  }
}

module.exports = { StreamTable, NO_STREAM }
