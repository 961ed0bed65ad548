'use strict'
// The requests of a plain --h2 run: each request HPACK-encoded once per run
// into a byte template (frames.js requestTemplate) in which only the stream
// ids change per send. It is the connection's `requests`, as RequestSource is
// HTTP/1.1's `source`: runs with hooks give each connection a DynamicRequests
// (dynamic-requests.js) instead, with the same four members.
const { encodeRequest } = require('./hpack.js')
const H = require('./frames.js')

const EMPTY = Buffer.alloc(0)

/** Per runner: every connection shares the templates. */
const byRunner = new WeakMap()

class RequestTemplates {
  /** @param {import('../runner.js').Runner} runner */
  static of (runner) {
    let t = byRunner.get(runner)
    if (t === undefined) byRunner.set(runner, (t = new RequestTemplates(runner.opts)))
    return t
  }

  /** @param {import('../runner.js').RunnerOptions} opts */
  constructor (opts) {
    const scheme = opts.target.protocol === 'https:' ? 'https' : 'http'
    // a worker's options are structured clones, in which Buffers are Uint8Arrays
    const requests = opts.requests.map((r) => {
      if (r.body === undefined || Buffer.isBuffer(r.body)) return r
      const body = /** @type {Uint8Array} */ (r.body)
      return { ...r, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) }
    })
    // Bodies up to 64 KiB go inside the templates (every server grants that
    // window first); larger ones are streamed as the windows allow (flow-control.js)
    const largest = requests.reduce((m, r) => Math.max(m, r.body === undefined ? 0 : r.body.length), 0)
    const streamed = largest > H.DEFAULT_WINDOW
    const templates = requests.map((spec) => H.requestTemplate(encodeRequest(spec, scheme), spec.body, { streamed }))
    this.bytes = templates.map((t) => t.bytes)
    this.idOffsets = templates.map((t) => Int32Array.from(t.idOffsets))
    this.count = templates.length
    /** body bytes inside each template (0 when streamed): what one send takes of the connection window */
    this.bodyLength = streamed ? 0 : templates.reduce((m, t) => Math.max(m, t.bodyLength), 0)
    /** streamed: each request's body, sent by FlowControl.pump() */
    this.bodies = streamed ? requests.map((r) => r.body ?? EMPTY) : null
  }

  /** The request of a new stream in `slot`: the connection's next template. */
  next (conn, slot) {
    const req = conn.cursor
    if (++conn.cursor === this.count) conn.cursor = 0
    return req
  }

  /** The bytes request `req` takes in a write. */
  size (req) {
    return this.bytes[req].length
  }

  /** Copies request `req` into out at off as stream sid, in slot; returns the new offset. */
  write (conn, out, off, slot, req, sid) {
    const bytes = this.bytes[req]
    out.set(bytes, off)
    const ids = this.idOffsets[req]
    for (let i = 0; i < ids.length; i++) H.writeStreamId(out, off + ids[i], sid)
    if (this.bodies !== null && this.bodies[req].length > 0) conn.flow.startBody(slot, 0)
    return off + bytes.length
  }
}

module.exports = { RequestTemplates }
