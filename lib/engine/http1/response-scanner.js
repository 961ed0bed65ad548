'use strict'
// A byte-level HTTP/1.x response scanner. It keeps its whole state in a few
// number fields, so scanning allocates nothing per response, and it handles
// input cut anywhere (even byte by byte) and many responses in one chunk.
// It understands exactly what framing needs: the status code, Content-Length,
// Transfer-Encoding: chunked (with trailers), Connection close/keep-alive,
// HTTP/1.0, 1xx interim responses, no-body responses (HEAD, 204, 304) and
// close-delimited bodies. Everything else is skipped, never copied.
//
// The owner (a connection) provides:
//   owner.noBodyExpected() -> bool   the current request was HEAD
//   owner.complete(status, mismatch) one final response finished
//   owner.informational()            one 1xx interim response was skipped

const S_START = 0
const S_REASON = 1
const S_HEADER_START = 2
const S_HEADER_NAME = 3
const S_HEADER_VALUE = 4
const S_HEADERS_LF = 5
const S_BODY = 6
const S_BODY_EOF = 7
const S_CHUNK_SIZE = 8
const S_CHUNK_EXT = 9
const S_CHUNK_DATA = 10
const S_CHUNK_DATA_END = 11
const S_TRAILER_START = 12
const S_TRAILER_LINE = 13
const S_TRAILER_LF = 14
const S_SKIP_LINE = 15

const CR = 13
const LF = 10
const PREFIX = Buffer.from('HTTP/1.', 'latin1')
const NAME_MAX = 32
const VALUE_MAX = 64

// Header kinds we care about, by their lowercase names.
const H_OTHER = 0
const H_CONTENT_LENGTH = 1
const H_TRANSFER_ENCODING = 2
const H_CONNECTION = 3
const KNOWN = [
  [H_CONTENT_LENGTH, Buffer.from('content-length')],
  [H_TRANSFER_ENCODING, Buffer.from('transfer-encoding')],
  [H_CONNECTION, Buffer.from('connection')]
]
// The known names after their first letter, with the colon ('ontent-length:'),
// by kind, for matching in place; OR-ing 0x20 lowercases a letter and is
// applied to letters only (a CR OR 0x20 would read as '-')
const KNOWN_REST = []
for (const [kind, name] of KNOWN) KNOWN_REST[kind] = Buffer.concat([name.subarray(1), Buffer.from(':')])
const NAME_MATCH_BYTES = Math.max(...KNOWN.map(([kind]) => KNOWN_REST[kind].length))

/** True when buf[at...] starts with `rest`, letters compared case-insensitively. */
function startsWithName (buf, at, rest) {
  for (let j = 0; j < rest.length; j++) {
    const want = rest[j]
    const b = buf[at + j]
    if (want >= 97 && want <= 122 ? (b | 0x20) !== want : b !== want) return false
  }
  return true
}

/**
 * The kind of the header whose name starts with `first` (lowercase c or t)
 * and continues at buf[at]; at least NAME_MATCH_BYTES bytes must follow.
 */
function matchKnownName (buf, at, first) {
  if (first === 116) return startsWithName(buf, at, KNOWN_REST[H_TRANSFER_ENCODING]) ? H_TRANSFER_ENCODING : H_OTHER
  if (startsWithName(buf, at, KNOWN_REST[H_CONTENT_LENGTH])) return H_CONTENT_LENGTH
  if (startsWithName(buf, at, KNOWN_REST[H_CONNECTION])) return H_CONNECTION
  return H_OTHER
}

const CHUNKED = Buffer.from('chunked')
const CLOSE = Buffer.from('close')
const KEEP_ALIVE = Buffer.from('keep-alive')

class ResponseScanner {
  /**
   * @param {object} owner see the file header
   * @param {Buffer|undefined} expectBody when set, bodies are compared with it
   */
  constructor (owner, expectBody) {
    this.owner = owner
    this.expect = expectBody
    this.name = new Uint8Array(NAME_MAX)
    this.value = new Uint8Array(VALUE_MAX)
    /** set by the owner to stop the current scan (connection reset) */
    this.halted = false
    /** true after a response that ends the connection (Connection: close, HTTP/1.0) */
    this.closeAfter = false
    this.error = ''
    this.reset()
  }

  /** Back to the start of a response, e.g. on a fresh connection. */
  reset () {
    this.state = S_START
    this.lp = 0
    this.status = 0
    this.minor = 1
    this.nameLen = 0
    this.valueLen = 0
    this.kind = H_OTHER
    this.contentLength = -1
    this.chunked = false
    this.connClose = false
    this.connKeepAlive = false
    this.remaining = 0
    this.chunkDigits = 0
    this.bodyPos = 0
    this.mismatch = false
    this.halted = false
    this.closeAfter = false
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
          // fast path: a whole "HTTP/1.x NNN" in this chunk
          if (this.lp === 0 && c === 72 && i + 11 <= end && buf[i + 7] === 32 && buf[i + 3] === 47 &&
              buf[i] === 84 && buf[i + 1] === 84 && buf[i + 2] === 80 && buf[i + 4] === 49 && buf[i + 5] === 46) {
            const minor = buf[i + 6] - 48
            const d1 = buf[i + 8] - 48
            const d2 = buf[i + 9] - 48
            const d3 = buf[i + 10] - 48
            if ((minor === 0 || minor === 1) && d1 >= 1 && d1 <= 5 && d2 >= 0 && d2 <= 9 && d3 >= 0 && d3 <= 9) {
              this.minor = minor
              this.status = d1 * 100 + d2 * 10 + d3
              this.lp = 12
              this.state = S_REASON
              i += 11
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
              this.state = S_REASON
            }
          }
          this.lp++
          break
        case S_REASON:
        case S_SKIP_LINE:
          // a tight loop to the end of a line we do not need
          if (c !== LF) {
            while (i < end && buf[i] !== LF) i++
            if (i === end) break
            i++
          }
          this.state = S_HEADER_START
          break
        case S_HEADER_START:
          if (c === CR) {
            this.state = S_HEADERS_LF
          } else if (c === LF) {
            if (!this.headersDone()) return false
          } else if (c === 32 || c === 9) {
            return this.fail('obsolete header folding')
          } else if ((c | 0x20) === 99 || (c | 0x20) === 116) {
            // only names starting with c or t (Content-Length, Connection,
            // Transfer-Encoding) are read; other header lines are skipped.
            // With the longest such name in this chunk, match in place
            // (no copy): one of ours, or a line to skip (Content-Type)
            if (end - i >= NAME_MATCH_BYTES) {
              const kind = matchKnownName(buf, i, c | 0x20)
              if (kind === H_OTHER) {
                // not ours: the name must still end in a colon, then the line is skipped
                let j = i
                while (j < end && buf[j] !== 58 && buf[j] !== LF && buf[j] !== CR) j++
                if (j < end) {
                  if (buf[j] !== 58) return this.fail('header line without a colon')
                  i = j + 1
                  this.state = S_SKIP_LINE
                  break
                }
                // the name runs past this chunk: read it the slow way below
              } else {
                i += KNOWN_REST[kind].length
                this.kind = kind
                this.valueLen = 0
                this.state = S_HEADER_VALUE
                break
              }
            }
            this.name[0] = c | 0x20
            this.nameLen = 1
            this.state = S_HEADER_NAME
          } else {
            this.state = S_SKIP_LINE
          }
          break
        case S_HEADERS_LF:
          if (c !== LF) return this.fail('bad end of headers')
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
            if (ch === LF || ch === CR) return this.fail('header line without a colon')
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
          this.valueLen = 0
          this.state = S_HEADER_VALUE
          break
        }
        case S_HEADER_VALUE: {
          if (c === LF) {
            if (this.kind !== H_OTHER && !this.headerValueDone()) return false
            this.state = S_HEADER_START
            break
          }
          if (this.kind === H_OTHER) {
            while (i < end && buf[i] !== LF) i++
            if (i === end) break
            i++
            this.state = S_HEADER_START
            break
          }
          // a value we need (length, coding, connection), lowercased
          const v = this.value
          let n = this.valueLen
          let ch = c
          for (;;) {
            if (ch === LF) break
            if (ch !== CR) {
              if (n < VALUE_MAX) v[n] = ch >= 65 && ch <= 90 ? ch | 0x20 : ch
              n++
            }
            if (i === end) {
              ch = -1
              break
            }
            ch = buf[i++]
          }
          this.valueLen = n
          if (ch === -1) break
          if (!this.headerValueDone()) return false
          this.state = S_HEADER_START
          break
        }
        case S_CHUNK_SIZE: {
          const d = hexDigit(c)
          if (d >= 0) {
            if (this.chunkDigits >= 12) return this.fail('chunk size too large')
            this.remaining = this.remaining * 16 + d
            this.chunkDigits++
          } else if (c === LF) {
            if (!this.chunkSizeDone()) return false
          } else if (c === 59) { // ';'
            this.state = S_CHUNK_EXT
          } else if (c !== CR && c !== 32 && c !== 9) {
            return this.fail('bad chunk size')
          }
          break
        }
        case S_CHUNK_EXT:
          if (c === LF && !this.chunkSizeDone()) return false
          break
        case S_CHUNK_DATA_END:
          if (c === LF) {
            this.state = S_CHUNK_SIZE
            this.chunkDigits = 0
          } else if (c !== CR) {
            return this.fail('chunk data longer than its size')
          }
          break
        case S_TRAILER_START:
          if (c === LF) this.finish()
          else if (c === CR) this.state = S_TRAILER_LF
          else this.state = S_TRAILER_LINE
          break
        case S_TRAILER_LF:
          if (c !== LF) return this.fail('bad end of trailers')
          this.finish()
          break
        case S_TRAILER_LINE:
          if (c === LF) this.state = S_TRAILER_START
          break
      }
    }
    return true
  }

  /** The server closed the connection: ends a close-delimited body. */
  eof () {
    if (this.state === S_BODY_EOF) {
      this.closeAfter = true
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

  headerValueDone () {
    const kind = this.kind
    if (kind === H_OTHER) return true
    // trim OWS
    let a = 0
    let b = Math.min(this.valueLen, VALUE_MAX)
    const v = this.value
    while (a < b && (v[a] === 32 || v[a] === 9)) a++
    while (b > a && (v[b - 1] === 32 || v[b - 1] === 9)) b--
    if (kind === H_CONTENT_LENGTH) {
      if (a === b || this.valueLen > VALUE_MAX) return this.fail('bad Content-Length')
      let n = 0
      for (let j = a; j < b; j++) {
        const d = v[j] - 48
        if (d < 0 || d > 9) return this.fail('bad Content-Length')
        n = n * 10 + d
      }
      if (this.contentLength !== -1 && this.contentLength !== n) return this.fail('conflicting Content-Length')
      this.contentLength = n
    } else if (kind === H_TRANSFER_ENCODING) {
      // chunked must be the last coding
      this.chunked = endsWith(v, a, b, CHUNKED)
    } else if (kind === H_CONNECTION) {
      if (b - a === KEEP_ALIVE.length && v[a] === 107 && hasToken(v, a, b, KEEP_ALIVE)) {
        this.connKeepAlive = true // the common case, one comparison
        return true
      }
      if (hasToken(v, a, b, CLOSE)) this.connClose = true
      if (hasToken(v, a, b, KEEP_ALIVE)) this.connKeepAlive = true
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
    this.closeAfter = this.connClose || (this.minor === 0 && !this.connKeepAlive)
    if (status === 204 || status === 304 || this.owner.noBodyExpected()) {
      this.finish()
    } else if (this.chunked) {
      this.state = S_CHUNK_SIZE
      this.remaining = 0
      this.chunkDigits = 0
    } else if (this.contentLength >= 0) {
      this.remaining = this.contentLength
      if (this.remaining === 0) this.finish()
      else this.state = S_BODY
    } else {
      // no length: the body ends when the server closes
      this.state = S_BODY_EOF
    }
    return true
  }

  chunkSizeDone () {
    if (this.chunkDigits === 0) return this.fail('empty chunk size')
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
    const closeAfter = this.closeAfter
    this.reset()
    this.closeAfter = closeAfter
    this.owner.complete(status, mismatch)
    // a response that closes the connection ends what this connection reads
    if (closeAfter) this.halted = true
  }

  fail (why) {
    this.error = why
    return false
  }
}

function hexDigit (c) {
  if (c >= 48 && c <= 57) return c - 48
  const l = c | 0x20
  if (l >= 97 && l <= 102) return l - 87
  return -1
}

function endsWith (v, a, b, word) {
  if (b - a < word.length) return false
  for (let j = 0; j < word.length; j++) if (v[b - word.length + j] !== word[j]) return false
  return true
}

/** True when word appears in v[a,b) as a comma-separated token. */
function hasToken (v, a, b, word) {
  let j = a
  while (j < b) {
    while (j < b && (v[j] === 32 || v[j] === 9 || v[j] === 44)) j++
    let k = j
    while (k < b && v[k] !== 44) k++
    let e = k
    while (e > j && (v[e - 1] === 32 || v[e - 1] === 9)) e--
    if (e - j === word.length) {
      let m = 0
      while (m < word.length && v[j + m] === word[m]) m++
      if (m === word.length) return true
    }
    j = k + 1
  }
  return false
}

// the body states, for a scanner that feeds itself one response at a time (capture-scanner.js)
module.exports = { ResponseScanner, S_BODY, S_BODY_EOF, S_CHUNK_DATA, S_SKIP_LINE }
