'use strict'
// The `endpoints` of a result: one entry per endpoint (a URL, or a request of
// a sequence or HAR file) with the same keys, and the same shapes, as the
// totals: requests, latency (ms) and latencyUs, statusCodeStats, the status
// classes, non2xx, errors and errorsByKind, mismatches, throughput and the
// HdrHistogram (for `benchrig merge`). The runners' per-endpoint stats are
// summed exactly (counters and histogram buckets), so the totals are the sum
// over the endpoints.
const { Histogram } = require('../measure/histogram.js')
const { encode } = require('../measure/hdr-codec.js')
const { E, STRIDE, CODES } = require('../measure/endpoints.js')
const C = require('../counters.js')

/**
 * Sums the runners' endpoint stats into one list over the run's endpoints.
 * @param {{endpointBase: number, endpoints: {n: number, counters: Float64Array, statusCodes: Float64Array, histograms: any[]}}[]} list
 */
function mergeEndpoints (list) {
  const n = list.reduce((m, s) => Math.max(m, (s.endpointBase ?? 0) + (s.endpoints?.n ?? 0)), 0)
  const counters = new Float64Array(n * STRIDE)
  const statusCodes = new Float64Array(n * CODES)
  const histograms = Array.from({ length: n }, () => new Histogram())
  for (const s of list) {
    const ep = s.endpoints
    if (ep === null || ep === undefined) continue
    const base = s.endpointBase ?? 0
    for (let i = 0; i < ep.n * STRIDE; i++) counters[base * STRIDE + i] += ep.counters[i]
    for (let i = 0; i < ep.n * CODES; i++) statusCodes[base * CODES + i] += ep.statusCodes[i]
    ep.histograms.forEach((h, i) => histograms[base + i].add(Histogram.fromTransfer(h)))
  }
  return { n, counters, statusCodes, histograms }
}

/**
 * @param {ReturnType<typeof mergeEndpoints>} m
 * @param {{name: string, method: string, url: string}[]} names the run's endpoints (options)
 * @param {number} duration seconds
 * @param {(h: any, scale: number) => object} latencyStats result.js's
 */
function endpointResults (m, names, duration, latencyStats) {
  const out = []
  for (let e = 0; e < m.n; e++) {
    const at = e * STRIDE
    const c = (k) => m.counters[at + k]
    const statusCodeStats = {}
    for (let code = 100; code < CODES; code++) {
      const count = m.statusCodes[e * CODES + code]
      if (count > 0) statusCodeStats[code] = { count }
    }
    const classes = [1, 2, 3, 4, 5].map((k) => c(E.S1XX + k - 1))
    const non2xx = classes[0] + classes[2] + classes[3] + classes[4]
    const errorsByKind = {}
    C.ERROR_KINDS.forEach((k, i) => { errorsByKind[k] = c(E.ERR + i) })
    errorsByKind.status = non2xx
    const errors = C.ERROR_KINDS.reduce((a, k) => a + errorsByKind[k], 0)
    const total = c(E.COMPLETED)
    const bytes = c(E.BYTES)
    out.push({
      name: names[e]?.name ?? `endpoint ${e}`,
      method: names[e]?.method,
      url: names[e]?.url,
      requests: { average: perSecond(total, duration), total },
      latency: latencyStats(m.histograms[e], 1000),
      latencyUs: latencyStats(m.histograms[e], 1),
      statusCodeStats,
      '1xx': classes[0],
      '2xx': classes[1],
      '3xx': classes[2],
      '4xx': classes[3],
      '5xx': classes[4],
      non2xx,
      errors,
      errorsByKind,
      timeouts: errorsByKind.timeout,
      mismatches: c(E.MISMATCHES),
      throughput: { average: perSecond(bytes, duration), total: bytes },
      histogram: encode(m.histograms[e])
    })
  }
  return out
}

function perSecond (n, duration) {
  return duration > 0 ? Math.round(n / duration * 100) / 100 : 0
}

module.exports = { mergeEndpoints, endpointResults }
