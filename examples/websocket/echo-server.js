'use strict'
// A WebSocket echo server for trying `benchrig load ws://...` (docs/load.md,
// "WebSocket"): the `ws` package's server, replying to each message with
// the same bytes. Usage: node examples/websocket/echo-server.js [PORT]
const { WebSocketServer } = require('ws')

const port = Number(process.argv[2] ?? 8080)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: node examples/websocket/echo-server.js [PORT]')
  process.exitCode = 2
} else {
  const wss = new WebSocketServer({ host: '127.0.0.1', port, perMessageDeflate: false })
  wss.on('connection', (socket) => socket.on('message', (data, binary) => socket.send(data, { binary })))
  wss.on('listening', () => console.error(`echoing on ws://127.0.0.1:${port}/`))
}
