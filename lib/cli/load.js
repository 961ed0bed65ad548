'use strict'
// `benchrig load [options] <url...>`: the built-in engine as a standalone
// load tester, with autocannon's flag names so users can switch by changing
// the command name. With -j, stdout holds only the JSON result.
// yargs loads only when the argv is not the plain form that bench.http()'s
// builtin adapter passes (parseFast): every HTTP configuration of a suite
// starts a `benchrig load`, and yargs is about a third of its start-up CPU
const { startRun } = require('../engine/autocannon/api.js') // -f: a run that starts again
const { printResult } = require('../engine/autocannon/print-result.js')
const { runningLines } = require('../engine/autocannon/track.js')
const { REQUEST_OPTIONS, requestOptions, startCommand, watchRun, splitCommand, resolveUrls, withPort } = require('./load-request-flags.js')
const { outputFormat, renderResult, writeHistograms, checkOutputFiles } = require('./load-output.js')
const { attachLiveView } = require('./load-live.js')
const { UsageError, RunError } = require('../errors.js')
const { SHAPE_OPTIONS, extractWarmup, shapeOptions, watchShape } = require('./load-shape-flags.js')
const { renderHelp, terminalWidth } = require('./help.js')
const { EXAMPLES } = require('./examples.js')
const { WS_OPTIONS, WS_GROUP, wsOptions } = require('./load-ws-flags.js')
const { FEED_OPTIONS, FEED_GROUP, feedOptions } = require('./load-feed-flags.js')
const { GRPC_OPTIONS, GRPC_GROUP, grpcOptions } = require('./load-grpc-flags.js')
const { SCENARIO_OPTIONS, scenariosFile, scenarioLines, reportScenarioThresholds } = require('./load-scenarios.js')

const COMMON = 'Common'
const OUTPUT = 'Output'
const H2 = 'HTTP/2'

/** @type {import('./help.js').OptionSpec[]} */
const LOAD_OPTIONS = [
  { name: 'connections', alias: 'c', type: 'string', value: 'N', group: COMMON, default: '10', describe: 'concurrent connections (counts take SI suffixes: 1k is 1000, 1M)' },
  { name: 'duration', alias: 'd', type: 'string', value: 'S', group: COMMON, default: '10', describe: 'how long to run: seconds, or 500ms, 10s, 2m, 1m30s, 1h' },
  { name: 'pipelining', alias: 'p', type: 'string', value: 'N', group: COMMON, default: '1', describe: 'requests in flight per connection' },
  { name: 'amount', alias: 'a', type: 'string', value: 'N', group: COMMON, describe: 'run until this many requests finished (overrides -d)' },
  { name: 'workers', alias: 'w', type: 'string', value: 'N', group: COMMON, default: '0', describe: 'worker threads (0 or 1: this thread)' },
  { name: 'timeout', alias: 't', type: 'string', value: 'S', group: COMMON, default: '10', describe: 'seconds (or 500ms, 2s) before a request times out (its connection is reset)' },
  { name: 'method', alias: 'm', type: 'string', value: 'METHOD', group: COMMON, default: 'GET', describe: 'HTTP method' },
  // not `array: true`, which would swallow the URL after -H; repeated
  // flags still collect into an array
  { name: 'headers', alias: 'H', type: 'string', value: 'HEADER', group: COMMON, describe: 'request header "name: value" or name=value (repeatable)' },
  { name: 'body', alias: 'b', type: 'string', value: 'TEXT', group: COMMON, describe: 'request body' },
  { name: 'input', alias: 'i', type: 'string', value: 'FILE', group: COMMON, describe: 'file whose content is the request body' },
  { name: 'refill', type: 'string', value: 'MODE', group: 'Rate and traffic shape', default: 'batch', describe: 'pipelining: batch (the next -p requests once all are answered, like wrk), half (refill when half the window is free) or window (refill after each read, always -p in flight, like autocannon)' },
  { name: 'socket-path', alias: 'S', type: 'string', value: 'PATH', group: 'Running', describe: 'connect to this unix socket (the URL still gives Host and path)' },
  { name: 'bailout', alias: 'B', type: 'string', value: 'N', group: 'Running', describe: 'stop after this many errors (per worker)' },
  { name: 'max-header-size', type: 'string', value: 'BYTES', group: 'Running', default: '80k', describe: 'bytes a response\'s header section may take (or 16k, 1m); a longer one is a parse error and resets the connection' },
  { name: 'expect-body', alias: 'E', type: 'string', value: 'TEXT', group: 'Requests and scripts', describe: 'count responses whose body differs from this' },
  { name: 'json', alias: 'j', type: 'boolean', group: OUTPUT, describe: 'print the result as JSON on stdout only (--format json)' },
  { name: 'format', type: 'string', value: 'FMT', group: OUTPUT, describe: 'text (the tables; default), json (as -j) or yaml (gocannon\'s -f yaml): json and yaml leave stdout to the result' },
  { name: 'latency', alias: 'l', type: 'boolean', group: OUTPUT, describe: 'print all latency percentiles' },
  { name: 'render-status-codes', type: 'boolean', group: OUTPUT, describe: 'print a table of status codes' },
  { name: 'per-url', type: 'boolean', group: OUTPUT, describe: 'print a table with a row per URL or named request: requests, latency, non-2xx, errors, bytes (the JSON always has them in endpoints)' },
  { name: 'sample-int', alias: 'L', type: 'string', value: 'MS', group: OUTPUT, default: '1000', describe: 'milliseconds per sample of the Req/Sec and Bytes/Sec rows and of the progress ticks (autocannon\'s -L)' },
  { name: 'hist-out', type: 'string', value: 'FILE', group: OUTPUT, describe: 'write the latency histogram to FILE as HdrHistogram percentile-distribution text (ms)' },
  { name: 'hist-raw', type: 'string', value: 'FILE', group: OUTPUT, describe: 'write the latency histogram to FILE as 1 µs bins, one count a line (gocannon\'s --mode hist -o)' },
  { name: 'prometheus', type: 'string', value: 'FILE', group: OUTPUT, describe: 'write the run\'s metrics to FILE in the Prometheus text format (latency histogram, counters by status code and error kind), atomically, for node_exporter\'s textfile collector' },
  { name: 'html', type: 'string', value: 'FILE', group: OUTPUT, describe: 'write a self-contained HTML report to FILE: percentile plot, latency and req/s over time, status codes, errors, parameters (records 1 s --interval rows unless --interval is given)' },
  { name: 'history', type: 'string', value: 'DB', group: OUTPUT, describe: 'also record the result (requests/s, latency p50 and p99, throughput) in a history store: a SQLite file or postgres://… (see benchrig history); needs --history-label' },
  { name: 'history-label', type: 'string', value: 'L', group: OUTPUT, describe: 'the label of what --history records (the version or commit of the server under load)' },
  { name: 'progress', type: 'boolean', group: OUTPUT, default: true, describe: 'on a TTY, a live line: requests, req/s, p50/p99 of the last second, errors, non-2xx (--no-progress hides it)' },
  { name: 'n', type: 'boolean', group: OUTPUT, describe: 'hide the progress bar (same as --no-progress)' },
  { name: 'reject-unauthorized', type: 'boolean', group: 'TLS', default: false, describe: 'check the server certificate of https URLs' },
  { name: 'h2', type: 'boolean', group: H2, describe: 'HTTP/2: h2c with prior knowledge for http://, ALPN h2 for https://' },
  // -m is the method (autocannon's flag), so max streams has a long flag only
  { name: 'max-streams', type: 'string', value: 'N', group: H2, describe: 'with --h2: concurrent streams per connection (never more than the server allows; default 10)' },
  { name: 'h2-window', type: 'string', value: 'BYTES', group: H2, describe: 'with --h2: our stream and connection flow-control window, bytes or 1m, 16m (default 16m)' },
  { name: 'start-at', type: 'string', value: 'EPOCH_MS', group: 'Several generators', describe: 'wait until this wall-clock instant (epoch ms) before starting: generators on several machines start together' },
  { name: 'shard', type: 'string', value: 'I/N|auto', group: 'Several generators', describe: 'be generator I (0-based) of N; -c, -a, -O, --burst are split and -R shared as over workers (with --scenarios: each scenario\'s VUs, iterations and rate); auto reads SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or BENCHRIG_SHARD=I/N' },
  { name: 'shard-count', type: 'string', value: 'N', group: 'Several generators', describe: 'with --shard auto in a Kubernetes Indexed Job: the number of generators (or BENCHRIG_SHARD_COUNT)' },
  { name: 'version', alias: 'V', type: 'boolean', group: 'Other', describe: 'print the version and exit' },
  { name: 'help', alias: 'h', type: 'boolean', group: 'Other', describe: 'this text' }
]

/** @type {import('./help.js').HelpSpec} */
const HELP = {
  usage: 'benchrig load [options] <url...>',
  summary: 'Load-test an HTTP/1.1 server, or HTTP/2 with --h2 (http:// or https://), or a WebSocket server (ws:// or wss://: messages and their replies). Several URLs are sent round-robin; URLs on several origins split -c over the origins. autocannon\'s flags work as they are (camelCase long names too).',
  groups: [COMMON, 'Rate and traffic shape', 'What is recorded', 'Thresholds', 'Requests and scripts', FEED_GROUP, OUTPUT, 'TLS', H2, GRPC_GROUP, WS_GROUP, 'Running', 'Several generators', 'Other'],
  options: [...LOAD_OPTIONS, ...SHAPE_OPTIONS, ...SCENARIO_OPTIONS, ...REQUEST_OPTIONS, ...FEED_OPTIONS, ...GRPC_OPTIONS, ...WS_OPTIONS],
  examples: [
    ['benchrig load -c 50 -d 10 http://127.0.0.1:3000/', '50 connections for 10 s, as fast as the server answers'],
    ['benchrig load -R 2000 -c 20 -d 30 http://127.0.0.1:3000/', '2000 requests per second; latency corrected for coordinated omission'],
    ['benchrig load -c 1k -R 10k -d 1m30s http://127.0.0.1:3000/', 'counts take SI suffixes (k is 1000, M a million), durations Go\'s form'],
    ['benchrig load -p 10 --refill batch -d 5 http://127.0.0.1:3000/', '10 pipelined requests per connection, refilled like wrk'],
    ['benchrig load --h2 -c 10 --max-streams 20 https://localhost:8443/', 'HTTP/2 over TLS (ALPN), 20 streams per connection'],
    ['benchrig load -c 50 -R 5000 -d 10 -b \'{"op":"echo"}\' --ws-id id ws://127.0.0.1:8080/', 'WebSocket: 5000 messages per second over 50 connections, replies matched by their "id"'],
    ['benchrig load --scenarios examples/scenarios/two-workloads.json http://127.0.0.1:3000/', 'k6\'s scenarios: several workloads, each its executor and start time; results per scenario and overall'],
    ['benchrig load -j -d 5 http://127.0.0.1:3000/ > a.json', 'the result as JSON; several such files add up with benchrig merge'],
    ['benchrig load -d 30 --html report.html http://127.0.0.1:3000/', 'a self-contained HTML report to open in a browser (benchrig report builds one from a.json)'],
    ['benchrig load -d 30 --prometheus /var/lib/prometheus/node-exporter/bench.prom URL', 'the run\'s metrics where node_exporter\'s textfile collector reads them'],
    ['benchrig load --per-url -c 4 -d 5 http://127.0.0.1:3000/a http://127.0.0.1:3001/b', 'two origins, 2 connections each; a row of results per URL'],
    ['benchrig load -d 10 --script examples/wrk-scripts/setup.js http://127.0.0.1:3000/ -- a b', 'wrk\'s script hooks in JS (init, setup, request, response, delay, done); init gets [a, b]'],
    ['benchrig load -a 1000 --on-port /hello -- node server.js', 'start the server, find the port it listens on, load /hello on it, stop it'],
    ['benchrig load --format yaml --reqlog-format gocannon --reqlog log.csv http://127.0.0.1:3000/', 'gocannon\'s forms: the result as YAML and its request-log CSV (--hist-raw: its 1 µs histogram)'],
    ...EXAMPLES.load.map(([cmd, what]) => /** @type {[string, string]} */ ([cmd.replace('$0', 'benchrig load'), what]))
  ]
}
const { shardLoadOptions, parseStartAt } = require('./load-shard.js')
const { parseShard } = require('../compare/shard-spec.js')

function parse (rawArgv) {
  const fast = parseFast(rawArgv)
  if (fast !== null) return { args: fast, helpText: undefined, warmup: undefined, command: undefined }
  return parseYargs(rawArgv)
}

function parseYargs (rawArgv) {
  const { argv: beforeCommand, command } = splitCommand(rawArgv) // --on-port -- CMD ...
  const { argv, warmup } = extractWarmup(expandLists(beforeCommand))
  // lazy: yargs is a third of the start-up of the plain argv bench.http() passes (parseFast)
  const { parseStrict } = require('./strict-yargs.js')
  const args = parseStrict('benchrig load', argv, HELP.options)
  // `-- node server.js` is a server to start, as in autocannon, unless it
  // is a --script's arguments
  if (command?.[0] === 'node' && args.script === undefined) args.onPort = true
  return { args, helpText: renderHelp(HELP, { width: terminalWidth() }), warmup, command }
}

// flags that take several values in autocannon's sub-argument form: --ca [ a.pem b.pem ]
const LIST_FLAGS = new Set(['--ca'])

/** `--ca [ a b ]` as `--ca a --ca b` (repeating the flag works too). */
function expandLists (argv) {
  const out = []
  for (let i = 0; i < argv.length; i++) {
    if (!LIST_FLAGS.has(argv[i]) || argv[i + 1] !== '[') { out.push(argv[i]); continue }
    const close = argv.indexOf(']', i + 2)
    if (close < 0) throw new UsageError(`invalid ${argv[i]}: the [ has no closing ], e.g. ${argv[i]} [ a.pem b.pem ]`)
    if (close === i + 2) throw new UsageError(`invalid ${argv[i]}: give at least one file between [ and ]`)
    for (const v of argv.slice(i + 2, close)) out.push(argv[i], v)
    i = close
  }
  return out
}

// The flags lib/adapters/builtin.js passes, each with a value (-H repeatable)
const FAST_VALUES = { '-c': 'connections', '-d': 'duration', '-p': 'pipelining', '-m': 'method', '-t': 'timeout', '-w': 'workers', '--max-streams': 'maxStreams', '-b': 'body' }
// what yargs fills in when those flags are absent (the defaults of the specs above)
const FAST_DEFAULTS = Object.fromEntries(HELP.options.filter((o) => o.default !== undefined).map((o) => [o.name.replace(/-([a-z])/g, (m, c) => c.toUpperCase()), o.default]))

/**
 * The args of a plain `-j` run with only the builtin adapter's flags, as
 * yargs would give them; null for anything else (which yargs parses, with
 * its checks and messages). test/engine/cli-fast.test.js compares the two.
 * @param {string[]} argv
 * @returns {object|null}
 */
function parseFast (argv) {
  /** @type {Record<string, any>} */
  const args = { _: [], ...FAST_DEFAULTS }
  const seen = new Set()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '-j' || a === '--h2') {
      if (seen.has(a)) return null
      seen.add(a)
      args[a === '-j' ? 'json' : 'h2'] = true
    } else if (a === '-H' || FAST_VALUES[a] !== undefined) {
      const v = argv[++i]
      // a value yargs might read as a flag or a number-like option: let it decide
      if (v === undefined || v.startsWith('-')) return null
      if (a === '-H') {
        (args.headers ??= []).push(v)
      } else {
        if (seen.has(a)) return null
        seen.add(a)
        args[FAST_VALUES[a]] = v
      }
    } else if (a.startsWith('-') || a === '') {
      return null
    } else {
      args._.push(a)
    }
  }
  return args.json === true && args._.length > 0 ? args : null
}

const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
async function main (argv) {
  const { args, helpText, warmup, command } = parse(argv)
  if (args.help) {
    console.log(helpText)
    return 0
  }
  if (args.version) {
    console.log(require('../../package.json').version) // lazy: only --version reads it
    return 0
  }
  const urls = resolveUrls(args._.map(String), args, process.env) // a path-only URL: PORT or --on-port
  // --scenarios: the URLs are the default of scenarios without their own
  const scenarios = scenariosFile(args)
  if (urls.length === 0 && scenarios === undefined) throw new UsageError('no URL given: benchrig load [options] <url>, e.g. benchrig load -c 10 -d 5 http://127.0.0.1:3000/')
  const format = outputFormat(args)
  // json and yaml leave stdout to the result, as -j always did
  if (format !== 'text') args.json = true
  args.format = format
  checkOutputFiles(args)
  const shard = parseShard(last(args.shard), { shardCount: last(args['shard-count']) })
  const startAt = parseStartAt(last(args['start-at']), Date.now())
  const reports = reportFiles(args)
  const history = await openLoadHistory(args)
  const tty = process.stderr.isTTY === true
  const showProgress = tty && args.progress !== false && !args.n
  // liveLatency: only this command's live view asks for it
  let opts = /** @type {ReturnType<typeof loadOptions> & {liveLatency?: boolean, scenarios?: string, shard?: {index: number, count: number}}} */ (loadOptions(args, argv, warmup, urls))
  if (scenarios !== undefined) opts.scenarios = scenarios
  if (!args.onPort && args.script !== undefined && command !== undefined) opts.scriptArgs = command
  // the live line's p50/p99 of the last second (lib/engine/measure/live.js)
  if (showProgress) opts.liveLatency = true
  // a scenarios run splits each scenario's VUs, rates and iterations itself (scenarios/plan.js)
  if (shard && scenarios !== undefined) opts.shard = shard
  else if (shard) opts = shardLoadOptions(opts, shard)
  // the report's timeline needs interval rows: 1 s ones, not printed, unless
  // --interval asks for others (watchShape prints only those)
  if (reports.html !== undefined && opts.interval === undefined) opts.interval = '1000'
  const onPort = await startCommand(args, command, urls)
  if (onPort?.port !== undefined) opts.url = opts.url.map((u) => withPort(u, onPort.port))
  if (startAt !== undefined) {
    // the engine waits for the instant after its set-up (lib/engine/start-at.js)
    const passed = Date.now() - startAt
    if (passed > 0) process.stderr.write(`warning: --start-at ${startAt} had passed ${passed} ms before this generator was ready; it starts now, late, so its seconds are not aligned with the others'\n`)
    opts.startAt = startAt
  }
  let run
  try {
    if (opts.har !== undefined) {
      // entries for other origins are skipped: say so, once per origin
      const { skippedOrigins } = require('../engine/scripting/har.js') // lazy: only --har reads a HAR file
      const { withScheme } = require('../engine/options/options.js')
      for (const line of skippedOrigins(opts.har, opts.url.map(withScheme))) process.stderr.write(line + '\n')
    }
    // no callback: a LoadRun, or with -f a ForeverRun, which has the same
    // opts, stop(), then() and events (autocannon/api.js)
    run = /** @type {import('../engine/index.js').LoadRun} */ (startRun(opts))
  } catch (err) {
    await onPort?.stop()
    throw err
  }
  watchRun(run, args, process)
  watchShape(run, args, process)
  const chatty = tty || !args.json
  const target = urls.length === 1 ? urls[0] : `${urls.length} URLs`
  // everything for people goes to stderr, as autocannon writes it: stdout
  // holds the result of -j alone, and `> file` keeps the tables on screen
  if (chatty && scenarios !== undefined) {
    process.stderr.write(scenarioLines(/** @type {any} */ (run)))
  } else if (chatty) {
    const origins = run.opts.origins?.length ?? 1
    process.stderr.write(runningLines(run.opts, (origins > 1 ? ` over ${origins} origins` : '') +
      (run.opts.h2 ? ` over HTTP/2, up to ${run.opts.h2.maxStreams} streams each` : '')))
  }
  const live = showProgress ? attachLiveView(run, process.stderr) : null
  // Ctrl-C ends the run early but keeps what it measured: the result is
  // printed, marked as cut short, and the exit code is 130 (128 + SIGINT) as a
  // shell expects of an interrupted command. A second Ctrl-C stops at once.
  let interrupted = false
  const onSigint = () => { interrupted = true; run.stop() }
  process.once('SIGINT', onSigint)
  let result
  try {
    result = await run
  } finally {
    process.removeListener('SIGINT', onSigint)
    live?.clear()
    await onPort?.stop()
  }
  // the result first: a histogram or report file that cannot be written must not lose it
  if (format === 'text') {
    process.stderr.write(printResult(result, { outputStream: process.stderr, renderLatencyTable: args.latency, renderStatusCodes: args.renderStatusCodes }))
    // lazy: only --per-url prints it
    if (args.perUrl) process.stderr.write('\n' + require('../engine/result/format-endpoints.js').formatEndpoints(result) + '\n')
    // a script's done() report, after the tables, is the script's own output:
    // stdout, as wrk prints it (in JSON and YAML it is the result's `done`)
    if (result.done !== undefined) process.stdout.write((typeof result.done === 'string' ? result.done : JSON.stringify(result.done, null, 2)).replace(/\n?$/, '\n'))
  } else {
    process.stdout.write(renderResult(result, format, {}))
  }
  writeHistograms(result, args)
  writeReports(reports, result)
  if (history) {
    try {
      const r = await history.record(result)
      if (chatty) process.stderr.write(`history: ${r.added} rows recorded in ${history.where}\n`)
    } finally {
      await history.close()
    }
  }
  if (chatty && result.saturation.warning) process.stderr.write(`warning: ${result.saturation.warning}\n`)
  // a scenario's thresholds first, then the overall ones (the run's own)
  const scenarioFailed = reportScenarioThresholds(result, args.json === true, process)
  const thresholdsFailed = reportThresholds(result, args.json === true, process) || scenarioFailed
  if (interrupted) {
    process.stderr.write(args.forever
      ? 'benchrig load: stopped by Ctrl-C; the last round above was cut short\n'
      : `benchrig load: cut short by Ctrl-C after ${(result.duration ?? 0).toFixed(1)} s; the result covers that span\n`)
    return 130
  }
  if (result.requests.total === 0 && !args.forever) { // -f: Ctrl-C may end a round before its first response
    const kinds = Object.entries(result.errorsByKind).filter(([, v]) => v > 0).map(([k, v]) => `${v} ${k}`)
    throw new RunError(`no request completed against ${target}` + (kinds.length ? ` (errors: ${kinds.join(', ')})` : '') +
      ': check the URL, the server, and -t/--timeout')
  }
  return thresholdsFailed ? 1 : 0
}

/**
 * --threshold: every threshold with its verdict under the text result (as
 * k6's summary lists them), one stderr line per failed one, and a note when
 * --threshold-abort stopped the run.
 * @returns {boolean} whether one failed
 */
function reportThresholds (result, json, io) {
  if (result.thresholds === undefined) return false
  const { formatThresholds, failureLines } = require('../engine/thresholds.js') // lazy: only --threshold reports them
  if (!json) io.stderr.write(`Thresholds:\n${formatThresholds(result.thresholds).join('\n')}\n`)
  if (result.thresholdAbort !== undefined) {
    const a = result.thresholdAbort
    io.stderr.write(`benchrig load: aborted by --threshold-abort after ${a.at.toFixed(1)} s: "${a.expr}" could no longer pass (${a.value} then); the result above covers that time only\n`)
  }
  const failed = failureLines(result.thresholds)
  for (const line of failed) io.stderr.write(`benchrig load: ${line}\n`)
  return failed.length > 0
}

/**
 * --prometheus and --html, checked before the run so that a bad path costs
 * no load time.
 * @returns {{prometheus?: string, html?: string}}
 */
function reportFiles (args) {
  const { checkOutputFile } = require('../report/output-file.js') // lazy: only --prometheus and --html write files
  return {
    prometheus: args.prometheus === undefined ? undefined : checkOutputFile('--prometheus', last(args.prometheus)),
    html: args.html === undefined ? undefined : checkOutputFile('--html', last(args.html))
  }
}

/**
 * --history DB --history-label L: the store, opened before the run.
 * @param {Record<string, any>} args
 */
async function openLoadHistory (args) {
  const db = last(args.history)
  const label = last(args['history-label'] ?? args.historyLabel)
  if (db === undefined) {
    if (label !== undefined) throw new UsageError('--history-label L labels what --history DB records: give --history too')
    return undefined
  }
  if (label === undefined || String(label) === '') throw new UsageError('--history needs --history-label L: a load result names no version (give the version or commit of the server under load)')
  // lazy: the store's engine (SQLite or pg) loads only with --history
  return require('../history/sink.js').loadHistorySink(String(db), String(label))
}

/** Writes the report files of a finished (or Ctrl-C'd) run. */
function writeReports (reports, result) {
  if (reports.prometheus === undefined && reports.html === undefined) return
  const { writeFileAtomic } = require('../report/output-file.js') // lazy: only --prometheus and --html write files
  if (reports.prometheus !== undefined) writeFileAtomic('--prometheus', reports.prometheus, require('../engine/result/prometheus.js').prometheusText(result))
  if (reports.html !== undefined) writeFileAtomic('--html', reports.html, require('../report/html/index.js').renderHtml(result))
}

/** The engine's options from the parsed flags. */
function loadOptions (args, argv, warmup, urls) {
  // with stages or scenarios, -c and -d count only if typed (they set them; yargs fills in the default)
  const staged = args.stages !== undefined || args.stagesConnections !== undefined || args.scenarios !== undefined
  return {
    url: urls.length === 0 ? undefined : urls,
    connections: (args.stagesConnections !== undefined || args.scenarios !== undefined) && !argv.some((a) => /^(-c|--connections)(=|$)|^-c\d/.test(a)) ? undefined : last(args.connections),
    pipelining: last(args.pipelining),
    refill: last(args.refill),
    duration: staged && !argv.some((a) => /^(-d|--duration)(=|$)|^-d\d/.test(a)) ? undefined : last(args.duration),
    amount: last(args.amount),
    workers: last(args.workers),
    timeout: last(args.timeout),
    method: last(args.method),
    headers: args.headers === undefined ? undefined : [].concat(args.headers),
    body: last(args.body),
    bodyFile: last(args.input),
    socketPath: last(args.socketPath),
    bailout: last(args.bailout),
    expectBody: last(args.expectBody),
    maxHeaderSize: last(args.maxHeaderSize),
    rejectUnauthorized: args.rejectUnauthorized,
    h2: args.h2 === true,
    maxStreams: last(args.maxStreams),
    h2Window: last(args.h2Window),
    /** @type {number|undefined} */
    startAt: undefined,
    /** @type {string[]|undefined} */
    scriptArgs: undefined, // the arguments after -- when they are not an --on-port command
    sampleInt: last(args.sampleInt),
    ...shapeOptions(args, warmup),
    ...requestOptions(args, argv),
    ...wsOptions(args),
    ...feedOptions(args, argv),
    ...grpcOptions(args)
  }
}

module.exports = { main, parse, parseFast, parseYargs, loadOptions, reportThresholds, HELP }
