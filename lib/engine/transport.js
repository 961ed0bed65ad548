'use strict'
// The transport is chosen once per run (wrk picks its plain or TLS socket
// functions at start-up), so the hot loop never branches on it.
//   plain TCP / unix socket: net with `onread` into one read buffer shared by
//     every connection of a worker (callbacks run one at a time and the
//     scanner copies nothing), so reads allocate nothing;
//   TLS: tls with 'data' events (TLSSocket has no onread), certificates
//     unchecked by default like wrk and autocannon.
// An HTTP/2 transport (issue 8) would be a third entry with its own framing.
const net = require('node:net')

const READ_BUFFER_BYTES = 64 * 1024

/**
 * @typedef {object} Target
 * @property {'http:'|'https:'} protocol
 * @property {string} hostname
 * @property {number} port
 * @property {string|undefined} socketPath
 * @property {boolean} [rejectUnauthorized]
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
    const tls = require('node:tls') // loaded only for https: start-up CPU counts in short runs
    const opts = {
      ...where,
      servername: net.isIP(target.hostname) ? undefined : target.hostname,
      rejectUnauthorized: target.rejectUnauthorized === true,
      ALPNProtocols: ['http/1.1']
    }
    return {
      readyEvent: 'secureConnect',
      connect (onRead) {
        const socket = tls.connect(opts)
        socket.on('data', function (chunk) { onRead.call(this, chunk.length, chunk) })
        return socket
      }
    }
  }
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES)
  return {
    readyEvent: 'connect',
    connect (onRead) {
      return net.connect({ ...where, onread: { buffer, callback: onRead } })
    }
  }
}

module.exports = { chooseTransport }
