'use strict'
// HPACK (RFC 7541) for the HTTP/2 client: a request encoder used once at
// start-up (static-table references and literals without indexing, no
// Huffman, so every request of a run is one fixed byte template), and a
// complete decoder for responses: static and dynamic table with size
// updates, Huffman strings, integers with any prefix.
//
// The load engine needs only `:status` (and `content-length`) of a response,
// but servers (nginx, node's nghttp2) index headers such as `date` and
// `server` in the dynamic table, so every block must be decoded to keep the
// table in sync. In the hot path the dynamic table keeps no strings: an
// entry is its size (for eviction), whether its name is `:status` or
// `content-length`, and that value as a number. A decoder made with
// `{ full: true }` keeps the strings and reports every header (tests, tools).

const { ByteTemplate, ViewCache } = require('../byte-template.js')

/** RFC 7541 Appendix A: the static table, index 1..61. */
const STATIC = [
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'],
  [':path', '/index.html'], [':scheme', 'http'], [':scheme', 'https'], [':status', '200'],
  [':status', '204'], [':status', '206'], [':status', '304'], [':status', '400'],
  [':status', '404'], [':status', '500'], ['accept-charset', ''], ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''], ['accept-ranges', ''], ['accept', ''], ['access-control-allow-origin', ''],
  ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''],
  ['date', ''], ['etag', ''], ['expect', ''], ['expires', ''],
  ['from', ''], ['host', ''], ['if-match', ''], ['if-modified-since', ''],
  ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''], ['last-modified', ''],
  ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
  ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''],
  ['retry-after', ''], ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''],
  ['transfer-encoding', ''], ['user-agent', ''], ['vary', ''], ['via', ''],
  ['www-authenticate', '']
]

/**
 * RFC 7541 Appendix B: the bit length of the Huffman code of each symbol
 * 0..255 and EOS (256). The code is canonical (codes are assigned in order of
 * length, then symbol), so the lengths define it; the tests check it against
 * the RFC's examples and node's encoder.
 */
const HUFFMAN_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30
]
const EOS = 256

/** The canonical codes: {codes: Uint32Array, lengths: Uint8Array}. */
function huffmanCodes () {
  const lengths = Uint8Array.from(HUFFMAN_LENGTHS)
  const codes = new Uint32Array(257)
  const order = Array.from({ length: 257 }, (_, s) => s).sort((a, b) => lengths[a] - lengths[b] || a - b)
  let code = 0
  let prev = lengths[order[0]]
  for (let i = 0; i < order.length; i++) {
    const s = order[i]
    if (i > 0) code = (code + 1) * 2 ** (lengths[s] - prev)
    prev = lengths[s]
    codes[s] = code
  }
  return { codes, lengths }
}

// The decoding tree: node n has children child[2n] (bit 0) and child[2n+1]
// (bit 1); a child > 0 is a node, <= 0 a leaf holding -symbol (-1000: no
// code). It has 256 inner nodes, numbered 0 (the root) to 255.
const TREE = (function buildTree () {
  const { codes, lengths } = huffmanCodes()
  const child = new Int32Array(2 * 512).fill(-1000)
  let nodes = 1
  for (let s = 0; s < 257; s++) {
    let n = 0
    for (let b = lengths[s] - 1; b >= 0; b--) {
      const bit = Math.floor(codes[s] / 2 ** b) & 1
      const at = 2 * n + bit
      if (b === 0) {
        child[at] = -s
      } else {
        if (child[at] === -1000) child[at] = nodes++
        n = child[at]
      }
    }
  }
  return child
})()

// The tree walked four bits at a time, as nghttp2 decodes: for inner node n
// and a nibble x, NIBBLES[16n + x] is the node after those four bits, with
// NIBBLE_EMIT and the symbol (<< 9) when a code ended on the way (at most
// one does: every code is at least 5 bits), or NIBBLE_FAIL when the bits
// reach EOS or no code. A string may end only on an ACCEPTING node: the root,
// or up to 7 one-bits into a code (its padding, RFC 7541 5.2).
const NIBBLE_EMIT = 1 << 8
const NIBBLE_FAIL = 1 << 17
const NIBBLES = (function buildNibbles () {
  const table = new Int32Array(256 * 16)
  for (let n = 0; n < 256; n++) {
    for (let x = 0; x < 16; x++) {
      let at = n
      let entry = 0
      for (let b = 3; b >= 0; b--) {
        const next = TREE[2 * at + ((x >> b) & 1)]
        if (next > 0) {
          at = next
          continue
        }
        if (next === -1000 || -next === EOS) {
          entry = NIBBLE_FAIL
          break
        }
        entry = NIBBLE_EMIT | (-next << 9)
        at = 0
      }
      table[16 * n + x] = entry === NIBBLE_FAIL ? NIBBLE_FAIL : entry | at
    }
  }
  return table
})()
const ACCEPTING = (function buildAccepting () {
  const accepting = new Uint8Array(256)
  accepting[0] = 1
  for (let n = 0, depth = 1; depth <= 7; depth++) {
    n = TREE[2 * n + 1]
    accepting[n] = 1
  }
  return accepting
})()

/**
 * Decodes a Huffman string into out[0..]; returns its length, or -1 when the
 * string is invalid (EOS inside, padding longer than 7 bits or not all ones).
 * `out` must be large enough: at most 8 * (end - start) / 5 bytes.
 */
function huffmanDecode (buf, start, end, out) {
  let n = 0
  let len = 0
  for (let i = start; i < end; i++) {
    const byte = buf[i]
    let e = NIBBLES[(n << 4) | (byte >> 4)]
    if (e === NIBBLE_FAIL) return -1
    if ((e & NIBBLE_EMIT) !== 0) out[len++] = e >> 9
    n = e & 0xff
    e = NIBBLES[(n << 4) | (byte & 15)]
    if (e === NIBBLE_FAIL) return -1
    if ((e & NIBBLE_EMIT) !== 0) out[len++] = e >> 9
    n = e & 0xff
  }
  return ACCEPTING[n] === 1 ? len : -1
}

// What the decoder remembers of a name (the hot path keeps no strings).
const KIND_OTHER = 0
const KIND_STATUS = 1
const KIND_LENGTH = 2
// gRPC's status is a trailer (issue 27): read only as a number, like :status
const KIND_GRPC_STATUS = 3
const GRPC_STATUS_BYTES = Buffer.from('grpc-status')
const STATIC_KIND = Uint8Array.from(STATIC, ([name]) => (name === ':status' ? KIND_STATUS : (name === 'content-length' ? KIND_LENGTH : KIND_OTHER)))
const STATIC_NUM = Float64Array.from(STATIC, ([name, value]) => (name === ':status' ? Number(value) : -1))
const STATUS_BYTES = Buffer.from(':status')
const LENGTH_BYTES = Buffer.from('content-length')

const DEFAULT_TABLE_SIZE = 4096
const ENTRY_OVERHEAD = 32
// The block template: a block that reads nothing from the dynamic table (no
// dynamic index, no size update) decodes the same way whenever its bytes come
// again, and changes the table by the same inserts. So a block equal to the
// last such block takes its results and replays its inserts without decoding.
// nginx sends one such block per response (every field a literal with
// incremental indexing, names from the static table; its Huffman-coded date
// changes once a second), and decoding it bit by bit was most of a
// response's cost.
const TEMPLATE_MAX = 256
const TEMPLATE_INSERTS = 16

class HpackDecoder {
  /**
   * @param {{maxTableSize?: number, full?: boolean}} [opts] maxTableSize: our
   *   SETTINGS_HEADER_TABLE_SIZE (the most a size update may ask for);
   *   full: keep strings and call onHeader(name, value) for every header
   */
  constructor (opts = {}) {
    this.maxTableSize = opts.maxTableSize ?? DEFAULT_TABLE_SIZE
    this.full = opts.full === true
    this.tableLimit = this.maxTableSize // the size the encoder chose
    const cap = Math.floor(this.maxTableSize / ENTRY_OVERHEAD) + 1
    this.cap = cap
    this.sizes = new Int32Array(cap)
    this.kinds = new Uint8Array(cap)
    this.nums = new Float64Array(cap)
    this.nameLens = new Int32Array(cap)
    this.names = this.full ? new Array(cap) : null
    this.values = this.full ? new Array(cap) : null
    this.newest = -1 // ring position of index 62
    this.count = 0
    this.tableSize = 0
    this.scratch = Buffer.allocUnsafe(1024)
    /** @type {((name: string, value: string) => void) | null} */
    this.onHeader = null
    // results of the last decode()
    this.status = -1
    this.contentLength = -1
    this.grpcStatus = -1 // a gRPC trailer's grpc-status (-1: none in the block)
    this.error = ''
    // results of the last readInt / readString
    this.int = 0
    this.strLen = 0
    this.strKind = KIND_OTHER
    this.strNum = -1
    this.strText = ''
    // the block being decoded: whether it read the dynamic table, and its
    // inserts (entry size parts, kind, number), while they fit TEMPLATE_INSERTS
    this.readTable = false
    this.inserts = 0
    this.insNameLen = new Int32Array(TEMPLATE_INSERTS)
    this.insValueLen = new Int32Array(TEMPLATE_INSERTS)
    this.insKind = new Uint8Array(TEMPLATE_INSERTS)
    this.insNum = new Float64Array(TEMPLATE_INSERTS)
    // the block template (TEMPLATE_MAX): its bytes, results and inserts
    this.blockTemplate = new ByteTemplate(TEMPLATE_MAX)
    this.views = new ViewCache()
    this.tplStatus = -1
    this.tplContentLength = -1
    this.tplGrpcStatus = -1
    this.tplInserts = 0
    this.tplNameLen = new Int32Array(TEMPLATE_INSERTS)
    this.tplValueLen = new Int32Array(TEMPLATE_INSERTS)
    this.tplKind = new Uint8Array(TEMPLATE_INSERTS)
    this.tplNum = new Float64Array(TEMPLATE_INSERTS)
  }

  /**
   * Decodes one complete header block. Returns false on a compression
   * error (this.error says which); the connection must then be dropped.
   * Sets this.status (-1 when absent) and this.contentLength (-1 when absent).
   */
  decode (buf, start, end) {
    if (end - start === this.blockTemplate.length && this.sameBlock(buf, start)) {
      this.status = this.tplStatus
      this.contentLength = this.tplContentLength
      this.grpcStatus = this.tplGrpcStatus
      for (let k = 0; k < this.tplInserts; k++) this.insert(this.tplNameLen[k], this.tplValueLen[k], this.tplKind[k], this.tplNum[k], '', '')
      return true
    }
    if (!this.decodeBlock(buf, start, end)) return false
    if (!this.readTable && this.inserts <= TEMPLATE_INSERTS && !this.full && end - start <= TEMPLATE_MAX) this.learnBlock(buf, start, end)
    return true
  }

  /**
   * The block at buf[start, start + its length) is the template's, byte for byte.
   * @param {Uint8Array} buf
   * @param {number} start
   */
  sameBlock (buf, start) {
    return this.blockTemplate.matches(this.views.over(buf), start)
  }

  learnBlock (buf, start, end) {
    if (!this.blockTemplate.learn(this.views.over(buf), start, end - start)) return
    this.tplStatus = this.status
    this.tplContentLength = this.contentLength
    this.tplGrpcStatus = this.grpcStatus
    this.tplInserts = this.inserts
    this.tplNameLen.set(this.insNameLen)
    this.tplValueLen.set(this.insValueLen)
    this.tplKind.set(this.insKind)
    this.tplNum.set(this.insNum)
  }

  decodeBlock (buf, start, end) {
    this.status = -1
    this.contentLength = -1
    this.grpcStatus = -1
    this.readTable = false
    this.inserts = 0
    let p = start
    while (p < end) {
      const b = buf[p]
      if (b & 0x80) {
        p = this.readInt(buf, p, end, 7)
        if (p < 0) return this.fail('bad integer')
        if (!this.emitIndexed(this.int)) return false
      } else if (b & 0x40) {
        p = this.readLiteral(buf, p, end, 6, true)
        if (p < 0) return false
      } else if (b & 0x20) {
        p = this.readInt(buf, p, end, 5)
        if (p < 0) return this.fail('bad integer')
        if (this.int > this.maxTableSize) return this.fail(`table size update ${this.int} above ${this.maxTableSize}`)
        this.readTable = true
        this.tableLimit = this.int
        this.evict(0)
      } else {
        p = this.readLiteral(buf, p, end, 4, false)
        if (p < 0) return false
      }
    }
    return true
  }

  fail (msg) {
    this.error = `HPACK: ${msg}`
    return false
  }

  failAt (msg) {
    this.error = `HPACK: ${msg}`
    return -1
  }

  /** Reads an integer with an n-bit prefix at p into this.int; returns the next position or -1. */
  readInt (buf, p, end, n) {
    const max = (1 << n) - 1
    let v = buf[p++] & max
    if (v < max) {
      this.int = v
      return p
    }
    let m = 1
    for (let i = 0; i < 5; i++) {
      if (p >= end) return -1
      const b = buf[p++]
      v += (b & 0x7f) * m
      m *= 128
      if ((b & 0x80) === 0) {
        this.int = v
        return p
      }
    }
    return -1
  }

  /**
   * Reads a string literal at p: this.strLen (decoded length), and with
   * `want` 1 the kind of the name, with `want` 2 its decimal value (strNum).
   * Returns the next position or -1.
   */
  readString (buf, p, end, want) {
    if (p >= end) return -1
    const huff = buf[p] & 0x80
    p = this.readInt(buf, p, end, 7)
    if (p < 0) return -1
    const n = this.int
    if (p + n > end) return -1
    let src = buf
    let s = p
    let len = n
    if (huff) {
      if (this.scratch.length < n * 2) this.scratch = Buffer.allocUnsafe(n * 2)
      len = huffmanDecode(buf, p, p + n, this.scratch)
      if (len < 0) return -1
      src = this.scratch
      s = 0
    }
    this.strLen = len
    if (want === 1) {
      this.strKind = equals(src, s, len, STATUS_BYTES) ? KIND_STATUS : (equals(src, s, len, LENGTH_BYTES) ? KIND_LENGTH : (equals(src, s, len, GRPC_STATUS_BYTES) ? KIND_GRPC_STATUS : KIND_OTHER))
    } else if (want === 2) {
      this.strNum = decimal(src, s, len)
    }
    if (this.full) this.strText = src.latin1Slice(s, s + len)
    return p + n
  }

  /** A literal header field (with or without indexing). */
  readLiteral (buf, p, end, prefix, index) {
    p = this.readInt(buf, p, end, prefix)
    if (p < 0) return this.failAt('bad integer')
    const nameIndex = this.int
    let kind
    let nameLen
    let name = ''
    if (nameIndex === 0) {
      p = this.readString(buf, p, end, 1)
      if (p < 0) return this.failAt('bad name literal')
      kind = this.strKind
      nameLen = this.strLen
      name = this.strText
    } else {
      const at = this.locate(nameIndex)
      if (at === -2) return this.failAt(`index ${nameIndex} out of range`)
      if (at === -1) {
        kind = STATIC_KIND[nameIndex - 1]
        nameLen = STATIC[nameIndex - 1][0].length
        if (this.full) name = STATIC[nameIndex - 1][0]
      } else {
        this.readTable = true
        kind = this.kinds[at]
        nameLen = this.nameLens[at]
        if (this.full) name = this.names[at]
      }
    }
    p = this.readString(buf, p, end, kind === KIND_OTHER ? 0 : 2)
    if (p < 0) return this.failAt('bad value literal')
    const num = kind === KIND_OTHER ? -1 : this.strNum
    this.found(kind, num)
    if (this.full && this.onHeader !== null) this.onHeader(name, this.strText)
    if (index) {
      const k = this.inserts++
      if (k < TEMPLATE_INSERTS) {
        this.insNameLen[k] = nameLen
        this.insValueLen[k] = this.strLen
        this.insKind[k] = kind
        this.insNum[k] = num
      }
      this.insert(nameLen, this.strLen, kind, num, name, this.strText)
    }
    return p
  }

  /** An indexed header field. */
  emitIndexed (index) {
    const at = this.locate(index)
    if (at === -2 || index === 0) return this.fail(`index ${index} out of range`)
    if (at === -1) {
      this.found(STATIC_KIND[index - 1], STATIC_NUM[index - 1])
      if (this.full && this.onHeader !== null) this.onHeader(STATIC[index - 1][0], STATIC[index - 1][1])
    } else {
      this.readTable = true
      this.found(this.kinds[at], this.nums[at])
      if (this.full && this.onHeader !== null) this.onHeader(this.names[at], this.values[at])
    }
    return true
  }

  found (kind, num) {
    if (kind === KIND_STATUS) this.status = num
    else if (kind === KIND_LENGTH) this.contentLength = num
    else if (kind === KIND_GRPC_STATUS) this.grpcStatus = num
  }

  /** -1: static index; -2: out of range; else the ring position. */
  locate (index) {
    if (index <= STATIC.length) return index >= 1 ? -1 : -2
    const d = index - STATIC.length - 1
    if (d >= this.count) return -2
    let at = this.newest - d
    if (at < 0) at += this.cap
    return at
  }

  insert (nameLen, valueLen, kind, num, name, value) {
    const size = nameLen + valueLen + ENTRY_OVERHEAD
    this.evict(size)
    if (size > this.tableLimit) return // too large: the table is now empty (RFC 7541 4.4)
    if (++this.newest === this.cap) this.newest = 0
    const at = this.newest
    this.sizes[at] = size
    this.kinds[at] = kind
    this.nums[at] = num
    this.nameLens[at] = nameLen
    if (this.full) {
      this.names[at] = name
      this.values[at] = value
    }
    this.count++
    this.tableSize += size
  }

  /** Evicts the oldest entries until `room` more bytes fit the limit. */
  evict (room) {
    while (this.count > 0 && this.tableSize + room > this.tableLimit) {
      let oldest = this.newest - this.count + 1
      if (oldest < 0) oldest += this.cap
      this.tableSize -= this.sizes[oldest]
      this.count--
    }
  }
}

function equals (src, s, len, bytes) {
  if (len !== bytes.length) return false
  for (let i = 0; i < len; i++) if (src[s + i] !== bytes[i]) return false
  return true
}

/** The decimal value of bytes, or -1 when they are not all digits. */
function decimal (src, s, len) {
  if (len === 0 || len > 15) return -1
  let v = 0
  for (let i = 0; i < len; i++) {
    const c = src[s + i] - 48
    if (c < 0 || c > 9) return -1
    v = v * 10 + c
  }
  return v
}

// --- the request encoder ---------------------------------------------------

const STATIC_NAME = new Map()
STATIC.forEach(([name], i) => { if (!STATIC_NAME.has(name)) STATIC_NAME.set(name, i + 1) })
const STATIC_PAIR = new Map(STATIC.map(([name, value], i) => [`${name}\0${value}`, i + 1]))
// RFC 9113 8.2.2: connection-specific fields must not be sent in HTTP/2
const DROP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host'])

function pushInt (out, first, prefix, v) {
  const max = (1 << prefix) - 1
  if (v < max) {
    out.push(first | v)
    return
  }
  out.push(first | max)
  v -= max
  while (v >= 128) {
    out.push((v % 128) + 128)
    v = Math.floor(v / 128)
  }
  out.push(v)
}

function pushString (out, s) {
  const b = Buffer.from(s, 'latin1')
  pushInt(out, 0, 7, b.length)
  for (const x of b) out.push(x)
}

/**
 * Encodes a header list (pairs of lowercase name and value) without touching
 * any dynamic table: exact static matches are indexed, other fields are
 * literals without indexing (with a static name index where one exists).
 * @param {[string, string][]} fields
 * @returns {Buffer}
 */
function encodeHeaders (fields) {
  const out = []
  for (const [name, value] of fields) {
    const pair = STATIC_PAIR.get(`${name}\0${value}`)
    if (pair !== undefined) {
      pushInt(out, 0x80, 7, pair)
      continue
    }
    const idx = STATIC_NAME.get(name)
    if (idx !== undefined) {
      pushInt(out, 0x00, 4, idx)
    } else {
      out.push(0x00)
      pushString(out, name)
    }
    pushString(out, value)
  }
  return Buffer.from(out)
}

/**
 * The header block of a request.
 * @param {{method: string, path: string, host: string, headers: Record<string,string>, body?: Buffer}} spec
 * @param {'http'|'https'} scheme
 * @returns {Buffer}
 */
function encodeRequest (spec, scheme) {
  let authority = spec.host
  /** @type {[string, string][]} */
  const rest = []
  let hasLength = false
  for (const [k, v] of Object.entries(spec.headers)) {
    const name = k.toLowerCase()
    if (name === 'host') authority = v
    if (name === 'content-length') hasLength = true
    if (DROP.has(name)) continue
    // RFC 9113 8.2.2: te may only carry "trailers"
    if (name === 'te' && v.trim().toLowerCase() !== 'trailers') continue
    rest.push([name, v])
  }
  /** @type {[string, string][]} */
  const fields = [[':method', spec.method], [':scheme', scheme], [':authority', authority], [':path', spec.path]]
  if (spec.body !== undefined && !hasLength) rest.push(['content-length', String(spec.body.length)])
  return encodeHeaders(fields.concat(rest))
}

// --- the per-request encoder (runs with hooks) --------------------------------
//
// Requests that change while a run goes on (setupRequest, the Client API,
// [<id>]) are encoded at each send straight into the connection's buffer:
// the same representation as encodeRequest (no dynamic table, literals
// without indexing, no Huffman) without its intermediate arrays and strings.

const INDEX_AUTHORITY = 1
const INDEX_METHOD = 2
const INDEX_PATH = 4
const INDEX_CONTENT_LENGTH = 28

function writeInt (out, off, first, prefix, v) {
  const max = (1 << prefix) - 1
  if (v < max) {
    out[off] = first | v
    return off + 1
  }
  out[off++] = first | max
  v -= max
  while (v >= 128) {
    out[off++] = (v % 128) + 128
    v = Math.floor(v / 128)
  }
  out[off] = v
  return off + 1
}

/** A string literal without Huffman; latin1, one byte per character (as encodeRequest). */
function writeString (out, off, s) {
  off = writeInt(out, off, 0, 7, s.length)
  return off + out.latin1Write(s, off, s.length)
}

/** A literal without indexing: a static name index, or the name as a literal. */
function writeField (out, off, nameIndex, name, value) {
  if (nameIndex !== undefined) {
    off = writeInt(out, off, 0x00, 4, nameIndex)
  } else {
    out[off++] = 0x00
    off = writeString(out, off, name)
  }
  return writeString(out, off, value)
}

/**
 * The most bytes encodeRequestInto can write for spec: each field is at
 * most one byte of representation, two length integers (5 bytes each for
 * any string under 2^28) and its characters.
 * @param {{method: string, path: string, host: string, headers: Record<string, unknown>, body?: Buffer}} spec
 */
function requestBound (spec, scheme) {
  let n = 4 * 11 + 32 + spec.method.length + scheme.length + String(spec.host).length + spec.path.length
  for (const k in spec.headers) n += 11 + k.length + String(spec.headers[k]).length
  return n
}

/**
 * Encodes the header block of a request into out at off (room for
 * requestBound(spec, scheme) bytes) and returns the end offset. The fields
 * are those of encodeRequest: Host becomes :authority, connection-specific
 * headers are dropped, a content-length is added for a body.
 * @returns {number}
 */
function encodeRequestInto (spec, scheme, out, off) {
  const headers = spec.headers
  let authority = spec.host
  let hasLength = false
  for (const k in headers) {
    const name = k.toLowerCase()
    if (name === 'host') authority = headers[k]
    else if (name === 'content-length') hasLength = true
  }
  const method = spec.method
  if (method === 'GET') out[off++] = 0x82
  else if (method === 'POST') out[off++] = 0x83
  else off = writeField(out, off, INDEX_METHOD, '', method)
  out[off++] = scheme === 'https' ? 0x87 : 0x86
  off = writeField(out, off, INDEX_AUTHORITY, '', String(authority))
  const path = spec.path
  if (path === '/') out[off++] = 0x84
  else off = writeField(out, off, INDEX_PATH, '', path)
  for (const k in headers) {
    const name = k.toLowerCase()
    if (DROP.has(name)) continue
    const value = String(headers[k])
    // RFC 9113 8.2.2: te may only carry "trailers"
    if (name === 'te' && value.trim().toLowerCase() !== 'trailers') continue
    off = writeField(out, off, STATIC_NAME.get(name), name, value)
  }
  if (spec.body !== undefined && !hasLength) off = writeField(out, off, INDEX_CONTENT_LENGTH, '', String(spec.body.length))
  return off
}

module.exports = { HpackDecoder, encodeHeaders, encodeRequest, encodeRequestInto, requestBound, huffmanDecode, huffmanCodes, STATIC }
