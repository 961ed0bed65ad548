'use strict'
// Differential test of HTTP/1.x response framing: seeded random response
// streams, valid and broken, each served by a raw `net` server to the engine
// and to node's own llhttp; their verdicts are compared (docs/load.md,
// "Differential test against llhttp"). Used by test/engine/llhttp-diff.test.js
// (a short seeded form) and bench/framing-fuzz.js (the long form).
//
// The oracle is the HTTPParser object node's http client parses responses
// with (require('_http_common'), llhttp, no lenient flags, the same header
// size limit), fed the socket's reads. Node's http client itself cannot be
// the oracle: it sends one request per socket at a time and treats a second
// response in one read as a "double response", so it cannot count a
// pipelined stream.
const net = require('node:net')
const { HTTPParser } = require('_http_common')
const { load } = require('../../lib/engine/index.js')
const { rawServer } = require('./raw-server.js')

const MAX_HEADER_SIZE = 80 * 1024

// Features where the engine and llhttp may differ, as RFC 9110/9112 allow
// (docs/load.md lists each with its reason). A case that holds one is
// counted under its tag, not as a disagreement.
const ALLOWED = {
  'te-cl': 'Transfer-Encoding with Content-Length: llhttp rejects, the engine lets the coding win (RFC 9112 §6.3)',
  'dup-cl': 'repeated identical Content-Length: llhttp rejects, the engine accepts one value (RFC 9110 §8.6)',
  'bare-lf': 'LF without CR ends lines for the engine (RFC 9112 §2.2 MAY), llhttp rejects',
  'version-2': 'an "HTTP/2.0" status line: llhttp accepts it, the engine reads HTTP/1.0 and 1.1 only (RFC 9112 §2.3)',
  'status-range': 'a status outside 100-599: llhttp accepts, the engine rejects (RFC 9110 §15)',
  'cl-tab': 'a tab after a Content-Length value: optional whitespace (RFC 9110 §5.6.3) for the engine, llhttp rejects it',
  'te-http10': 'an HTTP/1.0 response with Transfer-Encoding: the engine closes the connection after it (RFC 9112 §6.1 MUST), llhttp reads on',
  'bws-chunk': 'whitespace between a chunk size and ";": allowed by RFC 9112 §7.1.1 (BWS), llhttp rejects',
  'value-ctl': 'NUL or another control byte in the value of a field the engine does not read: llhttp rejects, the engine skips it (RFC 9110 §5.5: reject, or replace NUL with SP)',
  'value-cr': 'a bare CR in the value of a field the engine does not read: llhttp rejects, the engine skips it (RFC 9112 §2.2: invalid, or replaced with SP)',
  'reason-cr': 'a bare CR in a reason phrase: llhttp rejects, the engine skips the phrase (RFC 9112 §2.2: invalid, or replaced with SP)',
  'trailer-framing': 'Content-Length or Connection in a chunked trailer section: llhttp rejects the first and acts on the second, the engine ignores both (RFC 9110 §6.5.1-6.5.2: trailer fields cannot frame the message, nor be merged into the header section)'
}

// Each allowed reading as a rewrite of the stream into what the engine reads
// it as: a disagreement in a case with tags is excused only when llhttp,
// reading the stream so rewritten (with no lenient flag), agrees with the
// engine on every count. So a tag cannot hide another difference, and the
// table in docs/load.md says exactly what the engine does differently.
/** @type {Record<string, (s: string) => string>} */
const READINGS = {
  // a bare LF is a CRLF (these three first: the others match whole CRLF lines)
  'bare-lf': (s) => s.replace(/(?<!\r)\n/g, '\r\n'),
  // control bytes and a bare CR in a skipped value: replaced with SP
  'value-ctl': (s) => s.replace(/X-Ctl: a[^\r\n]b/g, 'X-Ctl: a b'),
  'value-cr': (s) => s.replace(/X-Cr: a\rb/g, 'X-Cr: a b'),
  'reason-cr': (s) => s.replace(/HTTP\/1\.[01] \d{3}[^\r\n]*(?:\r(?!\n)[^\r\n]*)+/g, (line) => line.replace(/\r(?!\n)/g, ' ')),
  // a status line the engine refuses: one llhttp refuses too
  'version-2': (s) => s.replace(/HTTP\/2\.0 200 OK/g, 'XTTP/2.0 200 OK'),
  'status-range': (s) => s.replace(/HTTP\/1\.1 600 Odd/g, 'XTTP/1.1 600 Odd'),
  // the coding wins: the Content-Length of a head with Transfer-Encoding
  // goes (values that conflict stay an error, llhttp's as the engine's)
  'te-cl': (s) => mapHeads(s, (h) => {
    if (!/\ntransfer-encoding\s*:/i.test(h)) return h
    const values = [...h.matchAll(/\ncontent-length\s*:\s*(\d+)/gi)].map((m) => Number(m[1]))
    return new Set(values).size > 1 ? h : h.replace(/\r\ncontent-length\s*:[^\r\n]*/gi, '')
  }),
  // one value of a repeated identical Content-Length (the repeats go)
  'dup-cl': (s) => mapHeads(s, (h) => {
    let first
    return h.replace(/\r\ncontent-length[ \t]*:[ \t]*(\d+)[ \t]*(?=\r\n)/gi, (line, v) => {
      if (first === undefined) first = Number(v)
      else if (Number(v) === first) return ''
      return line
    })
  }),
  // optional whitespace after a Content-Length value
  'cl-tab': (s) => s.replace(/(content-length:[ \t]*\d+)\t/gi, '$1'),
  // BWS before a chunk extension
  'bws-chunk': (s) => s.replace(/([0-9a-fA-F]) ;/g, '$1;'),
  // framing fields of a trailer section go (those with a bad name stay: an error on both sides)
  'trailer-framing': (s) => s.replace(TRAILER_SECTION, (all, last, fields) => last + fields.replace(/(?:^|(?<=\r\n))(?:content-length|connection):[^\r\n]*\r\n/gi, '') + '\r\n'),
  // an HTTP/1.0 response with a transfer coding closes the connection
  'te-http10': (s) => mapHeads(s, (h) => /^HTTP\/1\.0/.test(h) && /\ntransfer-encoding\s*:/i.test(h) ? h.replace(/keep-alive/gi, 'close').replace(/\r\n\r\n$/, '\r\nConnection: close\r\n\r\n') : h),
}

// a chunked body's last chunk line and its trailer fields (up to the blank line)
const TRAILER_SECTION = /(\r\n0+(?:[ \t]*;[^\r\n]*)?\r\n)((?:[^\r\n]+\r\n)*)\r\n/g

/** Each whole head of a stream (status line to blank line) through `fn`. */
function mapHeads (s, fn) {
  return s.replace(/HTTP\/1\.[01] \d{3}[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/g, (h) => fn(h))
}

/** mulberry32: a small seeded generator, so a case is reproducible from its seed. */
function prng (seed) {
  let a = seed >>> 0
  const rand = () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n) => Math.floor(rand() * n)
  return { rand, int, pick: (arr) => arr[int(arr.length)], chance: (p) => rand() < p }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .-_'
function text (r, n) {
  let s = ''
  for (let i = 0; i < n; i++) s += LETTERS[r.int(LETTERS.length)]
  return s
}

const CASES_OF = (name) => [name, name.toLowerCase(), name.toUpperCase(), name.replace(/[a-z]/g, (c, i) => i % 2 ? c.toUpperCase() : c)]

/**
 * One response of a case, as latin1 text; `tags` collects its features.
 * @returns {{text: string, closes: boolean}}
 */
function makeResponse (r, { head, last, tags }) {
  let out = ''
  if (r.chance(0.12)) out += r.pick(['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n'])
  const minor = r.chance(0.8) ? 1 : 0
  const status = r.pick([200, 200, 200, 201, 204, 304, 404, 500, 503])
  const reason = r.pick([' OK', ' Not Found', ' ', '', ' with several words'])
  const headers = []
  const noBody = head || status === 204 || status === 304
  let body = r.chance(0.1) ? text(r, 200 + r.int(3000)) : text(r, r.int(40))
  // framing: a length, chunked, or (last response only) until the close
  const framing = r.pick(last ? ['cl', 'cl', 'chunked', 'eof'] : ['cl', 'cl', 'chunked'])
  let closes = minor === 0
  const conn = r.pick(minor === 0 ? ['', 'keep-alive', 'Keep-Alive', 'close'] : ['', '', '', 'keep-alive', 'close', 'Close', 'x-a, close', `${'x-token-'.repeat(10)}y, close`])
  if (conn !== '') {
    headers.push(`${r.pick(CASES_OF('Connection'))}: ${conn}`)
    if (/close/i.test(conn)) closes = true
    if (/keep-alive/i.test(conn)) closes = /close/i.test(conn)
  }
  let payload = ''
  if (framing === 'cl') {
    const zeros = r.chance(0.1) ? '0'.repeat(r.chance(0.5) ? 3 : 70) : ''
    const sep = r.pick([': ', ':', ':  ', ':\t'])
    const tail = r.chance(0.05) ? '\t' : r.pick(['', '', ' '])
    if (tail === '\t') tags.add('cl-tab')
    headers.push(`${r.pick(CASES_OF('Content-Length'))}${sep}${zeros}${Buffer.byteLength(body, 'latin1')}${tail}`)
    if (r.chance(0.04)) {
      headers.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`)
      tags.add('dup-cl')
    }
    payload = body
  } else if (framing === 'chunked') {
    if (minor === 0) {
      closes = true
      tags.add('te-http10')
    }
    headers.push(`${r.pick(CASES_OF('Transfer-Encoding'))}: ${r.pick(['chunked', 'Chunked', 'gzip, chunked', 'gzip,chunked', 'gzip, deflate, br, compress, identity, x-foo, x-bar-baz, chunked'])}`)
    let rest = body
    while (rest.length > 0) {
      const n = 1 + r.int(rest.length)
      let size = n.toString(16)
      if (r.chance(0.3)) size = size.toUpperCase()
      if (r.chance(0.1)) size = '0'.repeat(r.chance(0.5) ? 2 : 20) + size
      let ext = r.pick(['', '', '', ';x=1', ';a;b="q r"', ';name'])
      if (ext !== '' && r.chance(0.1)) {
        ext = ' ' + ext
        tags.add('bws-chunk')
      }
      payload += `${size}${ext}\r\n${rest.slice(0, n)}\r\n`
      rest = rest.slice(n)
    }
    payload += '0\r\n' + r.pick(['', '', 'X-Trailer: 1\r\n', 'A: 1\r\nB: 2\r\n']) + '\r\n'
  } else {
    closes = true // read until the server closes
    payload = body
  }
  // other fields, look-alike names among them
  const others = ['Server: fuzz', 'Content-Type: text/plain', 'Cache-Control: no-cache', 'Content-Lengthy: 9', 'Transfer-Encodings: nope', 'Connectionx: close', 'ETag: "x"']
  for (let n = r.int(4); n > 0; n--) headers.splice(r.int(headers.length + 1), 0, r.pick(others))
  if (r.chance(0.1)) headers.splice(r.int(headers.length + 1), 0, `X-Pad: ${text(r, 100 + r.int(20000))}`)
  if (noBody) payload = ''
  if (noBody) body = ''
  out += `HTTP/1.${minor} ${status}${reason}\r\n${headers.join('\r\n')}${headers.length ? '\r\n' : ''}\r\n${payload}`
  return { text: out, closes }
}

// ways to break a stream; each returns the new text (and may add a tag)
const BREAKS = {
  truncate: (r, s) => s.slice(0, r.int(s.length)),
  'garbage-status': (r, s) => replaceStatus(r, s, r.pick(['HTXP/1.1 200 OK', 'garbage here', 'HTTP/1.1 2x0 OK', 'HTTP/1.1 20 OK'])),
  'version-2': (r, s, tags) => { tags.add('version-2'); return replaceStatus(r, s, 'HTTP/2.0 200 OK') },
  'long-status': (r, s) => replaceStatus(r, s, r.pick(['HTTP/1.1 2000 OK', 'HTTP/1.1 200OK'])),
  'status-range': (r, s, tags) => { tags.add('status-range'); return replaceStatus(r, s, 'HTTP/1.1 600 Odd') },
  'bad-length': (r, s) => insertField(r, s, `Content-Length: ${r.pick(['1 2', '1\r2', '12a', '-1', '', '18446744073709551616', '1, 2'])}`),
  'conflicting-length': (r, s) => insertField(r, s, 'Content-Length: 3\r\nContent-Length: 4'),
  'space-colon': (r, s) => insertField(r, s, r.pick(['Content-Length : 2', 'Transfer-Encoding : chunked', 'Connection\t: close', 'Content-Length\0: 2'])),
  'other-field': (r, s) => insertField(r, s, r.pick(['X-Other : v', 'X-Other', 'X(Other): v', ': v'])),
  'value-ctl': (r, s, tags) => { tags.add('value-ctl'); return insertField(r, s, `X-Ctl: a${r.pick(['\0', '\x01', '\x7f', '\x1b'])}b`) },
  'value-cr': (r, s, tags) => { tags.add('value-cr'); return insertField(r, s, 'X-Cr: a\rb') },
  'obs-fold': (r, s) => insertField(r, s, 'X-Folded: a\r\n b'),
  'nul-value': (r, s) => insertField(r, s, 'Content-Length: 2\0'),
  'te-cl': (r, s, tags) => { tags.add('te-cl'); return insertField(r, s, r.pick(['Transfer-Encoding: gzip\r\nContent-Length: 2', 'Transfer-Encoding: chunked\r\nContent-Length: 2'])) },
  'bad-chunk': (r, s) => s.replace(/\r\n\r\n([0-9a-fA-F]+)(;[^\r]*)?\r\n/, (m, size) => `\r\n\r\n${r.pick(['zz', '1 2', '1\r2', size + ' '])}\r\n`),
  'chunk-overrun': (r, s) => s.replace(/\r\n\r\n([0-9a-fA-F]+)\r\n/, (m, size) => `\r\n\r\n${size}\r\n!`),
  'bare-lf': (r, s, tags) => { tags.add('bare-lf'); return s.replace(/\r\n/g, '\n') },
  'garbage-between': (r, s) => {
    const at = s.indexOf('HTTP/1.', 1)
    return at < 0 ? s + 'junk' : s.slice(0, at) + 'junk ' + s.slice(at)
  },
  'huge-header': (r, s) => insertField(r, s, `X-Huge: ${'h'.repeat(100 * 1024)}`),
  // what comes after an error or a cut: the rest of the stream is well
  // formed, so a reader that went on after the fault would count it
  'cut-mid': (r, s) => {
    // bytes taken out of one response that is not the last: the ones after it misframe
    const starts = statusStarts(s)
    if (starts.length < 2) return s.slice(0, r.int(s.length))
    const j = r.int(starts.length - 1)
    const from = starts[j] + 1 + r.int(starts[j + 1] - starts[j] - 1)
    return s.slice(0, from) + s.slice(from + 1 + r.int(starts[j + 1] - from))
  },
  'error-first': (r, s) => {
    // the first response broken, every later one valid
    const m = /^(?:HTTP\/1\.1 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)*HTTP\/1\.[01] \d{3}[^\r\n]*\r\n/.exec(s)
    if (!m) return s
    return s.slice(0, m.index + m[0].length) + r.pick(['Content-Length: x\r\n', ' folded\r\n', 'Content-Length : 1\r\n', 'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n']) + s.slice(m.index + m[0].length)
  },
  'body-overrun': (r, s) => {
    // a body longer than its length: its last bytes are read as the next response
    const starts = statusStarts(s)
    const at = starts.length > 1 ? starts[1 + r.int(starts.length - 1)] : s.length
    return s.slice(0, at) + r.pick(['x', 'xyz', '\r\nHTTP/1.1 200 OK\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n']) + s.slice(at)
  },
  'cut-after-interim': (r, s) => {
    // the stream ends right after a 1xx (or a whole response): nothing of the next begun
    const ends = [...s.matchAll(/HTTP\/1\.1 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n/g)].map((m) => m.index + m[0].length)
    if (ends.length === 0) return s.slice(0, statusStarts(s).at(-1) ?? 0)
    return s.slice(0, r.pick(ends))
  },
  'trailing-garbage': (r, s) => s + r.pick(['junk', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', '\r\n\r\n', 'HTTP/9']),
  // whitespace between a field name and its colon (RFC 9112 §5.1: a server
  // MUST reject it, a proxy MUST remove it): on a framing line whose value is
  // right (`Content-Length\t: 43` of a 43-byte body, which a lenient reader
  // would count), or on any field anywhere in a head, a 1xx head or a trailer
  'ws-colon': (r, s) => {
    const gap = r.pick([' ', '\t', '  ', ' \t', '\t\t', '\t '])
    const framing = [...s.matchAll(/\r\n(content-length|transfer-encoding|connection)(?=:)/gi)]
    if (framing.length > 0 && r.chance(0.6)) {
      const m = r.pick(framing)
      const at = m.index + m[0].length
      return s.slice(0, at) + gap + s.slice(at)
    }
    const name = r.pick([...CASES_OF('Content-Length'), 'Transfer-Encoding', 'Connection', 'Content-Type', 'Cache-Control', 'TE', 'Trailer', 'X-Other', 'Server', 'C', 'T'])
    const value = /length/i.test(name) ? '0' : /transfer/i.test(name) ? 'chunked' : /^connection$/i.test(name) ? 'keep-alive' : 'v'
    return insertFieldAnywhere(r, s, `${name}${gap}: ${value}`)
  },
  // Content-Length given twice or as a list: identical values (one length,
  // RFC 9110 §8.6: tagged dup-cl when on two lines; a list is an error on
  // both sides), or conflicting ones (an error everywhere), on a response
  // that has a length, a chunked one (tagged te-cl) or one without either
  'cl-conflict': (r, s, tags) => {
    const lines = [...s.matchAll(/\r\n(content-length[ \t]*:[ \t]*)(\d+)([ \t]*)(?=\r\n)/gi)]
    if (lines.length === 0 || r.chance(0.2)) {
      if (/\ntransfer-encoding\s*:/i.test(s)) tags.add('te-cl')
      return insertFieldAnywhere(r, s, `Content-Length: ${r.int(10)}\r\n${r.pick(CASES_OF('Content-Length'))}: ${10 + r.int(10)}`)
    }
    const m = r.pick(lines)
    const v = Number(m[2])
    const at = m.index + m[0].length
    const head = s.slice(s.lastIndexOf('\r\n\r\n', m.index) + 1, s.indexOf('\r\n\r\n', m.index))
    if (/\ntransfer-encoding\s*:/i.test(head)) tags.add('te-cl')
    switch (r.pick(['list-same', 'list-other', 'second-other', 'first-other', 'second-same', 'second-zeros'])) {
      case 'list-same': return s.slice(0, m.index) + `\r\n${m[1]}${v}${r.pick([', ', ','])}${v}${m[3]}` + s.slice(at)
      case 'list-other': return s.slice(0, m.index) + `\r\n${m[1]}${v}, ${v + 1 + r.int(5)}${m[3]}` + s.slice(at)
      case 'second-other': return s.slice(0, at) + `\r\n${r.pick(CASES_OF('Content-Length'))}: ${Math.max(0, v + r.pick([-1, 1, 7]))}` + s.slice(at)
      case 'first-other': return s.slice(0, m.index) + `\r\nContent-Length: ${v + 1}` + s.slice(m.index)
      case 'second-same': tags.add('dup-cl'); return s.slice(0, at) + `\r\n${r.pick(CASES_OF('Content-Length'))}:${r.pick([' ', '', '\t'])}${v}` + s.slice(at)
      default: tags.add('dup-cl'); return s.slice(0, at) + `\r\nContent-Length: 00${v}` + s.slice(at)
    }
  },
  // the server closes in the middle of a response that is not the first
  // (status line, head or body): the requests behind it were never answered
  'close-mid-pipelined': (r, s) => {
    const starts = statusStarts(s)
    if (starts.length < 2) return s.slice(0, r.int(s.length))
    const j = 1 + r.int(starts.length - 1)
    const end = j + 1 < starts.length ? starts[j + 1] : s.length
    return s.slice(0, starts[j] + 1 + r.int(Math.max(1, end - starts[j] - 1)))
  }
}

const FOCUS_BREAKS = ['ws-colon', 'cl-conflict', 'close-mid-pipelined']
// Breaks after which the server always closes (the case's point is the close).
const CLOSING_BREAKS = new Set(['close-mid-pipelined'])

/** Where each status line of a stream starts. */
function statusStarts (s) {
  return [...s.matchAll(/HTTP\/1\.[01] \d{3}/g)].map((m) => m.index)
}

/** The status line of a random response of the stream replaced by `line`. */
function replaceStatus (r, s, line) {
  const starts = [...s.matchAll(/HTTP\/1\.[01] \d{3}[^\r\n]*/g)]
  if (starts.length === 0) return s
  const m = r.pick(starts)
  return s.slice(0, m.index) + line + s.slice(m.index + m[0].length)
}

/** A field line inserted at a random line of a random head (a final or 1xx head, or a trailer section). */
function insertFieldAnywhere (r, s, field) {
  const heads = [...s.matchAll(/(?:HTTP\/1\.[01] \d{3}[^\r\n]*|\r\n0(?:;[^\r\n]*)?)\r\n(?:[^\r\n]+\r\n)*\r\n/g)]
  if (heads.length === 0) return insertField(r, s, field)
  const m = r.pick(heads)
  const ends = [...m[0].matchAll(/\r\n/g)].map((x) => m.index + x.index + 2)
  // after the status line (or the last-chunk line) and before the blank line
  const at = r.pick(ends.slice(m[0].startsWith('\r\n') ? 1 : 0, -1))
  return s.slice(0, at) + field + '\r\n' + s.slice(at)
}

/** A field line inserted right after a random status line. */
function insertField (r, s, field) {
  const starts = [...s.matchAll(/HTTP\/1\.[01] \d{3}[^\r\n]*\r\n/g)]
  if (starts.length === 0) return s
  const m = r.pick(starts)
  const at = m.index + m[0].length
  return s.slice(0, at) + field + '\r\n' + s.slice(at)
}

/**
 * The case of one seed.
 * @returns {{seed: number, k: number, method: string, bytes: Buffer, closeAtEnd: boolean, cuts: number[], split: string, breaks: string, tags: string[]}}
 */
function makeCase (seed) {
  const r = prng(seed)
  const head = r.chance(0.12)
  const k = 1 + r.int(4)
  const tags = new Set()
  let s = ''
  let closed = false
  for (let j = 0; j < k; j++) {
    const res = makeResponse(r, { head, last: j === k - 1, tags })
    s += res.text
    // a response that closes ends what anyone reads: the rest is not generated
    if (res.closes) {
      closed = true
      break
    }
  }
  // the classes of issue 34 (whitespace before a colon, Content-Length twice
  // or as a list, a close in the middle of a pipelined response) a third of
  // the breaks, the others the rest
  const breaks = r.chance(0.45) ? (r.chance(0.33) ? r.pick(FOCUS_BREAKS) : r.pick(Object.keys(BREAKS))) : 'none'
  if (breaks !== 'none') s = BREAKS[breaks](r, s, tags)
  // a cut may leave a bare LF where a CRLF was (bodies never hold one)
  if (/(^|[^\r])\n/.test(s)) tags.add('bare-lf')
  // a cut may join a status line to the bytes after a CR
  if (/HTTP\/1\.[01] \d{3}[^\r\n]*\r(?!\n)/.test(s)) tags.add('reason-cr')
  if ([...s.matchAll(TRAILER_SECTION)].some((m) => /(?:^|\n)(?:content-length|connection):/i.test(m[2]))) tags.add('trailer-framing')
  const bytes = Buffer.from(s, 'latin1')
  // a stream that ends with a close-delimited body needs the close to end it;
  // otherwise the server closes or keeps the socket open at random
  // (kept open a quarter of the time: a stream that ends unfinished on an open
  // socket waits for the engine's -t, which dominates the time of a run)
  const closeAtEnd = closed || CLOSING_BREAKS.has(breaks) || r.chance(0.75)
  // byte by byte only when the server closes: on a socket it keeps open the
  // engine's verdict on an unfinished response comes from -t, which a slow
  // byte-by-byte write on a loaded machine could trip early
  const split = closeAtEnd && bytes.length <= 300 && r.chance(0.3) ? 'bytewise' : r.pick(['whole', 'random', 'random'])
  const cuts = []
  if (split === 'bytewise') for (let i = 1; i < bytes.length; i++) cuts.push(i)
  if (split === 'random') {
    for (let n = 1 + r.int(6); n > 0; n--) cuts.push(1 + r.int(Math.max(1, bytes.length - 1)))
    cuts.sort((a, b) => a - b)
  }
  // the later connections misbehave too: each answers its first request and
  // closes in the middle of the answer to its second, so the policy's
  // re-sends are counted over several connections
  const cutAgain = k >= 3 && r.chance(0.25)
  return { seed, k, method: head ? 'HEAD' : 'GET', bytes, closeAtEnd, cuts: [...new Set(cuts)], split, breaks, tags: [...tags], cutAgain }
}

// What a later connection answers to each request: a plain response with a
// status of its own, so the re-sent requests show in the counts (with
// cutAgain, its second answer is cut short by the server's close)
const RESENT_ANSWER = 'HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n'
const RESENT_CUT = 'HTTP/1.1 202 Acc'
const RESENT_STATUS = 202

/**
 * A raw server that answers the first connection's k requests with the
 * case's bytes, cut as planned, and every request on a later connection (the
 * requests a client sends again after the first one ended) with a plain 202.
 */
async function caseServer (c) {
  return rawServer((socket, req) => {
    if (req.conn.id !== 1) {
      if (!c.cutAgain || req.n === 1) socket.write(RESENT_ANSWER)
      else if (req.n === 2) socket.end(RESENT_CUT)
      return
    }
    if (req.n !== c.k) return
    const pieces = []
    let at = 0
    for (const cut of [...c.cuts, c.bytes.length]) {
      if (cut > at) pieces.push(c.bytes.subarray(at, cut))
      at = cut
    }
    const next = (i) => {
      if (socket.destroyed) return
      if (i === pieces.length) {
        if (c.closeAtEnd) socket.end()
        return
      }
      socket.write(pieces[i])
      setImmediate(next, i + 1)
    }
    next(0)
  })
}

/**
 * @typedef {{statuses: number[], informational: number, errors: {parse: number, read: number, timeout: number}, resent: number, hung?: boolean}} Verdict
 *   statuses: of every complete final response, sorted (the re-sent requests' 202s among them);
 *   errors: the requests that failed, by kind; resent: requests sent again on a new connection
 */

/**
 * The engine's verdict.
 * @returns {Promise<Verdict>}
 */
async function engineVerdict (c, timeoutS) {
  const srv = await caseServer(c)
  try {
    // -t matters only when the server keeps the socket open (else its
    // close ends every response, and -t is long enough never to fire)
    const timeout = c.closeAtEnd ? 120 : timeoutS
    const run = load({ url: srv.url, method: c.method, connections: 1, pipelining: c.k, amount: c.k, timeout, maxHeaderSize: MAX_HEADER_SIZE })
    // odd seeds take the capturing path (a 'response' listener from the
    // start: capture-scanner.js, which feeds the plain scanner in segments)
    if (c.seed % 2 === 1) run.on('response', () => {})
    const r = await run
    const statuses = []
    for (const [code, { count }] of Object.entries(r.statusCodeStats)) for (let i = 0; i < count; i++) statuses.push(Number(code))
    const e = r.errorsByKind
    return { statuses: statuses.sort(), informational: r.informational, errors: { parse: e.parse, read: e.read, timeout: e.timeout }, resent: r.resent }
  } finally {
    await srv.close()
  }
}

/**
 * The verdict of a client built on llhttp, over the same bytes from the same
 * kind of server: the first connection's reads are fed to node's HTTPParser
 * until it stops, as a client stops reading: after the k-th final response,
 * after a response that closes the connection (bytes after it are not a
 * response: RFC 9112 §9.6), at a parse error (the connection is dead: llhttp
 * reads nothing more), or when the server closes or goes quiet. Then, as
 * node's http client does with the request on a socket that fails:
 * - a parse error fails the request being read (parse);
 * - a close in the middle of a response fails its request (read), and so
 *   does a close before any final response on the connection (node's
 *   "socket hang up"; it also keeps a server that always closes from being
 *   asked forever);
 * - a server that goes quiet in the middle of a response, or before one,
 *   fails its request at the timeout (timeout);
 * and the requests after it, of which nothing was read, are sent again on a
 * new connection (RFC 9112 §9.3.2: a client that pipelines retries
 * unanswered requests when the connection closes), whose answers are read
 * by a fresh parser, by the same rules, until every request is answered or
 * failed (a cutAgain server cuts each later connection's second answer).
 * @returns {Promise<Verdict>}
 */
async function llhttpVerdict (c) {
  const srv = await caseServer(c)
  try {
    const first = await llhttpConnection(srv.port, c, c.k, true)
    const out = { statuses: first.statuses, informational: first.informational, errors: { parse: 0, read: 0, timeout: 0 }, resent: 0, hung: first.hung }
    if (first.failed !== undefined) out.errors[first.failed]++
    let unanswered = c.k - first.statuses.length - (first.failed !== undefined ? 1 : 0)
    // each later connection answers at least one request: this ends
    while (unanswered > 0) {
      const again = await llhttpConnection(srv.port, c, unanswered, false)
      out.resent += unanswered
      out.statuses.push(...again.statuses)
      out.informational += again.informational
      if (again.failed !== undefined) out.errors[again.failed]++
      out.hung = out.hung || again.hung || (again.statuses.length === 0 && again.failed === undefined)
      if (out.hung) break
      unanswered -= again.statuses.length + (again.failed !== undefined ? 1 : 0)
    }
    out.statuses.sort()
    return out
  } finally {
    await srv.close()
  }
}

/**
 * One connection of the llhttp client: `n` pipelined requests, the reads
 * fed to a fresh HTTPParser until it stops.
 * @param {number} port
 * @param {{method: string, bytes: Buffer, closeAtEnd: boolean}} c
 * @param {number} n
 * @param {boolean} isFirst the case's connection (its bytes are known, so a quiet end is seen at once)
 * @returns {Promise<{statuses: number[], informational: number, failed?: 'parse'|'read'|'timeout', hung: boolean}>}
 */
function llhttpConnection (port, c, n, isFirst) {
  return new Promise((resolve) => {
    const parser = new HTTPParser()
    parser.initialize(HTTPParser.RESPONSE, {}, MAX_HEADER_SIZE, HTTPParser.kLenientNone)
    const statuses = []
    let informational = 0
    /** @type {'parse'|'read'|'timeout'|undefined} */
    let failed
    let stopped = false
    let status = 0
    let keepAlive = true
    let inMessage = false
    let got = 0
    let settled = false
    const socket = net.connect(port, '127.0.0.1')
    const done = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      parser.close()
      resolve({ statuses, informational, failed, hung })
    }
    // the stream ends with the server's close, or when all its bytes are
    // read on a socket the server keeps open; this is a safety net only
    let hung = false
    const timer = setTimeout(() => { hung = true; done() }, 60000)
    parser[HTTPParser.kOnMessageBegin] = () => { inMessage = true }
    parser[HTTPParser.kOnHeaders] = () => {}
    parser[HTTPParser.kOnBody] = () => {}
    parser[HTTPParser.kOnExecute] = () => {}
    parser[HTTPParser.kOnHeadersComplete] = (major, minor, headers, method, url, code, message, upgrade, shouldKeepAlive) => {
      status = code
      keepAlive = shouldKeepAlive
      // interim responses have no body (node's client does the same)
      if (code >= 100 && code < 200 && code !== 101) return 1
      return c.method === 'HEAD' ? 1 : 0
    }
    parser[HTTPParser.kOnMessageComplete] = () => {
      inMessage = false
      if (stopped) return
      if (status >= 100 && status < 200 && status !== 101) {
        informational++
        return
      }
      statuses.push(status)
      if (statuses.length === n || !keepAlive) stopped = true
    }
    // the connection ended without all its answers: which request failed, if any
    const ended = (how) => {
      // (a quiet server fails the request waited for, whatever was read before)
      if (!stopped && failed === undefined && (how === 'timeout' || inMessage || statuses.length === 0)) failed = how
      done()
    }
    socket.on('connect', () => {
      const req = `${c.method} / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
      socket.write(req.repeat(n))
      // an empty stream on a socket kept open: nothing will come
      if (isFirst && c.bytes.length === 0 && !c.closeAtEnd) ended('timeout')
    })
    socket.on('data', (chunk) => {
      got += chunk.length
      if (stopped || failed !== undefined) return
      const ret = parser.execute(chunk)
      if (ret instanceof Error && !stopped) failed = 'parse'
      if (stopped || failed !== undefined) done()
      else if (isFirst && got === c.bytes.length && !c.closeAtEnd) ended('timeout') // nothing more will come
    })
    socket.on('end', () => {
      if (stopped || failed !== undefined) return done()
      // a close-delimited body ends here; an unfinished message is an error
      const ret = parser.finish()
      if (ret instanceof Error && !stopped) inMessage = true
      ended('read')
    })
    socket.on('error', () => ended('read'))
  })
}

/**
 * How two verdicts differ, one line per kind (none: they agree).
 * @param {Verdict} e @param {Verdict} l
 */
function differences (e, l) {
  const kinds = []
  for (const kind of ['parse', 'read', 'timeout']) {
    if (e.errors[kind] !== l.errors[kind]) kinds.push(`${kind} errors: engine ${e.errors[kind]}, llhttp ${l.errors[kind]}`)
  }
  if (e.statuses.join() !== l.statuses.join()) kinds.push(`complete responses: engine ${e.statuses.length}, llhttp ${l.statuses.length}`)
  if (e.resent !== l.resent) kinds.push(`re-sent: engine ${e.resent}, llhttp ${l.resent}`)
  if (e.informational !== l.informational) kinds.push('1xx count')
  if (l.hung) kinds.push('llhttp: no verdict within 60 s')
  return kinds
}

/**
 * The allowed readings that explain a disagreement, or undefined: llhttp
 * reading the stream rewritten by the case's READINGS must agree with the
 * engine on every count.
 * @param {ReturnType<typeof makeCase>} c @param {Verdict} e
 */
async function excuse (c, e) {
  const tags = Object.keys(READINGS).filter((t) => c.tags.includes(t))
  if (tags.length === 0) return undefined
  let text = c.bytes.toString('latin1')
  for (const t of tags) text = READINGS[t](text)
  const read = { ...c, bytes: Buffer.from(text, 'latin1'), cuts: [], split: 'whole' }
  return differences(e, await llhttpVerdict(read)).length === 0 ? tags.join('+') : undefined
}

/**
 * Runs cases seed0 .. seed0 + count - 1, `parallel` at a time.
 * @returns {Promise<{cases: number, agree: number, allowed: Record<string, number>, disagreements: object[], byKind: Record<string, number>}>}
 */
async function runCases ({ seed0, count, parallel = 4, timeoutS = 3 }) {
  const out = { cases: 0, agree: 0, allowed: {}, disagreements: [], byKind: {}, byBreak: {} }
  let next = 0
  const worker = async () => {
    while (next < count) {
      const c = makeCase(seed0 + next++)
      const [e, l] = await Promise.all([engineVerdict(c, timeoutS), llhttpVerdict(c)])
      out.cases++
      out.byBreak[c.breaks] = (out.byBreak[c.breaks] ?? 0) + 1
      const kinds = differences(e, l)
      if (kinds.length === 0) {
        out.agree++
        continue
      }
      const tag = await excuse(c, e)
      if (tag !== undefined) {
        out.allowed[tag] = (out.allowed[tag] ?? 0) + 1
        continue
      }
      for (const k of kinds) out.byKind[k] = (out.byKind[k] ?? 0) + 1
      out.disagreements.push({ seed: c.seed, kinds, breaks: c.breaks, split: c.split, closeAtEnd: c.closeAtEnd, method: c.method, k: c.k, engine: e, llhttp: l, bytes: c.bytes.toString('latin1').slice(0, 600) })
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  return out
}

module.exports = { makeCase, runCases, engineVerdict, llhttpVerdict, ALLOWED, READINGS, BREAKS, RESENT_STATUS }
