'use strict'
// A per-connection request source for runs whose requests change while they
// run: request sequences with setupRequest hooks, a context per connection,
// [<id>] replacement, and a Client whose setHeaders/setBody/... change what
// is sent. It has the interface of RequestSource (count, noBody, slice,
// advance), chosen once per run by hooks.js, so connection.js does not know
// which source it has.
//
// The "request index" the connection keeps per request in flight is a slot
// of this source's ring of built requests (count = depth + 1 slots, more than
// can be in flight), so a re-send after a reconnect writes exactly the bytes
// sent before, and seq[slot] says which entry of the sequence it was.
// advance() builds the next k requests (calling the hooks); slice() then
// returns them as one buffer: still one write() per refill.
const crypto = require('node:crypto')
const { buildRequest } = require('../http1/request-source.js')
const C = require('../counters.js')

const ID_TAG = '[<id>]'

function replaceIds (s) {
  let out = ''
  let from = 0
  for (let at = s.indexOf(ID_TAG); at !== -1; at = s.indexOf(ID_TAG, from)) {
    out += s.slice(from, at) + crypto.randomUUID()
    from = at + ID_TAG.length
  }
  return out + s.slice(from)
}

class DynamicSource {
  /**
   * @param {import('../http1/request-source.js').RequestSpec[]} specs the sequence
   * @param {number} depth the most requests one write may hold
   * @param {{setupRequest: (Function|undefined)[], idReplacement: boolean,
   *   newContext: () => object, hookFailed: (name: string, err: unknown, verb?: string) => void,
   *   counters: Float64Array, feed?: import('./feed.js').FeedCursor,
   *   encode?: (spec: import('../http1/request-source.js').RequestSpec) => unknown}} how
   *   encode: what built[] holds for a finished request (HTTP/1.1 bytes by
   *   default; the HTTP/2 client keeps the spec and encodes it when sending)
   */
  constructor (specs, depth, how) {
    this.how = how
    this.encode = how.encode ?? buildRequest
    this.depth = depth
    this.count = depth + 1
    this.noBody = new Uint8Array(this.count)
    this.seq = new Int32Array(this.count)
    /** per-endpoint results (measure/endpoints.js): a slot's endpoint is its sequence entry */
    this.endpoints = this.seq
    this.built = new Array(this.count)
    this.setRequests(specs)
    this.context = how.newContext()
    /** how often setupRequest sent the sequence back to its start */
    this.restarts = 0
    this.client = null
  }

  /** Replaces the sequence; the next request is its first. */
  setRequests (specs) {
    this.requests = specs.map((s) => ({ ...s }))
    this.cached = new Array(specs.length)
    this.next = 0
  }

  /** Replaces entry i (the client API); its bytes are rebuilt when next sent. */
  setRequest (i, spec) {
    this.requests[i] = spec
    this.cached[i] = undefined
  }

  advance (first, k) {
    const count = this.count
    for (let j = 0; j < k; j++) this.build((first + j) % count)
    return (first + k) % count
  }

  slice (first, k) {
    if (k === 1) return this.built[first]
    const parts = new Array(k)
    for (let j = 0; j < k; j++) parts[j] = this.built[(first + j) % this.count]
    // a fresh buffer per batch: the previous one may still be queued in the socket
    return Buffer.concat(parts)
  }

  /** Builds the next request of the sequence into ring slot `slot`. */
  build (slot) {
    let i = this.next
    // the context starts afresh whenever the sequence does (autocannon's rule)
    if (i === 0) this.startIteration()
    let spec = this.requests[i]
    // --feed: {{column}} from this iteration's row, before the hooks see the request
    if (this.how.feed !== undefined) spec = this.how.feed.fill(spec, this.context.row)
    const setup = this.how.setupRequest[i]
    let bytes
    if (setup !== undefined) {
      const req = this.callSetup(setup, spec)
      if (req) {
        spec = req
      } else if (i !== 0 && req !== undefined) {
        // a falsy request sends the sequence back to its start
        this.restarts++
        this.how.counters[C.SEQUENCE_RESETS]++
        if (this.client !== null && this.client.listenerCount('reset') > 0) this.client.emit('reset')
        i = 0
        this.startIteration()
        spec = this.requests[0]
        if (this.how.feed !== undefined) spec = this.how.feed.fill(spec, this.context.row)
        const first = this.how.setupRequest[0]
        if (first !== undefined) spec = this.callSetup(first, spec) || spec
      }
      bytes = this.serialize(spec)
    } else if (this.how.idReplacement || this.how.feed !== undefined) {
      bytes = this.serialize(spec)
    } else {
      bytes = this.cached[i] ?? (this.cached[i] = this.serialize(spec))
    }
    this.built[slot] = bytes
    this.seq[slot] = i
    this.noBody[slot] = spec.method === 'HEAD' ? 1 : 0
    this.next = i + 1 === this.requests.length ? 0 : i + 1
  }

  /** A new pass of the sequence: a fresh context, with the feed's next row as context.row. */
  startIteration () {
    this.context = this.how.newContext()
    const feed = this.how.feed
    if (feed !== undefined) this.context.row = feed.row(feed.next())
  }

  /** Calls setupRequest on a copy of the spec; undefined when the hook threw. */
  callSetup (fn, spec) {
    const req = { ...spec, headers: { ...spec.headers }, body: spec.body }
    let out
    try {
      out = fn(req, this.context)
    } catch (err) {
      this.how.hookFailed('setupRequest', err)
      return undefined
    }
    if (isThenable(out)) {
      // an async hook (wrk's delay() ported naturally) would put the Promise on
      // the wire as a request; the engine builds requests synchronously
      refuseAsync(out, 'setupRequest', this.how.hookFailed)
      return undefined
    }
    return out === undefined ? null : out
  }

  serialize (spec) {
    let path = String(spec.path)
    let body = spec.body
    if (body !== undefined && body !== null && !Buffer.isBuffer(body)) {
      // a Uint8Array: a Buffer of the options after a worker's structured clone
      body = ArrayBuffer.isView(body)
        ? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
    }
    if (this.how.idReplacement) {
      if (path.includes(ID_TAG)) path = replaceIds(path)
      if (body !== undefined && body !== null && body.includes(ID_TAG)) body = Buffer.from(replaceIds(body.toString()))
    }
    return this.encode({
      method: String(spec.method).toUpperCase(),
      path,
      host: spec.host,
      headers: spec.headers ?? {},
      body: body ?? undefined
    })
  }
}

/**
 * @param {unknown} x
 * @returns {x is PromiseLike<unknown>}
 */
function isThenable (x) {
  return x !== null && (typeof x === 'object' || typeof x === 'function') && typeof /** @type {{then?: unknown}} */ (x).then === 'function'
}

/**
 * Stops the run for a hook that returned a Promise, with a message that says so
 * and what to do; its rejection, if any, is not left unhandled.
 */
function refuseAsync (promise, name, hookFailed) {
  promise.then(undefined, () => {})
  hookFailed(name, new Error('hooks run synchronously: return the request (or a falsy value to restart the sequence) ' +
    'instead of a Promise; for a pause between requests export delay() (it may return a Promise), or use a rate (-R) or a burst'), 'returned a Promise')
}

module.exports = { DynamicSource, replaceIds, isThenable, refuseAsync }
