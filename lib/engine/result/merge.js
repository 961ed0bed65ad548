'use strict'
// Merges the JSON results of several `benchrig load` runs (several
// generators, processes or machines) into one result of the same shape,
// exactly: histograms are added bucket by bucket and every latency statistic
// is recomputed from the sum, counters are summed, per-second samples are
// added on absolute seconds, timeline intervals with the same start and
// length are added. Nothing is averaged: a percentile of a merge is never a
// mean of percentiles. A field this module does not know is not guessed at:
// it is kept when every input has the same non-numeric value, and otherwise
// left out and listed in `merge.ignored`.
const { Histogram } = require('../measure/histogram.js')
const { encode, decode } = require('../measure/hdr-codec.js')
const { sampleStats, latencyStats } = require('./result.js')
const { UsageError } = require('../../errors.js')

/**
 * Top-level counters of a result: the merge is their sum. openConnectionsMax
 * is summed as result.js sums it over workers: peaks at different moments,
 * so the sum is an upper bound.
 */
const SUMMED = [
  'connections', 'workers', 'errors', 'timeouts', 'mismatches', 'non2xx', 'resets',
  '1xx', '2xx', '3xx', '4xx', '5xx', 'informational', 'reconnects', 'resent', 'plannedReconnects',
  'goaways', 'openConnectionsMax',
  // a --scenarios scenario's (result.js scenarioCounts); vus_max sums peaks as openConnectionsMax does
  'interrupted', 'dropped_iterations', 'vus_max'
]
/** Keys the merge rebuilds from other data; their input values are never copied. */
const REBUILT = [
  'url', 'socketPath', 'sampleInt', 'pipelining', 'duration', 'samples', 'start', 'finish',
  'statusCodeStats', 'requests', 'throughput', 'errorsByKind', 'errorDetails', 'stoppedBy',
  'saturation', 'perSecond', 'intervals', 'rate', 'merge', 'endpoints', 'ws', 'grpc', 'thresholds', 'scenarios', 'scenario'
]
/** Counters of the constant-rate plan (`rate`), summed; its other fields are rebuilt or reported. */
const RATE_SUMMED = ['target', 'planned', 'sent', 'unsent']
/** Counters of a timeline row (`intervals[]`), summed when rows are added. */
const INTERVAL_SUMMED = ['count', 'errors', 'timeouts', 'non2xx', 'sent', 'bytes', 'planned', 'open']

/** True for a key holding an HdrHistogram: `histogram` or `<name>Histogram`. */
function isHistogramKey (obj, key) {
  return (key === 'histogram' || /^[a-z]\w*Histogram$/.test(key)) && typeof obj[key] === 'string'
}

/** The statistics derived from a histogram key: histogram -> latency, latencyUs; fooHistogram -> fooLatency, fooLatencyUs. */
function statsKeysOf (key) {
  const base = key === 'histogram' ? 'latency' : key.slice(0, -'Histogram'.length) + 'Latency'
  return { ms: base, us: base + 'Us' }
}

function decodeNamed (encoded, name, where) {
  try {
    return decode(encoded)
  } catch (err) {
    throw new UsageError(`${name}: ${where} is not an HdrHistogram V2 base64 encoding (${err.message})`)
  }
}

/**
 * The V2 encoding keeps buckets, not the exact smallest and largest value:
 * a decoded histogram's min and max are its buckets' edges. A result also
 * prints them exactly (µs in latencyUs, or ms with µs precision), so take
 * those back when they fall in the same buckets; then a merge reports the
 * max that one run over all the requests would have reported.
 * @param {Histogram} h decoded
 * @param {object|undefined} us stats in µs ({min, max})
 * @param {object|undefined} ms the same in ms
 */
function restoreBounds (h, us, ms) {
  if (h.totalCount === 0) return h
  const pick = (k) => {
    if (isPlainObject(us) && Number.isInteger(us[k])) return us[k]
    if (isPlainObject(ms) && Number.isFinite(ms[k])) return Math.round(ms[k] * 1000)
    return undefined
  }
  const min = pick('min')
  const max = pick('max')
  if (min !== undefined && min >= 0 && min <= h.highest && h.indexOf(min) === h.indexOf(h.minValue)) h.minValue = min
  if (max !== undefined && max >= 0 && max <= h.highest && h.indexOf(max) === h.indexOf(h.maxValue)) h.maxValue = max
  return h
}

/** Adds h into acc (or starts acc), refusing histograms whose buckets do not line up. */
function addHistogram (acc, h, name, where) {
  if (acc === null) return { h, from: name }
  if (h.length !== acc.h.length || h.digits !== acc.h.digits) {
    throw new UsageError(`${name}: ${where} has a different layout (${h.digits} significant digits, ${h.length} buckets) ` +
      `from ${acc.from}'s (${acc.h.digits} digits, ${acc.h.length} buckets): only histograms of one layout add up exactly`)
  }
  acc.h.add(h)
  return acc
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
const sameJson = (values) => values.every((v) => JSON.stringify(v) === JSON.stringify(values[0]))
const distinct = (values) => [...new Set(values.map((v) => JSON.stringify(v)))].map((s) => (s === undefined ? undefined : JSON.parse(s)))
/** One value when all agree, else the list of distinct values. */
const oneOrList = (values) => {
  const d = distinct(values)
  return d.length === 1 ? d[0] : d
}
/** True when v is or holds a number: such a value is a measurement, and equal measurements still do not merge by copying. */
const holdsNumber = (v) => typeof v === 'number' || (v !== null && typeof v === 'object' && Object.values(v).some(holdsNumber))
const sum = (values) => values.reduce((a, b) => a + (typeof b === 'number' ? b : 0), 0)
const round3 = (x) => Math.round(x * 1000) / 1000

/** Epoch ms of a Date, an ISO string or a number. */
function epochMs (v, name, key) {
  const t = v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : v
  if (!Number.isFinite(t)) throw new UsageError(`${name}: "${key}" is not a date (${JSON.stringify(v)})`)
  return t
}

/**
 * Adds the per-second samples of every input on absolute seconds. Inputs
 * whose seconds do not start on the same grid as the earliest one are placed
 * on its nearest second; the largest such shift is reported as skewMs.
 */
function mergePerSecond (inputs) {
  for (const { r, name } of inputs) {
    const p = r.perSecond
    if (!isPlainObject(p) || !Number.isFinite(p.start) || !Array.isArray(p.requests) || !Array.isArray(p.bytes)) {
      throw new UsageError(`${name}: no per-second samples ("perSecond" with start, requests, bytes): ` +
        'it was written by an older benchrig load or another tool; re-run it with this version to merge it')
    }
  }
  const ms = inputs[0].r.perSecond.ms ?? 1000
  const other = inputs.find(({ r }) => (r.perSecond.ms ?? 1000) !== ms)
  if (other) throw new UsageError(`${other.name}: samples every ${other.r.perSecond.ms} ms, ${inputs[0].name} every ${ms} ms: cannot add them`)
  const t0 = Math.min(...inputs.map(({ r }) => r.perSecond.start))
  const requests = []
  const bytes = []
  let skewMs = 0
  for (const { r } of inputs) {
    const p = r.perSecond
    const offset = p.start - t0
    const shift = Math.round(offset / ms)
    skewMs = Math.max(skewMs, Math.abs(offset - shift * ms))
    for (let i = 0; i < p.requests.length; i++) {
      // null: a second in which no merged run was sampling
      if (p.requests[i] === null || p.requests[i] === undefined) continue
      const slot = shift + i
      requests[slot] = (requests[slot] ?? 0) + p.requests[i]
      bytes[slot] = (bytes[slot] ?? 0) + (p.bytes[i] ?? 0)
    }
  }
  for (let i = 0; i < requests.length; i++) {
    if (requests[i] === undefined) {
      requests[i] = null
      bytes[i] = null
    }
  }
  return { start: t0, ms, requests, bytes, skewMs: round3(skewMs) }
}

/**
 * Whether the inputs hold `key` (`has` tests its value): false when none does,
 * a UsageError naming one input without it and one with it when only some do.
 * @param {{r: object, name: string}[]} inputs
 * @param {string} key
 * @param {(value: any) => boolean} has
 * @param {string} hint what to merge instead
 */
function allOrNone (inputs, key, has, hint) {
  const having = inputs.filter(({ r }) => has(r[key]))
  if (having.length === 0) return false
  if (having.length < inputs.length) {
    // the scenarios of one run differ in mode: what only some have stays theirs
    if (/** @type {any} */ (inputs).partial) return false
    const lacking = inputs.find(({ r }) => !has(r[key])).name
    throw new UsageError(`${lacking} has no "${key}" but ${having[0].name} has: ${hint}`)
  }
  return true
}

/** Adds timeline rows with equal start and length; keeps the others; sorted by start. */
function mergeIntervals (inputs, ignored) {
  if (!allOrNone(inputs, 'intervals', (v) => v !== undefined, 'merge runs recorded with the same options')) return undefined
  const groups = new Map()
  for (const { r, name } of inputs) {
    if (!Array.isArray(r.intervals)) throw new UsageError(`${name}: "intervals" is not an array`)
    r.intervals.forEach((row, i) => {
      if (!isPlainObject(row) || !Number.isFinite(row.start) || !Number.isFinite(row.ms) || typeof row.histogram !== 'string') {
        throw new UsageError(`${name}: intervals[${i}] lacks a numeric start and ms or a histogram`)
      }
      const key = `${row.start}/${row.ms}`
      if (!groups.has(key)) groups.set(key, [])
      groups.get(key).push({ row, name, where: `intervals[${i}]` })
    })
  }
  const out = []
  for (const group of groups.values()) out.push(mergeRow(group, ignored))
  out.sort((a, b) => a.start - b.start || a.ms - b.ms)
  return out
}

const LATENCY_KEYS = new Set(Object.keys(latencyStats(new Histogram(), 1000)))

function mergeRow (group, ignored) {
  const rows = group.map((g) => g.row)
  const out = { start: rows[0].start, ms: rows[0].ms }
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  const histograms = new Map()
  for (const key of keys) {
    if (!rows.every((r) => isHistogramKey(r, key))) continue
    let acc = null
    for (const g of group) {
      const s = statsKeysOf(key)
      // flat statistics of a row (ms) belong to its main histogram
      const flat = key === 'histogram' ? g.row : undefined
      const h = restoreBounds(decodeNamed(g.row[key], g.name, `${g.where}.${key}`), g.row[s.us], g.row[s.ms] ?? flat)
      acc = addHistogram(acc, h, g.name, `${g.where}.${key}`)
    }
    histograms.set(key, acc.h)
    out[key] = encode(acc.h)
  }
  const main = histograms.get('histogram')
  const derived = new Map()
  for (const [key, h] of histograms) {
    const s = statsKeysOf(key)
    derived.set(s.ms, () => latencyStats(h, 1000))
    derived.set(s.us, () => latencyStats(h, 1))
  }
  for (const key of keys) {
    if (key in out) continue
    const values = rows.map((r) => r[key])
    if (INTERVAL_SUMMED.includes(key)) {
      out[key] = sum(values)
    } else if (key === 'elapsedMs') {
      // a row cut short by the end of its run: the merged row covers the longest
      // of them, and a full row (no elapsedMs) of another run makes it full
      if (values.every((v) => typeof v === 'number')) out.elapsedMs = Math.max(...values)
    } else if (derived.has(key)) {
      out[key] = derived.get(key)()
    } else if (LATENCY_KEYS.has(key) && main) {
      // flat latency statistics of a row are in ms, like result.latency
      out[key] = latencyStats(main, 1000)[key]
    } else if (!values.some(holdsNumber) && sameJson(values)) {
      out[key] = values[0]
    } else {
      ignored.add(`intervals[].${key}`)
    }
  }
  return out
}

/**
 * The constant-rate plan of generators that each ran a share of the rate:
 * targets and counts add up; achieved is recomputed over the merged span.
 * Its lag statistics have no histogram in the result, so they are reported
 * as not merged rather than averaged.
 */
function mergeRate (inputs, duration) {
  if (!allOrNone(inputs, 'rate', isPlainObject, 'merge runs of the same mode (all with -R, or none)')) return undefined
  const rates = inputs.map(({ r }) => r.rate)
  const out = { mode: oneOrList(rates.map((x) => x.mode)) }
  for (const key of RATE_SUMMED) if (rates.some((x) => x[key] !== undefined)) out[key] = round3(sum(rates.map((x) => x[key])))
  if (out.sent !== undefined) out.achieved = duration > 0 ? Math.round(out.sent / duration * 100) / 100 : 0
  // the lag behind the plan merges only from its histogram
  if (rates.every((x) => typeof x.lagHistogram === 'string')) {
    let acc = null
    for (const { r, name } of inputs) {
      const h = restoreBounds(decodeNamed(r.rate.lagHistogram, name, '"rate.lagHistogram"'), undefined, r.rate.lag)
      acc = addHistogram(acc, h, name, '"rate.lagHistogram"')
    }
    out.lag = latencyStats(acc.h, 1000)
    out.lagHistogram = encode(acc.h)
  }
  return out
}

/** Counters of an endpoint (`endpoints[]`), summed. */
const ENDPOINT_SUMMED = ['1xx', '2xx', '3xx', '4xx', '5xx', 'non2xx', 'errors', 'timeouts', 'mismatches']

/**
 * Endpoints with the same name, method and URL are added: counters and
 * status codes summed, histograms added, latency recomputed from the sum;
 * the others are kept, in the order they first appear. Runs without
 * endpoints (older versions) leave the merge without them.
 */
function mergeEndpoints (inputs, duration, ignored) {
  const having = inputs.filter(({ r }) => Array.isArray(r.endpoints))
  if (having.length === 0) return undefined
  if (having.length < inputs.length) {
    ignored.add('endpoints')
    return undefined
  }
  const groups = new Map()
  for (const { r, name } of inputs) {
    r.endpoints.forEach((e, i) => {
      if (!isPlainObject(e) || typeof e.histogram !== 'string') throw new UsageError(`${name}: endpoints[${i}] lacks a histogram`)
      const key = JSON.stringify([e.name, e.method, e.url])
      if (!groups.has(key)) groups.set(key, [])
      groups.get(key).push({ e, name, where: `endpoints[${i}].histogram` })
    })
  }
  const perSecond = (n) => (duration > 0 ? Math.round(n / duration * 100) / 100 : 0)
  return [...groups.values()].map((group) => {
    const list = group.map((g) => g.e)
    let acc = null
    for (const g of group) acc = addHistogram(acc, restoreBounds(decodeNamed(g.e.histogram, g.name, g.where), g.e.latencyUs, g.e.latency), g.name, g.where)
    const codes = {}
    const byKind = {}
    for (const e of list) {
      for (const [code, v] of Object.entries(e.statusCodeStats ?? {})) codes[code] = { count: (codes[code]?.count ?? 0) + (v?.count ?? 0) }
      for (const [k, v] of Object.entries(e.errorsByKind ?? {})) byKind[k] = (byKind[k] ?? 0) + (typeof v === 'number' ? v : 0)
    }
    const total = sum(list.map((e) => e.requests?.total))
    const bytes = sum(list.map((e) => e.throughput?.total))
    const out = {
      name: list[0].name,
      method: list[0].method,
      url: list[0].url,
      requests: { average: perSecond(total), total },
      latency: latencyStats(acc.h, 1000),
      latencyUs: latencyStats(acc.h, 1),
      statusCodeStats: codes
    }
    for (const key of ENDPOINT_SUMMED) out[key] = sum(list.map((e) => e[key]))
    out.errorsByKind = byKind
    out.throughput = { average: perSecond(bytes), total: bytes }
    out.histogram = encode(acc.h)
    return out
  })
}

/**
 * --breakout: connect is the run's connect latency (merged from
 * `connectHistogram`); first byte and last byte merge from their histograms,
 * when every input has them (a result from before they were kept reports the
 * two as not merged rather than averaged).
 */
function mergeBreakout (inputs, connect) {
  if (!allOrNone(inputs, 'breakout', isPlainObject, 'merge runs of the same mode (all with --breakout, or none)')) return undefined
  const out = connect === undefined ? {} : { connect }
  for (const [stat, key] of [['firstByte', 'firstByteHistogram'], ['lastByte', 'lastByteHistogram']]) {
    if (!inputs.every(({ r }) => typeof r.breakout[key] === 'string')) continue
    let acc = null
    for (const { r, name } of inputs) {
      const h = restoreBounds(decodeNamed(r.breakout[key], name, `"breakout.${key}"`), undefined, r.breakout[stat])
      acc = addHistogram(acc, h, name, `"breakout.${key}"`)
    }
    out[stat] = latencyStats(acc.h, 1000)
    out[key] = encode(acc.h)
  }
  return out
}

/**
 * An object of counts (a run's `ws` or `grpc`): numbers and objects of
 * numbers (by kind, by code) summed; what describes the run (a message
 * size, a method name) kept when all agree, else listed as not merged.
 * @param {object[]} list the inputs' objects @param {string} prefix @param {Set<string>} ignored
 */
function mergeCounted (list, prefix, ignored) {
  const out = {}
  const keys = [...new Set(list.flatMap((w) => Object.keys(w)))]
  for (const key of keys) {
    const values = list.map((w) => w[key])
    if (values.every((v) => typeof v === 'number') && !(key === 'messageBytes' && !sameJson(values))) {
      out[key] = key === 'messageBytes' ? values[0] : sum(values)
    } else if (values.every((v) => isPlainObject(v) && Object.values(v).every((x) => typeof x === 'number'))) {
      const total = {}
      for (const v of values) for (const [k, n] of Object.entries(v)) total[k] = (total[k] ?? 0) + n
      out[key] = total
    } else if (sameJson(values)) {
      out[key] = values[0]
    } else {
      ignored.add(`${prefix}.${key}`)
    }
  }
  return out
}

/**
 * Thresholds (`thresholds[]`, each {expr, value, ok}): when every input
 * checked the same expressions, they are checked again on the merged figures
 * (a percentile of the merge is the merge's own); otherwise not merged.
 */
function mergeThresholds (inputs, out, ignored) {
  const lists = inputs.map(({ r }) => r.thresholds)
  if (lists.every((l) => l === undefined)) return undefined
  const exprs = lists.map((l) => (Array.isArray(l) ? l.map((c) => c?.expr) : null))
  if (exprs.some((e) => e === null || e.some((x) => typeof x !== 'string')) || !sameJson(exprs)) {
    ignored.add('thresholds')
    return undefined
  }
  // lazy: only merged runs with thresholds evaluate them
  const { parseThresholds, evaluate, figuresOf } = require('../thresholds.js')
  return evaluate(parseThresholds(exprs[0]), figuresOf(out))
}

/**
 * The `scenarios` of results of one scenarios file (several machines or
 * workers ran it): the same names in every input, each merged with merge()
 * as a whole result is; its `scenario` (name, executor, plan) kept when all
 * agree.
 */
function mergeScenarios (inputs, ignored) {
  const names = Object.keys(inputs[0].r.scenarios)
  for (const { r, name } of inputs) {
    const own = Object.keys(r.scenarios)
    const missing = names.find((n) => !own.includes(n))
    const extra = own.find((n) => !names.includes(n))
    if (missing !== undefined || extra !== undefined) {
      throw new UsageError(`${name} has ${missing !== undefined ? `no scenario "${missing}"` : `a scenario "${extra}"`} that ${inputs[0].name} ${missing !== undefined ? 'has' : 'has not'}: ` +
        'merge results of runs of the same scenarios file')
    }
  }
  const out = {}
  for (const scenario of names) {
    const parts = inputs.map(({ r }) => r.scenarios[scenario])
    const merged = merge(parts.map(({ scenario: _, ...rest }) => rest), { names: inputs.map(({ name }) => `${name} scenario "${scenario}"`) })
    // one `merge` note for the whole: what a scenario's merge left out is listed there
    for (const k of merged.merge.ignored) ignored.add(`scenarios.${scenario}.${k}`)
    delete merged.merge
    if (parts.every((p) => isPlainObject(p.scenario)) && sameJson(parts.map((p) => p.scenario))) merged.scenario = parts[0].scenario
    else ignored.add(`scenarios.${scenario}.scenario`)
    out[scenario] = merged
  }
  return out
}

/**
 * Checks that r looks like a load result and returns its histogram keys.
 * @returns {string[]}
 */
function checkResult (r, name) {
  if (!isPlainObject(r)) throw new UsageError(`${name}: not a benchrig load result (expected a JSON object)`)
  if (typeof r.histogram !== 'string') {
    throw new UsageError(`${name}: not a benchrig load result (no "histogram"): merge the output of benchrig load -j`)
  }
  return Object.keys(r).filter((k) => isHistogramKey(r, k))
}

/**
 * Merges load results exactly.
 * @param {object[]} results results of load() or their JSON.parse'd `-j` output
 * @param {{names?: string[], partial?: boolean}} [options] names of the inputs for messages (file names);
 *   partial: the inputs are different scenarios of one run (scenarios/combine.js), so what only
 *   some of them have (a rate plan, the uncorrected histogram, ws, grpc) is left to them, not refused
 * @returns {object} a result of the same shape, with `merge: {runs, ignored, sampleSkewMs}`
 */
function merge (results, options = {}) {
  if (!Array.isArray(results) || results.length === 0) throw new UsageError('merge: give at least one result')
  const names = options.names ?? results.map((_, i) => `result ${i + 1}`)
  const inputs = Object.assign(results.map((r, i) => ({ r, name: names[i], hkeys: checkResult(r, names[i]) })), { partial: options.partial === true })
  const all = (key) => inputs.map(({ r }) => r[key])
  const ignored = new Set()
  const out = {}

  // what was loaded, and how
  out.url = oneOrList(all('url').flat())
  const sockets = all('socketPath').filter((v) => v !== undefined && v !== null)
  out.socketPath = sockets.length ? oneOrList(sockets) : undefined
  out.connections = sum(all('connections'))
  out.sampleInt = oneOrList(all('sampleInt'))
  out.pipelining = oneOrList(all('pipelining'))
  out.workers = sum(all('workers'))

  // the span of all runs
  const starts = inputs.map(({ r, name }) => epochMs(r.start, name, 'start'))
  const finishes = inputs.map(({ r, name }) => epochMs(r.finish, name, 'finish'))
  const start = Math.min(...starts)
  const finish = Math.max(...finishes)
  out.duration = round3((finish - start) / 1000)

  const perSecond = mergePerSecond(inputs)
  let samplesReq = perSecond.requests.filter((v) => v !== null)
  let samplesBytes = perSecond.bytes.filter((v) => v !== null)
  const requestsTotal = sum(inputs.map(({ r }) => r.requests?.total))
  const bytesTotal = sum(inputs.map(({ r }) => r.throughput?.total))
  if (samplesReq.length === 0 && finish > start) {
    // no whole second anywhere: one sample scaled to a second, as a single run does
    samplesReq = [requestsTotal * 1000 / (finish - start)]
    samplesBytes = [bytesTotal * 1000 / (finish - start)]
  }
  out.samples = samplesReq.length
  out.start = new Date(start)
  out.finish = new Date(finish)

  for (const key of SUMMED) {
    if (key === 'connections' || key === 'workers') continue
    if (inputs.some(({ r }) => r[key] !== undefined)) out[key] = sum(all(key))
  }

  const codes = {}
  for (const s of all('statusCodeStats')) {
    for (const [code, v] of Object.entries(s ?? {})) {
      codes[code] = { count: (codes[code]?.count ?? 0) + (v?.count ?? 0) }
    }
  }
  out.statusCodeStats = codes

  // histograms: the same set in every input, added exactly
  const hkeys = options.partial ? inputs[0].hkeys.filter((k) => inputs.every((x) => x.hkeys.includes(k))) : inputs[0].hkeys
  for (const { hkeys: own } of options.partial ? [] : inputs) {
    const missing = hkeys.find((k) => !own.includes(k)) ?? own.find((k) => !hkeys.includes(k))
    if (missing) {
      const having = inputs.find((x) => x.hkeys.includes(missing)).name
      const lacking = inputs.find((x) => !x.hkeys.includes(missing)).name
      throw new UsageError(`${lacking} has no "${missing}" but ${having} has: merge runs of the same mode`)
    }
  }
  const merged = new Map()
  for (const key of hkeys) {
    let acc = null
    const s = statsKeysOf(key)
    for (const { r, name } of inputs) {
      const h = restoreBounds(decodeNamed(r[key], name, `"${key}"`), r[s.us], r[s.ms])
      acc = addHistogram(acc, h, name, `"${key}"`)
    }
    merged.set(key, acc.h)
  }
  for (const [key, h] of merged) {
    const s = statsKeysOf(key)
    out[s.ms] = latencyStats(h, 1000)
    if (key === 'histogram' || inputs.some(({ r }) => r[s.us] !== undefined)) out[s.us] = latencyStats(h, 1)
  }
  out.requests = { ...sampleStats(samplesReq), total: requestsTotal, sent: sum(inputs.map(({ r }) => r.requests?.sent)) }
  out.throughput = { ...sampleStats(samplesBytes), total: bytesTotal }

  const byKind = {}
  for (const e of all('errorsByKind')) {
    for (const [k, v] of Object.entries(e ?? {})) byKind[k] = (byKind[k] ?? 0) + (typeof v === 'number' ? v : 0)
  }
  out.errorsByKind = byKind
  const details = {}
  for (const e of all('errorDetails')) for (const [k, v] of Object.entries(e ?? {})) details[k] ??= v
  out.errorDetails = details
  out.stoppedBy = oneOrList(all('stoppedBy'))

  for (const key of hkeys) out[key] = encode(merged.get(key))
  out.perSecond = { start: perSecond.start, ms: perSecond.ms, requests: perSecond.requests, bytes: perSecond.bytes }
  const intervals = mergeIntervals(inputs, ignored)
  if (intervals !== undefined) out.intervals = intervals

  const rate = mergeRate(inputs, out.duration)
  if (rate !== undefined) out.rate = rate
  const endpoints = mergeEndpoints(inputs, out.duration, ignored)
  if (endpoints !== undefined) out.endpoints = endpoints
  const breakout = mergeBreakout(inputs, out.connectLatency)
  if (breakout !== undefined) out.breakout = breakout
  // WebSocket runs: counts by kind and close code (the handshake histogram is a top-level one, above);
  // gRPC runs: calls by status code
  if (allOrNone(inputs, 'ws', isPlainObject, 'merge WebSocket runs with WebSocket runs')) out.ws = mergeCounted(all('ws'), 'ws', ignored)
  if (allOrNone(inputs, 'grpc', isPlainObject, 'merge gRPC runs with gRPC runs')) out.grpc = mergeCounted(all('grpc'), 'grpc', ignored)
  // --threshold: the same expressions everywhere are checked again on the merged figures
  const thresholds = mergeThresholds(inputs, out, ignored)
  if (thresholds !== undefined) out.thresholds = thresholds
  // --scenarios: each scenario merged by name, as the whole is
  if (allOrNone(inputs, 'scenarios', isPlainObject, 'merge results of a --scenarios run with results of the same file')) out.scenarios = mergeScenarios(inputs, ignored)

  const sats = all('saturation').filter(isPlainObject)
  // one line per distinct warning, naming the runs that gave it
  const byWarning = new Map()
  for (const { r, name } of inputs) {
    const w = r.saturation?.warning
    if (w) byWarning.set(w, [...(byWarning.get(w) ?? []), name])
  }
  const warnings = [...byWarning].map(([w, who]) => `${who.join(', ')}: ${w}`)
  out.saturation = {
    cpuCores: round3(sum(sats.map((s) => s.cpuCores))),
    workers: sats.flatMap((s) => (Array.isArray(s.workers) ? s.workers : [])),
    warning: warnings.length ? warnings.join('; ') : undefined
  }

  // fields nobody told us how to merge (including those an earlier merge left out)
  for (const { r } of inputs) {
    if (Array.isArray(r.merge?.ignored)) for (const k of r.merge.ignored) ignored.add(String(k))
  }
  const known = new Set([...SUMMED, ...REBUILT, ...Object.keys(out)])
  for (const key of new Set(inputs.flatMap(({ r }) => Object.keys(r)))) {
    if (known.has(key)) continue
    const values = all(key)
    if (!values.some(holdsNumber) && sameJson(values)) out[key] = values[0]
    else ignored.add(key)
  }
  // and fields inside the objects the merge rebuilds
  for (const key of Object.keys(out)) {
    if (!isPlainObject(out[key]) || key === 'statusCodeStats' || key === 'errorsByKind' || key === 'errorDetails' || key === 'scenarios') continue
    for (const { r } of inputs) {
      if (!isPlainObject(r[key])) continue
      for (const sub of Object.keys(r[key])) if (!(sub in out[key])) ignored.add(`${key}.${sub}`)
    }
  }

  out.merge = {
    runs: sum(inputs.map(({ r }) => (isPlainObject(r.merge) && Number.isFinite(r.merge.runs) ? r.merge.runs : 1))),
    ignored: [...ignored].sort(),
    sampleSkewMs: perSecond.skewMs
  }
  return out
}

module.exports = { merge, SUMMED, INTERVAL_SUMMED, RATE_SUMMED }
