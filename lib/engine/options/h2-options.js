'use strict'
// Options of HTTP/2 runs (--h2, --max-streams, --h2-window). `-m` stays the
// method (autocannon's flag), so max streams has a long flag only.
const { UsageError } = require('../../errors.js')
const { parseCount } = require('./units.js')

const DEFAULT_MAX_STREAMS = 10
const DEFAULT_WINDOW = 16 * 1024 * 1024
const MIN_WINDOW = 65535
const MAX_WINDOW = 2 ** 31 - 1

/** A whole-number option: a number or SI text such as 1k (units.js). */
function integer (value, flag, min, max) {
  return parseCount(value, flag, { min, max })
}

/** A window size: bytes, or with a k/m suffix (KiB, MiB). */
function windowSize (value) {
  const m = /^\s*(\d+)\s*([kKmM])?i?[bB]?\s*$/.exec(String(value))
  const n = m ? Number(m[1]) * (m[2] ? (/k/i.test(m[2]) ? 1024 : 1024 * 1024) : 1) : NaN
  if (!Number.isInteger(n) || n < MIN_WINDOW || n > MAX_WINDOW) {
    throw new UsageError(`invalid --h2-window "${value}": give bytes from ${MIN_WINDOW} to ${MAX_WINDOW}, or a size like 1m, 16m`)
  }
  return n
}

/**
 * @param {object} o user options
 * @param {{pipelining: number, body: Buffer|undefined, shape: object}} base
 * @returns {{maxStreams: number, window: number, lastStreamId?: number}|null} null for HTTP/1.1
 */
function normalizeH2 (o, base) {
  const on = o.h2 === true || o.h2 === 'true'
  if (!on) {
    if (o.maxStreams !== undefined) throw new UsageError('--max-streams applies to HTTP/2 only: add --h2')
    if (o.h2Window !== undefined) throw new UsageError('--h2-window applies to HTTP/2 only: add --h2')
    return null
  }
  if (base.pipelining > 1) throw new UsageError('-p/--pipelining is HTTP/1.1: with --h2 give --max-streams N (concurrent streams per connection)')
  const shape = base.shape ?? {}
  if (shape.connectionClose) {
    // HTTP/2 forbids the Connection header, and a server does not close after
    // one stream; -D 1 is the same traffic (one stream per connection)
    throw new UsageError('--connection close is HTTP/1.1 (HTTP/2 has no Connection header): with --h2 give -D 1 (--reconnect-rate 1) for a new connection per request')
  }
  const out = {
    maxStreams: o.maxStreams === undefined ? DEFAULT_MAX_STREAMS : integer(o.maxStreams, '--max-streams', 1, 10000),
    window: o.h2Window === undefined ? DEFAULT_WINDOW : windowSize(o.h2Window)
  }
  // tests only: reconnect long before stream ids run out at 2^31
  if (o.h2LastStreamId !== undefined) out.lastStreamId = integer(o.h2LastStreamId, 'h2LastStreamId', 3, 2 ** 31 - 1)
  return out
}

module.exports = { normalizeH2, DEFAULT_MAX_STREAMS, DEFAULT_WINDOW }
