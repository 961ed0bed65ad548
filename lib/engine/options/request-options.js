'use strict'
// The options of issue 7, applied to the normalized options of options.js:
// request sequences and their hooks, --script, HAR, forms, id replacement,
// verifyBody, TLS files, title, forever and -x. It decides once whether the
// run needs the dynamic path (hooks.dynamic: requests built per connection;
// hooks.capture: responses framed with their bytes, headers and bodies);
// without any of these options `hooks` stays undefined and the run takes the
// prebuilt static path unchanged.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../../errors.js')

/** A hook given as a function, or as a path to a module that exports one. */
function hookRef (value, name, workers) {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'function') {
    if (workers > 1) {
      throw new UsageError(`with -w/--workers, give ${name} as the path of a module that exports the function: functions cannot be sent to worker threads`)
    }
    return value
  }
  if (typeof value !== 'string') throw new UsageError(`invalid ${name}: give a function or the path of a module that exports one`)
  const file = path.resolve(value)
  loadHook(file, name) // fail now, with the option's name, rather than in a worker
  return file
}

/** Requires a hook module; module.exports (or its `default`) must be a function. */
function loadHook (file, name) {
  let mod
  try {
    mod = require(file)
  } catch (err) {
    throw new UsageError(`cannot load ${name} module "${file}": ${err.code === 'MODULE_NOT_FOUND' ? 'no such file' : err.message}`)
  }
  const fn = typeof mod === 'function' ? mod : mod?.default
  if (typeof fn !== 'function') throw new UsageError(`${name} module "${file}" must export a function (module.exports = function ...)`)
  return fn
}

/** Requires a --script module: an object of hooks and data. */
function loadScript (file) {
  let mod
  try {
    mod = require(file)
  } catch (err) {
    throw new UsageError(`cannot load --script "${file}": ${err.code === 'MODULE_NOT_FOUND' ? 'no such file' : err.message}`)
  }
  if (mod === null || typeof mod !== 'object') {
    throw new UsageError(`--script "${file}" must export an object, e.g. module.exports = { setupRequest, onResponse, requests }`)
  }
  // ours (autocannon's) and wrk's hooks (scripting/wrk-script.js)
  for (const k of ['setupRequest', 'onResponse', 'setupClient', 'verifyBody', 'init', 'setup', 'request', 'response', 'delay', 'done']) {
    if (mod[k] !== undefined && typeof mod[k] !== 'function') throw new UsageError(`--script "${file}": ${k} must be a function`)
  }
  if (mod.request !== undefined && mod.setupRequest !== undefined) throw new UsageError(`--script "${file}": export either request (wrk's) or setupRequest, not both`)
  if (mod.response !== undefined && mod.onResponse !== undefined) throw new UsageError(`--script "${file}": export either response (wrk's) or onResponse, not both`)
  if (mod.requests !== undefined && !Array.isArray(mod.requests)) throw new UsageError(`--script "${file}": requests must be an array`)
  return mod
}

function toBody (body, name) {
  if (body === undefined || body === null) return undefined
  if (Buffer.isBuffer(body)) return body
  if (typeof body === 'string') return Buffer.from(body)
  throw new UsageError(`invalid ${name}: give a string or a Buffer`)
}

function hasHeader (headers, name) {
  return Object.keys(headers).some((k) => k.toLowerCase() === name)
}

function readPem (value, flag) {
  if (value === undefined) return undefined
  const list = Array.isArray(value) ? value : [value]
  const out = list.map((v) => {
    if (Buffer.isBuffer(v) || (typeof v === 'string' && v.includes('-----BEGIN'))) return v
    try {
      return fs.readFileSync(String(v))
    } catch (err) {
      throw new UsageError(`cannot read ${flag} "${v}": ${err.code || err.message}`)
    }
  })
  return Array.isArray(value) ? out : out[0]
}

/**
 * @param {object} o the user's options
 * @param {object} out the normalized options (mutated and returned)
 * @param {{parseHeaders: Function}} helpers
 */
function applyRequestOptions (o, out, { parseHeaders }) {
  out.title = o.title === undefined ? undefined : String(o.title)
  out.forever = o.forever === true
  out.excludeErrorStats = o.excludeErrorStats === true
  // TLS: files (or PEM strings/Buffers), SNI name and any tls.connect option
  if (o.tlsOptions !== undefined && (o.tlsOptions === null || typeof o.tlsOptions !== 'object')) {
    throw new UsageError('invalid tlsOptions: give an object of tls.connect options')
  }
  const tls = { ...o.tlsOptions }
  const cert = readPem(o.cert, '--cert')
  const key = readPem(o.key, '--key')
  const ca = readPem(o.ca, '--ca')
  if (cert !== undefined) tls.cert = cert
  if (key !== undefined) tls.key = key
  if (ca !== undefined) tls.ca = ca
  if (o.servername !== undefined) {
    if (typeof o.servername !== 'string' || o.servername === '') throw new UsageError('invalid -s/--servername: give a host name')
    tls.servername = o.servername
  }
  if (Object.keys(tls).length > 0) {
    if (out.target.protocol !== 'https:') throw new UsageError('--cert, --key, --ca, -s/--servername and tlsOptions need an https:// URL')
    out.target.tls = tls
  }

  const workers = out.workers
  const base = out.requests[0]
  const script = o.script === undefined ? undefined : path.resolve(String(o.script))
  const mod = script === undefined ? {} : loadScript(script)

  // the request list: HAR, a sequence (from the script or the options), or the URLs
  const counted = [o.har !== undefined, o.requests !== undefined || mod.requests !== undefined, o.form !== undefined]
  if (counted[0] && counted[1]) throw new UsageError('give either --har or requests, not both')
  let entries
  if (o.har !== undefined) {
    const { protocol, hostname, port } = out.target
    const origin = new URL(`${protocol}//${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`).origin
    const extra = out.requests[0].headers // -H still applies
    // lazy: only --har reads a HAR file
    entries = require('../scripting/har.js').harRequests(o.har, origin).map((r) => ({ ...r, headers: { ...r.headers, ...extra } }))
  } else if (mod.requests !== undefined || o.requests !== undefined) {
    const list = mod.requests ?? o.requests
    if (!Array.isArray(list) || list.length === 0) throw new UsageError('invalid requests: give a non-empty array of {method, path, headers, body}')
    entries = list.map((r, i) => {
      if (r === null || typeof r !== 'object') throw new UsageError(`invalid requests[${i}]: give an object like {method, path, headers, body}`)
      const method = r.method === undefined ? base.method : String(r.method).toUpperCase()
      if (!/^[A-Z][A-Z0-9_-]*$/.test(method)) throw new UsageError(`invalid requests[${i}].method "${r.method}"`)
      if (r.path !== undefined && !String(r.path).startsWith('/')) throw new UsageError(`invalid requests[${i}].path "${r.path}": it must start with /`)
      if (r.name !== undefined && (typeof r.name !== 'string' || r.name === '')) throw new UsageError(`invalid requests[${i}].name: give a non-empty string (it names the request's results)`)
      return {
        name: r.name,
        method,
        path: r.path === undefined ? base.path : String(r.path),
        headers: r.headers === undefined ? base.headers : parseHeaders(r.headers),
        body: r.body === undefined ? base.body : toBody(r.body, `requests[${i}].body`)
      }
    })
  }
  if (o.form !== undefined) {
    if (o.har !== undefined) throw new UsageError('give either --har or -F/--form, not both')
    // lazy: only -F/--form builds a multipart body
    const { body, contentType } = require('../scripting/form.js').buildForm(o.form)
    const method = o.method === undefined ? 'POST' : base.method
    const list = entries ?? out.requests
    entries = list.map((r) => ({ ...r, method, body, headers: hasHeader(r.headers, 'content-type') ? r.headers : { ...r.headers, 'Content-Type': contentType } }))
  }
  if (entries !== undefined) out.requests = entries.map((r) => ({ ...r, host: base.host }))

  // hooks: from the options first, else from the script
  const seqSource = o.requests ?? mod.requests ?? []
  const sequence = out.requests.map((_, i) => ({
    setupRequest: hookRef(seqSource[i]?.setupRequest, `requests[${i}].setupRequest`, workers) ?? (mod.requests?.[i]?.setupRequest ?? mod.setupRequest ?? mod.request ? 'script' : undefined),
    onResponse: hookRef(seqSource[i]?.onResponse, `requests[${i}].onResponse`, workers) ?? (mod.requests?.[i]?.onResponse ?? mod.onResponse ?? mod.response ? 'script' : undefined)
  }))
  const setupClient = hookRef(o.setupClient, 'setupClient', workers) ?? (mod.setupClient ? 'script' : undefined)
  const verifyBody = hookRef(o.verifyBody, 'verifyBody', workers) ?? (mod.verifyBody ? 'script' : undefined)
  const initialContext = o.initialContext ?? mod.initialContext
  if (initialContext !== undefined && (initialContext === null || typeof initialContext !== 'object')) {
    throw new UsageError('invalid initialContext: give an object')
  }
  const idReplacement = o.idReplacement === true
  // the URL parser percent-encodes the tag in a path: /items/[%3Cid%3E]
  if (idReplacement) for (const r of out.requests) r.path = r.path.replace(/\[%3Cid%3E\]/gi, '[<id>]')
  if (idReplacement && !out.requests.some((r) => r.path.includes('[<id>]') || r.body?.includes('[<id>]'))) {
    throw new UsageError('-I/--idReplacement: no request has [<id>] in its path or body')
  }
  const wrk = wrkOptions(o, out, mod, script)
  const anyRequestHook = sequence.some((s) => s.setupRequest !== undefined || s.onResponse !== undefined)
  // --feed (feed-options.js): requests built per iteration from its rows
  const dynamic = anyRequestHook || setupClient !== undefined || idReplacement || out.feed !== undefined
  const captureBody = verifyBody !== undefined || sequence.some((s) => s.onResponse !== undefined)
  if (dynamic || captureBody || out.excludeErrorStats || wrk !== undefined) {
    out.hooks = {
      wrk,
      delay: mod.delay === undefined ? undefined : 'script',
      dynamic,
      capture: true,
      captureBody,
      sequence,
      script,
      setupClient,
      verifyBody,
      initialContext,
      idReplacement,
      feed: out.feed,
      excludeErrorStats: out.excludeErrorStats
    }
  }
  return out
}

/**
 * What wrk's script surface needs beyond the request hooks: init's
 * arguments, which of init/setup/done exist; undefined for a script with
 * none of wrk's hooks. delay() paces a closed loop: not with a rate, nor
 * (yet) over HTTP/2 streams.
 */
function wrkOptions (o, out, mod, script) {
  const args = o.scriptArgs
  if (args !== undefined && (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))) {
    throw new UsageError('invalid scriptArgs: give an array of strings (on the command line: the arguments after --)')
  }
  if (args !== undefined && script === undefined) throw new UsageError('arguments after -- go to the --script module\'s init(args): give --script FILE (or --on-port to start a command)')
  if (mod.delay !== undefined) {
    if (out.rate) throw new UsageError(`--script "${script}": delay() paces a closed loop; drop the rate (-R, -r, --burst: it plans the sends) or delay()`)
    if (out.h2) throw new UsageError(`--script "${script}": delay() works over HTTP/1.1 connections; drop --h2 or delay()`)
  }
  const has = (k) => typeof mod[k] === 'function'
  if (!['init', 'setup', 'done', 'request', 'response', 'delay'].some(has)) return undefined
  return { args: args ?? [], init: has('init'), setup: has('setup'), done: has('done') }
}

module.exports = { applyRequestOptions, loadHook }
