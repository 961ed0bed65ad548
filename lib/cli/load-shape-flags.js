'use strict'
// The `benchrig load` flags that shape traffic and what is recorded beside
// latency (lib/engine/options/shape-options.js validates them). Long names follow
// autocannon's (camelCase, and the kebab-case form yargs accepts too); pound's
// and wrk2's ideas get names of their own where autocannon has none.
const { UsageError } = require('../errors.js')

const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

const RATE = 'Rate and traffic shape'
const RECORD = 'What is recorded'
const THRESHOLDS = 'Thresholds'

/** @type {import('./help.js').OptionSpec[]} */
const SHAPE_OPTIONS = [
  { name: 'overall-rate', alias: 'R', type: 'string', value: 'RPS', group: 'Common', describe: 'constant rate: requests per second over all connections, paced evenly; latency from each planned send (coordinated omission corrected)' },
  { name: 'connection-rate', alias: 'r', type: 'string', value: 'RPS', group: RATE, describe: 'constant rate per connection; wins over -R' },
  { name: 'ignore-coordinated-omission', alias: 'C', type: 'boolean', group: RATE, describe: 'rate mode: report latency from the actual sends only (hides server stalls; not recommended)' },
  { name: 'burst', type: 'string', value: 'N', group: RATE, describe: 'send N requests at once every --burst-interval' },
  { name: 'burst-interval', type: 'string', value: 'MS', group: RATE, describe: 'milliseconds between bursts, or a duration like 2s (default 1000)' },
  { name: 'stages', type: 'string', value: 'STAGES', group: RATE, describe: 'a rate that ramps: DURATION:TARGET,... e.g. 30s:1000,1m:1000,10s:0 moves linearly from the previous target (0 at first) to each target over its duration; the run lasts their sum' },
  { name: 'stages-connections', type: 'string', value: 'STAGES', group: RATE, describe: 'open connections that ramp the same way (no rate): DURATION:CONNECTIONS,... e.g. 10s:50,30s:50,5s:0' },
  { name: 'stages-start', type: 'string', value: 'N', group: RATE, describe: 'the target the first stage ramps from (default 0): a rate with --stages, connections with --stages-connections (k6\'s startRate, startVUs)' },
  { name: 'connection', type: 'string', value: 'close', group: RATE, describe: 'a new connection for every request (Connection: close)' },
  { name: 'reconnect-rate', alias: 'D', type: 'string', value: 'N', group: RATE, describe: 'reconnect each connection after it sent N requests' },
  { name: 'max-connection-requests', alias: 'M', type: 'string', value: 'N', group: RATE, describe: 'each connection sends at most N requests, then closes; the run ends when all have' },
  { name: 'max-overall-requests', alias: 'O', type: 'string', value: 'N', group: RATE, describe: 'stop after N requests in all (split over workers); the duration still applies' },
  { name: 'warmup', alias: 'W', type: 'string', value: 'S', group: RATE, describe: 'an unmeasured run first: seconds (or 30s, 1m), or [ -c N -d S ] with its own connections and duration' },
  { name: 'local-address', type: 'string', value: 'ADDR', group: RATE, describe: 'source address(es) of the connections: IP, IP1,IP2, 127.0.0.2-9 or a CIDR (taken in turn)' },
  { name: 'breakout', type: 'boolean', group: RECORD, describe: 'also report connect time, time to first byte and time to last byte' },
  { name: 'reqlog', type: 'string', value: 'FILE', group: RECORD, describe: 'write one line per request to FILE: code;start;end;connection (ns since the start)' },
  { name: 'reqlog-format', type: 'string', value: 'FMT', group: RECORD, describe: 'the --reqlog layout: default, or gocannon (its CSV: a code;start;end; header, rows sorted by end)' },
  { name: 'interval', type: 'string', value: 'MS', group: RECORD, describe: 'print a timeline row every MS milliseconds (or 1s, 5s): count, mean, p50..p99, errors; in the JSON as intervals' },
  { name: 'threshold', type: 'string', value: 'EXPR', group: THRESHOLDS, describe: 'a pass/fail criterion, e.g. p99<50ms, errors<0.1%, non2xx==0, rps>1000 (repeatable); a failed one makes the exit code 1' },
  { name: 'threshold-abort', type: 'boolean', group: THRESHOLDS, describe: 'stop the run as soon as a threshold can no longer pass (the result is still printed)' }
]

/**
 * Takes autocannon's sub-argument form `-W [ -c 1 -d 3 ]` out of argv (yargs
 * cannot parse it) and returns the remaining argv and the warmup object.
 * @param {string[]} argv
 * @returns {{argv: string[], warmup: {connections?: string, duration?: string}|undefined}}
 */
function extractWarmup (argv) {
  const at = argv.findIndex((a, i) => (a === '-W' || a === '--warmup') && argv[i + 1] === '[')
  if (at < 0) return { argv, warmup: undefined }
  const close = argv.indexOf(']', at + 2)
  if (close < 0) throw new UsageError('invalid -W/--warmup: the [ has no closing ], e.g. --warmup [ -c 1 -d 3 ]')
  const inner = argv.slice(at + 2, close)
  const warmup = {}
  for (let i = 0; i < inner.length; i += 2) {
    const flag = inner[i]
    const value = inner[i + 1]
    if (value === undefined) throw new UsageError(`invalid -W/--warmup: ${flag} needs a value`)
    if (flag === '-c' || flag === '--connections') warmup.connections = value
    else if (flag === '-d' || flag === '--duration') warmup.duration = value
    else throw new UsageError(`invalid -W/--warmup: "${flag}" is not a warmup option (use -c and -d)`)
  }
  return { argv: [...argv.slice(0, at), ...argv.slice(close + 1)], warmup }
}

/** The load() options from the parsed flags. */
function shapeOptions (args, warmup) {
  return {
    overallRate: last(args.overallRate),
    connectionRate: last(args.connectionRate),
    ignoreCoordinatedOmission: args.ignoreCoordinatedOmission === true,
    burst: last(args.burst),
    burstInterval: last(args.burstInterval),
    connection: last(args.connection),
    reconnectRate: last(args.reconnectRate),
    maxConnectionRequests: last(args.maxConnectionRequests),
    maxOverallRequests: last(args.maxOverallRequests),
    warmup: warmup ?? last(args.warmup),
    breakout: args.breakout === true,
    reqlog: last(args.reqlog),
    reqlogFormat: last(args.reqlogFormat),
    interval: last(args.interval),
    // repeated --stages add stages; repeated --threshold add thresholds
    stages: args.stages === undefined ? undefined : [].concat(args.stages),
    stagesConnections: args.stagesConnections === undefined ? undefined : [].concat(args.stagesConnections),
    stagesStart: last(args.stagesStart),
    thresholds: args.threshold === undefined ? undefined : [].concat(args.threshold),
    thresholdAbort: args.thresholdAbort === true,
    localAddress: args.localAddress === undefined ? undefined : [].concat(args.localAddress)
  }
}

/**
 * Prints what the shape options add while a run goes: the timeline rows
 * (stdout, or stderr when stdout holds the JSON) and the warmup.
 * @param {import('../engine/index.js').LoadRun} run
 * @param {{json?: boolean, interval?: string}} args
 * @param {{stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream}} io
 */
function watchShape (run, args, io) {
  const out = args.json ? io.stderr : io.stdout
  const { formatRow } = require('../engine/measure/timeline.js') // lazy: only --interval prints rows
  let first
  // rows that only --html asked for are not printed
  if (args.interval !== undefined) {
    run.on('interval', (row) => {
      first ??= row.start
      // a --scenarios run's rows come from each scenario: named
      out.write((row.scenario === undefined ? '' : `${row.scenario}: `) + formatRow(row, first) + '\n')
    })
  }
  run.on('warmup', (w) => io.stderr.write(`warming up: ${w.connections} connections for ${w.duration}s (not measured)\n`))
}

module.exports = { SHAPE_OPTIONS, extractWarmup, shapeOptions, watchShape }
