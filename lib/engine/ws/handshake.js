'use strict'
// The opening handshake of RFC 6455 §4: an HTTP/1.1 GET with Upgrade, a
// fresh random Sec-WebSocket-Key per connection, and the server's 101 whose
// Sec-WebSocket-Accept must be base64(SHA-1(key + GUID)). Once per socket,
// so it is plain code: strings, one hash. The response head is gathered
// across reads up to a limit; the bytes after it are already frames.
const { randomBytes, createHash } = require('node:crypto')

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
const MAX_HEAD = 16 * 1024

/** What a server can get wrong in the handshake (result.ws.handshakeErrors). */
const HANDSHAKE_KINDS = ['status', 'upgrade', 'accept', 'extension', 'head']

/**
 * The request head (without the key line, added per socket).
 * @param {{path: string, host: string, headers: Record<string,string>}} spec
 */
function requestPrefix (spec) {
  let head = `GET ${spec.path} HTTP/1.1\r\nHost: ${spec.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n`
  for (const [k, v] of Object.entries(spec.headers)) head += `${k}: ${v}\r\n`
  return head
}

function newKey () {
  return randomBytes(16).toString('base64')
}

function acceptOf (key) {
  return createHash('sha1').update(key + GUID).digest('base64')
}

class Handshake {
  /** @param {string} prefix from requestPrefix */
  constructor (prefix) {
    this.prefix = prefix
    this.key = ''
    this.expect = ''
    /** @type {Buffer[]} */
    this.chunks = []
    this.bytes = 0
    this.error = null // kind (HANDSHAKE_KINDS)
    this.detail = ''
  }

  /** The request bytes for a new socket (a new key each time). */
  request () {
    this.key = newKey()
    this.expect = acceptOf(this.key)
    this.chunks = []
    this.bytes = 0
    this.error = null
    return Buffer.from(`${this.prefix}Sec-WebSocket-Key: ${this.key}\r\n\r\n`, 'latin1')
  }

  /**
   * Feeds response bytes. Returns -1 while the head is incomplete, -2 when it
   * is refused (`error`, `detail`), else the offset in `buf` where the frames
   * start (buf[0, n) as given).
   * @param {Buffer} buf @param {number} n
   * @returns {number}
   */
  feed (buf, n) {
    const prev = this.bytes
    this.chunks.push(Buffer.from(buf.subarray(0, n))) // the read buffer is reused
    this.bytes += n
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks)
    const end = all.indexOf('\r\n\r\n', Math.max(0, prev - 3), 'latin1')
    if (end < 0) {
      if (this.bytes > MAX_HEAD) return this.fail('head', `no end of the response head within ${MAX_HEAD} bytes`)
      return -1
    }
    const verdict = this.check(all.toString('latin1', 0, end))
    if (verdict !== null) return verdict
    return end + 4 - prev
  }

  /** @returns {number|null} -2 when refused */
  check (head) {
    const lines = head.split('\r\n')
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0])
    if (m === null) return this.fail('head', `not an HTTP response: "${lines[0].slice(0, 40)}"`)
    if (m[1] !== '101') return this.fail('status', `HTTP ${m[1]} instead of 101 Switching Protocols`)
    const headers = new Map()
    for (let i = 1; i < lines.length; i++) {
      const c = lines[i].indexOf(':')
      if (c <= 0) continue
      const name = lines[i].slice(0, c).trim().toLowerCase()
      const value = lines[i].slice(c + 1).trim()
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value)
    }
    if ((headers.get('upgrade') ?? '').toLowerCase() !== 'websocket' ||
      !(headers.get('connection') ?? '').toLowerCase().split(/\s*,\s*/).includes('upgrade')) {
      return this.fail('upgrade', 'the 101 lacks "Upgrade: websocket" or "Connection: Upgrade"')
    }
    if (headers.get('sec-websocket-accept') !== this.expect) return this.fail('accept', 'Sec-WebSocket-Accept does not match the key sent')
    // we offered no extension; a server that names one would send frames we cannot read
    if (headers.has('sec-websocket-extensions')) return this.fail('extension', `the server chose an extension we did not offer: ${headers.get('sec-websocket-extensions')}`)
    return null
  }

  fail (kind, detail) {
    this.error = kind
    this.detail = detail
    return -2
  }
}

module.exports = { Handshake, requestPrefix, acceptOf, HANDSHAKE_KINDS, GUID }
