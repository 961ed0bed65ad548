'use strict'
// Seeded odd WebSocket frame streams from a server, and the verdicts of two
// readers on them: ours (lib/engine/ws/frame-reader.js) and the `ws`
// package's Receiver (client mode, no extension, UTF-8 not checked). Used by
// test/engine/ws-frame-diff.test.js; a failing seed replays with
// makeStream(seed).
const { Receiver } = require('ws') // node_modules/ws/lib/receiver.js
const { FrameReader } = require('../../lib/engine/ws/frame-reader.js')
const { createRng } = require('../../lib/prng.js')

/** ws's error codes, as our kinds */
const WS_KIND = {
  WS_ERR_UNEXPECTED_RSV_2_3: 'reserved-bits',
  WS_ERR_UNEXPECTED_RSV_1: 'reserved-bits',
  WS_ERR_INVALID_OPCODE: 'opcode',
  WS_ERR_EXPECTED_FIN: 'control-fragmented',
  WS_ERR_INVALID_CONTROL_PAYLOAD_LENGTH: 'control-length',
  WS_ERR_UNEXPECTED_MASK: 'masked',
  WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH: 'length',
  WS_ERR_INVALID_CLOSE_CODE: 'close-code'
}

/** A seeded generator of numbers in [0, 1) (lib/prng.js). */
function rng (seed) {
  const r = createRng(seed)
  return () => r.uniform()
}

/**
 * One frame's bytes. `enc` forces the length encoding (7, 16 or 64 bits;
 * ws, like us, accepts a longer one than needed).
 */
function frame ({ fin = true, rsv = 0, op, payload = Buffer.alloc(0), mask = false, enc, len }) {
  const n = len ?? payload.length
  const e = enc ?? (n < 126 ? 7 : (n < 65536 ? 16 : 64))
  const head = [((fin ? 0x80 : 0) | (rsv << 4) | op)]
  const m = mask ? 0x80 : 0
  if (e === 7) head.push(m | n)
  else if (e === 16) head.push(m | 126, n >>> 8, n & 0xff)
  else {
    const hi = Math.floor(n / 4294967296)
    head.push(m | 127, hi >>> 24, (hi >>> 16) & 0xff, (hi >>> 8) & 0xff, hi & 0xff, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff)
  }
  const parts = [Buffer.from(head)]
  if (mask) {
    const key = Buffer.from([1, 2, 3, 4])
    parts.push(key, Buffer.from(payload.map((b, i) => b ^ key[i & 3])))
  } else {
    parts.push(payload)
  }
  return Buffer.concat(parts)
}

const LENGTHS = [0, 1, 2, 5, 124, 125, 126, 127, 128, 255, 256, 1000, 65535, 65536, 70000]
const BREAKS = ['rsv', 'opcode', 'orphan-continuation', 'new-message-inside', 'control-not-fin', 'control-126', 'close-length-1', 'masked', 'huge-length', 'close-code']

/**
 * A seeded stream: messages whole and fragmented, with pings and pongs
 * between fragments, every length class and encoding, and (mostly) one
 * break or a close somewhere.
 * @param {number} seed
 */
function makeStream (seed) {
  const r = rng(seed)
  const pick = (list) => list[Math.floor(r() * list.length)]
  const bytes = (n) => Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)))
  const ctrl = () => frame({ op: pick([0x9, 0xa]), payload: bytes(pick([0, 1, 5, 125])) })
  const frames = []
  const count = 2 + Math.floor(r() * 8)
  const breakAt = r() < 0.85 ? Math.floor(r() * count) : -1
  const brk = pick(BREAKS)
  let fragmented = false
  for (let i = 0; i < count; i++) {
    if (i === breakAt) {
      if (brk === 'rsv') frames.push(frame({ op: 1, rsv: pick([1, 2, 4, 3]), payload: bytes(3) }))
      else if (brk === 'opcode') frames.push(frame({ op: pick([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), payload: bytes(2) }))
      else if (brk === 'orphan-continuation') frames.push(frame({ op: 0, payload: bytes(4) }))
      else if (brk === 'new-message-inside') frames.push(frame({ op: 1, fin: false, payload: bytes(2) }), frame({ op: pick([1, 2]), payload: bytes(3) }))
      else if (brk === 'control-not-fin') frames.push(frame({ op: pick([0x8, 0x9, 0xa]), fin: false, payload: bytes(2) }))
      else if (brk === 'control-126') frames.push(frame({ op: pick([0x9, 0xa, 0x8]), payload: bytes(126) }))
      else if (brk === 'close-length-1') frames.push(frame({ op: 0x8, payload: bytes(1) }))
      else if (brk === 'masked') frames.push(frame({ op: pick([1, 2, 9]), mask: true, payload: bytes(pick([0, 3, 125, 126])) }))
      else if (brk === 'huge-length') frames.push(frame({ op: 2, enc: 64, len: 2 ** 53 + pick([0, 2 ** 40]) }))
      else frames.push(frame({ op: 0x8, payload: Buffer.from([...[pick([0, 999, 1004, 1005, 1006, 1015, 2000, 2999, 5000])].flatMap((c) => [c >>> 8, c & 0xff])]) }))
      break
    }
    const kind = r()
    if (kind < 0.15) {
      frames.push(ctrl())
    } else if (kind < 0.55) {
      const n = pick(LENGTHS)
      const enc = r() < 0.15 ? pick([16, 64]) : undefined
      frames.push(frame({ op: pick([1, 2]), payload: bytes(n), enc: enc !== undefined && enc === 16 && n >= 65536 ? 64 : enc }))
    } else {
      // a fragmented message, controls between its fragments
      const parts = 2 + Math.floor(r() * 3)
      fragmented = true
      for (let j = 0; j < parts; j++) {
        frames.push(frame({ op: j === 0 ? pick([1, 2]) : 0, fin: j === parts - 1, payload: bytes(pick([0, 1, 7, 125, 126, 300])) }))
        if (j < parts - 1 && r() < 0.5) frames.push(ctrl())
      }
    }
  }
  if (breakAt < 0 && r() < 0.5) {
    const code = pick([1000, 1001, 1011, 3000, 4999])
    frames.push(frame({ op: 0x8, payload: Buffer.concat([Buffer.from([code >>> 8, code & 0xff]), bytes(pick([0, 4]))]) }), frame({ op: 1, payload: bytes(3) }))
  } else if (breakAt < 0 && r() < 0.3) {
    frames.push(frame({ op: 0x8 }))
  }
  const all = Buffer.concat(frames)
  // split: whole, bytewise, or at random points
  const split = pick(['whole', 'bytewise', 'random', 'random'])
  const chunks = []
  if (split === 'whole') chunks.push(all)
  else if (split === 'bytewise' && all.length <= 4096) for (let i = 0; i < all.length; i++) chunks.push(all.subarray(i, i + 1))
  else {
    let at = 0
    while (at < all.length) {
      const n = 1 + Math.floor(r() * (r() < 0.5 ? 16 : 3000))
      chunks.push(all.subarray(at, at + n))
      at += n
    }
  }
  return { bytes: all, chunks, brk: breakAt >= 0 ? brk : null, fragmented, split }
}

const hex = (b) => Buffer.from(b).toString('hex')

/** Our reader's events and verdict. */
function ours (chunks) {
  const events = []
  let parts = []
  const sink = {
    payload (buf, s, e) { parts.push(Buffer.from(buf.subarray(s, e))) },
    message (op, len) {
      const data = Buffer.concat(parts)
      parts = []
      events.push(['message', op === 2, hex(data), len === data.length])
    },
    control (op, buf, len) {
      if (op === 0x8) events.push(['close', reader.closeCode, hex(buf.subarray(Math.min(2, len), len))])
      else events.push([op === 0x9 ? 'ping' : 'pong', hex(buf.subarray(0, len))])
    }
  }
  const reader = new FrameReader(sink, { capture: true })
  let error = null
  for (const c of chunks) {
    if (!reader.scan(c, 0, c.length)) {
      error = { kind: reader.error, closeCode: reader.closeCode }
      break
    }
  }
  return { events, error }
}

/** ws's Receiver's events and verdict. */
async function theirs (chunks) {
  const events = []
  const rec = new Receiver({ isServer: false, skipUTF8Validation: true })
  let error = null
  rec.on('message', (data, isBinary) => events.push(['message', isBinary, hex(data), true]))
  rec.on('ping', (d) => events.push(['ping', hex(d)]))
  rec.on('pong', (d) => events.push(['pong', hex(d)]))
  rec.on('conclude', (code, reason) => events.push(['close', code, hex(reason)]))
  rec.on('error', (err) => { error ??= { kind: WS_KIND[err.code] ?? err.code, closeCode: err[Symbol.for('status-code')] ?? statusOf(err) } })
  for (const c of chunks) {
    // after a close it ends itself (a write then is the stream's error, not the protocol's)
    if (error !== null || rec.destroyed || rec.writableEnded) break
    rec.write(c)
  }
  await new Promise(setImmediate)
  return { events, error }
}

function statusOf (err) {
  const sym = Object.getOwnPropertySymbols(err).find((s) => String(s).includes('status-code'))
  return sym === undefined ? undefined : err[sym]
}

module.exports = { makeStream, ours, theirs, frame, BREAKS, rng }
