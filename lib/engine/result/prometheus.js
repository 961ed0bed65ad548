'use strict'
// --prometheus FILE: a run's result in the Prometheus text exposition format
// (version 0.0.4), for node_exporter's textfile collector or a Pushgateway.
// Everything comes from the result object, so `benchrig load` and a saved
// JSON give the same text. The latency histogram's buckets are counted from
// our HdrHistogram, never re-sampled: a bucket holds the responses whose
// whole HdrHistogram bin (3 significant digits) lies at or below `le`.
// No sample carries a timestamp: the textfile collector rejects them.
const { decode } = require('../measure/hdr-codec.js')
const C = require('../counters.js')

const PREFIX = 'benchrig_load_'
// 10 µs to 50 s in 1-2.5-5 steps: fixed bounds, so that the buckets of runs
// on different machines or days can be added and compared in PromQL
const BUCKETS = [-5, -4, -3, -2, -1, 0, 1].flatMap((e) => [1, 2.5, 5].map((m) => decimal(m, e)))
const QUANTILES = [['0.5', 'p50'], ['0.9', 'p90'], ['0.99', 'p99'], ['0.999', 'p99_9'], ['0.9999', 'p99_99']]

/** m·10^e as a plain decimal string ("0.000025", "50"), no exponent. */
function decimal (m, e) {
  const digits = Math.max(0, 1 - e)
  return (m * Math.pow(10, e)).toFixed(digits).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')
}

/** A label value as the format wants it: backslash, quote and newline escaped. */
function labelValue (s) {
  return String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

function num (x) {
  if (x === Infinity) return '+Inf'
  if (x === -Infinity) return '-Inf'
  return Number.isNaN(x) ? 'NaN' : String(x)
}

function labels (obj) {
  const parts = Object.entries(obj).map(([k, v]) => `${k}="${labelValue(v)}"`)
  return parts.length ? `{${parts.join(',')}}` : ''
}

/** Collects metric families: each HELP/TYPE once, then its samples. */
class Exposition {
  #lines = []

  family (name, type, help, samples) {
    this.#lines.push(`# HELP ${PREFIX}${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${PREFIX}${name} ${type}`)
    for (const [suffix, lbls, value] of samples) this.#lines.push(`${PREFIX}${name}${suffix}${labels(lbls)} ${num(value)}`)
  }

  text () {
    return this.#lines.join('\n') + '\n'
  }
}

/**
 * Cumulative counts at each bound (seconds) from an HdrHistogram of µs.
 * @param {import('../measure/histogram.js').Histogram} h
 * @param {string[]} bounds
 * @returns {number[]}
 */
function bucketCounts (h, bounds) {
  const limits = bounds.map((b) => Math.round(Number(b) * 1e6))
  const out = new Array(bounds.length).fill(0)
  const c = h.counts
  let k = 0
  let cumulative = 0
  for (let i = 0; i < c.length && k < limits.length; i++) {
    if (c[i] === 0) continue
    const highest = h.valueFromIndex(i) + h.rangeAtIndex(i) - 1
    while (k < limits.length && highest > limits[k]) out[k++] = cumulative
    cumulative += c[i]
  }
  while (k < limits.length) out[k++] = cumulative
  return out
}

/**
 * The exposition text of a `benchrig load` result.
 * @param {any} result the JSON result of a run (or of benchrig merge)
 * @param {{version?: string}} [opts]
 * @returns {string}
 */
function prometheusText (result, opts = {}) {
  const version = opts.version ?? require('../../../package.json').version
  const m = new Exposition()
  const urls = [].concat(result.url ?? [])
  m.family('info', 'gauge', 'The run that wrote these metrics: its target URL(s), space-separated, and the benchrig version; always 1.',
    [['', { url: urls.join(' '), version }, 1]])
  m.family('start_time_seconds', 'gauge', 'When the run started, seconds since the epoch.', [['', {}, new Date(result.start).getTime() / 1000]])
  m.family('duration_seconds', 'gauge', 'How long the measured run lasted.', [['', {}, result.duration]])
  m.family('connections', 'gauge', 'Concurrent connections of the run.', [['', {}, result.connections]])
  m.family('requests_total', 'counter', 'Responses received in full (any status).', [['', {}, result.requests.total]])
  m.family('requests_sent_total', 'counter', 'Requests written to the connections.', [['', {}, result.requests.sent ?? result.requests.total]])
  m.family('requests_per_second', 'gauge', 'Mean of the per-second samples of completed responses.', [['', {}, result.requests.mean]])
  m.family('read_bytes_total', 'counter', 'Bytes read from the server (headers and bodies).', [['', {}, result.throughput.total]])
  const codes = Object.entries(result.statusCodeStats ?? {})
  m.family('responses_total', 'counter', 'Responses by HTTP status code.', codes.map(([code, s]) => ['', { code }, s.count]))
  // every kind, zeros too, so that a series exists before its first error
  const kinds = C.ERROR_KINDS.concat(Object.keys(result.errorsByKind ?? {}).filter((k) => k !== 'status' && !C.ERROR_KINDS.includes(k)))
  m.family('errors_total', 'counter', 'Failed requests by kind (non-2xx responses are not errors: see responses_total).',
    kinds.map((kind) => ['', { kind }, result.errorsByKind?.[kind] ?? 0]))
  if (result.rate !== undefined) {
    m.family('target_requests_per_second', 'gauge', 'The constant rate the run aimed at (-R/-r).', [['', {}, result.rate.target]])
  }

  const h = decode(result.histogram)
  const count = h.totalCount
  const sum = Math.round(h.mean() * count) / 1e6 // whole µs: no float noise in the text
  const corrected = result.latencyCorrected ? ' from each planned send time (corrected for coordinated omission)' : ''
  const buckets = bucketCounts(h, BUCKETS)
  m.family('request_duration_seconds', 'histogram', `Response latency${corrected}, bucketed from the run's HdrHistogram; _sum from bin midpoints.`, [
    ...BUCKETS.map((le, i) => ['_bucket', { le }, buckets[i]]),
    ['_bucket', { le: '+Inf' }, count],
    ['_sum', {}, sum],
    ['_count', {}, count]
  ])
  m.family('latency_seconds', 'summary', `Response latency percentiles${corrected}, from the run's HdrHistogram (3 significant digits).`, [
    ...QUANTILES.map(([q, key]) => ['', { quantile: q }, (result.latencyUs?.[key] ?? result.latency[key] * 1000) / 1e6]),
    ['_sum', {}, sum],
    ['_count', {}, count]
  ])
  if (result.ws !== undefined) wsFamilies(m, result)
  return m.text()
}

/**
 * A WebSocket run's own series (requests_total above counts replies): close
 * codes the server sent, protocol violations and handshake refusals by kind
 * (zeros too), and the handshake latency's percentiles.
 */
function wsFamilies (m, result) {
  const ws = result.ws
  m.family('ws_server_closes_total', 'counter', 'Close frames the server sent, by close code (1005: without a code).',
    Object.entries(ws.closeCodes ?? {}).map(([code, n]) => ['', { code }, n]))
  m.family('ws_protocol_errors_total', 'counter', 'Frames from the server that broke RFC 6455, by kind (each also an error of kind parse).',
    Object.entries(ws.protocolErrors ?? {}).map(([kind, n]) => ['', { kind }, n]))
  m.family('ws_handshake_errors_total', 'counter', 'Opening handshakes the server refused or got wrong, by kind (each also an error of kind connect).',
    Object.entries(ws.handshakeErrors ?? {}).map(([kind, n]) => ['', { kind }, n]))
  m.family('ws_frames_total', 'counter', 'Frames from the server that are not replies: pings, pongs, messages with nothing in flight, replies with an unknown id.',
    ['pings', 'pongs', 'unsolicited', 'unmatched'].map((kind) => ['', { kind }, ws[kind] ?? 0]))
  const hs = result.handshakeLatency
  if (hs !== undefined) {
    m.family('ws_handshake_seconds', 'summary', 'Opening handshake latency (connect to the 101), from its HdrHistogram.', [
      ...QUANTILES.map(([q, key]) => ['', { quantile: q }, hs[key] / 1000]),
      ['_count', {}, hs.totalCount]
    ])
  }
}

module.exports = { prometheusText, bucketCounts, BUCKETS }
