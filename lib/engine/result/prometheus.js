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

/**
 * A scenario's tags as labels of its info series: tag_ and the name with
 * what a label name cannot hold made _ (a second tag that comes out the
 * same is left out: a sample cannot have one label twice).
 * @param {Record<string, string>|undefined} tags
 */
function tagLabels (tags) {
  const out = {}
  for (const [k, v] of Object.entries(tags ?? {})) {
    const label = 'tag_' + k.replace(/[^A-Za-z0-9_]/g, '_')
    if (!(label in out)) out[label] = v
  }
  return out
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
 * The exposition text of a `benchrig load` result. A scenarios run
 * (`--scenarios`) gives every family the overall series as a plain run
 * writes them, without a scenario label, and then one series per scenario
 * with `scenario="name"` (Prometheus reads a missing label as the empty
 * value, so `{scenario=""}` selects the overall series and
 * `{scenario!=""}` the scenarios'; summing over all of them counts twice).
 * @param {any} result the JSON result of a run (or of benchrig merge)
 * @param {{version?: string}} [opts]
 * @returns {string}
 */
function prometheusText (result, opts = {}) {
  const version = opts.version ?? require('../../../package.json').version // lazy: read only when no version is given
  const m = new Exposition()
  const urls = [].concat(result.url ?? [])
  /** @type {{result: any, lbl: Record<string, string>, h: any}[]} the overall result, then each scenario's */
  const sources = [{ result, lbl: {}, h: decode(result.histogram) }]
  const scenarios = result.scenarios !== null && typeof result.scenarios === 'object' ? Object.entries(result.scenarios) : []
  for (const [name, s] of scenarios) sources.push({ result: s, lbl: { scenario: name }, h: decode(s.histogram) })
  // one family, its samples for every source: [suffix, labels, value] rows of one source
  const family = (name, type, help, rows) => m.family(name, type, help, sources.flatMap((src) => rows(src.result, src).map(([suffix, l, v]) => [suffix, { ...src.lbl, ...l }, v])))
  m.family('info', 'gauge', 'The run that wrote these metrics: its target URL(s), space-separated, and the benchrig version; always 1.',
    [['', { url: urls.join(' '), version }, 1]])
  if (scenarios.length > 0) {
    m.family('scenario_info', 'gauge', 'A scenario of the run (--scenarios), its executor and its tags (tag_<name>); always 1.',
      scenarios.map(([name, s]) => ['', { scenario: name, executor: s.scenario?.executor ?? '', ...tagLabels(s.scenario?.tags) }, 1]))
    m.family('scenario_start_offset_seconds', 'gauge', 'When a scenario was planned to start, seconds after the run\'s start (its startTime).',
      scenarios.map(([name, s]) => ['', { scenario: name }, (s.scenario?.startTime ?? 0) / 1000]))
  }
  family('start_time_seconds', 'gauge', 'When the run started, seconds since the epoch.', (r) => [['', {}, new Date(r.start).getTime() / 1000]])
  family('duration_seconds', 'gauge', 'How long the measured run lasted.', (r) => [['', {}, r.duration]])
  family('connections', 'gauge', 'Concurrent connections of the run.', (r) => [['', {}, r.connections]])
  family('requests_total', 'counter', 'Responses received in full (any status).', (r) => [['', {}, r.requests.total]])
  family('requests_sent_total', 'counter', 'Requests written to the connections.', (r) => [['', {}, r.requests.sent ?? r.requests.total]])
  family('requests_per_second', 'gauge', 'Mean of the per-second samples of completed responses.', (r) => [['', {}, r.requests.mean]])
  family('read_bytes_total', 'counter', 'Bytes read from the server (headers and bodies).', (r) => [['', {}, r.throughput.total]])
  family('responses_total', 'counter', 'Responses by HTTP status code.', (r) => Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => ['', { code }, s.count]))
  // every kind, zeros too, so that a series exists before its first error
  family('errors_total', 'counter', 'Failed requests by kind (non-2xx responses are not errors: see responses_total).', (r) => {
    const kinds = C.ERROR_KINDS.concat(Object.keys(r.errorsByKind ?? {}).filter((k) => k !== 'status' && !C.ERROR_KINDS.includes(k)))
    return kinds.map((kind) => ['', { kind }, r.errorsByKind?.[kind] ?? 0])
  })
  // a --scenarios run's: requests interrupted at a scenario's end (or by a ramp
  // down), and an arrival-rate scenario's dropped iterations and VUs opened
  const ofKey = (key) => (r) => (Number.isFinite(r[key]) ? [['', {}, r[key]]] : [])
  if (sources.some((src) => Number.isFinite(src.result.interrupted))) {
    family('interrupted_total', 'counter', 'Requests in flight when a scenario ended (after its gracefulStop) or cut by a ramp down (after its gracefulRampDown): neither completed nor timed.', ofKey('interrupted'))
  }
  if (sources.some((src) => Number.isFinite(src.result.dropped_iterations))) {
    family('dropped_iterations_total', 'counter', 'Arrivals of an arrival-rate scenario that found no VU free and none left to add (maxVUs): never sent.', ofKey('dropped_iterations'))
    family('vus_max', 'gauge', 'VUs (connections) an arrival-rate scenario opened: preAllocatedVUs, and those added up to maxVUs.', ofKey('vus_max'))
  }
  if (sources.some((src) => src.result.rate !== undefined)) {
    family('target_requests_per_second', 'gauge', 'The constant rate the run aimed at (-R/-r).', (r) => (r.rate === undefined ? [] : [['', {}, r.rate.target]]))
  }

  // whole µs: no float noise in the text
  const sum = (h) => Math.round(h.mean() * h.totalCount) / 1e6
  const corrected = result.latencyCorrected ? ' from each planned send time (corrected for coordinated omission)' : ''
  family('request_duration_seconds', 'histogram', `Response latency${corrected}, bucketed from the run's HdrHistogram; _sum from bin midpoints.`, (r, { h }) => {
    const buckets = bucketCounts(h, BUCKETS)
    return [
      ...BUCKETS.map((le, i) => ['_bucket', { le }, buckets[i]]),
      ['_bucket', { le: '+Inf' }, h.totalCount],
      ['_sum', {}, sum(h)],
      ['_count', {}, h.totalCount]
    ]
  })
  family('latency_seconds', 'summary', `Response latency percentiles${corrected}, from the run's HdrHistogram (3 significant digits).`, (r, { h }) => [
    ...QUANTILES.map(([q, key]) => ['', { quantile: q }, (r.latencyUs?.[key] ?? r.latency[key] * 1000) / 1e6]),
    ['_sum', {}, sum(h)],
    ['_count', {}, h.totalCount]
  ])
  // a WebSocket run, or a scenarios run of which one scenario is one
  const any = (test) => sources.some((src) => test(src.result))
  // --threshold (and a scenario's thresholds): a verdict and the figure it judged, per expression
  if (any((r) => Array.isArray(r.thresholds) && r.thresholds.length > 0)) {
    const checked = (r) => (Array.isArray(r.thresholds) ? r.thresholds : [])
    family('threshold_passed', 'gauge', 'Whether a threshold (--threshold, or a scenario\'s) held at the end of the run: 1 passed, 0 failed.',
      (r) => checked(r).map((th) => ['', { threshold: th.expr }, th.ok ? 1 : 0]))
    family('threshold_value', 'gauge', 'The figure a threshold judged, in its own unit (ms for latencies, % for shares, req/s for rps, else a count).',
      (r) => checked(r).map((th) => ['', { threshold: th.expr }, th.value]))
  }
  if (any((r) => r.ws !== undefined)) wsFamilies(family, any)
  return m.text()
}

/**
 * A WebSocket run's own series (requests_total above counts replies): close
 * codes the server sent, protocol violations and handshake refusals by kind
 * (zeros too), and the handshake latency's percentiles.
 * @param {(name: string, type: string, help: string, rows: (r: any) => any[][]) => void} family
 * @param {(test: (r: any) => boolean) => boolean} any whether the result or one of its scenarios passes the test
 */
function wsFamilies (family, any) {
  const ws = (r) => r.ws ?? {}
  family('ws_server_closes_total', 'counter', 'Close frames the server sent, by close code (1005: without a code).',
    (r) => Object.entries(ws(r).closeCodes ?? {}).map(([code, n]) => ['', { code }, n]))
  family('ws_protocol_errors_total', 'counter', 'Frames from the server that broke RFC 6455, by kind (each also an error of kind parse).',
    (r) => Object.entries(ws(r).protocolErrors ?? {}).map(([kind, n]) => ['', { kind }, n]))
  family('ws_handshake_errors_total', 'counter', 'Opening handshakes the server refused or got wrong, by kind (each also an error of kind connect).',
    (r) => Object.entries(ws(r).handshakeErrors ?? {}).map(([kind, n]) => ['', { kind }, n]))
  family('ws_frames_total', 'counter', 'Frames from the server that are not replies: pings, pongs, messages with nothing in flight, replies with an unknown id.',
    (r) => (r.ws === undefined ? [] : ['pings', 'pongs', 'unsolicited', 'unmatched'].map((kind) => ['', { kind }, r.ws[kind] ?? 0])))
  if (!any((r) => r.handshakeLatency !== undefined)) return
  family('ws_handshake_seconds', 'summary', 'Opening handshake latency (connect to the 101), from its HdrHistogram.', (r) => {
    const hs = r.handshakeLatency
    return hs === undefined ? [] : [...QUANTILES.map(([q, key]) => ['', { quantile: q }, hs[key] / 1000]), ['_count', {}, hs.totalCount]]
  })
}

module.exports = { prometheusText, bucketCounts, BUCKETS }
