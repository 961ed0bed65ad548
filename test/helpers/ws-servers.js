'use strict'
// WebSocket servers for the engine's tests, on 127.0.0.1 port 0:
//   wsServer: the `ws` package's server, echoing, with behaviours by path
//     (/ping: a ping before each reply; /close/N/CODE: closes after N
//     messages with CODE);
//   handServer: node's http server upgraded by hand (our own 101, frames
//     read with ws's Receiver in server mode, which refuses unmasked ones),
//     replying with raw frames a test chooses, and keeping the raw client
//     bytes so a test can read the masks.
const http = require('node:http')
const { createHash } = require('node:crypto')
const { WebSocketServer, Receiver } = require('ws')

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

/** @param {any} t tap test (teardown closes the server) */
async function wsServer (t) {
  const stats = { connections: 0, messages: 0, pongs: 0 }
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false })
  wss.on('connection', (s, req) => {
    stats.connections++
    let n = 0
    const close = /^\/close\/(\d+)\/(\d+)/.exec(req.url)
    s.on('pong', () => stats.pongs++)
    s.on('error', () => {})
    s.on('message', (data, binary) => {
      stats.messages++
      n++
      if (req.url === '/ping') s.ping(Buffer.from('are you there'))
      s.send(data, { binary })
      if (close !== null && n === Number(close[1])) s.close(Number(close[2]), 'enough')
    })
  })
  await new Promise((resolve) => wss.on('listening', resolve))
  const port = /** @type {import('node:net').AddressInfo} */ (wss.address()).port
  t.teardown(() => new Promise((resolve) => {
    for (const c of wss.clients) c.terminate()
    wss.close(() => resolve())
  }))
  return { port, url: `ws://127.0.0.1:${port}`, stats }
}

/** A server frame (unmasked unless `mask`). */
function serverFrame (op, payload, { fin = true, mask = false } = {}) {
  const p = Buffer.from(payload)
  const head = p.length < 126 ? [((fin ? 0x80 : 0) | op), (mask ? 0x80 : 0) | p.length] : [((fin ? 0x80 : 0) | op), (mask ? 0x80 : 0) | 126, p.length >>> 8, p.length & 0xff]
  return Buffer.concat([Buffer.from(head), mask ? Buffer.from([0, 0, 0, 0]) : Buffer.alloc(0), p])
}

/**
 * @param {any} t
 * @param {(socket: import('node:net').Socket, msg: Buffer, ctx: {n: number, path: string}) => void} onMessage
 * @param {{accept?: (key: string) => string, status?: number, extraHeaders?: string}} [opts]
 */
async function handServer (t, onMessage, opts = {}) {
  const stats = { connections: 0, messages: 0, raw: [], errors: [] }
  const server = http.createServer((req, res) => res.end('not a websocket'))
  const sockets = new Set()
  server.on('upgrade', (req, socket, head) => {
    stats.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    if (opts.status !== undefined) {
      socket.end(`HTTP/1.1 ${opts.status} Nope\r\nContent-Length: 0\r\n\r\n`)
      return
    }
    const key = req.headers['sec-websocket-key']
    const accept = opts.accept ? opts.accept(key) : createHash('sha1').update(key + GUID).digest('base64')
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n${opts.extraHeaders ?? ''}\r\n`)
    const rec = new Receiver({ isServer: true })
    const ctx = { n: 0, path: req.url }
    rec.on('message', (data) => {
      stats.messages++
      ctx.n++
      if (!socket.destroyed) onMessage(socket, Buffer.from(data), ctx)
    })
    rec.on('error', (err) => { stats.errors.push(err.code); socket.destroy() })
    rec.on('conclude', () => socket.end())
    const feed = (chunk) => {
      if (stats.raw.length < 64) stats.raw.push(Buffer.from(chunk))
      if (!rec.destroyed && !rec.writableEnded) rec.write(chunk)
    }
    if (head.length > 0) feed(head)
    socket.on('data', feed)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  t.teardown(() => new Promise((resolve) => {
    for (const s of sockets) s.destroy()
    server.close(() => resolve())
  }))
  return { port, url: `ws://127.0.0.1:${port}`, stats }
}

module.exports = { wsServer, handServer, serverFrame, GUID }
