'use strict'
// Validates and normalizes the options of a load run (shared by the API and
// the CLI). Every message names the option with its CLI flag and says what a
// valid value looks like.
const fs = require('node:fs')
const { UsageError } = require('../../errors.js')
const { applyRequestOptions } = require('./request-options.js')
const { normalizeShape, stagedDuration, connectionStagesOf } = require('./shape-options.js')
const { normalizeH2 } = require('./h2-options.js')
const { groupOrigins, checkOrigins, applyEndpoints } = require('./endpoint-options.js')
const { MAX_HEADER_SIZE } = require('../http1/response-scanner.js')
const { parseThresholds } = require('../thresholds.js')
const { normalizeWs, WS_SCHEMES } = require('./ws-options.js')
const { normalizeFeed, checkTemplates } = require('./feed-options.js')
const { normalizeGrpc } = require('./grpc-options.js')
// parseDuration lives in units.js with parseCount; re-exported below for older imports
const { parseDuration, parseCount } = require('./units.js')

const DEFAULTS = {
  connections: 10,
  pipelining: 1,
  duration: 10,
  amount: 0,
  workers: 0,
  timeout: 10,
  method: 'GET',
  bailout: 0
}

/**
 * Parses --max-header-size: bytes, or a number with k or m (KiB, MiB).
 * @param {unknown} value
 * @returns {number} bytes
 */
function headerSize (value) {
  const m = /^\s*(\d+)\s*(k|kb|kib|m|mb|mib)?\s*$/i.exec(String(value))
  const bytes = m ? Number(m[1]) * (m[2] === undefined ? 1 : (m[2][0].toLowerCase() === 'k' ? 1024 : 1024 * 1024)) : NaN
  if (!(bytes >= 256 && bytes <= 64 * 1024 * 1024)) {
    throw new UsageError(`invalid --max-header-size "${value}": give bytes from 256 to 64m, e.g. 16384, 16k or 80k`)
  }
  return bytes
}

/** A whole-number option: a number or SI text such as 1k (units.js). */
function integer (value, flag, min, max = Number.MAX_SAFE_INTEGER) {
  return parseCount(value, flag, { min, max })
}

/**
 * Headers from an object, or from strings "k: v" / "k=v".
 * @param {unknown} headers
 * @returns {Record<string,string>}
 */
function parseHeaders (headers) {
  /** @type {Record<string,string>} */
  const out = {}
  if (headers === undefined || headers === null) return out
  const list = Array.isArray(headers) ? headers : (typeof headers === 'string' ? [headers] : null)
  if (list === null) {
    if (typeof headers !== 'object') throw new UsageError('invalid -H/--headers: give "name: value" or name=value')
    for (const [k, v] of Object.entries(headers)) out[checkName(k, `${k}`)] = checkValue(String(v), k)
    return out
  }
  for (const h of list) {
    const s = String(h)
    const colon = s.indexOf(':')
    const eq = s.indexOf('=')
    // "k: v" unless an "=" comes first (k=v, whose value may hold colons)
    const at = colon >= 0 && (eq < 0 || colon < eq) ? colon : eq
    if (at <= 0) throw new UsageError(`invalid -H/--headers "${s}": give "name: value" or name=value`)
    const name = s.slice(0, at).trim()
    out[checkName(name, s)] = checkValue(s.slice(at + 1).trim(), s)
  }
  return out
}

function checkName (name, shown) {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new UsageError(`invalid -H/--headers "${shown}": "${name}" is not a valid header name`)
  }
  return name
}

function checkValue (value, shown) {
  if (/[\r\n\0]/.test(value)) throw new UsageError(`invalid -H/--headers "${shown}": the value must not contain CR, LF or NUL`)
  return value
}

/**
 * A URL as autocannon takes it: without a scheme ("localhost:3000/x") it is
 * http:// (autocannon prepends it to anything that does not start with http).
 * @param {string} u
 */
function withScheme (u) {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `http://${u}`
}

function parseTarget (u, socketPath, rejectUnauthorized) {
  let url
  try {
    url = new URL(withScheme(u))
  } catch {
    throw new UsageError(`invalid URL "${u}": give a full URL like http://127.0.0.1:3000/path`)
  }
  // ws:// and wss:// travel over the transports of http:// and https:// (ws-options.js)
  const protocol = WS_SCHEMES[url.protocol] ?? url.protocol
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(`invalid URL "${u}": only http://, https://, ws:// and wss:// are supported`)
  }
  const port = url.port ? Number(url.port) : (protocol === 'https:' ? 443 : 80)
  return {
    scheme: url.protocol,
    protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    host: url.host,
    path: (url.pathname || '/') + url.search,
    socketPath,
    rejectUnauthorized,
    // user:password@ in the URL: Basic credentials, percent-decoded as Node's
    // http.request and autocannon decode them
    auth: url.username === '' && url.password === '' ? undefined : `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
  }
}

/**
 * The Authorization header of URL credentials, unless the request has one.
 * @param {Record<string, string>} headers
 * @param {string|undefined} auth user:password
 */
function withAuth (headers, auth) {
  if (auth === undefined || Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) return headers
  return { ...headers, Authorization: `Basic ${Buffer.from(auth).toString('base64')}` }
}

/**
 * @param {object} o user options (see docs/load.md)
 * @param {{endAtSample?: boolean}} [how] what the caller sets, not the user (engine/index.js's load)
 * @returns {object} normalized options
 */
function normalizeOptions (o, how) {
  if (!o || typeof o !== 'object') throw new UsageError('load(options): options must be an object with at least a url')
  const urls = Array.isArray(o.url) ? o.url : (o.url === undefined ? [] : [o.url])
  if (urls.length === 0) throw new UsageError('no URL given: pass the target URL, e.g. benchrig load http://127.0.0.1:3000/')
  const socketPath = o.socketPath === undefined ? undefined : String(o.socketPath)
  const targets = urls.map((u) => parseTarget(String(u), socketPath, o.rejectUnauthorized === true))
  const first = targets[0]
  // URLs on several origins: each origin gets connections of its own (endpoint-options.js)
  const origins = groupOrigins(targets)
  // --stages-connections: as many connections as its peak, opened and closed over time
  const connectionRamp = connectionStagesOf(o, parseDuration)
  const connections = connectionRamp !== null ? connectionRamp.peak : integer(o.connections ?? DEFAULTS.connections, '-c/--connections', 1, 100000)
  const pipelining = integer(o.pipelining ?? DEFAULTS.pipelining, '-p/--pipelining', 1, 1024)
  // batch by default (wrk's pipelining): the next -p requests in one write once
  // the window is answered. The sliding window writes after every read, and
  // against a fast server those writes carry a request or two each, which costs
  // more kernel time per request than anything in the engine; half writes twice
  // per window. Since responses became cheap to read (the head template), batch
  // used the least CPU per request in each of four runs of
  // bench/engine-vs-peers.js (docs/load.md, "Refill modes")
  const refill = o.refill ?? 'batch'
  if (refill !== 'window' && refill !== 'half' && refill !== 'batch') {
    throw new UsageError(`invalid --refill "${refill}": give window, half or batch`)
  }
  let workers = integer(o.workers ?? DEFAULTS.workers, '-w/--workers', 0, 256)
  const amount = o.amount === undefined ? 0 : integer(o.amount, '-a/--amount', 1)
  // --stages and --stages-connections last the sum of their stages
  const duration = stagedDuration(o, amount, parseDuration) ?? (amount > 0 ? 0 : parseDuration(o.duration ?? DEFAULTS.duration, '-d/--duration'))
  const timeout = parseDuration(o.timeout ?? DEFAULTS.timeout, '-t/--timeout')
  const bailout = o.bailout === undefined ? 0 : integer(o.bailout, '-B/--bailout', 1)
  const method = String(o.method ?? DEFAULTS.method).toUpperCase()
  if (!/^[A-Z][A-Z0-9_-]*$/.test(method)) throw new UsageError(`invalid -m/--method "${o.method}": give an HTTP method like GET or POST`)
  // more workers than connections (autocannon runs it, a connection per
  // worker): a worker without a connection has nothing to send, so only as
  // many workers start as there are connections; -c stays what was asked
  if (workers > connections) workers = connections
  checkOrigins(o, { connections, workers, socketPath }, origins.length)
  let body
  if (o.body !== undefined && o.bodyFile !== undefined) throw new UsageError('give either -b/--body or -i/--input, not both')
  if (o.body !== undefined) body = Buffer.isBuffer(o.body) ? o.body : Buffer.from(String(o.body))
  if (o.bodyFile !== undefined) {
    try {
      body = fs.readFileSync(o.bodyFile)
    } catch (err) {
      throw new UsageError(`cannot read -i/--input "${o.bodyFile}": ${err.code || err.message}`)
    }
  }
  const expectBody = o.expectBody === undefined ? undefined : Buffer.from(String(o.expectBody))
  const maxHeaderSize = o.maxHeaderSize === undefined ? MAX_HEADER_SIZE : headerSize(o.maxHeaderSize)
  const headers = parseHeaders(o.headers)
  const thresholds = parseThresholds(o.thresholds)
  const thresholdAbort = o.thresholdAbort === true
  if (thresholdAbort && thresholds.length === 0) throw new UsageError('--threshold-abort stops a run on a failing threshold: add at least one --threshold')
  const shape = normalizeShape(o, { connections, pipelining, workers, amount, parseDuration })
  // --proto and --call: a gRPC unary call, a fixed HTTP/2 request (grpc-options.js)
  const grpc = normalizeGrpc(o, { urls: urls.map(String), timeoutMs: Math.round(timeout * 1000), method: o.method, body })
  const h2 = normalizeH2(grpc === undefined ? o : { ...o, h2: true }, { pipelining, body, shape })
  // a ws:// or wss:// URL: a WebSocket run (null: HTTP)
  const ws = normalizeWs(o, { urls: urls.map(String), protocols: targets.map((t) => t.scheme), pipelining, workers, method, body, path: first.path, host: first.host, headers })
  if (shape.connectionClose && !Object.keys(headers).some((k) => k.toLowerCase() === 'connection')) headers.Connection = 'close'
  // each URL is an endpoint named by itself (per-endpoint results)
  const requests = grpc !== undefined
    ? [{ method: 'POST', path: grpc.path, host: first.host, headers: { ...withAuth(headers, first.auth), ...grpc.headers }, body: grpc.body, name: grpc.call }]
    : targets.map((t, i) => ({ method, path: t.path, host: t.host, headers: withAuth(headers, t.auth), body, name: String(urls[i]) }))
  // sequences, hooks, HAR, forms, TLS files, title (request-options.js)
  const out = applyRequestOptions(o, {
    urls: urls.map((u) => withScheme(String(u))),
    target: { protocol: first.protocol, hostname: first.hostname, port: first.port, socketPath, rejectUnauthorized: first.rejectUnauthorized },
    requests,
    connections,
    pipelining,
    refill,
    workers,
    amount,
    duration,
    // at least 1 ms: 0 means "run for an amount" to the runner, and -d 250us is a (tiny) duration
    durationMs: duration === 0 ? 0 : Math.max(1, Math.round(duration * 1000)),
    timeout,
    timeoutMs: Math.round(timeout * 1000),
    bailout,
    method: grpc === undefined ? method : 'POST',
    expectBody,
    maxHeaderSize,
    // epoch ms at which the run starts (index.js waits for it), for generators on several machines
    startAt: o.startAt === undefined ? undefined : integer(o.startAt, '--start-at', 0),
    // -L/--sample-int: ms per sample of the req/s and bytes/s rows (autocannon's sampleInt)
    // units: plain ms as autocannon takes it; a compound duration (250ms, 1s) could go through units.js
    sampleIntMs: o.sampleInt === undefined ? 1000 : integer(o.sampleInt, '-L/--sample-int', 10, 3600000),
    thresholds,
    thresholdAbort,
    connectionStages: connectionRamp === null ? null : connectionRamp.stages,
    // the tick's p50/p99 of the last second, for a live view (measure/live.js)
    liveLatency: o.liveLatency === true,
    // the API's: a paced run with an amount ends at the end of its last sample (runner.js holdToSample)
    endAtSample: how?.endAtSample === true,
    ...shape,
    h2,
    ws,
    grpc,
    // --feed: rows in shared memory for {{column}} (feed-options.js); it makes the run dynamic
    feed: normalizeFeed(o, { connections })
  }, { parseHeaders })
  // sequences and HAR entries bring their own headers: the credentials of the
  // first URL still apply to each (autocannon adds them to every request)
  if (first.auth !== undefined) for (const r of out.requests) r.headers = withAuth(r.headers, first.auth)
  if (out.feed !== undefined) applyFeed(out)
  return applyEndpoints(out, origins, urls.map((u) => withScheme(String(u))))
}

/**
 * --feed after the requests are known: every {{name}} names a column, and
 * with --feed-end stop in sequential mode the run sends no more requests
 * than the rows hold (a row per pass of the sequence).
 */
function applyFeed (out) {
  checkTemplates(out.feed, out.requests)
  if (out.feed.end === 'stop' && out.feed.mode === 'sequential') {
    const rows = out.feed.rows * out.requests.length
    if (out.amount > 0) out.amount = Math.min(out.amount, rows)
    else out.maxOverallRequests = out.maxOverallRequests > 0 ? Math.min(out.maxOverallRequests, rows) : rows
  }
}

module.exports = { normalizeOptions, parseDuration, parseCount, parseHeaders, withScheme, DEFAULTS }
