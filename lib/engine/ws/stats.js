'use strict'
// What a WebSocket run records beyond the HTTP figures, per runner: the
// handshake's latency (socket ready -> 101), close codes the server sent,
// protocol violations and handshake refusals by kind, and the frames that
// are not replies (pings, pongs, messages nobody asked for). Merged exactly
// like the rest (sums), across runners here and across runs in merge.js.
const { Histogram } = require('../measure/histogram.js')
const { KINDS } = require('./frame-reader.js')
const { HANDSHAKE_KINDS } = require('./handshake.js')

// one Float64Array of counts: the protocol kinds, the handshake kinds, then these
const OTHER = ['unsolicited', 'unmatched', 'pings', 'pongs', 'serverCloses', 'closesSent']
const SIZE = KINDS.length + HANDSHAKE_KINDS.length + OTHER.length
const HS = KINDS.length
const O = Object.fromEntries(OTHER.map((k, i) => [k, HS + HANDSHAKE_KINDS.length + i]))
const CLOSE_CODES = 5000 // close codes are 1000..4999

class WsStats {
  constructor () {
    this.handshake = new Histogram()
    this.counts = new Float64Array(SIZE)
    this.closeCodes = new Float64Array(CLOSE_CODES)
  }

  /** @param {number} kind index into frame-reader.js KINDS */
  protocol (kind) { this.counts[kind]++ }
  /** @param {string} kind one of handshake.js HANDSHAKE_KINDS */
  handshakeRefused (kind) { this.counts[HS + HANDSHAKE_KINDS.indexOf(kind)]++ }
  /** @param {'unsolicited'|'unmatched'|'pings'|'pongs'|'serverCloses'|'closesSent'} what */
  count (what) { this.counts[O[what]]++ }
  /** @param {number} code a close frame's code (1005: it had none) */
  closedBy (code) {
    this.counts[O.serverCloses]++
    if (code < CLOSE_CODES) this.closeCodes[code]++
  }

  toTransfer () {
    return { handshake: this.handshake.toTransfer(), counts: this.counts, closeCodes: this.closeCodes }
  }
}

/**
 * Sums the runners' WebSocket stats.
 * @param {{handshake: object, counts: Float64Array, closeCodes: Float64Array}[]} list
 */
function mergeWsStats (list) {
  const handshake = new Histogram()
  const counts = new Float64Array(SIZE)
  const closeCodes = new Float64Array(CLOSE_CODES)
  for (const s of list) {
    handshake.add(Histogram.fromTransfer(s.handshake))
    for (let i = 0; i < SIZE; i++) counts[i] += s.counts[i]
    for (let i = 0; i < CLOSE_CODES; i++) closeCodes[i] += s.closeCodes[i]
  }
  return { handshake, counts, closeCodes }
}

/**
 * The result's WebSocket keys: `ws` (counts by kind, close codes) and the
 * handshake latency with its histogram (a top-level `<name>Histogram`, so
 * `benchrig merge` adds it and recomputes `handshakeLatency`).
 * @param {{handshake: Histogram, counts: Float64Array, closeCodes: Float64Array}} m
 * @param {(h: Histogram, scale: number) => object} latencyStats
 * @param {(h: Histogram) => string} encode
 * @param {{messages: number, binary: boolean, idField?: string}} info
 */
function wsResult (m, latencyStats, encode, info) {
  const protocolErrors = Object.fromEntries(KINDS.map((k, i) => [k, m.counts[i]]))
  const handshakeErrors = Object.fromEntries(HANDSHAKE_KINDS.map((k, i) => [k, m.counts[HS + i]]))
  const closeCodes = {}
  for (let code = 1000; code < CLOSE_CODES; code++) if (m.closeCodes[code] > 0) closeCodes[code] = m.closeCodes[code]
  const ws = {
    messageBytes: info.messages,
    binary: info.binary,
    match: info.idField === undefined ? 'order' : `id:${info.idField}`,
    protocolErrors,
    handshakeErrors,
    closeCodes
  }
  for (const k of OTHER) ws[k] = m.counts[O[k]]
  return {
    statusCodeStats: {}, // replies have no status: they are counted as 2xx so thresholds on non2xx read 0
    ws,
    handshakeLatency: latencyStats(m.handshake, 1000),
    handshakeHistogram: encode(m.handshake)
  }
}

module.exports = { WsStats, mergeWsStats, wsResult, OTHER }
