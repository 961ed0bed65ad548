'use strict'
// `benchrig serve`: start the built-in target server, print its URL, run
// until SIGINT/SIGTERM, then close the listeners and return 0.
const yargs = require('yargs')
const { serve } = require('../serve/index.js')
const { UsageError } = require('../errors.js')
const { withExamples } = require('./examples.js')

const USAGE = `Usage: benchrig serve [options]

A target server for trying load generators (benchrig load, wrk, autocannon,
h2load). Prints "benchrig serve: listening on http://HOST:PORT" and runs
until Ctrl+C (SIGINT) or SIGTERM.

Routes:
  /              200 with a small fixed body (the fast benchmark target)
  /bytes/SIZE    a body of SIZE bytes (k and m suffixes: /bytes/64k)
  /echo          JSON of the request's method, url, headers and body
  /pid           the serving process id (every response also carries x-benchrig-pid)
  /stats         JSON {pid, requests, freezes, uptimeMs} of the process that answers

Query keys (override the flags for one request):
  size=BYTES  status=CODE  delay=MS|MIN-MAX  chunked=1  chunk=BYTES  close=1
  reset=1 (no response: RST_STREAM with h2c, a TCP reset with HTTP/1.1)
  block=MS (block the whole process for MS ms when the request arrives)

Options:
  --host HOST          address to listen on (default 127.0.0.1)
  -p, --port PORT      port (default 0: a free port, printed)
  --h2c                HTTP/2 over cleartext (prior knowledge) and HTTP/1.1 on the same port
  --max-streams N      h2c: at most N concurrent streams per connection (SETTINGS)
  --cluster N          N worker processes sharing the port (default 1: this process)
  --size BYTES         body size of / (default: a 26-byte text)
  --status CODE        status of every route (default 200)
  --delay MS|MIN-MAX   answer after MS ms, or a random delay in MIN..MAX ms
  --chunked            chunked bodies (HTTP/1.1); no content-length with h2c
  --chunk-size BYTES   piece size of chunked bodies (default 16k, at most 64k)
  --close              Connection: close on every response (h2c: GOAWAY after it)
  --freeze S/T         block the event loop for S ms every T seconds (e.g. 500/2),
                       to see whether a load generator reports the stall
  -h, --help           this text
`

const STRING_FLAGS = ['host', 'port', 'cluster', 'size', 'status', 'delay', 'chunk-size', 'freeze', 'max-streams']
const BOOLEAN_FLAGS = ['h2c', 'chunked', 'close', 'help']

/**
 * Parses serve's command line into serve() options (validated there).
 * @param {string[]} argv
 * @returns {{help: boolean, options?: import('../serve/index.js').ServeOptions}} options: when help is false
 * @throws {UsageError}
 */
function parseServeArgs (argv) {
  let args
  try {
    args = yargs(argv)
      .parserConfiguration({ 'duplicate-arguments-array': false, 'camel-case-expansion': false })
      .string(STRING_FLAGS)
      .boolean(BOOLEAN_FLAGS)
      .alias('p', 'port')
      .alias('h', 'help')
      .help(false)
      .version(false)
      .strict()
      .exitProcess(false)
      .fail((message, err) => { throw err || new Error(message) })
      .parse()
  } catch (err) {
    const unknown = /^Unknown arguments?: (.*)$/.exec(err.message)
    if (unknown) {
      const names = unknown[1].split(', ')
      const bare = names.find((name) => argv.includes(name))
      if (bare !== undefined) throw new UsageError(`unexpected argument "${bare}": serve takes only options; see benchrig serve --help`)
      throw new UsageError(`unknown option ${names.map((a) => (a.length > 1 ? `--${a}` : `-${a}`)).join(', ')}; see benchrig serve --help`)
    }
    throw new UsageError(`${err.message}; see benchrig serve --help`)
  }
  if (args.help) return { help: true }
  if (args._.length > 0) throw new UsageError(`unexpected argument "${args._[0]}": serve takes only options; see benchrig serve --help`)
  for (const flag of STRING_FLAGS) {
    if (args[flag] === '') throw new UsageError(`--${flag} needs a value; see benchrig serve --help`)
  }
  return {
    help: false,
    options: {
      host: args.host,
      port: args.port,
      h2c: args.h2c || undefined,
      cluster: args.cluster,
      size: args.size,
      status: args.status,
      delay: args.delay,
      chunked: args.chunked || undefined,
      chunkSize: args['chunk-size'],
      close: args.close || undefined,
      freeze: args.freeze,
      maxStreams: args['max-streams']
    }
  }
}

/** Resolves with the name of the first SIGINT or SIGTERM. */
function untilSignal () {
  return new Promise((resolve) => {
    const on = (signal) => {
      // a second signal while closing gets node's default: stop at once
      process.off('SIGINT', on)
      process.off('SIGTERM', on)
      resolve(signal)
    }
    process.on('SIGINT', on)
    process.on('SIGTERM', on)
  })
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} exit code
 */
async function main (argv) {
  const parsed = parseServeArgs(argv)
  if (parsed.help) {
    process.stdout.write(withExamples(USAGE, 'serve', 'benchrig serve'))
    return 0
  }
  const target = await serve(parsed.options, { log: (line) => console.error(`benchrig serve: ${line}`) })
  const protocols = target.h2c ? 'h2c (prior knowledge) and HTTP/1.1' : 'HTTP/1.1'
  const processes = target.pids.length > 1 ? `${target.pids.length} worker processes (pids ${target.pids.join(' ')})` : `pid ${target.pids[0]}`
  process.stdout.write(`benchrig serve: listening on ${target.url}\n`)
  console.error(`benchrig serve: ${protocols}, ${processes}; Ctrl+C stops`)
  const signal = await untilSignal()
  await target.close()
  console.error(`benchrig serve: stopped (${signal}); ${target.url} is closed`)
  return 0
}

module.exports = { main, parseServeArgs, USAGE }
