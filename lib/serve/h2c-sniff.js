'use strict'
// h2c and HTTP/1.1 on one cleartext port. node:http2's allowHTTP1 only
// works with TLS (it relies on ALPN), so we look at the first bytes
// ourselves: an HTTP/2 client with prior knowledge starts with the
// connection preface "PRI * HTTP/2.0", an HTTP/1.1 client with a method.

const PREFACE_START = Buffer.from('PRI ')

/**
 * Reads until the first bytes decide the protocol, puts them back and hands
 * the socket to the right server. Costs one extra read per connection only.
 * @param {import('node:net').Socket} socket
 * @param {import('node:http').Server} h1
 * @param {import('node:http2').Http2Server} h2
 */
function dispatchConnection (socket, h1, h2) {
  let head = Buffer.alloc(0)
  const onData = (chunk) => {
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk])
    const n = Math.min(head.length, PREFACE_START.length)
    const isH2 = head.subarray(0, n).equals(PREFACE_START.subarray(0, n))
    if (isH2 && head.length < PREFACE_START.length) return // not enough bytes to decide yet
    socket.off('data', onData)
    socket.pause()
    socket.unshift(head)
    if (isH2) {
      // the http2 session reads the unshifted bytes itself on its next tick;
      // resuming here would emit them as 'data' to nobody
      h2.emit('connection', socket)
    } else {
      h1.emit('connection', socket)
      socket.resume()
    }
  }
  socket.on('data', onData)
  socket.on('error', () => {}) // a reset before the first bytes is not our concern
}

module.exports = { dispatchConnection }
