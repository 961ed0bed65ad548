'use strict'
// The built-in engine, run as `benchrig load` in its own process on the
// driver's node, with autocannon's flags and JSON (-j). HTTP/1.1, and HTTP/2
// (--h2: clients x maxConcurrentStreams, as h2load's -c x -m).
const path = require('node:path')
const fs = require('node:fs')
const { parseAutocannonJson } = require('./autocannon-json.js')

const ROOT = path.join(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')

const builtin = {
  name: 'builtin',
  install: 'the built-in engine ships with benchrig (lib/engine and lib/cli/load.js); reinstall benchrig',
  minDuration: 0.25,
  wholeSeconds: false,
  protocols: ['http/1.1', 'h2'],

  executable (opts) { return opts.driverNode },

  detect () {
    const present = fs.existsSync(path.join(ROOT, 'lib', 'engine', 'index.js')) &&
      fs.existsSync(path.join(ROOT, 'lib', 'cli', 'load.js'))
    return { present, version: require(path.join(ROOT, 'package.json')).version }
  },

  args (opts) {
    const h2 = opts.protocol === 'h2'
    const args = [
      BIN, 'load',
      '-c', String(h2 ? (opts.clients || opts.connections) : opts.connections),
      '-d', String(opts.duration),
      '-m', opts.method
    ]
    if (h2) args.push('--h2', '--max-streams', String(opts.streams || opts.pipelining || 1))
    else args.push('-p', String(opts.pipelining))
    // Node's h2load options: requests is a run of that many requests (-a,
    // like h2load -n), threads are our worker threads (like h2load -t).
    if (opts.requests !== undefined) args.push('-a', String(opts.requests))
    if (opts.timeout) args.push('-t', String(opts.timeout))
    const workers = opts.workers || opts.threads
    if (workers) args.push('-w', String(workers))
    for (const [k, v] of Object.entries(opts.headers)) args.push('-H', `${k}=${v}`)
    if (opts.body !== undefined) args.push('-b', opts.body)
    args.push('-j', opts.url)
    return args
  },

  parse: parseAutocannonJson
}

module.exports = builtin
