'use strict'
// lib/engine/byte-template.js: kept bytes are recognised exactly, at any
// length it keeps and any alignment, and never by a run that differs in one
// byte; runs it cannot compare safely as doubles are not kept.
const t = require('tap')
const { ByteTemplate } = require('../../lib/engine/byte-template.js')

const viewOf = (buf) => new DataView(buf.buffer, buf.byteOffset, buf.byteLength)

t.test('every length it keeps, at every alignment: the same bytes match, one byte changed does not', async (t) => {
  const text = Buffer.from('HTTP/1.1 200 OK\r\nServer: x\r\nDate: Tue, 24 Nov 2026 05:00:00 GMT\r\nContent-Length: 2\r\n\r\n', 'latin1')
  let checked = 0
  let wrong = 0
  for (let length = 8; length <= text.length; length++) {
    for (let shift = 0; shift < 8; shift++) {
      const buf = Buffer.alloc(shift + length + 8, 0x2e)
      text.copy(buf, shift, 0, length)
      const view = viewOf(buf)
      const tpl = new ByteTemplate(256)
      if (!tpl.learn(view, shift, length)) wrong++
      if (!tpl.matches(view, shift)) wrong++
      // the same bytes elsewhere, at another alignment
      const other = Buffer.alloc(length + 3)
      text.copy(other, 3, 0, length)
      if (!tpl.matches(viewOf(other), 3)) wrong++
      // one byte changed anywhere in the run
      for (let k = 0; k < length; k++) {
        other[3 + k] ^= 0x01
        if (tpl.matches(viewOf(other), 3)) wrong++
        other[3 + k] ^= 0x01
        checked++
      }
    }
  }
  t.equal(wrong, 0, `no wrong answer in ${checked} changed runs`)
})

t.test('what it does not keep', async (t) => {
  const tpl = new ByteTemplate(16)
  const text = viewOf(Buffer.from('0123456789abcdefXYZ', 'latin1'))
  t.equal(tpl.learn(text, 0, 17), false, 'longer than its maximum')
  t.equal(tpl.length, -1)
  t.equal(tpl.learn(text, 0, 5), false, '1 to 7 bytes')
  t.equal(tpl.learn(text, 0, 0), true, 'the empty run')
  t.equal(tpl.matches(text, 3), true, 'which every place matches')
  // eight NUL bytes read as +0, with 0x80 last as -0: equal as doubles
  const zeros = Buffer.alloc(16, 0x41)
  zeros.fill(0, 8, 16)
  t.equal(tpl.learn(viewOf(zeros), 0, 16), false, 'a word that reads as a zero')
  const nan = Buffer.alloc(16, 0x41)
  nan.writeDoubleLE(NaN, 0)
  t.equal(tpl.learn(viewOf(nan), 0, 16), false, 'a word that reads as NaN')
  const subnormal = Buffer.alloc(16, 0x41)
  subnormal.writeDoubleLE(Number.MIN_VALUE, 8)
  t.equal(tpl.learn(viewOf(subnormal), 0, 16), false, 'a word that reads as a subnormal')
  t.equal(tpl.length, -1, 'nothing kept after a refusal')
})
