'use strict'
// parseArguments(argv) and start(argv): autocannon's CLI as two functions,
// which wrappers use to take autocannon's flags, change the options and run.
// parseArguments reads `benchrig load`'s flags (autocannon's names and
// aliases, ours besides) into the options object autocannon returns: its key
// names, numbers as numbers, one URL as a string, headers as an object, the
// -i file read into `body`, a HAR file parsed (with a warning per skipped
// origin). It returns undefined after printing the help or the version, or
// when no URL is given (autocannon prints its help then). start(argv) runs
// such an object as the CLI would: the tables on stderr, -j's JSON on stdout.
const fs = require('node:fs')
const { UsageError } = require('../errors.js')
const { inAutocannonWords } = require('../engine/autocannon/words.js')

// options whose values autocannon's parser turns into numbers
const NUMBERS = ['connections', 'pipelining', 'duration', 'amount', 'workers', 'timeout', 'bailout', 'sampleInt',
  'maxConnectionRequests', 'maxOverallRequests', 'connectionRate', 'overallRate', 'reconnectRate']

/**
 * autocannon's parseArguments: an error it throws has autocannon's message
 * where autocannon has one (words.js), e.g. a --har file it cannot read.
 * @param {string[]} argv the arguments after the command name
 * @returns {Record<string, any>|undefined}
 */
function parseArguments (argv) {
  try {
    return parseArgv(argv)
  } catch (err) {
    throw inAutocannonWords(err)
  }
}

/**
 * @param {string[]} argv the arguments after the command name
 * @returns {Record<string, any>|undefined}
 */
function parseArgv (argv) {
  // lazy: the load CLI's parser loads only when parseArguments or start is called (require('benchrig') stays small)
  const { parse, loadOptions, HELP } = require('./load.js')
  // lazy: the load CLI's parser loads only when parseArguments or start is called (require('benchrig') stays small)
  const { resolveUrls } = require('./load-request-flags.js')
  // lazy: the load CLI's parser loads only when parseArguments or start is called (require('benchrig') stays small)
  const { withScheme } = require('../engine/options/options.js')
  if (!Array.isArray(argv)) {
    throw new UsageError('parseArguments(argv): argv must be an array of command-line arguments, e.g. [\'-c\', \'10\', \'http://127.0.0.1:3000/\']')
  }
  // autocannon's parser takes numbers too (['-a', 10])
  argv = argv.map((a) => (typeof a === 'string' ? a : String(a)))
  const { args, helpText, warmup, command } = parse(argv)
  if (args.version) {
    console.log('benchrig', 'v' + require('../../package.json').version) // lazy: only --version reads it
    console.log('node', process.version)
    return undefined
  }
  if (args.help || args._.length === 0) {
    console.error(helpText ?? require('./help.js').renderHelp(HELP, { width: 80 })) // lazy: only --help renders it
    return undefined
  }
  const urls = resolveUrls(args._.map(String), args, process.env)
  const o = /** @type {Record<string, any>} */ (loadOptions(args, argv, warmup, urls))
  const numbers = (x) => {
    for (const k of NUMBERS) {
      if (typeof x[k] === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(x[k])) x[k] = Number(x[k])
    }
  }
  numbers(o)
  if (o.warmup !== null && typeof o.warmup === 'object') numbers(o.warmup) // -W [ -c 1 -d 2 ]
  // a URL without a scheme is http:// (a path stays a path: PORT or --on-port gives its port)
  const full = urls.map((u) => (u.startsWith('/') ? u : withScheme(u)))
  o.url = full.length === 1 ? full[0] : full
  o.headers = headersOf(o.headers)
  if (o.bodyFile !== undefined) {
    o.body = readFile(o.bodyFile, '-i/--input')
    delete o.bodyFile
  }
  // autocannon's tlsOptions: the files' contents, beside their paths (its --ca always a list)
  o.tlsOptions = {}
  if (o.cert !== undefined) o.tlsOptions.cert = readFile(o.cert, '--cert', null)
  if (o.key !== undefined) o.tlsOptions.key = readFile(o.key, '--key', null)
  if (o.ca !== undefined) {
    o.ca = [].concat(o.ca)
    o.tlsOptions.ca = o.ca.map((f) => readFile(f, '--ca', null))
  }
  if (typeof o.har === 'string') {
    const { skippedOrigins, readHar } = require('../engine/scripting/har.js') // lazy: only --har reads a HAR file
    o.har = readHar(o.har)
    for (const line of skippedOrigins(o.har, urls.map(withScheme))) console.error(line)
  }
  const json = args.json === true
  Object.assign(o, {
    json,
    renderLatencyTable: args.latency === true,
    renderStatusCodes: args.renderStatusCodes === true,
    renderProgressBar: !json && args.progress !== false && !args.n,
    renderResultsTable: !json,
    debug: args.debug === true,
    onPort: args.onPort === true,
    ...(args.onPort === true ? { spawn: command ?? [] } : {})
  })
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k]
  return o
}

/**
 * -H values as autocannon reads them: split at the first ':' or '=', both
 * sides kept as typed ("a: b" is " b"; HTTP ignores the space before a value,
 * and the engine checks names and values when the run starts).
 * @param {string[]|undefined} list
 */
function headersOf (list) {
  /** @type {Record<string, string>} */
  const out = {}
  for (const h of list ?? []) {
    const colon = h.indexOf(':')
    const eq = h.indexOf('=')
    const at = Math.min(colon < 0 ? Infinity : colon, eq < 0 ? Infinity : eq)
    if (!Number.isFinite(at) || at === 0) {
      throw new UsageError(`An HTTP header was not correctly formatted: ${h} (-H/--headers: give "name: value" or name=value)`)
    }
    out[h.slice(0, at)] = h.slice(at + 1)
  }
  return out
}

/**
 * A file a flag names (text, or a Buffer with encoding null), or one clear error.
 * @param {string} file @param {string} flag @param {BufferEncoding|null} [encoding]
 */
function readFile (file, flag, encoding = 'utf8') {
  try {
    return fs.readFileSync(file, { encoding })
  } catch (err) {
    throw new UsageError(`${flag} ${file}: cannot read the file (${err.code ?? err.message})`)
  }
}

/**
 * Runs what parseArguments returned, as `benchrig load` does with those
 * flags: with onPort, the command in `spawn` first. Errors are printed (their
 * message), as autocannon's start prints them.
 * @param {Record<string, any>|undefined} argv
 * @returns {Promise<object|undefined>|undefined} the result, once the run ends
 */
function start (argv) {
  if (!argv) return undefined // the help was printed
  return run(argv).catch((err) => { console.error(inAutocannonWords(err).message) })
}

async function run (argv) {
  const { startRun, track } = require('../engine/autocannon/api.js') // lazy: the engine loads only when a run starts
  let onPort = null
  let opts = argv
  if (argv.onPort) {
    const { startOnPort } = require('../engine/on-port.js') // lazy: only --on-port starts a server
    const { hasPort, withPort } = require('./load-request-flags.js')
    const { withScheme } = require('../engine/options/options.js')
    const first = withScheme(String([].concat(argv.url)[0]))
    const url = new URL(first)
    onPort = await startOnPort(argv.spawn ?? [], {
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: hasPort(first) ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : undefined,
      socketPath: argv.socketPath
    })
    const port = onPort.port
    opts = { ...argv, url: [].concat(argv.url).map((u) => (port === undefined ? u : withPort(withScheme(String(u)), port))) }
  }
  try {
    const instance = startRun(opts)
    if (!argv.json || !process.stdout.isTTY) {
      track(instance, {
        outputStream: process.stderr,
        renderProgressBar: argv.renderProgressBar,
        renderResultsTable: argv.renderResultsTable,
        renderLatencyTable: argv.renderLatencyTable,
        renderStatusCodes: argv.renderStatusCodes
      })
    }
    const once = () => new Promise((resolve) => setImmediate(resolve)) // track writes at 'done'
    const result = await /** @type {Promise<any>} */ (/** @type {unknown} */ (instance))
    await once()
    if (argv.json) console.log(JSON.stringify(result))
    return result
  } finally {
    await onPort?.stop()
  }
}

module.exports = { parseArguments, start }
