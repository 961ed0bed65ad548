'use strict'
// The parts of the WebSocket client alone: frames written by frames.js are
// read back by ws's Receiver in server mode (which requires the mask), for
// each length encoding; the key pool refills; the handshake head split
// across reads, and what it refuses; the id in messages and replies.
const t = require('tap')
const { Receiver } = require('ws')
const { MaskPool, writeFrame, headerBytes, closeFrame, pongFrame } = require('../../lib/engine/ws/frames.js')
const { Handshake, acceptOf, requestPrefix } = require('../../lib/engine/ws/handshake.js')
const { MessageTemplate } = require('../../lib/engine/ws/message.js')

function readBack (bytes) {
  const rec = new Receiver({ isServer: true })
  const got = []
  rec.on('message', (d, binary) => got.push(['message', binary, Buffer.from(d)]))
  rec.on('ping', (d) => got.push(['ping', Buffer.from(d)]))
  rec.on('pong', (d) => got.push(['pong', Buffer.from(d)]))
  rec.on('conclude', (code) => got.push(['close', code]))
  rec.on('error', (err) => got.push(['error', err.code]))
  rec.write(bytes)
  return got
}

t.test('frames of every length encoding read back by ws, masked with keys from the pool', (t) => {
  const pool = new MaskPool(8) // two keys, then a refill
  for (const len of [0, 1, 125, 126, 65535, 65536, 70000]) {
    const payload = Buffer.alloc(len, len % 251)
    const out = Buffer.alloc(headerBytes(len) + len)
    t.equal(writeFrame(out, 0, 2, payload, 0, len, pool), out.length, `${len}: fills its bytes exactly`)
    const got = readBack(out)
    t.same(got.map((e) => e[0]), ['message'], `${len}`)
    t.ok(got[0][2].equals(payload))
  }
  t.ok(pool.fills > 2, `the pool refilled (${pool.fills} fills)`)
  t.same(readBack(Buffer.concat([pongFrame(Buffer.from('abc'), 3, pool), closeFrame(4001, pool)])).map((e) => e[0] === 'pong' ? e[1].toString() : e[1]), ['abc', 4001])
  t.same(readBack(closeFrame(0, pool)), [['close', 1005]])
  t.end()
})

t.test('the handshake: the accept of RFC 6455\'s example, a head split across reads, and what is refused', (t) => {
  t.equal(acceptOf('dGhlIHNhbXBsZSBub25jZQ=='), 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=', 'RFC 6455 §1.3')
  const h = new Handshake(requestPrefix({ path: '/x', host: 'h:1', headers: { 'X-A': 'b' } }))
  const req = h.request().toString()
  t.match(req, /^GET \/x HTTP\/1\.1\r\nHost: h:1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nX-A: b\r\nSec-WebSocket-Key: [A-Za-z0-9+/]{22}==\r\n\r\n$/)
  const head = Buffer.from(`HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\nconnection: keep-alive, Upgrade\r\nsec-websocket-accept: ${h.expect}\r\n\r\n`)
  const tail = Buffer.from([0x81, 0x01, 0x41])
  const all = Buffer.concat([head, tail])
  for (const cut of [1, 10, head.length - 3, head.length - 1]) {
    h.request() // a new key: rewrite the accept
    const bytes = Buffer.from(all.toString('latin1').replace(/accept: \S+/, `accept: ${h.expect}`), 'latin1')
    t.equal(h.feed(bytes.subarray(0, cut), cut), -1, `cut ${cut}: waits`)
    t.equal(h.feed(bytes.subarray(cut), bytes.length - cut), head.length - cut, 'the frames start after the head')
  }
  h.request()
  const whole = Buffer.from(all.toString('latin1').replace(/accept: \S+/, `accept: ${h.expect}`), 'latin1')
  t.equal(h.feed(whole, head.length), head.length, 'a head alone in its read: frames start at its end')
  const refuse = (text) => {
    h.request()
    return [h.feed(Buffer.from(text), text.length), h.error]
  }
  t.same(refuse('SSH-2.0-OpenSSH\r\n\r\n'), [-2, 'head'])
  t.same(refuse('HTTP/1.1 200 OK\r\n\r\n'), [-2, 'status'])
  t.same(refuse('HTTP/1.1 101 OK\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n'), [-2, 'upgrade'])
  h.request()
  t.equal(h.feed(Buffer.alloc(17000, 0x41), 17000), -2)
  t.equal(h.error, 'head')
  t.end()
})

t.test('ids: written into the template, found in replies', (t) => {
  const m = new MessageTemplate({ payload: Buffer.from('{"id":{{id}},"a":1}'), binary: false, idField: 'id' })
  const pool = new MaskPool()
  for (const n of [0, 7, 123456789, 2 ** 53 - 1]) {
    const out = Buffer.alloc(m.frameBytes)
    m.write(out, 0, n, pool, 0)
    const text = readBack(out)[0][2].toString()
    t.same(JSON.parse(text), { id: n, a: 1 }, text)
  }
  const reply = (s) => m.idOf(Buffer.from(s), s.length)
  t.equal(reply('{"id": 42, "r": 1}'), 42)
  t.equal(reply('{"r":1,"id":"17"}'), 17, 'a quoted number')
  t.equal(reply('{"id" :\t9}'), 9)
  t.equal(reply('{"idx":1}'), -1)
  t.equal(reply('{"id":x}'), -1)
  t.equal(reply('{"id"'), -1)
  t.equal(reply('{"id" 5}'), -1)
  t.equal(m.idOf(Buffer.from('{"r":1}   {"id":3}'), 7), -1, 'only the reply\'s own bytes count')
  t.end()
})
