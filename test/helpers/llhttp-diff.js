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
  'other-field': 'a field the engine does not read (space before its colon): llhttp rejects, the engine skips it',
  'cl-tab': 'a tab after a Content-Length value: optional whitespace (RFC 9110 §5.6.3) for the engine, llhttp rejects it',
  'te-http10': 'an HTTP/1.0 response with Transfer-Encoding: the engine closes the connection after it (RFC 9112 §6.1 MUST), llhttp reads on',
  'bws-chunk': 'whitespace between a chunk size and ";": allowed by RFC 9112 §7.1.1 (BWS), llhttp rejects'
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
  'other-field': (r, s, tags) => { tags.add('other-field'); return insertField(r, s, 'X-Other : v') },
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
  'huge-header': (r, s) => insertField(r, s, `X-Huge: ${'h'.repeat(100 * 1024)}`)
}

/** The status line of a random response of the stream replaced by `line`. */
function replaceStatus (r, s, line) {
  const starts = [...s.matchAll(/HTTP\/1\.[01] \d{3}[^\r\n]*/g)]
  if (starts.length === 0) return s
  const m = r.pick(starts)
  return s.slice(0, m.index) + line + s.slice(m.index + m[0].length)
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
  const breaks = r.chance(0.4) ? r.pick(Object.keys(BREAKS)) : 'none'
  if (breaks !== 'none') s = BREAKS[breaks](r, s, tags)
  const bytes = Buffer.from(s, 'latin1')
  // a stream that ends with a close-delimited body needs the close to end it;
  // otherwise the server closes or keeps the socket open at random
  const closeAtEnd = closed || r.chance(0.5)
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
  return { seed, k, method: head ? 'HEAD' : 'GET', bytes, closeAtEnd, cuts: [...new Set(cuts)], split, breaks, tags: [...tags] }
}

/**
 * A raw server that answers the first connection's k requests with the
 * case's bytes, cut as planned, and resets every later connection.
 */
async function caseServer (c) {
  return rawServer((socket, req) => {
    if (req.conn.id !== 1) {
      socket.destroy()
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

/** The engine's verdict: statuses of complete responses, interim count, parse error. */
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
    return { statuses: statuses.sort(), informational: r.informational, parseError: r.errorsByKind.parse > 0 }
  } finally {
    await srv.close()
  }
}

/**
 * llhttp's verdict over the same bytes from the same kind of server: the
 * socket's reads fed to node's HTTPParser. It stops where a client stops
 * reading: after the k-th final response, or after a response that closes
 * the connection (bytes after it are not a response: RFC 9112 §9.6).
 */
async function llhttpVerdict (c) {
  const srv = await caseServer(c)
  try {
    return await new Promise((resolve) => {
      const parser = new HTTPParser()
      parser.initialize(HTTPParser.RESPONSE, {}, MAX_HEADER_SIZE, HTTPParser.kLenientNone)
      const statuses = []
      let informational = 0
      let parseError = false
      let stopped = false
      let status = 0
      let keepAlive = true
      let got = 0
      const socket = net.connect(srv.port, '127.0.0.1')
      const done = () => {
        clearTimeout(timer)
        socket.destroy()
        resolve({ statuses: statuses.sort(), informational, parseError, hung })
      }
      // the stream ends with the server's close, or when all its bytes are
      // read on a socket the server keeps open; this is a safety net only
      let hung = false
      const timer = setTimeout(() => { hung = true; done() }, 60000)
      parser[HTTPParser.kOnMessageBegin] = () => {}
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
        if (stopped) return
        if (status >= 100 && status < 200 && status !== 101) {
          informational++
          return
        }
        statuses.push(status)
        if (statuses.length === c.k || !keepAlive) stopped = true
      }
      socket.on('connect', () => {
        const req = `${c.method} / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
        socket.write(req.repeat(c.k))
      })
      socket.on('data', (chunk) => {
        got += chunk.length
        if (stopped || parseError) return
        const ret = parser.execute(chunk)
        if (ret instanceof Error && !stopped) parseError = true
        if (stopped || parseError) done()
        else if (got === c.bytes.length && !c.closeAtEnd) done() // nothing more will come
      })
      socket.on('end', () => {
        if (!stopped && !parseError) parser.finish() // a close-delimited body ends here
        done()
      })
      socket.on('error', done)
    })
  } finally {
    await srv.close()
  }
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
      const kinds = []
      if (e.parseError !== l.parseError) kinds.push(`parse error: engine ${e.parseError ? 'yes' : 'no'}, llhttp ${l.parseError ? 'yes' : 'no'}`)
      if (e.statuses.join() !== l.statuses.join()) kinds.push(`complete responses: engine ${e.statuses.length}, llhttp ${l.statuses.length}`)
      if (e.informational !== l.informational) kinds.push('1xx count')
      if (l.hung) kinds.push('llhttp: no verdict within 60 s')
      if (kinds.length === 0) {
        out.agree++
        continue
      }
      const tag = c.tags.find((t) => ALLOWED[t] !== undefined)
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

module.exports = { makeCase, runCases, engineVerdict, llhttpVerdict, ALLOWED, BREAKS }
