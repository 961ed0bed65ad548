'use strict'
// The `benchrig load` flags of issue 7 (requests, scripting, TLS files,
// --on-port, --forever, --debug), with autocannon's names and aliases, and
// what the command does with them around the run.
const { startOnPort, splitCommand } = require('../engine/on-port.js')
const { UsageError } = require('../errors.js')

const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

const SCRIPTS = 'Requests and scripts'

/** @type {import('./help.js').OptionSpec[]} */
const REQUEST_OPTIONS = [
  { name: 'script', type: 'string', value: 'FILE', group: SCRIPTS, describe: 'a JS module exporting setupRequest, onResponse, setupClient, verifyBody, requests, initialContext, or wrk\'s init, setup, request, response, delay, done; arguments after -- go to init(args)' },
  { name: 'har', type: 'string', value: 'FILE', group: SCRIPTS, describe: 'replay the requests of a HAR file that go to the URL\'s origin' },
  { name: 'form', alias: 'F', type: 'string', value: 'JSON', group: SCRIPTS, describe: 'multipart/form-data body from JSON or a JSON file: {"f": {"type": "text"|"file", "value"|"path": ...}}' },
  { name: 'id-replacement', alias: 'I', type: 'boolean', group: SCRIPTS, describe: 'replace every [<id>] in the path and body with a fresh id per request' },
  { name: 'exclude-error-stats', alias: 'x', type: 'boolean', group: SCRIPTS, describe: 'leave non-2xx responses out of latency and bytes/s' },
  { name: 'cert', type: 'string', value: 'FILE', group: 'TLS', describe: 'client certificate chain, PEM file (https)' },
  { name: 'key', type: 'string', value: 'FILE', group: 'TLS', describe: 'private key of --cert, PEM file (https)' },
  { name: 'ca', type: 'string', value: 'FILE', group: 'TLS', describe: 'trusted CA certificates, PEM file (repeatable; https)' },
  { name: 'servername', alias: 's', type: 'string', value: 'NAME', group: 'TLS', describe: 'TLS SNI server name (default: the URL\'s host unless it is an IP)' },
  { name: 'on-port', type: 'boolean', group: 'Running', describe: 'start the command after --, wait until the URL\'s port accepts connections (no port in the URL: the port it listens on), run, then stop it' },
  { name: 'forever', alias: 'f', type: 'boolean', group: 'Running', describe: 'run again and again (a result after each round) until Ctrl-C' },
  { name: 'debug', type: 'boolean', group: 'Running', describe: 'print connection and request errors to stderr' },
  { name: 'title', alias: 'T', type: 'string', value: 'TEXT', group: 'Output', describe: 'a title for the result' }
]

/**
 * Load options from the parsed flags.
 * @param {object} args parsed flags
 * @param {string[]} argv the raw arguments (to tell a given -m from its default)
 */
function requestOptions (args, argv) {
  const ca = args.ca === undefined ? undefined : [].concat(args.ca).map(String)
  return {
    script: last(args.script),
    har: last(args.har),
    form: last(args.form),
    idReplacement: args.idReplacement === true,
    cert: last(args.cert),
    key: last(args.key),
    ca: ca === undefined ? undefined : (ca.length === 1 ? ca[0] : ca),
    servername: last(args.servername),
    forever: args.forever === true,
    title: last(args.title),
    excludeErrorStats: args.excludeErrorStats === true,
    // a form is a POST unless -m says otherwise (autocannon's rule)
    ...(args.form !== undefined && !argv.some((a) => /^(-m|--method)(=|$)/.test(a)) ? { method: undefined } : {})
  }
}

/** The URL names its port (new URL() drops a default one, so read the text). */
function hasPort (u) {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*):\d+/i.test(u)
}

/**
 * autocannon's path-only URL: with PORT set, /path is http://localhost:PORT/path;
 * with --on-port and no PORT, http://localhost/path whose port startCommand finds.
 * @param {string[]} urls @param {{onPort?: boolean}} args @param {NodeJS.ProcessEnv} env
 */
function resolveUrls (urls, args, env) {
  return urls.map((u) => {
    if (!u.startsWith('/')) return u
    if (env.PORT !== undefined && env.PORT !== '') {
      if (!/^\d+$/.test(env.PORT)) throw new UsageError(`the URL "${u}" is a path, and PORT "${env.PORT}" is not a port number: set PORT=3000, or give the whole URL`)
      return `http://localhost:${env.PORT}${u}`
    }
    if (args.onPort) return `http://localhost${u}`
    throw new UsageError(`the URL "${u}" is a path: set PORT (it becomes http://localhost:$PORT${u}), use --on-port to find the port of the command after --, or give the whole URL`)
  })
}

/** The URL with the port --on-port found. */
function withPort (u, port) {
  if (hasPort(u)) return u
  const url = new URL(u)
  url.port = String(port)
  return url.href
}

/**
 * Starts the --on-port command (when given) and waits for the port: the
 * URL's, or, when the URL has none, the one the command listens on.
 * @returns {Promise<null | {stop: () => Promise<void>, port: number|undefined}>}
 */
async function startCommand (args, command, urls) {
  if (!args.onPort) {
    // with --script, what follows -- is init(args)'s (scriptArgs)
    if (command !== undefined && command.length > 0 && args.script === undefined) throw new UsageError(`a command after -- needs --on-port: benchrig load --on-port ${urls[0] ?? 'URL'} -- ${command.join(' ')}; arguments for a --script go after -- too`)
    return null
  }
  let url
  try {
    url = new URL(urls[0])
  } catch {
    throw new UsageError('--on-port: give the URL the command will listen on, e.g. --on-port http://127.0.0.1:3000/ -- node server.js')
  }
  const port = hasPort(urls[0]) ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : undefined
  return startOnPort(command, { hostname: url.hostname.replace(/^\[|\]$/g, ''), port, socketPath: last(args.socketPath) })
}

/** --debug and --forever: what the CLI listens to on the run. */
function watchRun (run, args, { stdout, stderr }) {
  if (args.debug) run.on('reqError', (err) => stderr.write(`error: ${err.message}\n`))
  if (args.forever) {
    // each finished round is printed; the round Ctrl-C stops is printed by the caller
    run.on('done', (result) => {
      if (result.stoppedBy === 'stopped') return
      // the tables for people on stderr, the JSON or YAML on stdout (as the last round's)
      // lazy: only --format yaml needs it
      if (args.json) stdout.write((args.format === 'yaml' ? require('../engine/result/yaml.js').toYaml(result).trimEnd() : JSON.stringify(result)) + '\n')
      // lazy: the text tables load only when text is printed (bench.http() reads JSON)
      else stderr.write(require('../engine/autocannon/print-result.js').printResult(result, { outputStream: stderr, renderLatencyTable: args.latency, renderStatusCodes: args.renderStatusCodes }))
      // lazy: only --per-url prints it
      if (args.perUrl && !args.json) stderr.write('\n' + require('../engine/result/format-endpoints.js').formatEndpoints(result) + '\n')
    })
  }
}

module.exports = { REQUEST_OPTIONS, requestOptions, startCommand, watchRun, splitCommand, resolveUrls, withPort, hasPort }
