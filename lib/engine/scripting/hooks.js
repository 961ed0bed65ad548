'use strict'
// Installs what a run with hooks needs on a Runner, once, after its
// connections exist (runner.js calls installHooks when opts.hooks is set):
//   dynamic  each connection gets a DynamicSource (its own sequence,
//            context and Client) in place of the shared prebuilt source;
//   capture  each connection gets a CaptureScanner (response bytes, headers,
//            body) that runs onResponse and verifyBody;
//   -x       non-2xx responses leave the latency histogram and the bytes
//            (a stage of the recording chain, measure/recorder.js);
//   errors   every counted error is also passed to onError (reqError, --debug).
// Hooks are functions (main thread) or module paths (any thread; resolved
// here, in the thread that runs them). A hook that throws stops the run,
// which then rejects with the hook's message.
const path = require('node:path')
// the dynamic path's modules load in installHooks(): the helpers below are
// used by every run (reqError, the response event), the path only by runs with hooks
const { loadHook } = require('../options/request-options.js')
const C = require('../counters.js')
const { feedOf } = require('./feed.js')

const CASELESS = {
  get: (o, k) => (typeof k === 'string' && !(k in o) ? o[k.toLowerCase()] : o[k]),
  has: (o, k) => (typeof k === 'string' ? (k in o) || (k.toLowerCase() in o) : k in o)
}

/**
 * onResponse's headers: lowercase names, read in any case. autocannon hands
 * hooks the names as the server sent them (Set-Cookie), Node's http lowercases
 * them; both spellings find the value here.
 * @param {Record<string, string|string[]>|null} headers
 */
function caseless (headers) {
  return headers === null ? headers : new Proxy(headers, CASELESS)
}

function resolver (hooks) {
  let mod = null
  const script = () => (mod ??= require(hooks.script))
  return (ref, name, i) => {
    if (ref === undefined) return undefined
    if (typeof ref === 'function') return ref
    if (ref === 'script') {
      const m = script()
      // wrk's names (request, response, delay) stand for ours (wrk-script.js)
      // lazy: only a wrk-style script names wrk's hooks
      return (i === undefined ? undefined : m.requests?.[i]?.[name]) ?? m[name] ?? require('./wrk-script.js').wrkHook(m, name)
    }
    return loadHook(path.resolve(ref), name)
  }
}

function contextMaker (initial) {
  if (initial === undefined) return () => ({})
  // a deep copy when the context can be cloned, a shallow one when it holds functions
  try {
    structuredClone(initial)
    return () => structuredClone(initial)
  } catch {
    return () => ({ ...initial })
  }
}

/** Completes a partial request (the Client's setters) with the run's defaults. */
function specMaker (defaults) {
  return (r) => ({
    method: String(r.method ?? defaults.method).toUpperCase(),
    path: r.path ?? defaults.path,
    host: defaults.host,
    headers: r.headers ?? defaults.headers,
    body: r.body ?? defaults.body
  })
}

/**
 * @param {import('../runner.js').Runner} runner
 */
function installHooks (runner) {
  // lazy: loaded with the first hooked run only (the static path never loads them)
  const { DynamicSource, isThenable, refuseAsync } = require('./dynamic-source.js')
  // lazy: loaded with the first hooked run only (the static path never loads them)
  const { CaptureScanner } = require('../http1/capture-scanner.js')
  const { Client } = require('./client.js') // lazy: loaded with the first hooked run only (the static path never loads them)
  const hooks = runner.opts.hooks
  const resolve = resolver(hooks)
  let failed = false
  // verb: what the hook did wrong ('threw', or 'returned a Promise')
  const hookFailed = (name, err, verb = 'threw') => {
    if (failed) return
    failed = true
    runner.errorDetails.hook = `${name} ${verb}: ${err?.message ?? err}`
    // not at once: the hook may run inside a write or a read of a connection
    setImmediate(() => runner.stop('hook'))
  }

  if (hooks.wrk !== undefined) scriptThread(runner, hooks)
  const base = runner.opts.requests
  const toSpec = specMaker(base[0])
  if (runner.opts.h2) {
    // HTTP/2: the same sequences and hooks over streams (h2-hooks.js)
    // lazy: only HTTP/2 runs with hooks
    require('./h2-hooks.js').installH2Hooks(runner, { resolve, hookFailed, newContext: contextMaker(hooks.initialContext), toSpec })
    recordingFeatures(runner, hooks)
    return
  }
  if (hooks.dynamic) {
    const sequence = hooks.sequence ?? base.map(() => ({}))
    const setupRequest = sequence.map((s, i) => resolve(s.setupRequest, 'setupRequest', i))
    const onResponse = sequence.map((s, i) => resolve(s.onResponse, 'onResponse', i))
    const setupClient = resolve(hooks.setupClient, 'setupClient')
    const newContext = contextMaker(hooks.initialContext)
    // HTTP/1.1 (--h2 returned above): each connection gets its Client and the onResponse hooks
    const conns = /** @type {(Omit<import('../http1/connection.js').Connection, 'source'> & {source: object, client?: import('./client.js').Client, onResponseHooks?: Function[]})[]} */ (runner.connections)
    for (const conn of conns) {
      const source = new DynamicSource(base, runner.pipelining, { setupRequest, idReplacement: hooks.idReplacement === true, newContext, hookFailed, counters: runner.counters, feed: feedOf(hooks, conn, base.length) })
      const client = new Client(conn.id, source, toSpec)
      source.client = client
      conn.source = source
      conn.cursor = 0
      conn.client = client
      conn.onResponseHooks = onResponse
      if (setupClient !== undefined) {
        try {
          setupClient(client)
        } catch (err) {
          hookFailed('setupClient', err)
        }
      }
    }
  }

  if (hooks.capture) {
    const verify = resolve(hooks.verifyBody, 'verifyBody')
    // keepBody (a 'response' listener): the body is kept for the Client's parser.chunk, never decoded
    const textBody = hooks.captureBody === true
    const keepBody = hooks.keepBody === true
    const how = {
      captureBody: textBody || keepBody,
      expectBody: runner.expectBody,
      maxHeaderSize: runner.opts.maxHeaderSize,
      verifyBody: verify,
      finished: null
    }
    how.finished = (scanner, status) => {
      const conn = scanner.owner
      let mismatch = false
      const body = textBody ? scanner.body.toString() : undefined
      if (verify !== undefined) {
        try {
          mismatch = !verify(body)
        } catch (err) {
          hookFailed('verifyBody', err)
        }
      }
      if (conn.source instanceof DynamicSource && conn.inflight > 0) {
        const seq = conn.source.seq[conn.requestIds[conn.head]]
        const fn = conn.onResponseHooks[seq]
        if (fn !== undefined) {
          try {
            const out = fn(status, body, conn.source.context, caseless(scanner.headers))
            if (isThenable(out)) refuseAsync(out, 'onResponse', hookFailed)
          } catch (err) {
            hookFailed('onResponse', err)
          }
        }
      }
      const client = keepBody ? clientOf(conn) : conn.client
      if (client !== undefined && client !== null) {
        if (keepBody) client.lastBody = scanner.body
        if (client.listenerCount('headers') > 0) client.emit('headers', scanner.headers)
        if (client.listenerCount('body') > 0) client.emit('body', scanner.body)
      }
      return mismatch
    }
    for (const conn of runner.connections) conn.scanner = new CaptureScanner(conn, how)
  }
  if (hooks.delay !== undefined) {
    // the connections are DelayedConnections (runner.js chose the class)
    const delay = resolve(hooks.delay, 'delay')
    for (const conn of /** @type {import('./delayed-connection.js').DelayedConnection[]} */ (runner.connections)) {
      conn.delayHook = delay
      conn.hookFailed = hookFailed
    }
  }

  recordingFeatures(runner, hooks)
}

/**
 * wrk's thread object for this share, and init(args, thread) before it starts:
 * runner.prepared is awaited before start() (index.js, worker-entry.js). A
 * failed init ends the share at once with the hook's message.
 */
function scriptThread (runner, hooks) {
  const { threadOf, initThread } = require('./wrk-script.js') // lazy: only a wrk-style script names wrk's hooks
  const thread = threadOf(runner.opts)
  runner.scriptThread = thread
  thread.onStop = () => {
    // no request after this one: wrk's thread:stop() ends the loop before the next write
    runner.budget = 0
    setImmediate(() => runner.stop('script'))
    runner.onScriptStop?.()
  }
  const failed = (name, err) => {
    runner.errorDetails.hook ??= `${name} threw: ${err?.message ?? err}`
    // not started yet: the share starts empty and ends at once
    runner.opts.durationMs = 0
    runner.opts.amount = 0
    runner.amountLimit = Infinity
  }
  runner.prepared = hooks.wrk.init ? initThread(require(hooks.script), hooks.wrk.args, thread, failed) : undefined
}

/**
 * -x and the Client's 'response' event are stages of the recording chain
 * (measure/recorder.js builds it once, in its fixed order, at start).
 */
function recordingFeatures (runner, hooks) {
  if (hooks.dynamic) runner.clientResponses = true
  if (hooks.excludeErrorStats) runner.excludeErrors = true
}

/** Passes every counted error (kind name, detail) to fn, once installed. */
function forwardErrors (runner, fn) {
  const error = runner.error
  runner.error = function (kind, detail, conn) {
    error.call(this, kind, detail, conn)
    fn(C.ERROR_KINDS[kind - C.ERR_CONNECT], String(detail))
  }
}

/** The Error given to 'reqError' listeners. */
function requestError (kind, detail) {
  // a timeout in autocannon's words (code written for it compares the message)
  const message = kind === 'timeout' && detail === 'request timeout' ? 'request timed out' : `${kind} error: ${detail}`
  const err = /** @type {Error & {kind?: string, code?: string}} */ (new Error(message))
  err.kind = kind
  if (/^E[A-Z]+$/.test(detail)) err.code = detail
  return err
}

/** A Client for a connection of a static run (a 'response' listener attached late). */
function clientOf (conn) {
  // lazy: loaded with the first hooked run only (the static path never loads them)
  if (conn.client === undefined || conn.client === null) conn.client = new (require('./client.js').Client)(conn.id, null, null)
  return conn.client
}

/** Runner options for a main-thread run with a 'response' listener from the start. */
function withResponses (ro) {
  return { ...ro, hooks: { sequence: undefined, ...ro.hooks, dynamic: true, capture: true, keepBody: true } }
}

module.exports = { installHooks, forwardErrors, requestError, clientOf, withResponses }
