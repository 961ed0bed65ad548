#!/usr/bin/env node
'use strict'
// A lean WebSocket echo server for bench/ws-vs-ws-client.js: the handshake
// by hand on a `net` server, then each chunk's whole masked client frames
// unmasked and written back as one write of server frames. Far cheaper per
// message than the `ws` server, so that the clients, not the server, are
// what a run measures. Not a general server: no fragments, no pings, a
// frame split across reads is kept until the rest arrives.
//   node bench/lib/ws-raw-echo.js PORT
const net = require('node:net')
const { createHash } = require('node:crypto')

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
const port = Number(process.argv[2])
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error('usage: node bench/lib/ws-raw-echo.js PORT')
  process.exitCode = 2
} else {
  net.createServer({ noDelay: true }, (socket) => {
    let pending = Buffer.alloc(0)
    let open = false
    socket.on('error', () => {})
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      if (!open) {
        const end = pending.indexOf('\r\n\r\n')
        if (end < 0) return
        const key = /sec-websocket-key:\s*(\S+)/i.exec(pending.toString('latin1', 0, end))[1]
        const accept = createHash('sha1').update(key + GUID).digest('base64')
        socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
        pending = pending.subarray(end + 4)
        open = true
      }
      const out = []
      let at = 0
      while (pending.length - at >= 6) {
        const b0 = pending[at]
        let len = pending[at + 1] & 0x7f
        let h = 2
        if (len === 126) { len = pending.readUInt16BE(at + 2); h = 4 } else if (len === 127) { len = Number(pending.readBigUInt64BE(at + 2)); h = 10 }
        if (pending.length - at < h + 4 + len) break
        const k = at + h
        const body = Buffer.allocUnsafe(len)
        for (let i = 0; i < len; i++) body[i] = pending[k + 4 + i] ^ pending[k + (i & 3)]
        if ((b0 & 0x0f) === 0x8) { socket.end(); return }
        out.push(Buffer.from(len < 126 ? [0x80 | (b0 & 0x0f), len] : [0x80 | (b0 & 0x0f), 126, len >> 8, len & 0xff]), body)
        at = k + 4 + len
      }
      pending = pending.subarray(at)
      if (out.length > 0) socket.write(out.length === 2 ? Buffer.concat(out) : Buffer.concat(out))
    })
  }).listen(port, '127.0.0.1', () => console.error(`echoing on ws://127.0.0.1:${port}/`))
}
