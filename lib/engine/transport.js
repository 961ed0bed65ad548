'use strict'
// The transport is chosen once per run (wrk picks its plain or TLS socket
// functions at start-up), so the hot loop never branches on it.
//   plain TCP / unix socket: net with `onread` into one read buffer shared by
//     every connection of a worker (callbacks run one at a time and the
//     scanner copies nothing), so reads allocate nothing;
//   TLS: tls with 'data' events (TLSSocket has no onread), certificates
//     unchecked by default like wrk and autocannon.
// HTTP/2 (--h2) uses these transports too, with ALPN h2 for https (target.h2);
// its framing lives in http2/connection.js.
const net = require('node:net')

const READ_BUFFER_BYTES = 64 * 1024

/**
 * @typedef {object} Target
 * @property {'http:'|'https:'} protocol
 * @property {string} hostname
 * @property {number} port
 * @property {string|undefined} socketPath
 * @property {boolean} [rejectUnauthorized]
 * @property {boolean} [h2] offer only h2 in ALPN (--h2)
 * @property {import('node:tls').ConnectionOptions} [tls] --cert --key --ca -s, tlsOptions (request-options.js)
 */

/**
 * Returns connect(onRead) -> socket, where onRead(nread, buf) is called with
 * `this` = the socket for every chunk read, and the event to wait for before
 * writing.
 * @param {Target} target
 * @returns {{connect: (onRead: (this: import('node:net').Socket, n: number, buf: Buffer) => void) => import('node:net').Socket, readyEvent: string}}
 */
function chooseTransport (target) {
  const where = target.socketPath !== undefined
    ? { path: target.socketPath }
    : { host: target.hostname, port: target.port }
  if (target.protocol === 'https:') {
    // lazy: start-up CPU counts in short runs: only https loads TLS
    const tls = require('node:tls') // loaded only for https: start-up CPU counts in short runs
    const opts = {
      ...where,
      servername: net.isIP(target.hostname) ? undefined : target.hostname,
      rejectUnauthorized: target.rejectUnauthorized === true,
      ALPNProtocols: target.h2 === true ? ['h2'] : ['http/1.1'],
      ...target.tls // --cert --key --ca -s, tlsOptions (request-options.js)
    }
    return {
      readyEvent: 'secureConnect',
      connect (onRead, localAddress) {
        // tls.connect hands localAddress on to net.connect; its options type omits it
        const socket = tls.connect(/** @type {import('node:tls').ConnectionOptions} */ (localAddress === undefined ? opts : { ...opts, localAddress }))
        socket.on('data', function (chunk) { onRead.call(this, chunk.length, chunk) })
        return socket
      }
    }
  }
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES)
  return {
    readyEvent: 'connect',
    connect (onRead, localAddress) {
      return net.connect({ ...where, localAddress, onread: { buffer, callback: onRead } })
    }
  }
}

module.exports = { chooseTransport }
