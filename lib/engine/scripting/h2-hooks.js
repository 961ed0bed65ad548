'use strict'
// installHooks for --h2 runs (hooks.js calls it once per runner, after the
// runner built its connections): the HTTP/1.1 dynamic path's modules where
// they fit (DynamicSource for the sequence, context, setupRequest, restarts
// and [<id>]; Client for setupClient and the 'response' event), with the
// connections replaced by the hooked subclass of their class
// (http2/hooked-connection.js) before any of them opened. The plain --h2 path
// never loads this file.
const { DynamicSource, isThenable, refuseAsync } = require('./dynamic-source.js')
const { Client } = require('./client.js')
const { H2Connection } = require('../http2/connection.js')
const { withHooks } = require('../http2/hooked-connection.js')

// one class each, made once per thread, so their call sites stay monomorphic
let Closed = null
let Paced = null

function hookedClass (paced) {
  if (!paced) return (Closed ??= withHooks(H2Connection))
  return (Paced ??= withHooks(require('../http2/paced-connection.js').PacedH2Connection))
}

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
      } else if (conn.wantBody && expected !== undefined) {
        mismatch = !body.equals(expected)
      }
      const source = conn.source
      if (source === null) return mismatch
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
  const conns = runner.connections
  for (let i = 0; i < conns.length; i++) {
    const old = conns[i]
    const conn = new (hookedClass(old.pacer !== undefined))(runner, old.id, old.pacer, how)
    conns[i] = conn
    if (!dynamic) continue
    const source = new DynamicSource(base, conn.slots, { setupRequest, idReplacement: hooks.idReplacement === true, newContext, hookFailed, encode, counters: runner.counters })
    const client = new Client(conn.id, source, toSpec)
    source.client = client
    conn.source = source
    conn.client = client
    if (setupClient !== undefined) {
      try {
        setupClient(client)
      } catch (err) {
        hookFailed('setupClient', err)
      }
    }
    // a 'body' listener from setupClient: this connection keeps bodies too
    if (client.listenerCount('body') > 0) conn.captureBodies()
  }
}

module.exports = { installH2Hooks }
