'use strict'
// The scanner on exact bytes, cut at every possible point: framing must not
// depend on how the kernel splits the stream.
const t = require('tap')
const { ResponseScanner } = require('../../lib/engine/http1/response-scanner.js')

function recorder (opts = {}) {
  const owner = {
    done: [],
    infos: 0,
    heads: opts.heads ?? [],
    noBodyExpected () { return owner.heads[owner.done.length] === true },
    complete (status, mismatch) { owner.done.push(mismatch ? `${status}!` : status) },
    informational () { owner.infos++ }
  }
  return owner
}

/** Feeds bytes in the given pieces; returns the owner and scanner. */
function feed (text, cuts, opts = {}) {
  const owner = recorder(opts)
  const sc = new ResponseScanner(owner, opts.expect && Buffer.from(opts.expect))
  const buf = Buffer.from(text, 'latin1')
  let at = 0
  let ok = true
  for (const cut of [...cuts, buf.length]) {
    // feed the piece through a bigger buffer at an offset, like a read buffer
    const piece = Buffer.alloc(cut - at + 7)
    buf.copy(piece, 3, at, cut)
    if (!sc.scan(piece, 3, 3 + cut - at)) {
      ok = false
      break
    }
    at = cut
  }
  if (opts.eof) sc.eof()
  return { owner, sc, ok }
}

/** Every single cut point, and byte by byte. */
function everySplit (t, text, expected, opts = {}) {
  const n = Buffer.byteLength(text, 'latin1')
  const whole = feed(text, [], opts)
  t.same(whole.owner.done, expected, 'whole')
  t.ok(whole.ok)
  for (let cut = 1; cut < n; cut++) {
    const r = feed(text, [cut], opts)
    if (JSON.stringify(r.owner.done) !== JSON.stringify(expected) || !r.ok) {
      t.fail(`split at ${cut}: got ${JSON.stringify(r.owner.done)}`)
      return
    }
  }
  const bytes = feed(text, Array.from({ length: n - 1 }, (_, i) => i + 1), opts)
  t.same(bytes.owner.done, expected, 'byte by byte')
  t.ok(bytes.sc.idle(), 'idle after the last response')
}

const CL = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello'

t.test('Content-Length, at every split point and byte by byte', async (t) => {
  everySplit(t, CL, [200])
})

t.test('several responses in one chunk', async (t) => {
  const three = CL + 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n' + CL.replace('200 OK', '503 Busy')
  everySplit(t, three, [200, 404, 503])
})

t.test('chunked with extensions and trailers', async (t) => {
  const text = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n' +
    '5;ext=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: yes\r\nOther: 1\r\n\r\n' + CL
  everySplit(t, text, [200, 200])
  // the second response (Content-Length, "hello") differs from the expected body
  everySplit(t, text, [200, '200!'], { expect: 'hello0123456789' })
  const r = feed(text, [], { expect: 'hello' })
  t.same(r.owner.done, ['200!', 200], 'the chunked body is compared as a whole')
})

t.test('chunked without trailers', async (t) => {
  everySplit(t, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n', [200])
})

t.test('HEAD: headers announce a body that is not sent', async (t) => {
  const text = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n' + CL
  everySplit(t, text, [200, 200], { heads: [true, false] })
})

t.test('1xx interim responses are skipped, then the final one counts', async (t) => {
  const text = 'HTTP/1.1 100 Continue\r\n\r\n' +
    'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n' + CL
  everySplit(t, text, [200])
  t.equal(feed(text, []).owner.infos, 2)
})

t.test('204 and 304 have no body whatever their headers say', async (t) => {
  const text = 'HTTP/1.1 204 No Content\r\n\r\n' +
    'HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\nETag: "x"\r\n\r\n' + CL
  everySplit(t, text, [204, 304, 200])
})

t.test('a body without length ends when the server closes', async (t) => {
  const text = 'HTTP/1.0 200 OK\r\nServer: x\r\n\r\nthe body runs to the end'
  const r = feed(text, [40], { eof: true, expect: 'the body runs to the end' })
  t.same(r.owner.done, [200])
  t.ok(r.sc.closeAfter)
  const open = feed(text, [40])
  t.same(open.owner.done, [], 'nothing completes before the close')
  t.ok(open.sc.readingUntilClose())
})

t.test('Connection: close and HTTP/1.0 end the connection; keep-alive keeps it', async (t) => {
  const close = feed('HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n' + CL, [])
  t.same(close.owner.done, [200], 'scanning stops after a closing response')
  t.ok(close.sc.closeAfter)
  const ka = feed('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n' + CL, [])
  t.same(ka.owner.done, [200, 200])
  t.notOk(ka.sc.closeAfter)
  const h10 = feed('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n', [])
  t.ok(h10.sc.closeAfter)
})

t.test('expect body: equal, different, longer, shorter', async (t) => {
  t.same(feed(CL, [], { expect: 'hello' }).owner.done, [200])
  t.same(feed(CL, [], { expect: 'help!' }).owner.done, ['200!'])
  t.same(feed(CL, [], { expect: 'hell' }).owner.done, ['200!'])
  t.same(feed(CL, [], { expect: 'hello!' }).owner.done, ['200!'])
})

t.test('malformed responses fail with a reason', async (t) => {
  const bad = [
    'HTTP/2.0 200 OK\r\n\r\n',
    'HTXP/1.1 200 OK\r\n\r\n',
    'HTTP/1.1 2x0 OK\r\n\r\n',
    'HTTP/1.1 099 Low\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n',
    'HTTP/1.1 200 OK\r\ncontent length 5\r\n\r\n',
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n',
    'garbage\r\n\r\n'
  ]
  for (const text of bad) {
    const whole = feed(text, [])
    t.notOk(whole.ok, JSON.stringify(text))
    t.ok(whole.sc.error.length > 0, `reason: ${whole.sc.error}`)
    const bytes = feed(text, Array.from({ length: text.length - 1 }, (_, i) => i + 1))
    t.notOk(bytes.ok, `byte by byte: ${JSON.stringify(text)}`)
  }
})

t.test('empty lines between responses are tolerated', async (t) => {
  everySplit(t, CL + '\r\n' + CL, [200, 200])
})

t.test('header names matched in place: any case, long names of other headers, names cut anywhere', async (t) => {
  // a c-name longer than the in-place match window (read the slow way when cut
  // before its colon), known names in mixed case, and look-alikes that are not ours
  const chunked = 'HTTP/1.1 200 OK\r\nCache-Control-Extended-Name-Here: x\r\ntRaNsFeR-eNcOdInG: chunked\r\n' +
    'CONNECTION: keep-alive\r\nContent-Lengthy: 99\r\nTransfer-Encodings: nope\r\n\r\n3\r\nabc\r\n0\r\n\r\n'
  everySplit(t, chunked + CL, [200, 200], { expect: undefined })
  const close = 'HTTP/1.1 200 OK\r\ncOnTeNt-LeNgTh: 2\r\nConnection-X : close\r\nconnection: CLOSE\r\n\r\nok'
  const r = feed(close, [])
  t.notOk(r.ok, 'a space before the colon of a c/t name is a bad name')
  const caps = feed(close.replace('Connection-X : close\r\n', ''), [])
  t.same(caps.owner.done, [200])
  t.ok(caps.sc.closeAfter, 'Connection: CLOSE in capitals is read')
  const noColon = feed('HTTP/1.1 200 OK\r\nContent-Type-Without-A-Colon-At-All\r\n\r\n', [])
  t.notOk(noColon.ok)
  t.equal(noColon.sc.error, 'header line without a colon')
  const crInName = feed('HTTP/1.1 200 OK\r\ncontent\rlength: 5\r\n\r\n', [])
  t.notOk(crInName.ok, 'a CR is not read as the dash of content-length')
})

// issue 14, defect 1: a closing response is acted on when it is complete
t.test('Connection: close and HTTP/1.0 take effect when the body ends, not when the head does', async (t) => {
  for (const text of [
    'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 10\r\n\r\n0123456789',
    'HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\n0123456789',
    'HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n0\r\n\r\n'
  ]) {
    const head = text.indexOf('\r\n\r\n') + 4
    for (let cut = head; cut < text.length; cut++) {
      const r = feed(text, [cut], {})
      const part = feed(text.slice(0, cut), [])
      if (part.sc.closeAfter || part.sc.idle() || r.owner.done.length !== 1 || !r.sc.closeAfter) {
        t.fail(`${JSON.stringify(text)} cut at ${cut}: closeAfter ${part.sc.closeAfter} before the end`)
        return
      }
    }
    t.pass(JSON.stringify(text))
  }
  everySplit(t, 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabc', [200])
})

// issue 14, defect 3
t.test('whitespace or NUL before the colon of a header name is a parse error', async (t) => {
  for (const name of ['Content-Length :', 'Content-Length\t:', 'Content-Length\0:', 'Transfer-Encoding :', 'Connection :', 'Content-Type :']) {
    const text = `HTTP/1.1 200 OK\r\n${name} 2\r\n\r\nok`
    const whole = feed(text, [])
    t.notOk(whole.ok, JSON.stringify(name))
    t.equal(whole.sc.error, 'bad character in a header name')
    t.notOk(feed(text, Array.from({ length: text.length - 1 }, (_, i) => i + 1)).ok, `byte by byte: ${JSON.stringify(name)}`)
  }
})

// issue 23: a line where a field is due must be one, read or not: a
// status line there means the bytes before it were misframed, and reading on
// would count responses that are not there
t.test('a field the scanner does not read must still be a token and a colon, at every split point', async (t) => {
  const after = 'Content-Length: 0\r\n\r\n'
  for (const [line, why] of [
    ['HTTP/1.1 200 OK', 'bad character in a header name'],
    ['X-Other : v', 'bad character in a header name'],
    ['X(Other): v', 'bad character in a header name'],
    [': v', 'bad character in a header name'],
    ['X-Other', 'header line without a colon'],
    ['Server', 'header line without a colon']
  ]) {
    const text = `HTTP/1.1 200 OK\r\n${line}\r\n${after}`
    t.equal(feed(text, []).sc.error, why, JSON.stringify(line))
    let held = 0
    for (let cut = 1; cut < text.length; cut++) if (!feed(text, [cut]).ok) held++
    t.equal(held, text.length - 1, `${JSON.stringify(line)}: an error at every split point`)
    t.notOk(feed(text, Array.from({ length: text.length - 1 }, (_, i) => i + 1)).ok, `${JSON.stringify(line)}: byte by byte`)
  }
  // values are not read: control bytes and a bare CR in them are skipped
  // (RFC 9110 §5.5 and RFC 9112 §2.2 let a recipient replace them with SP)
  everySplit(t, 'HTTP/1.1 200 OK\r\nServer: x\r\nX-Ctl: a\0b\x7f\r\nX-Cr: a\rb\r\nDate: Thu, 26 Nov 2026\r\n' + after + CL, [200, 200])
})

// issue 14, defect 4
t.test('framing values of any length', async (t) => {
  const zeros = '0'.repeat(100)
  everySplit(t, `HTTP/1.1 200 OK\r\nContent-Length: ${zeros}5\r\n\r\nhello` + CL, [200, 200])
  const codings = 'gzip, deflate, br, compress, identity, x-foo, x-bar-baz, chunked'
  everySplit(t, `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${codings}\r\n\r\n3\r\nabc\r\n0\r\n\r\n` + CL, [200, 200])
  const conn = `HTTP/1.1 200 OK\r\nConnection: ${'x-token-'.repeat(10)}a, close\r\nContent-Length: 2\r\n\r\nok`
  const r = feed(conn, [])
  t.same(r.owner.done, [200])
  t.ok(r.sc.closeAfter, 'a close token past byte 64')
  everySplit(t, `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'0'.repeat(20)}3\r\nabc\r\n0000000000000000\r\n\r\n`, [200])
  // tokens are whole: "closed", "chunked-x", "keep-alive2" are other tokens
  t.notOk(feed('HTTP/1.1 200 OK\r\nConnection: closed\r\nContent-Length: 0\r\n\r\n', []).sc.closeAfter)
  const notChunked = feed('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked-x\r\n\r\n3\r\nabc', [])
  t.ok(notChunked.sc.readingUntilClose(), 'chunked-x is not chunked: read until close')
  t.ok(feed('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', []).sc.idle(), 'codings over two lines')
  t.ok(feed('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n', []).sc.readingUntilClose(), 'gzip last over two lines')
})

// issue 14, defect 5
t.test('loose numbers are parse errors', async (t) => {
  const bad = [
    ['HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n', 'bad status code'],
    ['HTTP/1.1 200OK\r\nContent-Length: 0\r\n\r\n', 'bad status code'],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1\r2\r\n\r\nab', 'bad line ending'],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1 2\r\n\r\nab', 'bad Content-Length'],
    ['HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551616\r\n\r\n', 'Content-Length too large'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1 2\r\n', 'bad chunk size'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r2\r\n', 'bad line ending'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1 \r\n', 'bad chunk size'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n!\r\n\r\n', 'bad trailer'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA b: 1\r\n\r\n', 'bad trailer'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n', 'chunk size too large']
  ]
  for (const [text, why] of bad) {
    const whole = feed(text, [])
    t.notOk(whole.ok, JSON.stringify(text))
    t.equal(whole.sc.error, why)
    const bytes = feed(text, Array.from({ length: text.length - 1 }, (_, i) => i + 1))
    t.equal(bytes.sc.error, why, `byte by byte: ${JSON.stringify(text)}`)
  }
  // no reason phrase, and spaces between a chunk size and its extension, are fine
  everySplit(t, 'HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok', [200])
  everySplit(t, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 ;x=1\r\nok\r\n0\r\n\r\n', [200])
})

// issue 14, defect 6
t.test('a transfer coding other than chunked wins over Content-Length: read until close', async (t) => {
  const text = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabcdef'
  const open = feed(text, [])
  t.same(open.owner.done, [])
  t.ok(open.sc.readingUntilClose())
  const closed = feed(text, [20], { eof: true, expect: 'abcdef' })
  t.same(closed.owner.done, [200], 'the whole body, up to the close')
  everySplit(t, 'HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n', [200])
})

// issue 14, defect 7
t.test('the header section has a limit', async (t) => {
  const big = 'X-Big: ' + 'a'.repeat(4 * 1024 * 1024) + '\r\n'
  const owner = recorder()
  const sc = new ResponseScanner(owner, undefined)
  const text = Buffer.from(`HTTP/1.1 200 OK\r\n${big}Content-Length: 2\r\n\r\nok`)
  let ok = true
  let fed = 0
  for (let at = 0; at < text.length && ok; at += 65536) {
    ok = sc.scan(text, at, Math.min(at + 65536, text.length))
    fed = at
  }
  t.notOk(ok, 'a 4 MiB header line fails')
  t.equal(sc.error, 'header section too large')
  t.ok(fed < 200 * 1024, `it fails within the first reads (at ${fed})`)
  t.same(owner.done, [])
  t.notOk(feed(`HTTP/1.1 200 OK\r\n${big}Content-Length: 2\r\n\r\nok`, []).ok, 'and in one chunk')

  // exactly at the limit passes, one byte over fails, cut anywhere
  const limited = (text, cuts) => {
    const o = recorder()
    const s = new ResponseScanner(o, undefined, 1000)
    const buf = Buffer.from(text, 'latin1')
    let at = 0
    for (const cut of [...cuts, buf.length]) {
      if (!s.scan(buf, at, cut)) return s.error
      at = cut
    }
    return o.done
  }
  const headOf = (n) => {
    const base = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX: \r\n\r\n'
    return base.replace('X: ', 'X: ' + 'y'.repeat(n - base.length))
  }
  t.equal(headOf(1000).length, 1000)
  for (const cuts of [[], [500], [999], [1000], Array.from({ length: 1001 }, (_, i) => i + 1)]) {
    t.same(limited(headOf(1000) + 'ok' + headOf(1000) + 'ok', cuts.filter((c) => c < 2004)), [200, 200], `1000 bytes pass, cuts ${cuts.length}`)
    t.equal(limited(headOf(1001) + 'ok', cuts.filter((c) => c < 1003)), 'header section too large', `1001 bytes fail, cuts ${cuts.length}`)
  }
  // a trailer section counts the same way
  const trailer = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: ' + 'z'.repeat(2000) + '\r\n\r\n'
  t.equal(limited(trailer, [60, 900]), 'header section too large')
})
