#!/usr/bin/env node
'use strict'
// The cheapest WebSocket closed loop node can run, for
// bench/ws-vs-ws-client.js: the floor under any client written in
// JavaScript on node's `net`. It skips what a real client must do: one
// prebuilt frame with one mask key for every message (RFC 6455 forbids
// that), no frame parsing (it counts bytes of the echo's fixed-size replies),
// no latency. What it keeps is what every node client pays per message: one
// `onread` callback per chunk and one socket.write.
//   node bench/ws-floor-client.js -c 50 -d 5 [-b hello] ws://127.0.0.1:PORT/
// prints {"requests":{"total":N}}
const net = require('node:net')
const { randomBytes } = require('node:crypto')
const { parseClientArgs } = require('./lib/ws-client-args.js')

const o = parseClientArgs(process.argv.slice(2))
if (o === null || Buffer.byteLength(o.b) >= 126) {
  console.error('usage: node bench/ws-floor-client.js -c N -d SECONDS [-b MESSAGE under 126 bytes] ws://HOST:PORT/')
  process.exitCode = 2
} else {
  const url = new URL(o.url)
  const payload = Buffer.from(o.b)
  const key = [1, 2, 3, 4]
  const frame = Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, ...key]), Buffer.from(payload.map((b, i) => b ^ key[i & 3]))])
  const reply = 2 + payload.length
  const readBuffer = Buffer.allocUnsafe(64 * 1024)
  let total = 0
  let stopping = false
  let open = 0
  const sockets = []
  for (let i = 0; i < o.c; i++) {
    const conn = { upgraded: false, bytes: 0 }
    const s = net.connect({
      host: url.hostname,
      port: Number(url.port),
      onread: {
        buffer: readBuffer,
        callback (n, buf) {
          if (!conn.upgraded) {
            const end = buf.subarray(0, n).indexOf('\r\n\r\n')
            if (end < 0) return
            conn.upgraded = true
            if (++open === o.c) setTimeout(stop, o.d * 1000)
            s.write(frame)
            return
          }
          conn.bytes += n
          while (conn.bytes >= reply) {
            conn.bytes -= reply
            total++
            if (!stopping) s.write(frame)
          }
        }
      }
    }, () => {
      s.setNoDelay(true)
      s.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`)
    })
    s.on('error', (err) => { console.error(err.message); process.exitCode = 1 })
    sockets.push(s)
  }
  function stop () {
    stopping = true
    process.stdout.write(JSON.stringify({ requests: { total } }) + '\n')
    for (const s of sockets) s.destroy()
  }
}
