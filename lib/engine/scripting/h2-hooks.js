'use strict'
// installHooks for --h2 runs (hooks.js calls it once per runner, after the
// runner built its connections): the HTTP/1.1 dynamic path's modules where
// they fit (DynamicSource for the sequence, context, setupRequest, restarts
// and [<id>]; Client for setupClient and the 'response' event). Hooks attach
// as they do for HTTP/1.1, by giving each connection its parts before any of
// them opened: a CaptureFrameReader as its `scanner` (the response's bytes,
// headers, body) and, for request hooks, DynamicRequests as its `requests`.
// The plain --h2 path never loads this file.
const { DynamicSource, isThenable, refuseAsync } = require('./dynamic-source.js')
const { Client } = require('./client.js')
const { feedOf } = require('./feed.js')
const { CaptureFrameReader } = require('../http2/capture-frame-reader.js')
const { DynamicRequests } = require('../http2/dynamic-requests.js')

/**
 * @param {import('../runner.js').Runner} runner
 * @param {{resolve: Function, hookFailed: (name: string, err: unknown, verb?: string) => void,
 *   newContext: () => object, toSpec: (r: object) => object}} helpers from hooks.js
 */
function installH2Hooks (runner, { resolve, hookFailed, newContext, toSpec }) {
  const hooks = runner.opts.hooks
  const base = runner.opts.requests
  const dynamic = hooks.dynamic === true
  const sequence = hooks.sequence ?? base.map(() => ({}))
  const setupRequest = dynamic ? sequence.map((s, i) => resolve(s.setupRequest, 'setupRequest', i)) : []
  const onResponse = dynamic ? sequence.map((s, i) => resolve(s.onResponse, 'onResponse', i)) : []
  const setupClient = dynamic ? resolve(hooks.setupClient, 'setupClient') : undefined
  const verify = resolve(hooks.verifyBody, 'verifyBody')
  const expected = runner.expectBody
  const captureBody = hooks.captureBody === true
  const defaultHost = base[0].host

  const how = {
    dynamic,
    // headers are decoded to strings only when a hook or the Client can read them
    wantHeaders: dynamic,
    wantBody: captureBody,
    /** The response of `slot` is complete: verifyBody, onResponse, the Client's events. */
    finished (conn, slot, status, body, headers) {
      let mismatch = false
      const text = captureBody ? body.toString() : undefined
      if (verify !== undefined) {
        try {
          mismatch = !verify(text)
        } catch (err) {
          hookFailed('verifyBody', err)
        }
      } else if (conn.scanner.wantBody && expected !== undefined) {
        mismatch = !body.equals(expected)
      }
      if (!dynamic) return mismatch
      const source = conn.requests.source
      const fn = onResponse[source.seq[slot]]
      if (fn !== undefined) {
        try {
          const out = fn(status, text, source.context, headers ?? {})
          if (isThenable(out)) refuseAsync(out, 'onResponse', hookFailed)
        } catch (err) {
          hookFailed('onResponse', err)
        }
      }
      const client = conn.client
      if (client.listenerCount('headers') > 0) client.emit('headers', headers ?? {})
      if (client.listenerCount('body') > 0) client.emit('body', body)
      return mismatch
    }
  }

  // the source keeps each built request as a spec; the connection encodes it
  // when the stream opens (and keeps the block of one it sends again)
  const encode = (r) => ({ method: r.method, path: r.path, host: r.host ?? defaultHost, headers: r.headers, body: r.body, block: null, sent: false })
  // --h2: runner.js made every connection an H2Connection; the hooks give each its Client
  const conns = /** @type {(import('../http2/connection.js').H2Connection & {client?: Client})[]} */ (runner.connections)
  for (const conn of conns) {
    const scanner = new CaptureFrameReader(conn, how)
    conn.scanner = scanner
    if (!dynamic) continue
    const source = new DynamicSource(base, conn.table.slots, { setupRequest, idReplacement: hooks.idReplacement === true, newContext, hookFailed, encode, counters: runner.counters, feed: feedOf(hooks, conn, base.length) })
    const client = new Client(conn.id, source, toSpec)
    source.client = client
    conn.requests = new DynamicRequests(conn, source)
    conn.client = client
    if (setupClient !== undefined) {
      try {
        setupClient(client)
      } catch (err) {
        hookFailed('setupClient', err)
      }
    }
    // a 'body' listener from setupClient: this connection keeps bodies too
    if (client.listenerCount('body') > 0) scanner.captureBodies()
  }
}

module.exports = { installH2Hooks }
