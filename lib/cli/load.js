'use strict'
// `benchrig load [options] <url...>`: the built-in engine as a standalone
// load tester, with autocannon's flag names so users can switch by changing
// the command name. With -j, stdout holds only the JSON result.
const yargs = require('yargs')
const { parseStrict } = require('./strict-yargs.js')
const { load } = require('../engine/api.js') // -f: a run that starts again
const { addRequestFlags, requestOptions, startCommand, watchRun, splitCommand } = require('./load-request-flags.js')
const { formatResult, progressLine } = require('../engine/format.js')
const { UsageError, RunError } = require('../errors.js')
const { addShapeFlags, extractWarmup, shapeOptions, watchShape } = require('./load-shape-flags.js')
const { shardLoadOptions, parseStartAt } = require('./load-shard.js')
const { parseShard } = require('../compare/shard-spec.js')

function parse (rawArgv) {
  const { argv: beforeCommand, command } = splitCommand(rawArgv) // --on-port -- CMD ...
  const { argv, warmup } = extractWarmup(beforeCommand)
  const y = addRequestFlags(addShapeFlags(yargs(argv)))
    .scriptName('benchrig load')
    .usage('Usage: benchrig load [options] <url...>\n\nLoad-test an HTTP/1.1 server, or HTTP/2 with --h2 (http:// or https://). Several URLs are sent round-robin.')
    .option('connections', { alias: 'c', type: 'string', describe: 'concurrent connections', default: '10' })
    .option('pipelining', { alias: 'p', type: 'string', describe: 'requests in flight per connection', default: '1' })
    .option('refill', { type: 'string', describe: 'pipelining: window (refill after each read, always -p in flight), half (refill when half the window is free) or batch (refill when all are answered, like wrk)', default: 'window' })
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
    .option('start-at', { type: 'string', describe: 'wait until this wall-clock instant (epoch ms) before starting: generators on several machines start together' })
    .option('shard', { type: 'string', describe: 'I/N or auto: be generator I (0-based) of N; -c, -a, -O, --burst are split and -R shared as over workers; auto reads SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or BENCHRIG_SHARD=I/N' })
    .option('shard-count', { type: 'string', describe: 'with --shard auto in a Kubernetes Indexed Job: the number of generators (or BENCHRIG_SHARD_COUNT)' })
    .option('h2Window', { type: 'string', describe: 'with --h2: our stream and connection flow-control window, bytes or 1m, 16m (default 16m)' })
  const { args, helpText } = parseStrict(y, 'benchrig load', argv)
  return { args, helpText, warmup, command }
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
  const shard = parseShard(last(args.shard), { shardCount: last(args['shard-count']) })
  const startAt = parseStartAt(last(args['start-at']), Date.now())
  let opts = {
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
    /** @type {number|undefined} */
    startAt: undefined,
    ...shapeOptions(args, warmup),
    ...requestOptions(args, argv)
  }
  if (shard) opts = shardLoadOptions(opts, shard)
  const onPort = await startCommand(args, command, urls)
  if (startAt !== undefined) {
    // the engine waits for the instant after its set-up (lib/engine/start-at.js)
    const passed = Date.now() - startAt
    if (passed > 0) process.stderr.write(`warning: --start-at ${startAt} had passed ${passed} ms before this generator was ready; it starts now, late, so its seconds are not aligned with the others'\n`)
    opts.startAt = startAt
  }
  let run
  try {
    run = load(opts)
  } catch (err) {
    await onPort?.stop()
    throw err
  }
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
  if (args.histOut !== undefined) require('../engine/hist-text.js').writeHistText(String(last(args.histOut)), result.histogram)
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

module.exports = { main, parse }
