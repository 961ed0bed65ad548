'use strict'
// What a gRPC run records beyond the HTTP/2 figures: each call's status from
// its trailers (grpc-status), counted by code. A call that ended without
// one (a stream closed by DATA, or no trailers) is counted as missing.
// Merged by summing, here over runners and in merge.js over runs.

/** gRPC status codes by number (grpc/doc/statuscodes.md). */
const CODES = ['OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED',
  'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED']
const MISSING = CODES.length // no grpc-status
const OTHER = CODES.length + 1 // a number outside the table

class GrpcStats {
  constructor () {
    this.codes = new Float64Array(CODES.length + 2)
  }

  /** @param {number} code grpc-status of a finished call (-1: none) */
  status (code) {
    this.codes[code < 0 ? MISSING : (code < CODES.length ? code : OTHER)]++
  }
}

/** @param {Float64Array[]} list the runners' code counts */
function mergeGrpcStats (list) {
  const codes = new Float64Array(CODES.length + 2)
  for (const c of list) for (let i = 0; i < codes.length; i++) codes[i] += c[i]
  return codes
}

/**
 * The result's `grpc` key: calls by status name (only those seen), the
 * non-OK count, and what was called.
 * @param {Float64Array} codes @param {{call: string, messageBytes: number}} info
 */
function grpcResult (codes, info) {
  const statusCodes = {}
  CODES.forEach((name, i) => { if (codes[i] > 0) statusCodes[name] = codes[i] })
  if (codes[MISSING] > 0) statusCodes.MISSING = codes[MISSING]
  if (codes[OTHER] > 0) statusCodes.OTHER = codes[OTHER]
  let failed = 0
  for (let i = 1; i < codes.length; i++) failed += codes[i]
  return { grpc: { call: info.call, messageBytes: info.messageBytes, statusCodes, ok: codes[0], failed } }
}

module.exports = { GrpcStats, mergeGrpcStats, grpcResult, CODES }
