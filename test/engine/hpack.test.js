'use strict'
// The HPACK decoder against the examples of RFC 7541 Appendix C (test
// vectors of the spec) and against node:http2's own encoder (nghttp2) on a
// real connection; the request encoder against node's decoder.
const t = require('tap')
const net = require('node:net')
const http2 = require('node:http2')
const { HpackDecoder, encodeRequest, huffmanCodes, huffmanDecode } = require('../../lib/engine/http2/hpack.js')
const H = require('../../lib/engine/http2/frames.js')

const hex = (s) => Buffer.from(s.replace(/\s+/g, ''), 'hex')

function decodeAll (decoder, block) {
  const out = []
  decoder.onHeader = (name, value) => out.push([name, value])
  const ok = decoder.decode(block, 0, block.length)
  return { ok, headers: out }
}

t.test('Huffman code: the RFC 7541 Appendix B codes', async (t) => {
  const { codes, lengths } = huffmanCodes()
  t.same([codes[0], lengths[0]], [0x1ff8, 13])
  t.same([codes[48], lengths[48]], [0x0, 5], '"0"')
  t.same([codes[97], lengths[97]], [0x3, 5], '"a"')
  t.same([codes[32], lengths[32]], [0x14, 6], '" "')
  t.same([codes[10], lengths[10]], [0x3ffffffc, 30])
  t.same([codes[256], lengths[256]], [0x3fffffff, 30], 'EOS')
  const out = Buffer.alloc(64)
  const n = huffmanDecode(hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff'), 0, 12, out)
  t.equal(out.latin1Slice(0, n), 'www.example.com')
  t.equal(huffmanDecode(Buffer.from([0x00]), 0, 1, out), -1, 'padding of zeros is an error')
  t.equal(huffmanDecode(Buffer.from([0xff, 0xff, 0xff, 0xff]), 0, 4, out), -1, 'EOS inside the string is an error')
})

t.test('Huffman decoding four bits at a time agrees with a bit-by-bit reading of the code table', async (t) => {
  const { codes, lengths } = huffmanCodes()
  // the reference: the code table read a bit at a time (RFC 7541 5.2: EOS
  // is an error, the padding is fewer than 8 bits and all ones)
  const bySymbolBits = new Map()
  for (let s = 0; s < 257; s++) bySymbolBits.set(`${lengths[s]}:${codes[s]}`, s)
  function reference (bytes) {
    const outBytes = []
    let code = 0
    let bits = 0
    let ones = true
    for (const byte of bytes) {
      for (let b = 7; b >= 0; b--) {
        const bit = (byte >> b) & 1
        code = code * 2 + bit
        bits++
        if (bit === 0) ones = false
        const s = bySymbolBits.get(`${bits}:${code}`)
        if (s === undefined) continue
        if (s === 256) return -1
        outBytes.push(s)
        code = 0
        bits = 0
        ones = true
      }
    }
    return bits > 7 || !ones ? -1 : Buffer.from(outBytes).toString('latin1')
  }
  function encode (text, padBits) {
    let bitsOut = ''
    for (const ch of text) bitsOut += codes[ch].toString(2).padStart(lengths[ch], '0')
    bitsOut += '1'.repeat(padBits)
    const bytes = []
    for (let i = 0; i < bitsOut.length; i += 8) bytes.push(parseInt(bitsOut.slice(i, i + 8).padEnd(8, '1'), 2))
    return Buffer.from(bytes)
  }
  let seed = 7
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const out = Buffer.alloc(4096)
  const decoded = (bytes) => {
    const n = huffmanDecode(bytes, 0, bytes.length, out)
    return n < 0 ? -1 : out.latin1Slice(0, n)
  }
  let valid = 0
  let invalid = 0
  let differ = 0
  for (let i = 0; i < 3000; i++) {
    let bytes
    if (i % 3 === 0) {
      // random bytes: mostly invalid (EOS, bad padding)
      bytes = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 24) }, () => Math.floor(random() * 256)))
    } else {
      const text = Buffer.from(Array.from({ length: Math.floor(random() * 40) }, () => (i % 3 === 1 ? 32 + Math.floor(random() * 95) : Math.floor(random() * 256))))
      bytes = encode(text, 0)
      if (i % 7 === 0 && bytes.length > 1) bytes = bytes.subarray(0, bytes.length - 1) // cut inside a code
      if (i % 11 === 0) bytes = Buffer.concat([bytes, Buffer.from([0xff])]) // 8 or more bits of padding
    }
    const want = reference(bytes)
    if (want === -1) invalid++
    else valid++
    if (decoded(bytes) !== want) {
      differ++
      if (differ < 5) t.equal(decoded(bytes), want, bytes.toString('hex'))
    }
  }
  t.equal(differ, 0, 'no string is read differently')
  t.ok(valid > 1000 && invalid > 500, `valid (${valid}) and invalid (${invalid}) strings`)
  // every symbol alone, with every legal padding
  let each = 0
  for (let ch = 0; ch < 256; ch++) {
    if (decoded(encode(Buffer.from([ch]), 0)) === Buffer.from([ch]).toString('latin1')) each++
  }
  t.equal(each, 256, 'each of the 256 symbols alone')
})

t.test('RFC 7541 C.3: requests without Huffman, one table', async (t) => {
  const d = new HpackDecoder({ full: true })
  let r = decodeAll(d, hex('8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d'))
  t.ok(r.ok)
  t.same(r.headers, [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']])
  t.equal(d.tableSize, 57)
  r = decodeAll(d, hex('8286 84be 5808 6e6f 2d63 6163 6865'))
  t.same(r.headers, [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache']])
  t.equal(d.tableSize, 110)
  r = decodeAll(d, hex('8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65'))
  t.same(r.headers, [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']])
  t.equal(d.tableSize, 164)
  t.equal(d.count, 3)
})

t.test('RFC 7541 C.4: requests with Huffman', async (t) => {
  const d = new HpackDecoder({ full: true })
  let r = decodeAll(d, hex('8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff'))
  t.same(r.headers, [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']])
  r = decodeAll(d, hex('8286 84be 5886 a8eb 1064 9cbf'))
  t.same(r.headers.at(-1), ['cache-control', 'no-cache'])
  r = decodeAll(d, hex('8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf'))
  t.same(r.headers.at(-1), ['custom-key', 'custom-value'])
  t.equal(d.tableSize, 164)
})

// C.5 and C.6: responses with a 256-byte table, so entries are evicted
const C5 = [
  '4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
  '4803 3330 37c1 c0bf',
  '88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31'
]
const C6 = [
  '4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3',
  '4883 640e ffc1 c0bf',
  '88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07'
]
const RESPONSES = [
  [[':status', '302'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']],
  [[':status', '307'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']],
  [[':status', '200'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'], ['location', 'https://www.example.com'],
    ['content-encoding', 'gzip'], ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1']]
]

for (const [name, blocks] of [['C.5 (plain)', C5], ['C.6 (Huffman)', C6]]) {
  t.test(`RFC 7541 ${name}: responses, eviction from a 256-byte table`, async (t) => {
    const full = new HpackDecoder({ full: true, maxTableSize: 256 })
    const lean = new HpackDecoder({ maxTableSize: 256 }) // the engine's decoder: no strings kept
    const statuses = [302, 307, 200]
    blocks.forEach((h, i) => {
      const r = decodeAll(full, hex(h))
      t.ok(r.ok, `block ${i + 1} decodes`)
      t.same(r.headers, RESPONSES[i])
      t.ok(lean.decode(hex(h), 0, hex(h).length))
      t.equal(lean.status, statuses[i], 'the lean decoder finds :status, also through the dynamic table')
      t.equal(lean.tableSize, full.tableSize, 'both keep the same table')
    })
    t.equal(full.tableSize, 215)
    t.equal(full.count, 3)
  })
}

t.test('decoder errors: bad index, size update above the limit, truncated string', async (t) => {
  const d = new HpackDecoder()
  t.notOk(d.decode(Buffer.from([0xbe]), 0, 1), 'index 62 with an empty table')
  t.match(d.error, /out of range/)
  t.notOk(new HpackDecoder().decode(hex('3fe2 1f'), 0, 3), 'size update to 4097')
  t.notOk(new HpackDecoder().decode(hex('400a 6375'), 0, 4), 'a name longer than the block')
  const ok = new HpackDecoder()
  t.ok(ok.decode(hex('20 88'), 0, 2), 'a size update to 0 then :status 200')
  t.equal(ok.status, 200)
})

/** Opens a raw h2c connection, sends requests, collects response header blocks. */
function rawExchange (port, requests) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1')
    const blocks = []
    let buf = Buffer.alloc(0)
    let done = 0
    sock.on('error', reject)
    sock.on('connect', () => {
      const parts = [H.clientPreface(1 << 20)]
      requests.forEach((spec, i) => {
        const tpl = H.requestTemplate(encodeRequest(spec, 'http'), spec.body)
        for (const off of tpl.idOffsets) H.writeStreamId(tpl.bytes, off, 2 * i + 1)
        parts.push(tpl.bytes)
      })
      sock.write(Buffer.concat(parts))
    })
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk])
      while (buf.length >= 9) {
        const len = buf.readUIntBE(0, 3)
        if (buf.length < 9 + len) break
        const type = buf[3]
        const flags = buf[4]
        const payload = buf.subarray(9, 9 + len)
        if (type === H.T.SETTINGS && !(flags & 1)) sock.write(H.frame(H.T.SETTINGS, 1, 0))
        if (type === H.T.HEADERS) blocks.push(Buffer.from(payload))
        if ((type === H.T.HEADERS || type === H.T.DATA) && (flags & 1) && ++done === requests.length) {
          sock.destroy()
          resolve(blocks)
        }
        buf = buf.subarray(9 + len)
      }
    })
  })
}

t.test("node's encoder (nghttp2): dynamic table and Huffman over many responses; our request encoder read by node", async (t) => {
  const seen = []
  const server = http2.createServer()
  server.on('stream', (stream, headers) => {
    seen.push({ method: headers[':method'], path: headers[':path'], authority: headers[':authority'], x: headers['x-test'], len: headers['content-length'] })
    const i = seen.length
    stream.respond({
      ':status': i % 2 ? 200 : 404,
      'content-type': 'text/plain; charset=utf-8',
      'x-same': 'the same value on every response',
      'x-count': `response number ${i}`,
      'set-cookie': `id=${'abcdefghij'.repeat(3)}${i}`
    })
    stream.end('x')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const requests = Array.from({ length: 20 }, (_, i) => ({
    method: i === 0 ? 'POST' : 'GET',
    path: `/p/${i}?q=1`,
    host: 'example.test:8080',
    headers: { 'X-Test': `v${i}`, Connection: 'keep-alive' },
    body: i === 0 ? Buffer.from('hello') : undefined
  }))
  const blocks = await rawExchange(server.address().port, requests)
  t.equal(blocks.length, 20)
  const full = new HpackDecoder({ full: true })
  const lean = new HpackDecoder()
  const statuses = []
  blocks.forEach((b, i) => {
    const r = decodeAll(full, b)
    t.ok(r.ok, `block ${i} decodes`)
    const h = Object.fromEntries(r.headers)
    statuses.push(Number(h[':status']))
    t.equal(h['x-same'], 'the same value on every response')
    t.match(h['x-count'], /^response number \d+$/)
    t.match(h['set-cookie'], /^id=(abcdefghij){3}\d+$/)
    t.equal(h['content-type'], 'text/plain; charset=utf-8')
    t.ok(lean.decode(b, 0, b.length))
    t.equal(lean.status, Number(h[':status']))
  })
  t.ok(full.count > 0, 'nghttp2 used the dynamic table')
  t.same(statuses.slice().sort(), Array.from({ length: 20 }, (_, i) => (i % 2 ? 404 : 200)).sort())
  t.same(seen[0], { method: 'POST', path: '/p/0?q=1', authority: 'example.test:8080', x: 'v0', len: '5' })
  t.same(seen.find((s) => s.path === '/p/7?q=1'), { method: 'GET', path: '/p/7?q=1', authority: 'example.test:8080', x: 'v7', len: undefined })
})

t.test('the block template: a repeated block replays its inserts; a block that reads the table is decoded each time', async (t) => {
  // a response block of nginx's shape: :status 200 indexed, then server,
  // date (Huffman), content-type and content-length as literals with
  // incremental indexing and static names; the second has another date
  const NGINX = '887689aa6355e580ae212e1f6196df697e94134a693f75040138a01ab827ae09c53168df5f87497ca58ae819aa5c023131'
  const block = hex(NGINX)
  const later = hex(NGINX.replace('c53168df', 'c53171df'))
  const full = new HpackDecoder({ full: true }) // keeps strings: never uses the template
  const lean = new HpackDecoder()
  let decoded = 0
  const decodeBlock = lean.decodeBlock
  lean.decodeBlock = function (...args) {
    decoded++
    return decodeBlock.apply(this, args)
  }
  let same = 0
  for (let i = 0; i < 300; i++) {
    const b = i % 50 < 40 ? block : later
    t.ok(decodeAll(full, b).ok)
    t.ok(lean.decode(b, 0, b.length))
    if (lean.status === full.status && lean.contentLength === 11 && lean.tableSize === full.tableSize && lean.count === full.count) same++
  }
  t.equal(same, 300, 'every block: the same :status, content-length and table as a full decode')
  t.equal(decoded, 12, 'decoded only when the block changed (6 runs of each date)')
  t.ok(full.count > 10, 'the blocks filled and churned the dynamic table')

  // blocks that read the table: index 62 is whatever the last insert was
  const insertStatus = (code) => Buffer.concat([Buffer.from([0x48, 0x03]), Buffer.from(code)])
  const fromTable = Buffer.from([0xbe])
  const sizeUpdate = Buffer.from([0x20]) // table size 0: empties it
  const d = new HpackDecoder()
  const statusOf = (b) => (d.decode(b, 0, b.length) ? d.status : `error: ${d.error}`)
  t.same([insertStatus('200'), fromTable, insertStatus('404'), fromTable, fromTable].map(statusOf), [200, 200, 404, 404, 404])
  t.equal(statusOf(Buffer.concat([sizeUpdate, Buffer.from([0x3f, 0xe1, 0x1f])])), -1, 'a size update to 0 and back to 4096')
  t.match(statusOf(fromTable), /out of range/, 'the emptied table has no index 62')
})
