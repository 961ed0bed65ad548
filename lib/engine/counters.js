'use strict'
// Indexes of the per-worker counters (one Float64Array, summed on merge).
// Float64 keeps counts exact up to 2^53 and merges with a plain loop.
const names = [
  'COMPLETED', 'SENT', 'BYTES', 'RESENT', 'RECONNECTS', 'INFORMATIONAL',
  'DROPPED', 'MISMATCHES', 'CONNECTS', 'PLANNED_RECONNECTS', 'GOAWAYS',
  'ERR_CONNECT', 'ERR_READ', 'ERR_WRITE', 'ERR_TIMEOUT', 'ERR_PARSE', 'ERR_RESET', 'ERR_GOAWAY',
  'S1XX', 'S2XX', 'S3XX', 'S4XX', 'S5XX',
  // setupRequest sent the sequence back to its start (autocannon's `resets`)
  'SEQUENCE_RESETS',
  // sent and still unanswered when the run stopped, or when a ramp down cut
  // their connection: given up, never timed (graceful-stop.js)
  'INTERRUPTED',
  // arrivals of a VU pool's plan that found no connection (vu-pool.js), set at the end
  'DROPPED_ITERATIONS'
]
// Made in one step: an object given its properties one by one in a loop
// turns into a dictionary, and V8 then reads C.COMPLETED on the hot path
// through a generic LoadIC call instead of a constant
const C = Object.fromEntries([
  ...names.map((n, i) => [n, i]),
  ['SIZE', names.length],
  ['NAMES', names],
  /** error kinds, in the order of the ERR_* counters */
  // (reset: an HTTP/2 stream reset by the server; goaway: a GOAWAY with an error code)
  ['ERROR_KINDS', ['connect', 'read', 'write', 'timeout', 'parse', 'reset', 'goaway']]
])

module.exports = C
