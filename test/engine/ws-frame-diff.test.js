'use strict'
// Our WebSocket frame reader against the `ws` package's Receiver on seeded
// odd server streams (test/helpers/ws-frames.js): messages whole and
// fragmented with pings and pongs between fragments, 125/126/127-byte and
// 64-bit lengths (also longer encodings than needed), splits at every byte
// or at random, and one break per stream: reserved bits, unknown opcodes, a
// continuation outside a message, a message inside another, a fragmented or
// too long control frame, a one-byte close, a masked frame, a length beyond
// 2^53 - 1, a bad close code. Both must see the same messages, pings, pongs
// and close, and refuse at the same point with the same close code.
const t = require('tap')
const { makeStream, ours, theirs, frame, BREAKS } = require('../helpers/ws-frames.js')
const { FrameReader } = require('../../lib/engine/ws/frame-reader.js')

const SEED = 27000
const CASES = 400

t.test(`${CASES} seeded streams: our reader and ws's Receiver agree`, async (t) => {
  const seen = new Set()
  let refused = 0
  let messages = 0
  for (let s = SEED; s < SEED + CASES; s++) {
    const st = makeStream(s)
    if (st.brk !== null) seen.add(st.brk)
    const a = ours(st.chunks)
    const b = await theirs(st.chunks)
    if (b.error !== null) refused++
    messages += b.events.filter((e) => e[0] === 'message').length
    // one assert per case keeps the output short; the seed replays it
    t.same(a, b, `seed ${s} (${st.brk ?? 'no break'}, ${st.split})`, { diagnostic: false })
  }
  t.same([...seen].sort(), [...BREAKS].sort(), 'every break was tried')
  t.ok(refused > CASES / 2 && refused < CASES, `some streams refused (${refused}), some not`)
  t.ok(messages > CASES, `messages were read (${messages})`)
})

t.test('a header split at every byte, and a 64 KiB payload', (t) => {
  const payload = Buffer.alloc(70000, 7)
  const bytes = Buffer.concat([frame({ op: 2, payload }), frame({ op: 0x9, payload: Buffer.from('p') }), frame({ op: 1, payload: Buffer.from('x'), enc: 64 })])
  for (const cut of [1, 2, 3, 5, 9, 10, 11, 12, 70009, 70010, 70011, 70013]) {
    const got = []
    const r = new FrameReader({ message: (op, len) => got.push(['m', op, len]), control: (op, buf, len) => got.push(['c', op, len]) })
    t.ok(r.scan(bytes, 0, cut) && r.scan(bytes, cut, bytes.length), `cut at ${cut}`)
    t.same(got, [['m', 2, 70000], ['c', 9, 1], ['m', 1, 1]])
    t.ok(r.idle())
  }
  t.end()
})
