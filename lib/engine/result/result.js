'use strict'
// Merges the stats of every runner exactly (sums of counters, of histogram
// counts and of per-second samples) and builds the result object, with
// autocannon's keys so users can switch, plus ours (µs latency, errors by
// kind, the HdrHistogram, generator saturation).
const { Histogram } = require('../measure/histogram.js')
const { encode } = require('../measure/hdr-codec.js')
const C = require('../counters.js')
const { mergeEndpoints, endpointResults } = require('./endpoints.js')

const PERCENTILES = [0.001, 0.01, 0.1, 1, 2.5, 10, 25, 50, 75, 90, 97.5, 99, 99.9, 99.99, 99.999]
const pkey = (p) => 'p' + String(p).replace('.', '_')
const SATURATED = 0.9
// Below this a thread's busy share cannot be judged: CPU time comes in 10 ms
// ticks and a run of a few requests is mostly its own start-up (a 4-request
// run read 97% busy on a loaded machine and warned about a limit it never met).
const SATURATION_MIN_MS = 1000

/**
 * The warning of a run whose busiest generator thread was busy `busiest` of
 * the time (0..1), or undefined: none for runs too short to judge.
 * @param {number} busiest @param {number} elapsedMs
 */
function saturationWarning (busiest, elapsedMs) {
  if (busiest < SATURATED || !(elapsedMs >= SATURATION_MIN_MS)) return undefined
  return `a generator thread was busy ${Math.round(busiest * 100)}% of the run (CPU or event loop): ` +
    'the numbers may show the client\'s limit rather than the server\'s; add -w/--workers or use fewer connections'
}

/**
 * @param {object[]} list stats posted by runners
 * @returns {object} merged stats
 */
function mergeStats (list) {
  const counters = new Float64Array(C.SIZE)
  const statusCodes = new Float64Array(600)
  const histogram = new Histogram()
  const samplesReq = []
  const samplesBytes = []
  const errorDetails = {}
  let elapsedMs = 0
  let start = Infinity
  let t0 = Infinity
  const connectTimes = new Histogram()
  const firstBytes = list[0]?.firstBytes ? new Histogram() : null
  const firstToLast = list[0]?.firstToLast ? new Histogram() : null
  const rate = list[0]?.rate ? { planned: 0, issued: 0, dropped: 0, lag: new Histogram(), uncorrected: list[0].rate.uncorrected ? new Histogram() : null } : null
  let openMax = 0
  let vusMax = 0
  let sendMs = 0
  for (const s of list) {
    connectTimes.add(Histogram.fromTransfer(s.connectTimes))
    if (firstBytes !== null) firstBytes.add(Histogram.fromTransfer(s.firstBytes))
    if (firstToLast !== null) firstToLast.add(Histogram.fromTransfer(s.firstToLast))
    if (rate !== null) {
      rate.planned += s.rate.planned
      rate.issued += s.rate.issued
      rate.dropped += s.rate.dropped ?? 0
      rate.lag.add(Histogram.fromTransfer(s.rate.lag))
      if (rate.uncorrected !== null) rate.uncorrected.add(Histogram.fromTransfer(s.rate.uncorrected))
    }
    // workers peak at different moments: the sum is an upper bound
    openMax += s.openMax
    vusMax += s.vusMax ?? 0
    sendMs = Math.max(sendMs, s.sendMs ?? 0)
    for (let i = 0; i < C.SIZE; i++) counters[i] += s.counters[i]
    for (let i = 0; i < 600; i++) statusCodes[i] += s.statusCodes[i]
    histogram.add(Histogram.fromTransfer(s.histogram))
    // seconds are counted from one t0 by every runner: add index-wise
    for (let i = 0; i < s.samplesReq.length; i++) {
      samplesReq[i] = (samplesReq[i] ?? 0) + s.samplesReq[i]
      samplesBytes[i] = (samplesBytes[i] ?? 0) + s.samplesBytes[i]
    }
    for (const [k, v] of Object.entries(s.errorDetails)) errorDetails[k] ??= v
    elapsedMs = Math.max(elapsedMs, s.elapsedMs)
    start = Math.min(start, s.start)
    if (s.t0 !== undefined) t0 = Math.min(t0, s.t0)
  }
  // the raw whole seconds on absolute time, before any scaled sample: what
  // `benchrig merge` needs to add runs of other processes second by second
  const sampleMs = list[0]?.sampleMs ?? 1000
  const perSecond = { start: Number.isFinite(t0) ? t0 : undefined, ms: sampleMs, requests: samplesReq.slice(), bytes: samplesBytes.slice() }
  // a run shorter than a sample still gets one (scaled) sample
  if (samplesReq.length === 0 && elapsedMs > 0) {
    samplesReq.push(counters[C.COMPLETED] * sampleMs / elapsedMs)
    samplesBytes.push(counters[C.BYTES] * sampleMs / elapsedMs)
  }
  return {
    counters,
    statusCodes,
    histogram,
    samplesReq,
    samplesBytes,
    errorDetails,
    elapsedMs,
    start,
    perSecond,
    connectTimes,
    firstBytes,
    firstToLast,
    rate,
    openMax,
    vusMax,
    sendMs,
    endpoints: mergeEndpoints(list),
    // a WebSocket run's handshake latency, close codes, protocol errors (ws/stats.js)
    // lazy: only WebSocket runs have these stats (the engine's start-up counts in short runs)
    ws: list[0]?.ws === undefined ? undefined : require('../ws/stats.js').mergeWsStats(list.map((s) => s.ws)),
    // lazy: only gRPC runs have these stats (the engine's start-up counts in short runs)
    grpc: list[0]?.grpc === undefined ? undefined : require('../grpc/stats.js').mergeGrpcStats(list.map((s) => s.grpc)),
    everConnected: list.some((s) => s.everConnected),
    reasons: list.map((s) => s.reason),
    runners: list.map((s) => s.saturation)
  }
}

function sampleStats (samples) {
  const sorted = samples.slice().sort((a, b) => a - b)
  const n = sorted.length
  const total = sorted.reduce((a, b) => a + b, 0)
  const mean = n ? total / n : 0
  const variance = n ? sorted.reduce((a, x) => a + (x - mean) * (x - mean), 0) / n : 0
  const out = {
    average: round2(mean),
    mean: round2(mean),
    stddev: round2(Math.sqrt(variance)),
    min: n ? sorted[0] : 0,
    max: n ? sorted[n - 1] : 0
  }
  for (const p of PERCENTILES) {
    out[pkey(p)] = n ? sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n - 1e-9) - 1))] : 0
  }
  return out
}

function latencyStats (h, scale) {
  const v = (x) => round3(x / scale)
  const out = {
    average: v(h.mean()),
    mean: v(h.mean()),
    stddev: v(h.stddev()),
    min: v(h.totalCount ? h.minValue : 0),
    max: v(h.maxValue)
  }
  for (const p of PERCENTILES) out[pkey(p)] = v(h.percentile(p))
  out.p90 = v(h.percentile(90))
  out.p95 = v(h.percentile(95))
  out.totalCount = h.totalCount
  return out
}

function round2 (x) { return Math.round(x * 100) / 100 }
function round3 (x) { return Math.round(x * 1000) / 1000 }

/**
 * @param {object} m merged stats
 * @param {object} opts normalized options
 * @param {{cpuUs: number, wallMs: number}} usage CPU of the whole process over the run
 */
function buildResult (m, opts, usage) {
  const c = m.counters
  const latency = latencyStats(m.histogram, 1000)
  const connect = latencyStats(m.connectTimes, 1000)
  const statusCodeStats = {}
  for (let code = 100; code < 600; code++) {
    if (m.statusCodes[code] > 0) statusCodeStats[code] = { count: m.statusCodes[code] }
  }
  const non2xx = c[C.S1XX] + c[C.S3XX] + c[C.S4XX] + c[C.S5XX]
  const errorsByKind = {}
  C.ERROR_KINDS.forEach((k, i) => { errorsByKind[k] = c[C.ERR_CONNECT + i] })
  errorsByKind.status = non2xx
  const errors = C.ERROR_KINDS.reduce((a, k) => a + errorsByKind[k], 0)
  const requests = sampleStats(m.samplesReq)
  requests.total = c[C.COMPLETED]
  requests.sent = c[C.SENT]
  const throughput = sampleStats(m.samplesBytes)
  throughput.total = c[C.BYTES]
  const duration = m.elapsedMs / 1000
  const start = new Date(m.start)
  const cpuCores = usage.wallMs > 0 ? usage.cpuUs / 1000 / usage.wallMs : 0
  const saturation = {
    cpuCores: round3(cpuCores),
    // per thread: the share of one core it used (undefined where the OS
    // does not tell), and how busy its event loop was
    workers: m.runners.map((r) => ({
      // one thread uses at most one core; more is the 10 ms tick of /proc/thread-self/stat on a short run
      cpu: r.cpuUs === undefined || !(r.wallMs > 0) ? undefined : round3(Math.min(1, r.cpuUs / 1000 / r.wallMs)),
      eventLoopUtilization: round3(r.elu)
    })),
    warning: undefined
  }
  const busiest = Math.max(0, ...saturation.workers.map((w) => Math.max(w.eventLoopUtilization, w.cpu ?? 0)))
  saturation.warning = saturationWarning(busiest, m.elapsedMs)
  return {
    url: opts.urls.length === 1 ? opts.urls[0] : opts.urls,
    socketPath: opts.target.socketPath,
    connections: opts.connections,
    sampleInt: m.perSecond.ms,
    pipelining: opts.pipelining,
    workers: opts.workers,
    duration: round3(duration),
    samples: m.samplesReq.length,
    start,
    finish: new Date(m.start + m.elapsedMs),
    errors,
    timeouts: c[C.ERR_TIMEOUT],
    mismatches: c[C.MISMATCHES],
    non2xx,
    resets: c[C.SEQUENCE_RESETS], // autocannon: sequence restarts by a falsy setupRequest, not reconnects
    '1xx': c[C.S1XX],
    '2xx': c[C.S2XX],
    '3xx': c[C.S3XX],
    '4xx': c[C.S4XX],
    '5xx': c[C.S5XX],
    statusCodeStats,
    latency,
    requests,
    throughput,
    // ours
    latencyUs: latencyStats(m.histogram, 1),
    errorsByKind,
    errorDetails: m.errorDetails,
    informational: c[C.INFORMATIONAL],
    reconnects: c[C.RECONNECTS],
    resent: c[C.RESENT],
    goaways: c[C.GOAWAYS], // HTTP/2: GOAWAY frames received (with an error code they are also `goaway` errors)
    stoppedBy: m.reasons[0],
    histogram: encode(m.histogram),
    perSecond: m.perSecond,
    saturation,
    ...rateResult(m, opts, opts.gracefulStopMs > 0 && m.sendMs > 0 ? m.sendMs / 1000 : duration),
    ...scenarioCounts(m, opts),
    connectLatency: connect,
    connectHistogram: encode(m.connectTimes),
    ...(m.firstBytes === null
      ? {}
      // lastByte: first byte -> last byte, as wrk-cmm's TTLB (send -> last byte is `latency`)
      // the histograms let `benchrig merge` add breakouts exactly (merge.js)
      : {
          breakout: {
            connect,
            firstByte: latencyStats(m.firstBytes, 1000),
            lastByte: latencyStats(m.firstToLast, 1000),
            firstByteHistogram: encode(m.firstBytes),
            lastByteHistogram: encode(m.firstToLast)
          }
        }),
    openConnectionsMax: m.openMax,
    plannedReconnects: c[C.PLANNED_RECONNECTS],
    // one entry per URL or named request; the totals above are their sum
    endpoints: m.endpoints === undefined ? [] : endpointResults(m.endpoints, opts.endpoints ?? [], duration, latencyStats),
    // WebSocket: replies count as requests (status 200, so 2xx), and these keys say the rest
    // lazy: only WebSocket runs have these stats (the engine's start-up counts in short runs)
    // lazy: only WebSocket runs have these stats (the engine's start-up counts in short runs)
    ...(m.ws === undefined ? {} : require('../ws/stats.js').wsResult(m.ws, latencyStats, encode, { messages: require('../ws/message.js').messageLength(opts.ws), binary: opts.ws.binary, idField: opts.ws.idField })),
    // gRPC: calls by grpc-status from the trailers
    // lazy: only gRPC runs have these stats (the engine's start-up counts in short runs)
    ...(m.grpc === undefined ? {} : require('../grpc/stats.js').grpcResult(m.grpc, { call: opts.grpc.call, messageBytes: opts.grpc.messageBytes }))
  }
}

/** The overall request rate a plan aims at (rate.rate is per connection with -r). */
function targetRate (rate, connections) {
  return rate.mode === 'connection' ? rate.rate * connections : rate.rate
}

/**
 * Rate-mode keys: `latency` above is measured from the planned send time
 * (unless -C), `uncorrectedLatency` from the actual send; `rate` says how
 * well the plan was kept.
 */
function rateResult (m, opts, duration) {
  if (m.rate === null) return {}
  const r = m.rate
  const target = targetRate(opts.rate, opts.connections)
  const out = {
    latencyCorrected: r.uncorrected !== null,
    rate: {
      mode: opts.rate.mode,
      target: round3(target),
      achieved: duration > 0 ? round2(r.issued / duration) : 0,
      planned: r.planned,
      sent: r.issued,
      // not sent, of what the plan held by its end: neither sent nor dropped (dropped_iterations)
      unsent: Math.max(0, r.planned - r.issued - r.dropped),
      // how late sends were against the plan (ms), and its histogram for merge
      lag: latencyStats(r.lag, 1000),
      lagHistogram: encode(r.lag)
    }
  }
  if (r.uncorrected !== null) {
    out.uncorrectedLatency = latencyStats(r.uncorrected, 1000)
    out.uncorrectedHistogram = encode(r.uncorrected)
  }
  return out
}

/**
 * A --scenarios scenario's counts of its end and its VUs (k6's): requests
 * interrupted (in flight when it stopped, after its gracefulStop, or cut by a
 * ramp down), and for an arrival-rate scenario the arrivals dropped (no
 * connection free and none left to open: vu-pool.js) and the VUs it opened.
 */
function scenarioCounts (m, opts) {
  if (opts.gracefulStopMs === undefined) return {}
  const out = { interrupted: m.counters[C.INTERRUPTED] }
  if (opts.vus) {
    out.dropped_iterations = m.counters[C.DROPPED_ITERATIONS]
    out.vus_max = m.vusMax
  }
  return out
}

module.exports = { mergeStats, buildResult, sampleStats, latencyStats, saturationWarning, PERCENTILES, pkey }
