'use strict'
// Options that shape the traffic of a load run and what it records beside
// the latency: constant rate (-R, -r, -C), bursts, connection lifetimes
// (--connection close, -D, -M, -O), warmup (-W), --breakout, --reqlog,
// --interval and --local-address. Every message names the flag.
const fs = require('node:fs')
const net = require('node:net')
const path = require('node:path')
const { UsageError } = require('../../errors.js')
const { parseStages, stagesDurationMs, Ramp } = require('../stages.js')
const { parseCount, parseDuration } = require('./units.js')

/** A rate (requests per second): fractions allowed, SI suffixes as in 10k. */
function positive (value, flag) {
  return parseCount(value, flag, { whole: false })
}

/** A whole count of requests or connections, SI suffixes as in 1k. */
function count (value, flag) {
  return parseCount(value, flag)
}

/** A period: bare milliseconds (the flags' historic unit) or a duration such as 1s, 250ms. */
function milliseconds (value, flag) {
  // to whole nanoseconds, so that "250ms" is 250 and not 249.99999999999997
  return Math.round(parseDuration(value, flag, { bare: 'ms' }) * 1e9) / 1e6
}

const FLAG_OF = { overallRate: '-R/--overall-rate', connectionRate: '-r/--connection-rate', burst: '--burst', burstInterval: '--burst-interval' }

/**
 * @returns {{mode: 'overall'|'connection'|'burst'|'stages', rate: number, burst: number, intervalMs: number, stages?: import('../stages.js').Stage[]}|null}
 */
function parseRate (o, parseDuration) {
  const given = (k) => o[k] !== undefined && o[k] !== null && o[k] !== false
  if (given('stages')) {
    const other = ['overallRate', 'connectionRate', 'burst', 'burstInterval'].find(given)
    if (other !== undefined) {
      throw new UsageError(`--stages sets the rate over time; it cannot be combined with ${FLAG_OF[other]}`)
    }
    const stages = parseStages(o.stages, '--stages', parseDuration, { from: stagesStart(o, false) })
    // rate: the mean over the plan, what `rate.target` reports
    const ramp = new Ramp(stages)
    return { mode: 'stages', rate: ramp.total * 1000 / ramp.endMs, burst: 1, intervalMs: 0, stages }
  }
  if (given('burst') || given('burstInterval')) {
    if (given('overallRate') || given('connectionRate')) {
      throw new UsageError('--burst sends requests in bursts; it cannot be combined with -R/--overall-rate or -r/--connection-rate')
    }
    if (!given('burst')) throw new UsageError('--burst-interval needs --burst N (the requests sent at once)')
    const burst = count(o.burst, '--burst')
    const intervalMs = given('burstInterval') ? milliseconds(o.burstInterval, '--burst-interval') : 1000
    return { mode: 'burst', rate: burst * 1000 / intervalMs, burst, intervalMs }
  }
  // as with autocannon, a per-connection rate wins over an overall one
  if (given('connectionRate')) {
    const rate = positive(o.connectionRate, '-r/--connection-rate')
    return { mode: 'connection', rate, burst: 1, intervalMs: 1000 / rate }
  }
  if (given('overallRate')) {
    const rate = positive(o.overallRate, '-R/--overall-rate')
    return { mode: 'overall', rate, burst: 1, intervalMs: 1000 / rate }
  }
  return null
}

/**
 * --stages-start: the target before the first stage (k6's startRate for a
 * rate, startVUs for connections), from which the first stage ramps; 0 when
 * absent. It applies to whichever of --stages and --stages-connections is given.
 * @param {object} o user options @param {boolean} integer connections (a whole number)
 */
function stagesStart (o, integer) {
  if (o.stagesStart === undefined || o.stagesStart === null) return 0
  return parseCount(o.stagesStart, '--stages-start', { whole: integer, min: 0 })
}

/**
 * The duration of a run with --stages or --stages-connections: the sum of the
 * stages. -d may be given only if it agrees (a typo in either is caught), and
 * -a cannot end such a run (-O caps its requests instead).
 * @param {object} o user options
 * @param {number} amount -a (0: none)
 * @param {(value: unknown, flag: string) => number} parseDuration
 * @returns {number|null} seconds, null without stages
 */
function stagedDuration (o, amount, parseDuration) {
  const flag = o.stages !== undefined && o.stages !== null ? '--stages' : (o.stagesConnections !== undefined && o.stagesConnections !== null ? '--stages-connections' : null)
  if (flag === null) return null
  const integer = flag !== '--stages'
  const stages = parseStages(integer ? o.stagesConnections : o.stages, flag, parseDuration, { integer, from: stagesStart(o, integer) })
  const ms = stagesDurationMs(stages)
  if (amount > 0) throw new UsageError(`${flag} runs for the sum of its stages; -a/--amount cannot end it (use -O/--max-overall-requests to cap the requests)`)
  if (o.duration !== undefined && o.duration !== null && Math.round(parseDuration(o.duration, '-d/--duration') * 1000) !== ms) {
    throw new UsageError(`-d/--duration ${o.duration} disagrees with ${flag}, whose stages last ${ms / 1000}s: drop -d (the stages set the duration)`)
  }
  return ms / 1000
}

/**
 * --stages-connections: the ramp of open connections of a closed-loop run,
 * and the connection count it needs (its peak). -c may be given only if it
 * agrees; a rate is refused (the ramp sets the connections of a closed loop).
 * @returns {{stages: import('../stages.js').Stage[], peak: number}|null}
 */
function connectionStagesOf (o, parseDuration) {
  if (o.stagesConnections === undefined || o.stagesConnections === null) return null
  const stages = parseStages(o.stagesConnections, '--stages-connections', parseDuration, { integer: true, from: stagesStart(o, true) })
  const other = ['stages', 'overallRate', 'connectionRate', 'burst'].find((k) => o[k] !== undefined && o[k] !== null && o[k] !== false)
  if (other !== undefined) {
    throw new UsageError(`--stages-connections ramps the connections of a run without a rate; it cannot be combined with ${other === 'stages' ? '--stages' : FLAG_OF[other]}`)
  }
  const peak = Math.max(stages[0].from ?? 0, ...stages.map((s) => s.target))
  if (o.connections !== undefined && o.connections !== null && parseCount(o.connections, '-c/--connections') !== peak) {
    throw new UsageError(`-c/--connections ${o.connections} disagrees with --stages-connections, whose peak is ${peak}: drop -c (the stages set the connections)`)
  }
  return { stages, peak }
}

/**
 * Local addresses from "IP", "IP1,IP2", "A.B.C.D-E" (last octet range) or
 * a CIDR such as "127.0.0.0/29" (network and broadcast addresses left out).
 * @param {string|string[]|undefined} value
 * @returns {string[]} empty when not given
 */
function parseLocalAddresses (value) {
  if (value === undefined || value === null || value === '') return []
  const out = []
  const bad = (s, why) => new UsageError(`invalid --local-address "${s}": ${why}; give an IP, a list IP1,IP2, a range 127.0.0.2-9 or a CIDR like 127.0.0.0/29`)
  for (const part of [].concat(value).flatMap((v) => String(v).split(','))) {
    const s = part.trim()
    const range = /^(\d+\.\d+\.\d+\.)(\d+)-(\d+)$/.exec(s)
    const cidr = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(s)
    if (range) {
      const lo = Number(range[2])
      const hi = Number(range[3])
      if (!(lo <= hi && hi <= 255) || !net.isIPv4(range[1] + lo)) throw bad(s, 'not a valid range')
      for (let i = lo; i <= hi; i++) out.push(range[1] + i)
    } else if (cidr) {
      const bits = Number(cidr[2])
      if (!net.isIPv4(cidr[1]) || bits < 16 || bits > 32) throw bad(s, 'IPv4 CIDR with a prefix of /16 to /32')
      const base = cidr[1].split('.').reduce((a, b) => a * 256 + Number(b), 0)
      const size = 2 ** (32 - bits)
      const start = base - (base % size)
      const [from, to] = size <= 2 ? [0, size - 1] : [1, size - 2]
      for (let i = from; i <= to; i++) {
        const v = start + i
        out.push([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.'))
      }
    } else if (net.isIP(s)) {
      out.push(s)
    } else {
      throw bad(s, 'not an IP address')
    }
  }
  return out
}

/** Fails now, naming the flag, if FILE's folder cannot be written (the file is opened as the run starts). */
function checkWritable (file, flag) {
  try {
    fs.accessSync(path.dirname(path.resolve(file)), fs.constants.W_OK)
  } catch (err) {
    throw new UsageError(`cannot write ${flag} "${file}": ${err.code || err.message}`)
  }
  return file
}

/** --reqlog-format: our `code;start;end;connection` lines or gocannon's CSV. */
function parseReqlogFormat (o) {
  const f = o.reqlogFormat ?? 'default'
  if (f !== 'default' && f !== 'gocannon') throw new UsageError(`invalid --reqlog-format "${f}": give default (code;start;end;connection) or gocannon (gocannon's CSV: a code;start;end; header, rows sorted by end)`)
  if (o.reqlogFormat !== undefined && o.reqlog === undefined) throw new UsageError('--reqlog-format applies to the request log: add --reqlog FILE')
  return f
}

/**
 * Warmup: seconds, or {connections, duration} (autocannon's `[ -c N -d S ]`).
 * @returns {{connections: number|undefined, durationMs: number}|null}
 */
function parseWarmup (value, parseDuration, connections) {
  if (value === undefined || value === null || value === false || value === 0) return null
  if (typeof value === 'object') {
    const c = value.connections === undefined ? connections : count(value.connections, '-W/--warmup -c')
    if (value.duration === undefined) throw new UsageError('invalid -W/--warmup: give its duration, e.g. -W 3 or --warmup [ -c 1 -d 3 ]')
    return { connections: c, durationMs: Math.round(parseDuration(value.duration, '-W/--warmup -d') * 1000) }
  }
  return { connections, durationMs: Math.round(parseDuration(value, '-W/--warmup') * 1000) }
}

/**
 * @param {object} o user options
 * @param {{connections: number, pipelining: number, workers: number, amount: number, parseDuration: Function}} base
 * @returns {object} the normalized shape options
 */
function normalizeShape (o, base) {
  const rate = parseRate(o, base.parseDuration)
  if (o.stagesStart !== undefined && o.stagesStart !== null && rate?.mode !== 'stages' && (o.stagesConnections === undefined || o.stagesConnections === null)) {
    throw new UsageError('--stages-start is where a ramp begins: add --stages or --stages-connections')
  }
  if (o.ignoreCoordinatedOmission && rate === null) {
    throw new UsageError('-C/--ignore-coordinated-omission only applies to a constant rate: add -R/--overall-rate, -r/--connection-rate or --stages')
  }
  const connectionClose = o.connectionClose === true || o.connection === 'close'
  if (o.connection !== undefined && o.connection !== 'close' && o.connection !== 'keep-alive') {
    throw new UsageError(`invalid --connection "${o.connection}": give close (a new connection per request) or keep-alive`)
  }
  const reconnectRate = connectionClose ? 1 : (o.reconnectRate === undefined ? 0 : count(o.reconnectRate, '-D/--reconnect-rate'))
  if (connectionClose && base.pipelining > 1) {
    throw new UsageError('--connection close sends one request per connection: it cannot pipeline (-p 1)')
  }
  const maxConnectionRequests = o.maxConnectionRequests === undefined ? 0 : count(o.maxConnectionRequests, '-M/--max-connection-requests')
  const maxOverallRequests = o.maxOverallRequests === undefined ? 0 : count(o.maxOverallRequests, '-O/--max-overall-requests')
  if (maxOverallRequests > 0 && base.amount > 0) {
    throw new UsageError('give either -a/--amount or -O/--max-overall-requests, not both')
  }
  const intervalMs = o.interval === undefined ? 0 : milliseconds(o.interval, '--interval')
  if (intervalMs > 0 && intervalMs < 10) throw new UsageError(`invalid --interval "${o.interval}": at least 10 ms`)
  const localAddresses = parseLocalAddresses(o.localAddress)
  const warmup = parseWarmup(o.warmup, base.parseDuration, base.connections)
  if (warmup !== null && (rate?.mode === 'stages' || (o.stagesConnections !== undefined && o.stagesConnections !== null))) {
    // a warmup would replay the start of the ramp, unmeasured: say so rather than guess
    throw new UsageError(`-W/--warmup cannot precede ${rate?.mode === 'stages' ? '--stages' : '--stages-connections'}: make a first stage the warmup (its rows show it apart with --interval)`)
  }
  return {
    rate,
    ignoreCoordinatedOmission: o.ignoreCoordinatedOmission === true,
    connectionClose,
    reconnectRate,
    maxConnectionRequests,
    maxOverallRequests,
    warmup,
    breakout: o.breakout === true,
    reqlog: o.reqlog === undefined ? undefined : checkWritable(String(o.reqlog), '--reqlog'),
    reqlogFormat: parseReqlogFormat(o),
    intervalMs,
    localAddresses
  }
}

module.exports = { normalizeShape, parseLocalAddresses, parseRate, stagedDuration, connectionStagesOf }
