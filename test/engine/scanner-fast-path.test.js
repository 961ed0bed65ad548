'use strict'
// The response scanner reads a whole head in one pass (readWholeHead) when it
// can, and byte by byte in its state machine otherwise. The two must give one
// result: here every stream of the llhttp differential generator, and an
// nginx-shaped head with each of its bytes changed in turn, is fed to a
// scanner with the one-pass path and to one without it, cut at the same
// places, through one shared read buffer whose bytes past each chunk's end are
// stale (as a connection's are), and their verdicts must be identical.
const t = require('tap')
const { ResponseScanner } = require('../../lib/engine/http1/response-scanner.js')
const { makeCase } = require('../helpers/llhttp-diff.js')

const NGINX_HEAD = 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Tue, 24 Nov 2026 01:00:00 GMT\r\n' +
  'Content-Type: text/plain\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n'

let onePass = 0 // heads the scanners read in one pass, over all calls of verdict()

/** Calls `counted` for each head `scanner` reads in one pass. */
function countOnePass (scanner, counted) {
  const readWholeHead = scanner.readWholeHead
  scanner.readWholeHead = function (...args) {
    const after = readWholeHead.apply(this, args)
    if (after > 0) counted()
    return after
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
  countOnePass(scanner, () => onePass++)
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
})

t.test('the usual heads take the one-pass path and are read right', async (t) => {
  const response = Buffer.from(NGINX_HEAD + 'hello world', 'latin1')
  const bytes = Buffer.concat(Array.from({ length: 10 }, () => response))
  const owner = { calls: [], noBodyExpected: () => false, complete (s) { this.calls.push(s) }, informational () {} }
  const scanner = new ResponseScanner(owner, undefined)
  let wholeHeadCalls = 0
  countOnePass(scanner, () => wholeHeadCalls++)
  t.equal(scanner.scan(bytes, 0, bytes.length), true)
  t.same(owner.calls, Array(10).fill(200))
  t.equal(wholeHeadCalls, 10, 'each head read in one pass')
  t.equal(scanner.idle(), true)
  // Transfer-Encoding: chunked and Connection: close, in any case, also in one pass
  const chunked = Buffer.from('HTTP/1.1 201 Created\r\ntransfer-ENCODING: chunked\r\nCONNECTION: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n', 'latin1')
  const before = wholeHeadCalls
  t.equal(scanner.scan(chunked, 0, chunked.length), true)
  t.same(owner.calls.slice(10), [201])
  t.equal(wholeHeadCalls, before + 1)
  t.equal(scanner.closeAfter, true, 'the close is kept for the connection')
})
