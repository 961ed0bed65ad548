'use strict'
// A raw TCP server for engine tests: it finds each complete HTTP/1.1 request
// in the byte stream (head, then a Content-Length body) and lets the test
// answer with exact bytes, however it likes: whole, split, byte by byte,
// several at once, garbage, or not at all.
const net = require('node:net')

/**
 * @param {(socket: net.Socket, req: {n: number, total: number, head: string, body: Buffer, conn: object}) => void} onRequest
 *   n counts requests on this connection (from 1), total over the server
 * @returns {Promise<{port: number, url: string, stats: {connections: number, requests: number}, sockets: Set<net.Socket>, close: () => Promise<void>}>}
 */
function rawServer (onRequest) {
  const stats = { connections: 0, requests: 0 }
  const sockets = new Set()
  const server = net.createServer((socket) => {
    stats.connections++
    sockets.add(socket)
    socket.setNoDelay(true)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    const conn = { n: 0, id: stats.connections }
    let pending = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk])
      for (;;) {
        const end = pending.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = pending.subarray(0, end).toString('latin1')
        const m = /\r\ncontent-length:\s*(\d+)/i.exec(head)
        const len = m ? Number(m[1]) : 0
        if (pending.length < end + 4 + len) return
        const body = pending.subarray(end + 4, end + 4 + len)
        pending = pending.subarray(end + 4 + len)
        conn.n++
        stats.requests++
        if (!socket.destroyed) onRequest(socket, { n: conn.n, total: stats.requests, head, body, conn })
      }
    })
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      resolve({
        port,
        url: `http://127.0.0.1:${port}/`,
        stats,
        sockets,
        close () {
          for (const s of sockets) s.destroy()
          return new Promise((resolve) => server.close(() => resolve()))
        }
      })
    })
  })
}

/** A complete response with a Content-Length body. */
function response (body = 'ok', status = 200, extra = '') {
  return `HTTP/1.1 ${status} X\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`
}

/** Writes bytes one at a time with a pause between them, so reads split. */
function writeBytewise (socket, text, gapMs = 1) {
  const buf = Buffer.from(text, 'latin1')
  let i = 0
  const next = () => {
    if (socket.destroyed) return
    socket.write(buf.subarray(i, i + 1))
    if (++i < buf.length) setTimeout(next, gapMs)
  }
  next()
}

module.exports = { rawServer, response, writeBytewise }
