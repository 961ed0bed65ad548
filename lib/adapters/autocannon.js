'use strict'
// autocannon, our npm dependency, run as its own process on the driver's
// node (never the node under test) with -j for JSON on stdout.
const path = require('node:path')
const { parseAutocannonJson } = require('./autocannon-json.js')

function cliPath () {
  try {
    return require.resolve('autocannon/autocannon.js')
  } catch {
    return undefined
  }
}

const autocannon = {
  name: 'autocannon',
  install: 'run "npm install" in the benchrig package (autocannon is a dependency)',
  minDuration: 0.25,
  wholeSeconds: false,
  protocols: ['http/1.1'],

  /** The driver's node runs autocannon.js (args() puts the script first). */
  executable (opts) { return opts.driverNode },

  detect () {
    const cli = cliPath()
    if (!cli) return { present: false, version: undefined }
    const pkg = require(path.join(path.dirname(cli), 'package.json'))
    return { present: true, version: pkg.version }
  },

  args (opts) {
    const args = [
      cliPath(),
      '-c', String(opts.connections),
      '-d', String(opts.duration),
      '-p', String(opts.pipelining),
      '-m', opts.method
    ]
    // autocannon checks its stop flag once per sample interval (1 s by
    // default), so short runs would last a whole second without -L.
    if (opts.duration < 2) args.push('-L', '100')
    if (opts.timeout) args.push('-t', String(opts.timeout))
    if (opts.workers) args.push('-w', String(opts.workers))
    // autocannon splits a header at its first ':' or '=', so header names
    // stay intact and values may hold either.
    for (const [k, v] of Object.entries(opts.headers)) args.push('-H', `${k}=${v}`)
    if (opts.body !== undefined) args.push('-b', opts.body)
    args.push('-n', '-j', opts.url)
    return args
  },

  parse: parseAutocannonJson
}

module.exports = autocannon
