'use strict'
// Indexes of the per-worker counters (one Float64Array, summed on merge).
// Float64 keeps counts exact up to 2^53 and merges with a plain loop.
const names = [
  'COMPLETED', 'SENT', 'BYTES', 'RESENT', 'RECONNECTS', 'INFORMATIONAL',
  'DROPPED', 'MISMATCHES', 'CONNECTS',
  'ERR_CONNECT', 'ERR_READ', 'ERR_WRITE', 'ERR_TIMEOUT', 'ERR_PARSE',
  'S1XX', 'S2XX', 'S3XX', 'S4XX', 'S5XX'
]
const C = {}
names.forEach((n, i) => { C[n] = i })
C.SIZE = names.length
C.NAMES = names
/** error kinds, in the order of the ERR_* counters */
C.ERROR_KINDS = ['connect', 'read', 'write', 'timeout', 'parse']

module.exports = C
