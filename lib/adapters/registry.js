'use strict'
// The registry of HTTP load generators used by bench.http(). The adapters
// beside it are pure (detect, args, parse); this file is the one place
// that spawns a tool, times it, kills it when it overruns, and turns every
// failure into an error that names the tool and says what to do.
//
// Runs inside benchmark children, so it must work on Node >= 18. The root
// _http-benchmarkers.js (the file name Node core's benchmarks know) is this
// module under that name: one registry, whichever path loads it.
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { UsageError, ToolMissingError, RunError } = require('../errors.js')

const ADAPTERS = {
  builtin: require('./builtin.js'),
  wrk: require('./wrk.js'),
  autocannon: require('./autocannon.js'),
  h2load: require('./h2load.js')
}
// Node core's test doubles, by its names (lib/adapters/test-double.js).
for (const type of /** @type {const} */ (['http', 'https', 'http2'])) {
  const adapter = require('./test-double.js').createTestDouble(type)
  ADAPTERS[adapter.name] = adapter
}
const DEFAULT_BENCHMARKER = 'builtin'
// How long past the requested duration a tool may run before we kill it:
// start-up, connection set-up and its own shutdown.
const GRACE_MS = 15000
const MAX_SHOWN = 2000
// The longest a run of a fixed number of requests (bench.http `requests`)
// may take before it counts as hung; BENCHRIG_TIMEOUT can cut it shorter.
const COUNT_RUN_LIMIT_S = 300

const detected = new Map()

/**
 * The adapter for a name; throws a UsageError naming the known ones.
 * @param {string} name
 */
function getBenchmarker (name) {
  if (Object.hasOwn(ADAPTERS, name)) return ADAPTERS[name]
  throw new UsageError(`unknown benchmarker "${name}": use one of ${Object.keys(ADAPTERS).join(', ')} (e.g. --set benchmarker=${DEFAULT_BENCHMARKER})`, 'BENCHRIG_ERR_UNKNOWN_BENCHMARKER')
}

/**
 * {present, version} for a tool, probed once per process.
 * @param {string} name
 */
function detect (name) {
  if (!detected.has(name)) detected.set(name, getBenchmarker(name).detect())
  return detected.get(name)
}

/**
 * Adds a benchmarker (a tool of your own) under adapter.name, for this
 * process. It needs the adapter shape of lib/adapters/: name, protocols,
 * executable(opts), detect(), args(opts), parse(stdout, outputs); optional
 * files(opts), minDuration, wholeSeconds, install.
 * @param {object} adapter
 */
function register (adapter) {
  const missing = ['executable', 'detect', 'args', 'parse'].filter((k) => typeof adapter?.[k] !== 'function')
  if (typeof adapter?.name !== 'string' || !Array.isArray(adapter.protocols) || missing.length > 0) {
    throw new UsageError(`register(adapter): an adapter needs a name, a protocols array and the functions executable, detect, args, parse${missing.length ? ` (missing: ${missing.join(', ')})` : ''}`)
  }
  ADAPTERS[adapter.name] = adapter
  detected.delete(adapter.name)
}

/** The names of the known benchmarkers. */
function list () {
  return Object.keys(ADAPTERS)
}

/**
 * Runs one load against a server and resolves with the normalized result
 * {benchmarker, version, requests, duration, rate, latency: {p50, p90, p99,
 * max, mean} (ms), errors, non2xx, source, command}.
 * @param {string} name benchmarker name
 * @param {object} opts normalized options (see lib/harness/bench-http.js)
 * @returns {Promise<object>}
 */
async function run (name, opts) {
  const adapter = getBenchmarker(name)
  const protocol = opts.protocol || 'http/1.1'
  if (!adapter.protocols.includes(protocol)) {
    const able = list().filter((n) => ADAPTERS[n].protocols.includes(protocol) && !ADAPTERS[n].testDouble)
    const why = adapter.protocolNote ? ` (${adapter.protocolNote})` : ''
    throw new UsageError(`benchmarker "${name}" cannot send ${protocol === 'h2' ? 'HTTP/2' : protocol} requests${why}: pass --set benchmarker=${able[0]} (able: ${able.join(', ')})`, 'BENCHRIG_ERR_UNSUPPORTED_PROTOCOL')
  }
  const { present, version } = detect(name)
  if (!present) throw new ToolMissingError(name, `${adapter.install}, or pass --set benchmarker=${name === DEFAULT_BENCHMARKER ? 'autocannon' : DEFAULT_BENCHMARKER}`)

  const dir = adapter.files ? fs.mkdtempSync(path.join(os.tmpdir(), `benchrig-${name}-`)) : undefined
  try {
    const files = {}
    if (dir) {
      for (const [file, content] of Object.entries(adapter.files(opts))) {
        files[file] = path.join(dir, file)
        fs.writeFileSync(files[file], content)
      }
    }
    const full = { ...opts, protocol, files }
    let command = adapter.executable(full)
    let args = adapter.args(full)
    if (opts.cpuset) {
      // taskset keeps the generator off the server's CPUs (cpuset_client).
      args = ['-c', String(opts.cpuset), command, ...args]
      command = 'taskset'
    }
    // A run of `requests` requests ends when they are done, not at the duration.
    const limitS = opts.requests !== undefined ? Math.max(opts.duration, COUNT_RUN_LIMIT_S) : Math.max(opts.duration, adapter.minDuration || 0)
    const timeoutMs = Math.ceil(limitS * 1000) + (opts.graceMs ?? GRACE_MS)
    const { code, signal, stdout, stderr, timedOut } = await spawnTool(command, args, timeoutMs)
    const shown = `${command} ${args.join(' ')}`
    if (timedOut) {
      throw new RunError(`${name} did not finish within ${timeoutMs} ms and was killed (${shown}); is the server at ${opts.url} answering?`, 'BENCHRIG_ERR_BENCHMARKER_TIMEOUT')
    }
    if (code !== 0) {
      throw new RunError(`${name} failed with ${signal ? `signal ${signal}` : `exit code ${code}`} (${shown}):\n${tail(stderr) || tail(stdout) || '(no output)'}`, 'BENCHRIG_ERR_BENCHMARKER_FAILED')
    }
    const outputs = {}
    for (const [file, p] of Object.entries(files)) outputs[file] = fs.readFileSync(p, 'utf8')
    const result = adapter.parse(stdout, outputs)
    if (!result || !Number.isFinite(result.rate) || !Number.isFinite(result.requests)) {
      throw new RunError(`could not read the output of ${name} ${version} (${shown}); its output was:\n${tail(stdout) || '(empty)'}${stderr ? `\nstderr:\n${tail(stderr)}` : ''}`, 'BENCHRIG_ERR_BENCHMARKER_OUTPUT')
    }
    if (result.requests === 0) {
      throw new RunError(`${name}: no request completed against ${opts.url} (errors: ${result.errors || 0}); check that the server listens on that port and answers ${opts.method} ${opts.path}`, 'BENCHRIG_ERR_NO_REQUESTS')
    }
    return { benchmarker: name, version, ...result, command: [command, ...args] }
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Spawns an argv (never a shell string) and collects its output. */
function spawnTool (command, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    let child
    try {
      child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    } catch (err) {
      reject(spawnError(command, err))
      return
    }
    const out = []
    const err = []
    let timedOut = false
    child.stdout.on('data', (c) => out.push(c))
    child.stderr.on('data', (c) => err.push(c))
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      reject(spawnError(command, e))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, timedOut, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })
    })
  })
}

function spawnError (command, err) {
  if (err.code === 'ENOENT') {
    return new ToolMissingError(command, command === 'taskset'
      ? 'install the Debian package "util-linux", or drop --set cpuset_client'
      : `it is not on PATH; install it or pass --set benchmarker=${DEFAULT_BENCHMARKER}`)
  }
  return new RunError(`could not start ${command}: ${err.message}`, 'BENCHRIG_ERR_BENCHMARKER_FAILED')
}

/** The end of a long output, enough to see the tool's message. */
function tail (text) {
  const s = String(text || '').trim()
  return s.length > MAX_SHOWN ? `...${s.slice(-MAX_SHOWN)}` : s
}

module.exports = { run, detect, list, register, getBenchmarker, ADAPTERS, DEFAULT_BENCHMARKER }
