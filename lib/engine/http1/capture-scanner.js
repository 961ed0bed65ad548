'use strict'
// A response scanner for runs that need more than framing: the byte length of
// each response (the 'response' event, -x), its headers and body (onResponse,
// verifyBody). It is chosen once per run (hooks.js), so the static path keeps
// the plain ResponseScanner and pays nothing.
//
// It feeds the plain scanner in segments that never cross the end of a
// response: a head or chunk-size line at a time, at most `remaining` bytes of
// a body. So when a response finishes, the bytes before it are exactly its
// own. Bodies arrive through compare(), which the plain scanner calls for
// body bytes whenever `expect` is set: here `expect` is a marker that turns
// that call into a copy.
const { ResponseScanner, S_BODY, S_BODY_EOF, S_CHUNK_DATA } = require('./response-scanner.js')

const CAPTURE = Buffer.alloc(0)
const EMPTY = Buffer.alloc(0)

class CaptureScanner extends ResponseScanner {
  /**
   * @param {object} owner the connection
   * @param {{captureBody: boolean, expectBody?: Buffer, maxHeaderSize?: number, verifyBody?: Function, finished: (scanner: CaptureScanner, status: number) => boolean}} how
   *   finished() runs the hooks of a response and says whether its body mismatched
   */
  constructor (owner, how) {
    super(owner, how.captureBody || how.expectBody !== undefined ? CAPTURE : undefined, how.maxHeaderSize)
    this.how = how
    // it feeds the state machine a line at a time: a whole head is never in view
    this.wholeHeads = false
    this.expected = how.expectBody
    this.wantBody = this.expect === CAPTURE
    this.bodyParts = []
    this.headParts = []
    this.bytes = 0
    /** of the response last finished */
    this.resBytes = 0
    this.body = EMPTY
    this.headers = null
  }

  scan (buf, start, end) {
    let i = start
    while (i < end) {
      const s = this.state
      let stop
      if (s === S_BODY || s === S_CHUNK_DATA) {
        stop = i + this.remaining < end ? i + this.remaining : end
      } else if (s === S_BODY_EOF) {
        stop = end
      } else {
        stop = i
        while (stop < end && buf[stop] !== 10) stop++
        if (stop < end) stop++
        if (s < S_BODY) this.headParts.push(Buffer.from(buf.subarray(i, stop)))
      }
      this.bytes += stop - i
      if (!super.scan(buf, i, stop)) return false
      if (this.halted) return true
      i = stop
    }
    return true
  }

  compare (buf, at, n) {
    if (n > 0) this.bodyParts.push(Buffer.from(buf.subarray(at, at + n)))
  }

  headersDone () {
    if (this.status >= 200) this.headers = parseHead(this.headParts)
    this.headParts.length = 0
    return super.headersDone()
  }

  finish () {
    this.resBytes = this.bytes
    this.bytes = 0
    if (this.wantBody) {
      this.body = this.bodyParts.length === 1 ? this.bodyParts[0] : Buffer.concat(this.bodyParts)
      this.bodyParts.length = 0
    }
    let mismatch = this.how.finished(this, this.status)
    if (!mismatch && this.expected !== undefined && this.how.verifyBody === undefined) mismatch = !this.body.equals(this.expected)
    // the plain finish() reports `this.mismatch` when `expect` is set and
    // bodyPos equals its (zero) length
    this.mismatch = mismatch
    this.bodyPos = 0
    super.finish()
    this.headers = null
    this.body = EMPTY
  }
}

/**
 * Headers of a response head as an object of lowercase names; a repeated
 * header (set-cookie) is an array of its values, as autocannon gives it.
 */
function parseHead (parts) {
  const text = Buffer.concat(parts).toString('latin1')
  const out = {}
  const lines = text.split('\n')
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    const had = out[name]
    out[name] = had === undefined ? value : (Array.isArray(had) ? (had.push(value), had) : [had, value])
  }
  return out
}

module.exports = { CaptureScanner, parseHead }
