'use strict'
// bench.http(options, cb): load the server a benchmark started with an
// external (or the built-in) load generator, then report its rate with the
// latency, errors and the tool's name and version.
//
// Runs inside the benchmark child, on the node binary under test, so it must
// work on Node >= 18. The generator itself runs in its own process on the
// driver's node (BENCHRIG_DRIVER_NODE), never on the binary under test.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const benchmarkers = require('../adapters/registry.js')
const { UsageError, RunError, isUserFacing } = require('../errors.js')

const DEFAULT_PORT = 12346
// Durations under --test: enough for a few hundred requests, short enough
// for whole suites to run in seconds; the same value the harness gives a
// duration key (test-mode.js). wrk's floor of one second is its own
// (adapter.minDuration).
const { TEST_DURATION } = require('./test-mode.js')

/**
 * Is this child running under --test? The harness shrinks a `duration`
 * configuration key itself; this covers benchmarks that pass a fixed
 * duration to bench.http (the bench object or the environment says so).
 * @param {object} bench
 */
function isTestMode (bench) {
  if (bench && (bench.testMode === true || bench.isTestMode === true)) return true
  const env = process.env
  return env.BENCHRIG_MODE === 'test' || env.BENCHRIG_MODE === 'test-all' ||
    env.BENCHRIG_TEST === '1' || env.BENCHRIG_TEST_MODE === '1'
}

/** The benchmark's configuration of this child. */
function configOf (bench) {
  return (bench && (bench.config || bench.conf)) || {}
}

/** The benchmark's category folder ("http2" for "http2/simple.js"). */
function categoryOf (bench) {
  const name = (bench && typeof bench.name === 'string') ? bench.name : ''
  return name.includes('/') ? name.slice(0, name.indexOf('/')) : undefined
}

/** Pass-through argv options (cpuset_client, cpuset_server) of this child. */
function extraOf (bench) {
  return (bench && bench.extra_options) || {}
}

/** A positive number from an option, or the default; a UsageError names the key. */
function positive (value, key, fallback) {
  if (value === undefined || value === null || value === '') return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`bench.http: ${key} must be a positive number, got ${JSON.stringify(value)}`)
  return n
}

/**
 * Turns bench.http options and the configuration into the adapters' options.
 * @param {object} options bench.http options
 * @param {object} conf the child's configuration (may carry benchmarker, cpuset_client)
 * @param {{testMode?: boolean, category?: string}} [ctx] category: the file's folder ("http2" means HTTP/2)
 */
function normalizeOptions (options = {}, conf = {}, ctx = {}) {
  const PROTOCOLS = { 'http/1.1': 'http/1.1', http1: 'http/1.1', h2: 'h2', http2: 'h2' }
  // Node core's http2/ files pass no protocol: their folder, or a benchmarker
  // that only speaks HTTP/2 (h2load, as Node runs it; test-double-http2),
  // says it. An explicit protocol always wins.
  const asked = options.protocol || (options.http2 ? 'h2' : undefined) || (ctx.category === 'http2' ? 'h2' : undefined)
  if (asked !== undefined && !PROTOCOLS[asked]) throw new UsageError(`bench.http: protocol must be "http/1.1" or "h2", got "${options.protocol}"`)
  const name = conf.benchmarker || options.benchmarker || process.env.BENCHRIG_BENCHMARKER ||
    (PROTOCOLS[asked] === 'h2' ? 'h2load' : benchmarkers.DEFAULT_BENCHMARKER)
  const adapter = benchmarkers.getBenchmarker(String(name))
  const protocol = PROTOCOLS[asked] || adapter.defaultProtocol || 'http/1.1'
  const scheme = options.scheme || 'http'
  if (scheme !== 'http' && scheme !== 'https') throw new UsageError(`bench.http: scheme must be "http" or "https", got "${scheme}"`)
  const host = options.host || '127.0.0.1'
  const port = positive(options.port ?? process.env.PORT, 'port', DEFAULT_PORT)
  const reqPath = options.path || '/'
  if (!reqPath.startsWith('/')) throw new UsageError(`bench.http: path must start with "/", got "${reqPath}"`)
  let duration = positive(options.duration, 'duration', 5)
  if (ctx.testMode) duration = Math.min(duration, TEST_DURATION)
  duration = Math.max(duration, adapter.minDuration || 0)
  if (adapter.wholeSeconds) duration = Math.ceil(duration)
  // Node's h2load mapping: `requests` is -n, a run of that many requests
  // (duration then only bounds the tool's run time, see _http-benchmarkers.js).
  const requests = options.requests === undefined ? undefined : Math.round(positive(options.requests, 'requests'))
  const clients = options.clients === undefined ? undefined : Math.round(positive(options.clients, 'clients'))
  if (requests !== undefined && requests < (clients ?? 1)) {
    throw new UsageError(`bench.http: requests (${requests}) must be at least clients (${clients}): each client makes at least one request (h2load -n >= -c); raise requests or lower clients`)
  }
  const headers = { ...(options.headers || {}) }
  let body = options.body
  if (body !== undefined && typeof body !== 'string') {
    body = Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body)
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
  }
  const urlHost = host.includes(':') ? `[${host}]` : host
  return {
    benchmarker: adapter.name,
    protocol,
    scheme,
    host,
    port,
    path: reqPath,
    url: `${scheme}://${urlHost}:${port}${reqPath}`,
    connections: Math.round(positive(options.connections, 'connections', 100)),
    duration,
    pipelining: Math.round(positive(options.pipelining, 'pipelining', 1)),
    method: String(options.method || (body !== undefined ? 'POST' : 'GET')).toUpperCase(),
    headers,
    body,
    timeout: options.timeout === undefined ? undefined : positive(options.timeout, 'timeout'),
    workers: options.workers === undefined ? undefined : Math.round(positive(options.workers, 'workers')),
    threads: options.threads === undefined ? undefined : Math.round(positive(options.threads, 'threads')),
    clients,
    requests,
    streams: (options.maxConcurrentStreams ?? options.streams) === undefined
      ? undefined
      : Math.round(positive(options.maxConcurrentStreams ?? options.streams, 'maxConcurrentStreams')),
    cpuset: conf.cpuset_client ?? options.cpusetClient,
    cpusetServer: conf.cpuset_server,
    driverNode: process.env.BENCHRIG_DRIVER_NODE || process.execPath
  }
}

/** The report's extra fields (latency in ms). */
function toExtra (result) {
  return {
    benchmarker: result.benchmarker,
    benchmarker_version: result.version,
    latency_p50: result.latency.p50,
    latency_p90: result.latency.p90,
    latency_p99: result.latency.p99,
    latency_max: result.latency.max,
    errors: result.errors,
    non2xx: result.non2xx
  }
}

/**
 * CPU seconds (user + system) of the processes this one has waited for:
 * fields 16 and 17 of /proc/self/stat, in clock ticks (USER_HZ, 100 on
 * Linux). The generator is such a child once it has exited; undefined where
 * there is no /proc.
 * @param {() => string} [read]
 */
function childrenCpuSeconds (read = () => fs.readFileSync('/proc/self/stat', 'utf8')) {
  let text
  try { text = read() } catch { return undefined }
  // The command name (field 2) may hold spaces and parentheses: count from its end.
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/)
  const cutime = Number(fields[13])
  const cstime = Number(fields[14])
  return Number.isFinite(cutime) && Number.isFinite(cstime) ? (cutime + cstime) / 100 : undefined
}

// A generator that used this share of its threads' CPUs or more was the
// bottleneck: the rate shows the client's limit, not the server's.
const GENERATOR_BOUND = 0.9

/**
 * Starts counting what the server (this process) spends over a load: its CPU
 * time, and under --measure heap its allocations; the stop function adds
 * the generator's CPU time, read when it has exited.
 * @param {string} measure
 */
function startServerCount (measure) {
  const cpu0 = process.cpuUsage()
  const children0 = childrenCpuSeconds()
  // lazy: only measure=heap counts the server's heap (a child's start-up)
  const stopHeap = measure === 'heap' ? require('./heap-count.js').startHeapCount() : undefined
  return function stop () {
    const heap = stopHeap ? stopHeap() : undefined
    const d = process.cpuUsage(cpu0)
    const children1 = childrenCpuSeconds()
    return {
      cpuS: (d.user + d.system) / 1e6,
      heap,
      maxRssKb: process.resourceUsage().maxRSS,
      generatorCpuS: children0 === undefined || children1 === undefined ? undefined : children1 - children0
    }
  }
}

/**
 * The server's cost of a load, as report fields, and the rate of the
 * measure (wall: the generator's requests per second).
 * @param {{requests: number, duration: number, rate: number}} result
 * @param {{cpuS: number, heap?: import('./heap-count.js').HeapCount, maxRssKb: number, generatorCpuS?: number}} cost
 * @param {string} measure wall | server-cpu | heap
 * @param {number} [threads] the generator's threads (its CPUs at most)
 */
function serverCost (result, cost, measure, threads = 1) {
  const fields = {
    server_cpu_s: cost.cpuS,
    server_cpu_us_per_req: result.requests > 0 ? cost.cpuS * 1e6 / result.requests : undefined,
    server_max_rss_kb: cost.maxRssKb
  }
  // lazy: only measure=heap counts the server's heap (a child's start-up)
  if (cost.heap) Object.assign(fields, require('./heap-count.js').heapFields(cost.heap, 'server_'))
  if (cost.generatorCpuS !== undefined && result.duration > 0) {
    fields.generator_cpu_s = cost.generatorCpuS
    fields.generator_cores = cost.generatorCpuS / result.duration
    fields.generator_bound = fields.generator_cores >= GENERATOR_BOUND * threads
  }
  let rate = result.rate
  let time = result.duration
  if (measure === 'server-cpu') {
    time = Math.max(cost.cpuS, 1e-6)
    rate = result.requests / time
  } else if (measure === 'heap') {
    time = Math.max(cost.heap.bytes / 1e6, 1e-6)
    rate = result.requests / time
  }
  return { rate, time, fields }
}

/**
 * The unmeasured first load of server-cpu and heap: a fifth of the load's
 * duration (at least 0.25 s or the tool's floor), or of its request count.
 * @param {ReturnType<typeof normalizeOptions>} opts
 */
function warmUpOptions (opts) {
  const adapter = benchmarkers.getBenchmarker(opts.benchmarker)
  let duration = Math.max(opts.duration / 5, WARM_UP_MIN_S, adapter.minDuration || 0)
  if (adapter.wholeSeconds) duration = Math.ceil(duration)
  const requests = opts.requests === undefined ? undefined : Math.max(opts.clients ?? 1, Math.ceil(opts.requests / 5))
  return { ...opts, duration, requests }
}
const WARM_UP_MIN_S = 0.25

/**
 * A load whose every response had a non-2xx status measured an error page,
 * not the benchmark: unless the file says it expects that
 * (bench.http({ allowNon2xx: true })), the configuration fails.
 * @param {{requests: number, non2xx: number, benchmarker?: string}} result
 * @param {{allowNon2xx?: boolean, path?: string}} options
 * @returns {Error|undefined}
 */
function checkResponses (result, options = {}) {
  if (options.allowNon2xx === true) return undefined
  if (!(result.requests > 0) || !(result.non2xx >= result.requests)) return undefined
  return new RunError(`bench.http: all ${result.requests} responses to ${options.path || '/'} had a non-2xx status (${result.benchmarker}): the load measured an error response, not the benchmark; check the server and the path, or pass allowNon2xx: true to bench.http if that is what the file measures`, 'BENCHRIG_ERR_NON2XX')
}

/**
 * Pins this process (the server under test) to a CPU list with taskset,
 * for --set cpuset_server=LIST.
 */
function pinServer (cpus) {
  const r = spawnSync('taskset', ['-a', '-p', '-c', String(cpus), String(process.pid)], { encoding: 'utf8' })
  if (r.error) {
    throw new UsageError(`cpuset_server=${cpus}: taskset is not available (${/** @type {NodeJS.ErrnoException} */ (r.error).code || r.error.message}); install the Debian package "util-linux" or drop --set cpuset_server`)
  }
  if (r.status !== 0) {
    throw new UsageError(`cpuset_server=${cpus}: taskset could not pin the server (${r.stderr.trim()}); give a CPU list of this machine (CPUs 0-${os.cpus().length - 1}), e.g. --set cpuset_server=0`)
  }
}

/**
 * bench.http(options, cb) as Node core's benchmark/common.js has it: runs the
 * load, calls cb(err, result), then reports rate + extra through bench.report.
 * On failure it prints the message (no stack for user errors), sets
 * process.exitCode = 1 and calls cb(err) so the benchmark can close its server.
 * @param {object} bench the benchmark object (report(rate, extra), config)
 * @param {object} options path, connections, duration, pipelining, method,
 *   headers, body, scheme, host, port, benchmarker, protocol ('h2'),
 *   clients, threads, maxConcurrentStreams, requests, timeout, workers (builtin/autocannon),
 *   allowNon2xx (a load with no 2xx response is a failure unless true)
 * @param {(err: Error|null, result?: object) => void} [cb]
 */
function http (bench, options, cb) {
  const conf = { ...extraOf(bench), ...configOf(bench) }
  const measure = (bench && bench.measure) || 'wall'
  let stopCount
  let threads = 1
  Promise.resolve()
    .then(() => {
      if (measure !== 'wall' && measure !== 'server-cpu' && measure !== 'heap') {
        throw new UsageError(`bench.http(): --measure ${measure} does not apply to HTTP benchmarks: the rate is measured by a load generator in another process, not by the server's own ${measure === 'cpu' ? 'CPU time' : 'instructions'}; run HTTP benchmarks with --measure wall (the default), server-cpu (requests per CPU-second of the server) or heap`, 'BENCHRIG_ERR_MEASURE')
      }
      const opts = normalizeOptions(options, conf, { testMode: isTestMode(bench), category: categoryOf(bench) })
      if (opts.cpusetServer !== undefined) pinServer(opts.cpusetServer)
      threads = opts.workers || opts.threads || 1
      if (measure === 'wall') {
        stopCount = startServerCount(measure)
        return benchmarkers.run(opts.benchmarker, opts)
      }
      // The server's first requests compile its code (the JIT's threads
      // count in its CPU time): a fixed cost per process, about 60 ms of CPU
      // for test/fixtures/measure-cost/http/work.js on this machine, that a
      // short load would spread over few requests and a long one over many.
      // A first load, unmeasured, pays it; then the measured one.
      return benchmarkers.run(opts.benchmarker, warmUpOptions(opts))
        .then(() => {
          stopCount = startServerCount(measure)
          return benchmarkers.run(opts.benchmarker, opts)
        })
    })
    .then((result) => {
      const bad = checkResponses(result, options)
      if (bad) throw bad
      return result
    })
    .then((result) => {
      const { rate, time, fields } = serverCost(result, stopCount(), measure, threads)
      if (cb) cb(null, result)
      // extra.benchmarker also becomes a configuration key (Node core style).
      bench.report(rate, { time, measure, ...toExtra(result), ...fields })
    }, (err) => {
      if (cb) cb(err)
      process.exitCode = 1
      if (bench && typeof bench._fail === 'function') {
        bench._fail(err)
      } else {
        console.error(isUserFacing(err) ? `${err.name}: ${err.message}` : (err && err.stack) || err)
      }
    })
}

module.exports = { http, normalizeOptions, toExtra, checkResponses, isTestMode, TEST_DURATION, childrenCpuSeconds, serverCost, startServerCount, warmUpOptions, GENERATOR_BOUND }
