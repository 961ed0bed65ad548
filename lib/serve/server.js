'use strict'
// One listening target server in this process: HTTP/1.1 (node:http) or h2c
// with HTTP/1.1 on the same port (node:http2 cleartext behind a first-bytes
// dispatcher, see h2c-sniff.js). Used
// directly by serve() and by each cluster worker.
const http = require('node:http')
const http2 = require('node:http2')
const net = require('node:net')
const { createHandler } = require('./handler.js')
const { startFreeze } = require('./freeze.js')
const { dispatchConnection } = require('./h2c-sniff.js')
const { UsageError } = require('../errors.js')

/** How long in-flight requests get to finish when the server stops. */
const CLOSE_GRACE_MS = 1000

/**
 * Turns a listen error into a message that names the flag to change.
 * @param {NodeJS.ErrnoException} err
 * @param {{host: string, port: number}} options
 */
function listenError (err, { host, port }) {
  if (err.code === 'EADDRINUSE') return new UsageError(`--port ${port}: ${host}:${port} is already in use; pick another port or --port 0 for a free one`)
  if (err.code === 'EACCES') return new UsageError(`--port ${port}: not allowed to listen on it; use a port above 1023 or --port 0`)
  if (['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAFNOSUPPORT'].includes(err.code)) {
    return new UsageError(`--host ${host}: cannot listen on this address (${err.code}); use an address of this machine such as 127.0.0.1`)
  }
  return err
}

/**
 * Creates the server and listens.
 * @param {ReturnType<import('./options.js').normalizeOptions>} options
 * @returns {Promise<{server: import('node:net').Server, port: number, close: () => Promise<void>, freezes: () => number}>}
 */
async function startServer (options) {
  let freeze
  const sockets = new Set()
  const sessions = new Set()
  const handler = createHandler(options, { freezes: () => (freeze ? freeze.count() : 0) })
  // custom load tools often omit Host; a target should not 400 them
  const h1 = http.createServer({ requireHostHeader: false }, handler)
  let h2
  /** @type {import('node:net').Server} the h1 server, or with h2c a TCP server that hands each connection to h1 or h2 */
  let server = h1
  if (options.h2c) {
    // a load generator may open many streams per session: allow more
    // buffered session memory than the 10 MB default before ENHANCE_YOUR_CALM
    const settings = options.maxStreams === undefined ? {} : { maxConcurrentStreams: options.maxStreams }
    // the handler uses only what http2's compatibility API shares with http's request and response
    const h2Handler = /** @type {(req: import('node:http2').Http2ServerRequest, res: import('node:http2').Http2ServerResponse) => void} */ (/** @type {unknown} */ (handler))
    h2 = http2.createServer({ maxSessionMemory: 64, settings }, h2Handler)
    server = net.createServer({ noDelay: true }, (socket) => dispatchConnection(socket, h1, h2))
    h2.on('session', (session) => {
      sessions.add(session)
      session.once('close', () => sessions.delete(session))
    })
    h2.on('sessionError', () => {})
  }

  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  // a client that sends garbage must not take the server down
  h1.on('clientError', (err, socket) => {
    if (socket.writable && /** @type {NodeJS.ErrnoException} */ (err).code !== 'ECONNRESET') socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    else socket.destroy()
  })

  await new Promise((resolve, reject) => {
    const onError = (err) => reject(listenError(err, options))
    server.once('error', onError)
    server.listen(options.port, options.host, () => {
      server.off('error', onError)
      resolve()
    })
  })
  // h1 never listens itself in h2c mode; its 'listening' event is what
  // starts node's connection tracking (idle-connection closing, header and
  // request timeouts), so give it that event.
  if (h1 !== server) h1.emit('listening')
  if (options.freeze) freeze = startFreeze(options.freeze)

  let closing
  function close () {
    if (closing) return closing
    if (freeze) freeze.stop()
    closing = new Promise((resolve) => server.close(() => resolve()))
    for (const session of sessions) session.close()
    if (h1 === server) h1.closeIdleConnections()
    else h1.close(() => {}) // not listening: this only closes idle connections and stops the timeout checks
    const grace = setTimeout(() => {
      for (const socket of sockets) socket.destroy()
    }, CLOSE_GRACE_MS)
    closing.then(() => clearTimeout(grace))
    return closing
  }

  return {
    server,
    port: /** @type {import('node:net').AddressInfo} */ (server.address()).port, // a TCP server: never a pipe name
    close,
    freezes: () => (freeze ? freeze.count() : 0)
  }
}

module.exports = { startServer, CLOSE_GRACE_MS }
