'use strict'
// A byte-level HTTP/1.x response scanner. It keeps its whole state in a few
// number fields, so scanning allocates nothing per response, and it handles
// input cut anywhere (even byte by byte) and many responses in one chunk.
// It understands exactly what framing needs: the status code, Content-Length,
// Transfer-Encoding: chunked (with trailers), Connection close/keep-alive,
// HTTP/1.0, 1xx interim responses, no-body responses (HEAD, 204, 304) and
// close-delimited bodies. Every other field line is checked to be a token
// name and a colon, and its value skipped, never copied: a line that is no
// field (a status line where a header was due) is a parse error, and the
// connection ends there, as llhttp's does, rather than counting misframed
// bytes as responses.
// Framing values (Content-Length, Transfer-Encoding, Connection, chunk
// sizes) are read as they stream past, so their length has no limit; the
// header section as a whole has one (maxHeaderSize, like wrk's and node's
// parsers), checked once per chunk and once per head, not per byte.
// A head of the usual shape that is whole in the chunk is read in one pass
// (readWholeHead: lines skipped a word at a time, known names compared a word
// at a time), and a head equal to the last one so read takes its framing
// from it (sameHead, the head template); anything else falls back to the
// byte-level state machine, which reads the same bytes again
// (test/engine/scanner-fast-path.test.js holds the three to one verdict).
// docs/load.md lists the framing rules and where they differ from llhttp.
//
// The owner (a connection) provides:
//   owner.noBodyExpected() -> bool   the current request was HEAD
//   owner.complete(status, mismatch) one final response finished
//   owner.informational()            one 1xx interim response was skipped

const S_START = 0
const S_STATUS_END = 1
const S_REASON = 2
const S_HEADER_START = 3
const S_HEADER_NAME = 4
const S_HEADER_VALUE = 5
const S_HEADERS_LF = 6
const S_SKIP_LINE = 7
// the states above read the header section (capture-scanner.js keeps their bytes)
const S_BODY = 8
const S_BODY_EOF = 9
const S_CHUNK_SIZE = 10
const S_CHUNK_EXT = 11
const S_CHUNK_DATA = 12
const S_CHUNK_DATA_END = 13
const S_TRAILER_START = 14
const S_TRAILER_LINE = 15
const S_TRAILER_LF = 16

const CR = 13
const LF = 10
const PREFIX = Buffer.from('HTTP/1.', 'latin1')
const NAME_MAX = 32
/** the default header section limit (bytes): wrk's; see docs/load.md */
const MAX_HEADER_SIZE = 80 * 1024
// numbers above this lose precision in a double: a length or chunk size
// beyond it (e.g. >= 2^64) fails at once instead of waiting for the bytes
const MAX_LENGTH = Number.MAX_SAFE_INTEGER
const MAX_CHUNK_BEFORE_DIGIT = Math.floor(MAX_LENGTH / 16)

// tchar of RFC 9110 §5.6.2: the bytes a header name may hold
const TOKEN = new Uint8Array(256)
for (const ch of "!#$%&'*+-.^_`|~") TOKEN[ch.charCodeAt(0)] = 1
for (let c = 48; c <= 57; c++) TOKEN[c] = 1
for (let c = 65; c <= 90; c++) TOKEN[c] = TOKEN[c + 32] = 1

// per little-endian pair of bytes: how many of them, from the first, are
// token bytes (0, 1 or 2), to check a name two bytes a step
const TOKEN_PAIRS = new Uint8Array(65536)
for (let v = 0; v < 65536; v++) TOKEN_PAIRS[v] = TOKEN[v & 255] === 1 ? 1 + TOKEN[v >> 8] : 0

const { ByteTemplate, ViewCache } = require('../byte-template.js')

// Header kinds we care about, by their lowercase names.
const H_OTHER = 0
const H_CONTENT_LENGTH = 1
const H_TRANSFER_ENCODING = 2
const H_CONNECTION = 3
/** @type {[number, Buffer][]} */
const KNOWN = [
  [H_CONTENT_LENGTH, Buffer.from('content-length')],
  [H_TRANSFER_ENCODING, Buffer.from('transfer-encoding')],
  [H_CONNECTION, Buffer.from('connection')]
]
// The known names after their first letter, with the colon ('ontent-length:'),
// by kind: their lengths say where a value starts after a match and how many
// bytes a match needs (matchKnownName compares the names a word at a time)
/** @type {Buffer[]} */
const KNOWN_REST = []
for (const [kind, name] of KNOWN) KNOWN_REST[kind] = Buffer.concat([name.subarray(1), Buffer.from(':')])
const NAME_MATCH_BYTES = Math.max(...KNOWN.map(([kind]) => KNOWN_REST[kind].length))

/**
 * A known name with its colon as little-endian 32-bit words to compare with
 * DataView reads: [offset, mask, want] per word, the last word overlapping
 * the one before it; the mask ORs 0x20 into letters only (lowercasing them)
 * @param {Buffer} name
 */
function nameWords (name) {
  const bytes = Buffer.concat([name, Buffer.from(':')])
  const words = []
  for (let off = 0; off < bytes.length; off += 4) {
    const at = Math.min(off, bytes.length - 4)
    let mask = 0
    for (let k = 0; k < 4; k++) if (bytes[at + k] >= 97 && bytes[at + k] <= 122) mask |= 0x20 << (8 * k)
    words.push(at, mask, bytes.readInt32LE(at))
  }
  return Int32Array.from(words)
}
// the words of each known name (one constant each: V8 folds them into matchKnownName)
const wordsOf = (/** @type {number} */ kind) => nameWords(/** @type {[number, Buffer]} */ (KNOWN.find(([k]) => k === kind))[1])
const CONTENT_LENGTH_WORDS = wordsOf(H_CONTENT_LENGTH)
const TRANSFER_ENCODING_WORDS = wordsOf(H_TRANSFER_ENCODING)
const CONNECTION_WORDS = wordsOf(H_CONNECTION)

/**
 * True when the name at `at` (its first byte included) is the one of `words`,
 * letters in any case. At least 4 + the name's length bytes must follow `at`.
 * @param {DataView} view
 * @param {number} at
 * @param {Int32Array} words
 */
function wordsMatch (view, at, words) {
  for (let w = 0; w < words.length; w += 3) {
    if ((view.getInt32(at + words[w], true) | words[w + 1]) !== words[w + 2]) return false
  }
  return true
}

/**
 * The kind of the header whose name starts at `at` with `first` (c or t,
 * lowercased), compared a word at a time; more than NAME_MATCH_BYTES bytes
 * must follow `at`.
 * @param {DataView} view
 * @param {number} at
 * @param {number} first
 */
function matchKnownName (view, at, first) {
  if (first === 116) return wordsMatch(view, at, TRANSFER_ENCODING_WORDS) ? H_TRANSFER_ENCODING : H_OTHER
  if (wordsMatch(view, at, CONTENT_LENGTH_WORDS)) return H_CONTENT_LENGTH
  if (wordsMatch(view, at, CONNECTION_WORDS)) return H_CONNECTION
  return H_OTHER
}

// The head template: the last head read in one pass, kept to recognise the
// next one. A server under load sends the same head again and again (nginx's
// changes with its Date, once a second), and comparing a word at a time
// costs a fraction of reading it; a head equal to the template byte for byte
// frames as the template did. Heads longer than TEMPLATE_MAX are read each
// time; after TEMPLATE_MISSES misses in a row (heads that vary: a request id,
// several URLs in turn) the template is not tried for the next TEMPLATE_REST
// heads, so such a server pays a compare in a few hundred heads.
const TEMPLATE_MAX = 1024
const TEMPLATE_MISSES = 4
const TEMPLATE_REST = 1024

// list tokens matched as they stream past (w1 and w2 of tokenByte)
const CHUNKED = Buffer.from('chunked')
const CLOSE = Buffer.from('close')
const KEEP_ALIVE = Buffer.from('keep-alive')
const NONE = Buffer.alloc(0)

class ResponseScanner {
  /**
   * @param {object} owner see the file header
   * @param {Buffer|undefined} expectBody when set, bodies are compared with it
   * @param {number} [maxHeaderSize] bytes a header section (status line to
   *   blank line) or a trailer section may take; more is a malformed response
   */
  constructor (owner, expectBody, maxHeaderSize = MAX_HEADER_SIZE) {
    this.owner = owner
    this.expect = expectBody
    this.maxHeaderSize = maxHeaderSize
    this.name = new Uint8Array(NAME_MAX)
    /** set by the owner to stop the current scan (connection reset) */
    this.halted = false
    /** true after a complete response that ends the connection (Connection: close, HTTP/1.0) */
    this.closeAfter = false
    this.error = ''
    // word reads (lineFeedAt, matchKnownName, the head template)
    this.views = new ViewCache()
    /** readWholeHead is tried at each response (capture-scanner.js feeds a line at a time and turns it off) */
    this.wholeHeads = true
    // the head template (see TEMPLATE_MAX): its bytes, and the framing
    // values it was read with
    this.headTemplate = new ByteTemplate(TEMPLATE_MAX)
    this.tplStatus = 0
    this.tplMinor = 1
    this.tplContentLength = -1
    this.tplChunked = false
    this.tplTransferCoded = false
    this.tplConnClose = false
    this.tplConnKeepAlive = false
    this.tplMisses = 0
    this.tplRest = 0
    this.reset()
  }

  /** Back to the start of a response, e.g. on a fresh connection. */
  reset () {
    this.state = S_START
    this.lp = 0
    this.status = 0
    this.minor = 1
    this.nameLen = 0
    this.kind = H_OTHER
    this.contentLength = -1
    this.chunked = false
    this.transferCoded = false
    this.connClose = false
    this.connKeepAlive = false
    this.remaining = 0
    this.chunkDigits = 0
    this.chunkSpace = false
    this.trailerName = false
    this.bodyPos = 0
    this.mismatch = false
    this.halted = false
    this.closeAfter = false
    this.headBytes = 0
    this.resetValue()
  }

  /** The state of one framing value read as it streams past. */
  resetValue () {
    this.valueStart = true
    this.cr = false
    this.num = 0
    this.numState = 0 // Content-Length: 0 before, 1 in, 2 after the digits
    this.resetToken()
  }

  resetToken () {
    this.tokLen = 0
    this.tokSpace = false
    this.m1 = 0
    this.m2 = 0
  }

  /** True while between responses (nothing partially read). */
  idle () {
    return this.state === S_START && this.lp === 0
  }

  /** True while reading a body that ends when the server closes. */
  readingUntilClose () {
    return this.state === S_BODY_EOF
  }

  /**
   * Scans buf[start, end). Returns false on a malformed response (this.error
   * says why), true otherwise (also when the owner halted the scan).
   * @param {Uint8Array} buf
   * @param {number} start
   * @param {number} end
   */
  scan (buf, start, end) {
    let i = start
    // where the current header (or trailer) section started in this chunk
    let headFrom = start
    const view = this.views.over(buf)
    while (i < end) {
      if (this.halted) return true
      const s = this.state
      if (s === S_BODY || s === S_CHUNK_DATA) {
        let n = end - i
        if (n > this.remaining) n = this.remaining
        if (this.expect !== undefined) this.compare(buf, i, n)
        i += n
        this.remaining -= n
        if (this.remaining === 0) {
          if (s === S_BODY) this.finish()
          else this.state = S_CHUNK_DATA_END
        }
        continue
      }
      if (s === S_BODY_EOF) {
        if (this.expect !== undefined) this.compare(buf, i, end - i)
        return true
      }
      const c = buf[i++]
      switch (s) {
        case S_START:
          if (this.lp === 0) {
            headFrom = i - 1
            // the usual case, a whole head in this chunk: the same as the
            // last one, or read in one pass
            if (c === 72 && this.wholeHeads) {
              let after = -1
              if (this.tplRest > 0) this.tplRest--
              else if (this.headTemplate.length > 0) after = this.sameHead(view, i - 1, end)
              if (after < 0) after = this.readWholeHead(buf, view, i - 1, end)
              if (after > 0) {
                i = after
                break
              }
            }
          }
          // fast path: a whole "HTTP/1.x NNN" in this chunk
          if (this.lp === 0 && c === 72) {
            const line = statusLineAt(buf, i, end)
            if (line >= 0) {
              this.minor = line >> 10
              this.status = line & 1023
              this.lp = 12
              // the space after the code in this chunk too (the usual case):
              // straight to the reason, else S_STATUS_END checks the next byte
              if (i + 12 <= end && buf[i + 11] === 32) {
                this.state = S_REASON
                i += 12
              } else {
                this.state = S_STATUS_END
                i += 11
              }
              break
            }
          }
          if (this.lp < 7) {
            if (c !== PREFIX[this.lp]) {
              // tolerate empty lines between responses
              if (this.lp === 0 && (c === CR || c === LF)) break
              return this.fail('bad status line')
            }
          } else if (this.lp === 7) {
            if (c !== 48 && c !== 49) return this.fail('unsupported HTTP version')
            this.minor = c - 48
          } else if (this.lp === 8) {
            if (c !== 32) return this.fail('bad status line')
          } else {
            if (c < 48 || c > 57) return this.fail('bad status code')
            this.status = this.status * 10 + c - 48
            if (this.lp === 11) {
              if (this.status < 100 || this.status > 599) return this.fail('bad status code')
              this.state = S_STATUS_END
            }
          }
          this.lp++
          break
        case S_STATUS_END:
          // exactly three digits: "2000" is not 200
          if (c === 32 || c === CR) this.state = S_REASON
          else if (c === LF) this.state = S_HEADER_START
          else return this.fail('bad status code')
          break
        case S_REASON:
        case S_SKIP_LINE:
          // straight to the end of a line we do not need
          if (c !== LF) {
            i = lineFeedAt(view, buf, i, end)
            if (i === end) break
            i++
          }
          this.state = S_HEADER_START
          break
        case S_HEADER_START:
          if (c === CR) {
            this.state = S_HEADERS_LF
          } else if (c === LF) {
            if (this.headBytes + i - headFrom > this.maxHeaderSize) return this.fail('header section too large')
            if (!this.headersDone()) return false
          } else if (c === 32 || c === 9) {
            return this.fail('obsolete header folding')
          } else if ((c | 0x20) === 99 || (c | 0x20) === 116) {
            // only names starting with c or t (Content-Length, Connection,
            // Transfer-Encoding) are read; other header lines are skipped.
            // With the longest such name in this chunk, match in place
            // (no copy): one of ours, or a line to skip (Content-Type)
            if (end - i >= NAME_MATCH_BYTES) {
              const kind = matchKnownName(view, i - 1, c | 0x20)
              if (kind === H_OTHER) {
                // not ours: the name must still be a token ending in a colon
                // ("Content-Length : 2" is a bad framing header, not another
                // header), then the line is skipped
                let j = i
                while (j < end && TOKEN[buf[j]] === 1) j++
                if (j < end) {
                  if (buf[j] !== 58) return this.failName(buf[j])
                  i = j + 1
                  this.state = S_SKIP_LINE
                  break
                }
                // the name runs past this chunk: read it the slow way below
              } else {
                i += KNOWN_REST[kind].length
                this.kind = kind
                this.resetValue()
                this.state = S_HEADER_VALUE
                break
              }
            }
            this.name[0] = c | 0x20
            this.nameLen = 1
            this.state = S_HEADER_NAME
          } else if (TOKEN[c] === 1) {
            // a field we do not read: its name must still be a token and a
            // colon, or the line is no field at all (a status line where a
            // header was due: the bytes before it misframed) and reading on
            // would count responses that are not there. S_HEADER_NAME checks
            // it; a length past every known name makes it H_OTHER
            this.nameLen = NAME_MAX + 1
            this.state = S_HEADER_NAME
          } else {
            return this.failName(c)
          }
          break
        case S_HEADERS_LF:
          if (c !== LF) return this.fail('bad end of headers')
          if (this.headBytes + i - headFrom > this.maxHeaderSize) return this.fail('header section too large')
          if (!this.headersDone()) return false
          break
        case S_HEADER_NAME: {
          // the name up to ':' in one loop (lowercased, kept only to match);
          // inner loops here and for values took a typical nginx response
          // from 1.6-1.9 to 0.9-1.2 µs on the dev VM (a byte loop over the
          // same bytes alone costs 0.5-0.9 µs there)
          const name = this.name
          let n = this.nameLen
          let ch = c
          for (;;) {
            if (ch === 58) break // ':'
            if (TOKEN[ch] !== 1) return this.failName(ch)
            if (n < NAME_MAX) name[n] = ch | 0x20
            n++
            if (i === end) {
              ch = -1
              break
            }
            ch = buf[i++]
          }
          this.nameLen = n
          if (ch === -1) break // the name continues in the next chunk
          this.kind = this.headerKind()
          this.resetValue()
          this.state = S_HEADER_VALUE
          break
        }
        case S_HEADER_VALUE: {
          if (this.kind === H_OTHER) {
            if (c !== LF) {
              i = lineFeedAt(view, buf, i, end)
              if (i === end) break
              i++
            }
            this.state = S_HEADER_START
            break
          }
          // a value we need (length, coding, connection). The usual ones
          // (a plain length, keep-alive, close, chunked, whole in this chunk)
          // in place; anything else is read as it streams, below
          if (this.valueStart) {
            this.valueStart = false
            const after = this.kind === H_CONTENT_LENGTH ? this.plainLength(buf, i - 1, end) : this.plainToken(buf, i - 1, end)
            if (after > 0) {
              i = after
              this.state = S_HEADER_START
              break
            }
            if (after < 0) return false
          }
          let ch = c
          for (;;) {
            if (ch === LF) break
            // a CR only ends the line: "Content-Length: 1\r2" is not 12
            if (this.cr) return this.fail('bad line ending')
            if (ch === CR) this.cr = true
            else if (!this.valueByte(ch)) return false
            if (i === end) {
              ch = -1
              break
            }
            ch = buf[i++]
          }
          if (ch === -1) break
          if (!this.valueDone()) return false
          this.state = S_HEADER_START
          break
        }
        case S_CHUNK_SIZE: {
          if (this.cr && c !== LF) return this.fail('bad line ending')
          const d = hexDigit(c)
          if (d >= 0) {
            // leading zeros are fine; a size past 2^53 fails at once
            if (this.chunkSpace) return this.fail('bad chunk size')
            if (this.remaining > MAX_CHUNK_BEFORE_DIGIT) return this.fail('chunk size too large')
            this.remaining = this.remaining * 16 + d
            this.chunkDigits++
          } else if (c === LF) {
            if (this.chunkSpace) return this.fail('bad chunk size')
            if (!this.chunkSizeDone()) return false
            if (this.state === S_TRAILER_START) headFrom = i
          } else if (c === 59) { // ';'
            this.state = S_CHUNK_EXT
          } else if (c === CR) {
            if (this.chunkSpace) return this.fail('bad chunk size')
            this.cr = true
          } else if ((c === 32 || c === 9) && this.chunkDigits > 0) {
            // whitespace may end the size before ';' (BWS of RFC 9112 §7.1.1)
            // but not split it ("1 2" is not 0x12) nor end the line
            this.chunkSpace = true
          } else {
            return this.fail('bad chunk size')
          }
          break
        }
        case S_CHUNK_EXT:
          if (c === LF) {
            if (!this.chunkSizeDone()) return false
            if (this.state === S_TRAILER_START) headFrom = i
          }
          break
        case S_CHUNK_DATA_END:
          if (c === LF) {
            this.state = S_CHUNK_SIZE
            this.chunkDigits = 0
            this.chunkSpace = false
            this.cr = false
          } else if (c !== CR) {
            return this.fail('chunk data longer than its size')
          }
          break
        case S_TRAILER_START:
          if (c === LF) {
            if (this.headBytes + i - headFrom > this.maxHeaderSize) return this.fail('header section too large')
            this.finish()
          } else if (c === CR) {
            this.state = S_TRAILER_LF
          } else {
            // a trailer field: a token name and a colon, like a header
            if (TOKEN[c] !== 1) return this.fail('bad trailer')
            this.trailerName = true
            this.state = S_TRAILER_LINE
          }
          break
        case S_TRAILER_LF:
          if (c !== LF) return this.fail('bad end of trailers')
          if (this.headBytes + i - headFrom > this.maxHeaderSize) return this.fail('header section too large')
          this.finish()
          break
        case S_TRAILER_LINE:
          if (this.trailerName) {
            if (c === 58) this.trailerName = false
            else if (TOKEN[c] !== 1) return this.fail('bad trailer')
          } else if (c === LF) {
            this.state = S_TRAILER_START
          }
          break
      }
    }
    // a header or trailer section that goes on past this chunk: count its
    // bytes so far against the limit (one check per chunk, not per byte)
    const s = this.state
    if (!this.halted && (s < S_BODY ? this.lp > 0 || s !== S_START : s >= S_TRAILER_START)) {
      this.headBytes += end - headFrom
      if (this.headBytes > this.maxHeaderSize) return this.fail('header section too large')
    }
    return true
  }

  /**
   * A head of the usual shape (a final status, framing values that
   * plainLength/plainToken read in place), whole in buf[at, end): read in one
   * pass, lines skipped four bytes at a time, known names compared a word at a
   * time, with no state kept between bytes. Returns the index after its blank
   * line (the framing is set, as by the state machine), or -1 for anything
   * else: a head cut by the chunk's end, a 1xx, a value or name to read the
   * slow way, an error. Then nothing is kept, and the state machine reads the
   * same bytes from `at`, so the two give one result by construction.
   * @param {Uint8Array} buf
   * @param {DataView} view
   * @param {number} at the head's first byte ('H')
   * @param {number} end
   */
  readWholeHead (buf, view, at, end) {
    let p = at + 1
    // a final status and the space after the code (1xx: the state machine)
    const line = statusLineAt(buf, p, end)
    if (line < 0 || (line & 1023) < 200 || p + 12 > end || buf[p + 11] !== 32) return -1
    p = lineFeedAt(view, buf, p + 12, end) + 1
    for (;;) {
      if (p >= end) return this.notWhole()
      const c = buf[p]
      if (c === CR || c === LF) {
        if (c === CR && (p + 1 === end || buf[++p] !== LF)) return this.notWhole()
        p++
        break
      }
      const lower = c | 0x20
      if (lower === 99 || lower === 116) {
        // c/t: one of ours, else a field to skip
        if (end - p <= NAME_MATCH_BYTES) return this.notWhole()
        const kind = matchKnownName(view, p, lower)
        if (kind !== H_OTHER) {
          this.kind = kind
          const valueAt = p + KNOWN_REST[kind].length + 1
          const after = kind === H_CONTENT_LENGTH ? this.plainLength(buf, valueAt, end) : this.plainToken(buf, valueAt, end)
          if (after <= 0) return this.notWhole()
          p = after
          continue
        }
      }
      // a field we do not read: a token name and a colon (checked as the
      // state machine does; obsolete folding, a space or a status line where
      // a name was due: the state machine says what is wrong)
      const colon = nameEnd(view, buf, p, end)
      if (colon < 0) return this.notWhole()
      const lf = lineFeedAt(view, buf, colon + 1, end)
      if (lf === end) return this.notWhole()
      p = lf + 1
    }
    if (p - at > this.maxHeaderSize) return this.notWhole()
    this.minor = line >> 10
    this.status = line & 1023
    if (this.tplRest === 0) this.learnHead(view, at, p - at)
    this.headersDone()
    return p
  }

  /**
   * The head at `at` is the template's, byte for byte, and whole in the
   * chunk: its framing values are the template's (a head's framing depends
   * on its bytes alone), and it ends where the template did. Returns the
   * index after its blank line, or -1 (not whole here, or a miss).
   * @param {DataView} view
   * @param {number} at the head's first byte
   * @param {number} end
   */
  sameHead (view, at, end) {
    const length = this.headTemplate.length
    if (at + length > end) return -1
    if (!this.headTemplate.matches(view, at)) return this.missedHead()
    this.tplMisses = 0
    this.status = this.tplStatus
    this.minor = this.tplMinor
    this.contentLength = this.tplContentLength
    this.chunked = this.tplChunked
    this.transferCoded = this.tplTransferCoded
    this.connClose = this.tplConnClose
    this.connKeepAlive = this.tplConnKeepAlive
    this.headersDone()
    return at + length
  }

  /** The head differs from the template: after TEMPLATE_MISSES in a row, rest it. */
  missedHead () {
    if (++this.tplMisses >= TEMPLATE_MISSES) {
      this.tplMisses = 0
      this.tplRest = TEMPLATE_REST
    }
    return -1
  }

  /**
   * The head in view[at, at + length), just read in one pass (its framing
   * values set), becomes the template (unless byte-template.js cannot keep it).
   * @param {DataView} view
   * @param {number} at
   * @param {number} length
   */
  learnHead (view, at, length) {
    if (!this.headTemplate.learn(view, at, length)) return
    this.tplStatus = this.status
    this.tplMinor = this.minor
    this.tplContentLength = this.contentLength
    this.tplChunked = this.chunked
    this.tplTransferCoded = this.transferCoded
    this.tplConnClose = this.connClose
    this.tplConnKeepAlive = this.connKeepAlive
  }

  /** readWholeHead gives up: the framing values it read are forgotten. */
  notWhole () {
    this.contentLength = -1
    this.chunked = false
    this.transferCoded = false
    this.connClose = false
    this.connKeepAlive = false
    this.kind = H_OTHER
    return -1
  }

  /** The server closed the connection: ends a close-delimited body. */
  eof () {
    if (this.state === S_BODY_EOF) {
      this.connClose = true
      this.finish()
    }
  }

  headerKind () {
    const n = this.nameLen
    for (let k = 0; k < KNOWN.length; k++) {
      const name = KNOWN[k][1]
      if (name.length !== n) continue
      let j = 0
      while (j < n && this.name[j] === name[j]) j++
      if (j === n) return KNOWN[k][0]
    }
    return H_OTHER
  }

  /**
   * A Content-Length value of plain digits (optional spaces around) ending
   * with CRLF or LF, whole in buf[at, end): read in place. Returns the index
   * after its LF, 0 when the value is not that simple (the streaming path
   * reads it), -1 when it fails (this.error says why).
   */
  plainLength (buf, at, end) {
    let j = at
    while (j < end && buf[j] === 32) j++
    const first = j
    let n = 0
    while (j < end && buf[j] >= 48 && buf[j] <= 57 && j - first < 15) n = n * 10 + buf[j++] - 48
    if (j === first || j + 1 >= end) return 0
    while (j < end && buf[j] === 32) j++
    if (buf[j] === CR) j++
    if (j >= end || buf[j] !== LF) return 0
    if (this.contentLength !== -1 && this.contentLength !== n) return this.fail('conflicting Content-Length')
    this.contentLength = n
    return j + 1
  }

  /**
   * A Connection or Transfer-Encoding value that is one usual token
   * (keep-alive, close, chunked; any case), whole in buf[at, end): read in
   * place. Returns the index after its LF, or 0 (the streaming path reads it).
   */
  plainToken (buf, at, end) {
    let j = at
    if (buf[j] === 32) j++
    let word
    if (this.kind === H_TRANSFER_ENCODING) word = CHUNKED
    else word = (buf[j] | 0x20) === 107 ? KEEP_ALIVE : CLOSE
    const stop = j + word.length
    if (stop + 1 >= end) return 0
    for (let m = 0; m < word.length; m++) {
      const b = buf[j + m]
      if ((b >= 65 && b <= 90 ? b | 0x20 : b) !== word[m]) return 0
    }
    j = stop
    if (buf[j] === CR) j++
    if (buf[j] !== LF) return 0
    if (word === CHUNKED) {
      this.transferCoded = true
      this.chunked = true
    } else if (word === CLOSE) {
      this.connClose = true
    } else {
      this.connKeepAlive = true
    }
    return j + 1
  }

  /** One byte (not CR or LF) of a framing value. */
  valueByte (ch) {
    const kind = this.kind
    if (kind === H_CONTENT_LENGTH) {
      const d = ch - 48
      if (d >= 0 && d <= 9) {
        if (this.numState === 2) return this.fail('bad Content-Length')
        this.numState = 1
        this.num = this.num * 10 + d
        if (this.num > MAX_LENGTH) return this.fail('Content-Length too large')
      } else if (ch === 32 || ch === 9) {
        if (this.numState === 1) this.numState = 2
      } else {
        return this.fail('bad Content-Length')
      }
      return true
    }
    // Transfer-Encoding and Connection: a comma-separated list of tokens
    if (ch === 44) {
      this.tokenDone()
    } else if (ch === 32 || ch === 9) {
      if (this.tokLen > 0) this.tokSpace = true
    } else {
      // a byte after a token's trailing space ("chun ked") spoils the token
      const l = ch >= 65 && ch <= 90 ? ch | 0x20 : ch
      const w1 = kind === H_TRANSFER_ENCODING ? CHUNKED : CLOSE
      const w2 = kind === H_TRANSFER_ENCODING ? NONE : KEEP_ALIVE
      const m1 = this.m1
      const m2 = this.m2
      this.m1 = !this.tokSpace && m1 >= 0 && m1 < w1.length && w1[m1] === l ? m1 + 1 : -1
      this.m2 = !this.tokSpace && m2 >= 0 && m2 < w2.length && w2[m2] === l ? m2 + 1 : -1
      this.tokLen++
    }
    return true
  }

  /** The end of one list element of Transfer-Encoding or Connection. */
  tokenDone () {
    if (this.tokLen > 0) {
      if (this.kind === H_TRANSFER_ENCODING) {
        // chunked must be the last coding
        this.chunked = this.m1 === CHUNKED.length
      } else {
        if (this.m1 === CLOSE.length) this.connClose = true
        if (this.m2 === KEEP_ALIVE.length) this.connKeepAlive = true
      }
    }
    this.resetToken()
  }

  valueDone () {
    const kind = this.kind
    if (kind === H_CONTENT_LENGTH) {
      if (this.numState === 0) return this.fail('bad Content-Length')
      if (this.contentLength !== -1 && this.contentLength !== this.num) return this.fail('conflicting Content-Length')
      this.contentLength = this.num
    } else if (kind === H_TRANSFER_ENCODING) {
      // the codings of this line follow those of earlier lines: its last
      // one decides (tokenDone)
      this.transferCoded = true
      this.tokenDone()
    } else {
      this.tokenDone()
    }
    return true
  }

  headersDone () {
    const status = this.status
    if (status < 200) {
      if (status === 101) return this.fail('101 Switching Protocols is not supported')
      this.owner.informational()
      const keepMinor = this.minor
      this.reset()
      this.minor = keepMinor
      return true
    }
    this.headBytes = 0
    // acted on when the response is complete (finish), never mid-body
    // (an HTTP/1.0 message with a transfer coding has faulty framing: it
    // is read, then the connection closed, RFC 9112 §6.1)
    this.connClose = this.connClose || (this.minor === 0 && (!this.connKeepAlive || this.transferCoded))
    if (status === 204 || status === 304 || this.owner.noBodyExpected()) {
      this.finish()
    } else if (this.chunked) {
      this.state = S_CHUNK_SIZE
      this.remaining = 0
      this.chunkDigits = 0
      this.chunkSpace = false
      this.cr = false
    } else if (this.contentLength >= 0 && !this.transferCoded) {
      this.remaining = this.contentLength
      if (this.remaining === 0) this.finish()
      else this.state = S_BODY
    } else {
      // no length, or a transfer coding other than chunked last (which wins
      // over Content-Length, RFC 9112 §6.3): the body ends when the server closes
      this.state = S_BODY_EOF
    }
    return true
  }

  chunkSizeDone () {
    if (this.chunkDigits === 0) return this.fail('empty chunk size')
    this.cr = false
    if (this.remaining === 0) {
      this.state = S_TRAILER_START
    } else {
      this.state = S_CHUNK_DATA
    }
    return true
  }

  compare (buf, at, n) {
    const exp = this.expect
    const pos = this.bodyPos
    if (pos + n > exp.length) {
      this.mismatch = true
    } else if (!this.mismatch) {
      for (let j = 0; j < n; j++) {
        if (buf[at + j] !== exp[pos + j]) {
          this.mismatch = true
          break
        }
      }
    }
    this.bodyPos = pos + n
  }

  finish () {
    const mismatch = this.expect !== undefined && (this.mismatch || this.bodyPos !== this.expect.length)
    const status = this.status
    const closeAfter = this.connClose
    this.reset()
    this.closeAfter = closeAfter
    this.owner.complete(status, mismatch)
    // a response that closes the connection ends what this connection reads
    if (closeAfter) this.halted = true
  }

  failName (ch) {
    return this.fail(ch === CR || ch === LF ? 'header line without a colon' : 'bad character in a header name')
  }

  fail (why) {
    this.error = why
    return false
  }
}

/**
 * "HTTP/1.x NNN" whole in buf from `p` - 1 (the 'H') to `p` + 11: the minor
 * version << 10 | the code (100-599), or -1 (the byte-level states read
 * anything else, and say what is wrong).
 * @param {Uint8Array} buf
 * @param {number} p the index after the 'H'
 * @param {number} end
 */
function statusLineAt (buf, p, end) {
  if (p + 11 > end || buf[p + 7] !== 32 || buf[p + 3] !== 47 || buf[p] !== 84 || buf[p + 1] !== 84 ||
      buf[p + 2] !== 80 || buf[p + 4] !== 49 || buf[p + 5] !== 46) return -1
  const minor = buf[p + 6] - 48
  const d1 = buf[p + 8] - 48
  const d2 = buf[p + 9] - 48
  const d3 = buf[p + 10] - 48
  if ((minor !== 0 && minor !== 1) || d1 < 1 || d1 > 5 || d2 < 0 || d2 > 9 || d3 < 0 || d3 > 9) return -1
  return (minor << 10) | (d1 * 100 + d2 * 10 + d3)
}

/**
 * The index of the first LF in buf[i, end), or end. Four bytes at a time
 * through a DataView (a zero-byte test on the word XOR "\n\n\n\n"): a byte
 * loop over a Buffer costs 14 instructions a byte in TurboFan on node 20
 * (9 on node 24), this 8 (callgrind, a 200-byte line); a native indexOf
 * costs about 150 a call, more than a usual header line. Little-endian reads
 * put the lowest address in the lowest bits, and the lowest flagged byte of
 * the test is always a true LF.
 * @param {DataView} view over the same bytes as buf
 * @param {Uint8Array} buf
 * @param {number} i
 * @param {number} end
 */
function lineFeedAt (view, buf, i, end) {
  while (i + 4 <= end) {
    const v = view.getInt32(i, true) ^ 0x0a0a0a0a
    const hit = (v - 0x01010101) & ~v & 0x80808080
    if (hit !== 0) return i + ((31 - Math.clz32(hit & -hit)) >> 3)
    i += 4
  }
  while (i < end && buf[i] !== LF) i++
  return i
}

/**
 * The index of the colon that ends a token name starting at `p`, or -1 (no
 * token byte at `p`, a byte that is neither, or the chunk's end first).
 * @param {Uint8Array} buf
 * @param {number} p
 * @param {number} end
 */
function nameEnd (view, buf, p, end) {
  let j = p
  // four bytes a step, as two pairs: TOKEN_PAIRS says how many bytes of a
  // pair, from the first, are token bytes
  while (j + 4 <= end) {
    const v = view.getInt32(j, true)
    let k = TOKEN_PAIRS[v & 0xffff]
    if (k === 2) k += TOKEN_PAIRS[v >>> 16]
    j += k
    if (k < 4) break
  }
  if (j + 4 > end) while (j < end && TOKEN[buf[j]] === 1) j++
  return j > p && j < end && buf[j] === 58 ? j : -1
}

function hexDigit (c) {
  if (c >= 48 && c <= 57) return c - 48
  const l = c | 0x20
  if (l >= 97 && l <= 102) return l - 87
  return -1
}

// the body states, for a scanner that feeds itself one response at a time (capture-scanner.js)
module.exports = { ResponseScanner, MAX_HEADER_SIZE, S_BODY, S_BODY_EOF, S_CHUNK_DATA }
