'use strict'
// The response scanner recognises a head equal to the last one it read in one
// pass (sameHead, the head template), reads a whole head in one pass
// (readWholeHead) when it can, and byte by byte in its state machine
// otherwise. They must give one result: here every stream of the llhttp
// differential generator, and an nginx-shaped head with each of its bytes
// changed in turn (between two usual heads, so the template meets it), is fed
// to a scanner with the fast paths and to one without them, cut at the same
// places, through one shared read buffer whose bytes past each chunk's end are
// stale (as a connection's are), and their verdicts must be identical.
const t = require('tap')
const { ResponseScanner } = require('../../lib/engine/http1/response-scanner.js')
const { makeCase } = require('../helpers/llhttp-diff.js')

const NGINX_HEAD = 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Tue, 24 Nov 2026 01:00:00 GMT\r\n' +
  'Content-Type: text/plain\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n'

let onePass = 0 // heads the scanners read in one pass, over all calls of verdict()
let sameAsLast = 0 // heads the scanners found equal to their template

/** Calls `counted(how)` for each head `scanner` reads without its state machine. */
function countOnePass (scanner, counted) {
  for (const how of ['readWholeHead', 'sameHead']) {
    const fn = scanner[how]
    scanner[how] = function (...args) {
      const after = fn.apply(this, args)
      if (after > 0) counted(how)
      return after
    }
  }
}

/** What a scanner says about `bytes` cut at `cuts`: its owner's calls and how it stopped. */
function verdict (bytes, cuts, { wholeHeads, head = false, maxHeaderSize }) {
  const events = []
  const owner = {
    noBodyExpected: () => head,
    complete: (status, mismatch) => events.push(`complete ${status}${mismatch ? ' mismatch' : ''}`),
    informational: () => events.push('1xx')
  }
  const scanner = new ResponseScanner(owner, undefined, maxHeaderSize)
  scanner.wholeHeads = wholeHeads
  countOnePass(scanner, (how) => how === 'sameHead' ? sameAsLast++ : onePass++)
  // one read buffer for every chunk, as a connection has: stale bytes of the
  // earlier chunks lie past each chunk's end
  const readBuffer = Buffer.alloc(4096, 0x0a)
  let from = 0
  for (const to of [...cuts, bytes.length]) {
    if (to <= from) continue
    const n = bytes.copy(readBuffer, 0, from, to)
    from = to
    if (!scanner.scan(readBuffer, 0, n)) return { events, end: `error: ${scanner.error}` }
    if (scanner.halted) return { events, end: scanner.closeAfter ? 'closed by the response' : 'halted' }
  }
  scanner.eof()
  return { events, end: scanner.idle() ? 'idle' : 'mid-response' }
}

t.test('random streams, valid and broken: one verdict with and without the one-pass head', async (t) => {
  let differ = 0
  const CASES = 3000
  const onePassBefore = onePass
  for (let seed = 1; seed <= CASES; seed++) {
    const c = makeCase(seed)
    if (c.bytes.length > 4096) continue
    const opts = { head: c.method === 'HEAD', maxHeaderSize: seed % 7 === 0 ? 64 : undefined }
    const fast = verdict(c.bytes, c.cuts, { ...opts, wholeHeads: true })
    const slow = verdict(c.bytes, c.cuts, { ...opts, wholeHeads: false })
    if (JSON.stringify(fast) !== JSON.stringify(slow)) {
      differ++
      t.same(fast, slow, `seed ${seed} (${c.split}, ${c.breaks})`)
    }
  }
  t.equal(differ, 0, 'no stream is read differently')
  t.ok(onePass - onePassBefore > CASES / 10, `the one-pass path read a good share of the heads (${onePass - onePassBefore})`)
})

t.test('an nginx head with each byte replaced: one verdict with and without the one-pass head', async (t) => {
  const response = Buffer.from(NGINX_HEAD + 'hello world', 'latin1')
  // three responses in one chunk, the middle one changed: the first and last stay usual
  const REPLACEMENTS = [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x3a, 0x30, 0x41, 0x61, 0x7f, 0xff]
  let cases = 0
  let errors = 0
  const onePassBefore = onePass
  const sameBefore = sameAsLast
  for (let at = 0; at < NGINX_HEAD.length; at++) {
    for (const b of REPLACEMENTS) {
      if (response[at] === b) continue
      const changed = Buffer.from(response)
      changed[at] = b
      const bytes = Buffer.concat([response, changed, response])
      for (const cuts of [[], [response.length + at], [response.length + at + 1]]) {
        const fast = verdict(bytes, cuts, { wholeHeads: true })
        const slow = verdict(bytes, cuts, { wholeHeads: false })
        cases++
        if (slow.end.startsWith('error')) errors++
        if (JSON.stringify(fast) !== JSON.stringify(slow)) t.same(fast, slow, `byte ${at} -> 0x${b.toString(16)}, cut at ${cuts}`)
      }
    }
  }
  t.ok(cases > 4000, `${cases} streams`)
  t.ok(errors > 0 && errors < cases, `both broken and valid streams among them (${errors} errors)`)
  t.ok(onePass - onePassBefore > cases, `the one-pass path read many of the heads (${onePass - onePassBefore})`)
  t.ok(sameAsLast - sameBefore > cases / 4, `the template recognised many of them (${sameAsLast - sameBefore})`)
})

t.test('the usual heads take the one-pass path and are read right', async (t) => {
  const response = Buffer.from(NGINX_HEAD + 'hello world', 'latin1')
  const bytes = Buffer.concat(Array.from({ length: 10 }, () => response))
  const owner = { calls: [], noBodyExpected: () => false, complete (s) { this.calls.push(s) }, informational () {} }
  const scanner = new ResponseScanner(owner, undefined)
  let wholeHeadCalls = 0
  let templateHits = 0
  countOnePass(scanner, (how) => how === 'sameHead' ? templateHits++ : wholeHeadCalls++)
  t.equal(scanner.scan(bytes, 0, bytes.length), true)
  t.same(owner.calls, Array(10).fill(200))
  t.equal(wholeHeadCalls, 1, 'the first head read in one pass')
  t.equal(templateHits, 9, 'the nine after it recognised as the same head')
  t.equal(scanner.idle(), true)
  // Transfer-Encoding: chunked and Connection: close, in any case, also in one pass
  const chunked = Buffer.from('HTTP/1.1 201 Created\r\ntransfer-ENCODING: chunked\r\nCONNECTION: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n', 'latin1')
  const before = wholeHeadCalls
  t.equal(scanner.scan(chunked, 0, chunked.length), true)
  t.same(owner.calls.slice(10), [201])
  t.equal(wholeHeadCalls, before + 1)
  t.equal(scanner.closeAfter, true, 'the close is kept for the connection')
})

/** A scanner over `owner`-style calls, with its fast-path counts. */
function countingScanner () {
  const owner = { calls: [], noBodyExpected: () => false, complete (s) { this.calls.push(s) }, informational () {} }
  const scanner = new ResponseScanner(owner, undefined)
  const counts = { readWholeHead: 0, sameHead: 0, tried: 0 }
  countOnePass(scanner, (how) => counts[how]++)
  const sameHead = scanner.sameHead
  scanner.sameHead = function (...args) {
    counts.tried++
    return sameHead.apply(this, args)
  }
  return { owner, scanner, counts }
}

t.test('the head template: a new Date is read again, a changed length frames by the new one', async (t) => {
  const at = (second) => Buffer.from(NGINX_HEAD.replace('01:00:00', `01:00:0${second}`) + 'hello world', 'latin1')
  // five seconds, four responses each
  const bytes = Buffer.concat([0, 1, 2, 3, 4].flatMap((s) => [at(s), at(s), at(s), at(s)]))
  const { owner, scanner, counts } = countingScanner()
  t.equal(scanner.scan(bytes, 0, bytes.length), true)
  t.same(owner.calls, Array(20).fill(200))
  t.equal(counts.readWholeHead, 5, 'each new Date read in one pass')
  t.equal(counts.sameHead, 15, 'the other heads recognised')
  t.same(verdict(bytes, [], { wholeHeads: true }), verdict(bytes, [], { wholeHeads: false }))

  // the same head but for one digit of Content-Length: 12 bytes of body, not 11
  const longer = Buffer.from(NGINX_HEAD.replace('Length: 11', 'Length: 12') + 'hello world!', 'latin1')
  const mixed = Buffer.concat([at(0), longer, at(0), longer])
  const fast = verdict(mixed, [], { wholeHeads: true })
  t.same(fast, { events: Array(4).fill('complete 200'), end: 'idle' })
  t.same(fast, verdict(mixed, [], { wholeHeads: false }))
  // cut inside the second head: the template waits for a whole head
  for (const cut of [at(0).length + 5, at(0).length + NGINX_HEAD.length - 1]) {
    t.same(verdict(mixed, [cut], { wholeHeads: true }), fast, `cut at ${cut}`)
  }
})

t.test('the head template rests while heads keep changing', async (t) => {
  // a request id in every head: the template never matches
  const heads = Array.from({ length: 2000 }, (_, i) =>
    `HTTP/1.1 200 OK\r\nX-Request-Id: ${String(i).padStart(6, '0')}\r\nContent-Length: 2\r\n\r\nok`)
  const bytes = Buffer.from(heads.join(''), 'latin1')
  const { owner, scanner, counts } = countingScanner()
  t.equal(scanner.scan(bytes, 0, bytes.length), true)
  t.equal(owner.calls.length, 2000)
  t.equal(counts.sameHead, 0, 'no head recognised')
  // 4 misses in a row rest it for 1,024 heads; then 4 more misses
  t.equal(counts.tried, 8, 'tried 8 times in 2,000 heads')
  t.equal(counts.readWholeHead, 2000, 'every head read in one pass')
})

t.test('the head template keeps no head whose words could compare equal with other bits', async (t) => {
  // eight NUL bytes on a word of the head read as +0, and with 0x80 last as
  // -0, which compare equal as doubles: such a head is never the template
  const head = (last) => Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\r\nX-Pad: ', 'latin1'),
    Buffer.alloc(15, 0), Buffer.from([last]),
    Buffer.from('\r\nContent-Length: 2\r\n\r\nok', 'latin1')
  ])
  const bytes = Buffer.concat([head(0), head(0x80), head(0), head(0x80)])
  const fast = verdict(bytes, [], { wholeHeads: true })
  t.same(fast, verdict(bytes, [], { wholeHeads: false }))
  const { scanner, counts } = countingScanner()
  scanner.scan(bytes, 0, bytes.length)
  t.equal(counts.sameHead, 0, 'none recognised as the template')
  t.equal(scanner.headTemplate.length, -1, 'no template kept')
})
