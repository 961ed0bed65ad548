'use strict'
// `benchrig load [options] <url...>`: the built-in engine as a standalone
// load tester, with autocannon's flag names so users can switch by changing
// the command name. With -j, stdout holds only the JSON result.
// yargs loads only when the argv is not the plain form that bench.http()'s
// builtin adapter passes (parseFast): every HTTP configuration of a suite
// starts a `benchrig load`, and yargs is about a third of its start-up CPU
const { load } = require('../engine/autocannon/api.js') // -f: a run that starts again
const { addRequestFlags, requestOptions, startCommand, watchRun, splitCommand } = require('./load-request-flags.js')
const { formatResult, progressLine } = require('../engine/result/format.js')
const { UsageError, RunError } = require('../errors.js')
const { addShapeFlags, extractWarmup, shapeOptions, watchShape } = require('./load-shape-flags.js')

function parse (rawArgv) {
  const fast = parseFast(rawArgv)
  if (fast !== null) return { args: fast, helpText: undefined, warmup: undefined, command: undefined }
  return parseYargs(rawArgv)
}

function parseYargs (rawArgv) {
  const { argv: beforeCommand, command } = splitCommand(rawArgv) // --on-port -- CMD ...
  const { argv, warmup } = extractWarmup(beforeCommand)
  const yargs = require('yargs')
  const { parseStrict } = require('./strict-yargs.js')
  const y = addRequestFlags(addShapeFlags(yargs(argv)))
    .scriptName('benchrig load')
    .usage('Usage: benchrig load [options] <url...>\n\nLoad-test an HTTP/1.1 server, or HTTP/2 with --h2 (http:// or https://). Several URLs are sent round-robin.')
    .option('connections', { alias: 'c', type: 'string', describe: 'concurrent connections', default: '10' })
    .option('pipelining', { alias: 'p', type: 'string', describe: 'requests in flight per connection', default: '1' })
    .option('refill', { type: 'string', describe: 'pipelining: half (refill when half the window is free), batch (the next -p requests once all are answered, like wrk) or window (refill after each read, always -p in flight, like autocannon)', default: 'half' })
    .option('duration', { alias: 'd', type: 'string', describe: 'seconds to run (or 500ms, 10s, 2m)', default: '10' })
    .option('amount', { alias: 'a', type: 'string', describe: 'run until this many requests finished (overrides -d)' })
    .option('workers', { alias: 'w', type: 'string', describe: 'worker threads (0 or 1: this thread)', default: '0' })
    .option('timeout', { alias: 't', type: 'string', describe: 'seconds before a request times out (its connection is reset)', default: '10' })
    .option('method', { alias: 'm', type: 'string', describe: 'HTTP method', default: 'GET' })
    // not `array: true`, which would swallow the URL after -H; repeated
    // flags still collect into an array
    .option('headers', { alias: 'H', type: 'string', describe: 'request header "name: value" or name=value (repeatable)' })
    .option('body', { alias: 'b', type: 'string', describe: 'request body' })
    .option('input', { alias: 'i', type: 'string', describe: 'file whose content is the request body' })
    .option('socketPath', { alias: 'S', type: 'string', describe: 'connect to this unix socket (the URL still gives Host and path)' })
    .option('bailout', { alias: 'B', type: 'string', describe: 'stop after this many errors (per worker)' })
    .option('expectBody', { alias: 'E', type: 'string', describe: 'count responses whose body differs from this' })
    .option('json', { alias: 'j', type: 'boolean', describe: 'print the result as JSON on stdout only' })
    .option('latency', { alias: 'l', type: 'boolean', describe: 'print all latency percentiles' })
    .option('renderStatusCodes', { type: 'boolean', describe: 'print a table of status codes' })
    .option('hist-out', { type: 'string', describe: 'write the latency histogram to FILE as HdrHistogram percentile-distribution text (ms)' })
    .option('progress', { type: 'boolean', default: true, describe: 'show progress on a TTY (--no-progress hides it)' })
    .option('n', { type: 'boolean', describe: 'hide the progress bar (same as --no-progress)' })
    .option('rejectUnauthorized', { type: 'boolean', default: false, describe: 'check the server certificate of https URLs' })
    .option('h2', { type: 'boolean', describe: 'HTTP/2: h2c with prior knowledge for http://, ALPN h2 for https://' })
    // -m is the method (autocannon's flag), so max streams has a long flag only
    .option('maxStreams', { type: 'string', describe: 'with --h2: concurrent streams per connection (never more than the server allows; default 10)' })
    .option('h2Window', { type: 'string', describe: 'with --h2: our stream and connection flow-control window, bytes or 1m, 16m (default 16m)' })
  const { args, helpText } = parseStrict(y, 'benchrig load', argv)
  return { args, helpText, warmup, command }
}

// The flags lib/adapters/builtin.js passes, each with a value (-H repeatable)
const FAST_VALUES = { '-c': 'connections', '-d': 'duration', '-p': 'pipelining', '-m': 'method', '-t': 'timeout', '-w': 'workers', '--max-streams': 'maxStreams', '-b': 'body' }
// what yargs fills in when those flags are absent (the defaults of parse())
const FAST_DEFAULTS = { connections: '10', pipelining: '1', refill: 'half', duration: '10', workers: '0', timeout: '10', method: 'GET', progress: true, rejectUnauthorized: false }

/**
 * The args of a plain `-j` run with only the builtin adapter's flags, as
 * yargs would give them; null for anything else (which yargs parses, with
 * its checks and messages). test/engine/cli.test.js compares the two.
 * @param {string[]} argv
 * @returns {object|null}
 */
function parseFast (argv) {
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
  const urls = args._.map(String)
  if (urls.length === 0) throw new UsageError('no URL given: benchrig load [options] <url>, e.g. benchrig load -c 10 -d 5 http://127.0.0.1:3000/')
  const opts = loadOptions(args, argv, warmup, urls)
  const onPort = await startCommand(args, command, urls)
  let run
  try {
    run = load(opts)
  } catch (err) {
    await onPort?.stop()
    throw err
  }
  return finish(run, args, urls, onPort)
}

/** The engine's options from the parsed flags. */
function loadOptions (args, argv, warmup, urls) {
  return {
    url: urls,
    connections: last(args.connections),
    pipelining: last(args.pipelining),
    refill: last(args.refill),
    duration: last(args.duration),
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
    rejectUnauthorized: args.rejectUnauthorized,
    h2: args.h2 === true,
    maxStreams: last(args.maxStreams),
    h2Window: last(args.h2Window),
    ...shapeOptions(args, warmup),
    ...requestOptions(args, argv)
  }
}

async function finish (run, args, urls, onPort) {
  watchRun(run, args, process)
  watchShape(run, args, process)
  const tty = process.stderr.isTTY === true
  const showProgress = tty && args.progress !== false && !args.n
  const chatty = tty || !args.json
  const target = urls.length === 1 ? urls[0] : `${urls.length} URLs`
  if (chatty) {
    const what = run.opts.amount > 0 ? `${run.opts.amount} requests` : `${run.opts.duration}s test`
    process.stderr.write(`Running ${what} @ ${target}\n${run.opts.connections} connections` +
      (run.opts.pipelining > 1 ? ` with ${run.opts.pipelining} pipelining factor` : '') +
      (run.opts.h2 ? ` over HTTP/2, up to ${run.opts.h2.maxStreams} streams each` : '') +
      (run.opts.workers > 1 ? `\n${run.opts.workers} workers` : '') + '\n\n')
  }
  if (showProgress) {
    run.on('tick', (t) => {
      process.stderr.write(`\r${progressLine(t.second, Math.round(run.opts.duration), t.requests)}\x1b[K`)
    })
  }
  const onSigint = () => run.stop()
  process.once('SIGINT', onSigint)
  let result
  try {
    result = await run
  } finally {
    process.removeListener('SIGINT', onSigint)
    if (showProgress) process.stderr.write('\r\x1b[K')
    await onPort?.stop()
  }
  if (args.histOut !== undefined) require('../engine/measure/hist-text.js').writeHistText(String(last(args.histOut)), result.histogram)
  if (args.json) {
    process.stdout.write(JSON.stringify(result) + '\n')
  } else {
    process.stdout.write(formatResult(result, { latency: args.latency, statusCodes: args.renderStatusCodes }) + '\n')
  }
  if (chatty && result.saturation.warning) process.stderr.write(`warning: ${result.saturation.warning}\n`)
  if (result.requests.total === 0 && !args.forever) { // -f: Ctrl-C may end a round before its first response
    const kinds = Object.entries(result.errorsByKind).filter(([, v]) => v > 0).map(([k, v]) => `${v} ${k}`)
    throw new RunError(`no request completed against ${target}` + (kinds.length ? ` (errors: ${kinds.join(', ')})` : '') +
      ': check the URL, the server, and -t/--timeout')
  }
  return 0
}

module.exports = { main, parse, parseFast, parseYargs, loadOptions }
