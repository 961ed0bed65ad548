'use strict'
// The request handler of `benchrig serve`, shared by HTTP/1.1 and h2c (the
// node:http2 compatibility API gives both the same req/res shape).
// Routes: `/` (fast fixed body), `/bytes/SIZE`, `/echo`, `/pid`, `/stats`;
// the query keys size, status, delay, chunked, chunk and close override the
// defaults set by the flags for one request, reset=1 resets it instead, and
// block=MS blocks the whole process for MS ms when the request arrives.
const { constants: { NGHTTP2_INTERNAL_ERROR } } = require('node:http2')
const { applyQuery, parseSize, DEFAULT_BODY, MAX_PIECE } = require('./options.js')
const { writeBody, FILL } = require('./body.js')
const { blockFor } = require('./freeze.js')

/** Largest request body `/echo` reads (16 MiB); larger gets 413. */
const ECHO_LIMIT = 16 * 1024 * 1024
const ROUTES_HINT = 'use /, /bytes/SIZE, /echo, /pid or /stats (query: size, status, delay, chunked, chunk, close, reset, block)'

/**
 * @param {ReturnType<import('./options.js').normalizeOptions>} options
 * @param {{freezes?: () => number}} [hooks] where /stats reads the freeze count
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
function createHandler (options, hooks = {}) {
  const pid = String(process.pid)
  const freezes = hooks.freezes ?? (() => 0)
  const started = Date.now()
  let requests = 0
  const defaults = {
    size: options.size,
    status: options.status,
    delay: options.delay,
    chunked: options.chunked,
    chunkSize: options.chunkSize,
    close: options.close,
    reset: false,
    block: 0
  }
  const pidBody = Buffer.from(`${pid}\n`)

  // `/` without a query is the benchmark target: when the defaults need no
  // timer, no chunking and no close, its headers and body are built once.
  const rootBody = options.size === undefined ? DEFAULT_BODY : options.size <= MAX_PIECE ? FILL.subarray(0, options.size) : null
  const noBodyStatus = options.status === 204 || options.status === 304
  const fastRoot = rootBody !== null && !noBodyStatus && defaults.delay.max === 0 && !defaults.chunked && !defaults.close
  const rootHeaders = {
    'content-type': 'text/plain',
    'content-length': String(rootBody ? rootBody.length : 0),
    'x-benchrig-pid': pid
  }

  function send (req, res, plan, source, length, type) {
    const h2 = req.httpVersionMajor === 2
    if (plan.reset) {
      // no response at all: RST_STREAM for HTTP/2, a TCP reset for HTTP/1.1
      if (h2) req.stream.close(NGHTTP2_INTERNAL_ERROR)
      else req.socket.resetAndDestroy()
      return
    }
    const status = plan.status
    const noBody = status === 204 || status === 304
    const headers = { 'content-type': type, 'x-benchrig-pid': pid }
    if (!noBody) {
      // HTTP/2 has no chunked encoding: a body without content-length is
      // simply sent as several DATA frames.
      if (!plan.chunked) headers['content-length'] = String(length)
      else if (!h2) headers['transfer-encoding'] = 'chunked'
    }
    if (plan.close) {
      // HTTP/2 forbids the Connection header: a graceful GOAWAY ends the session instead.
      if (h2) {
        const session = req.stream.session
        res.once('finish', () => session.close())
      } else {
        headers.connection = 'close'
      }
    }
    if (plan.delayMs !== undefined) headers['x-benchrig-delay-ms'] = String(plan.delayMs)
    res.writeHead(status, headers)
    if (noBody || req.method === 'HEAD') res.end()
    else writeBody(res, source, length, plan.chunked ? plan.chunkSize : MAX_PIECE)
  }

  function sendLater (req, res, plan, source, length, type) {
    const { min, max } = plan.delay
    if (max === 0) return send(req, res, plan, source, length, type)
    const ms = min + Math.floor(Math.random() * (max - min + 1))
    plan.delayMs = ms
    setTimeout(send, ms, req, res, plan, source, length, type)
  }

  function fail (req, res, status, message) {
    const body = Buffer.from(`benchrig serve: ${message}\n`)
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': String(body.length), 'x-benchrig-pid': pid })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  function echo (req, res, plan) {
    const chunks = []
    let received = 0
    let tooLarge = false
    req.on('data', (chunk) => {
      if (tooLarge) return
      received += chunk.length
      if (received > ECHO_LIMIT) {
        tooLarge = true
        chunks.length = 0
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (tooLarge) return fail(req, res, 413, `/echo reads at most ${ECHO_LIMIT} bytes of request body`)
      const body = Buffer.concat(chunks)
      const json = Buffer.from(JSON.stringify({
        method: req.method,
        url: req.url,
        httpVersion: req.httpVersion,
        headers: req.headers,
        bodyLength: body.length,
        body: body.toString('utf8')
      }) + '\n')
      sendLater(req, res, plan, json, json.length, 'application/json')
    })
  }

  function stats (req, res) {
    const body = Buffer.from(JSON.stringify({ pid: process.pid, requests, freezes: freezes(), uptimeMs: Date.now() - started }) + '\n')
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length), 'x-benchrig-pid': pid })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  return function handleRequest (req, res) {
    const url = req.url
    const q = url.indexOf('?')
    if (q === -1 && fastRoot && url === '/') {
      requests++
      res.writeHead(200, rootHeaders)
      res.end(req.method === 'HEAD' ? undefined : rootBody)
      return
    }
    const path = q === -1 ? url : url.slice(0, q)
    // /stats is not counted, so polling it does not change what it reports
    if (path === '/stats') return stats(req, res)
    requests++
    let plan = defaults
    if (q !== -1) {
      try {
        plan = applyQuery(defaults, url.slice(q + 1))
      } catch (err) {
        return fail(req, res, 400, err.message)
      }
      // a stall on demand: the whole process stops, every connection waits
      if (plan.block > 0) blockFor(plan.block)
    } else {
      plan = { ...defaults }
    }

    if (path === '/') {
      if (plan.size === undefined) return sendLater(req, res, plan, DEFAULT_BODY, DEFAULT_BODY.length, 'text/plain')
      return sendLater(req, res, plan, null, plan.size, 'text/plain')
    }
    if (path.startsWith('/bytes/')) {
      let size
      try {
        size = parseSize(decodeURIComponent(path.slice(7)))
      } catch (err) {
        return fail(req, res, 400, `${path}: ${err.message}`)
      }
      return sendLater(req, res, plan, null, size, 'application/octet-stream')
    }
    if (path === '/echo') return echo(req, res, plan)
    if (path === '/pid') return sendLater(req, res, plan, pidBody, pidBody.length, 'text/plain')
    return fail(req, res, 404, `no route for ${path}: ${ROUTES_HINT}`)
  }
}

module.exports = { createHandler, ECHO_LIMIT }
