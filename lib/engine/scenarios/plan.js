'use strict'
// The plan of a --scenarios run: each scenario checked (its executor, its
// fields, its request fields) and turned into the options of one engine run
// (executors.js), normalized by the engine's own options.js so that every
// option the engine takes works per scenario. Everything is checked here,
// before any connection: one UsageError naming the scenario and the field.
const path = require('node:path')
const { UsageError } = require('../../errors.js')
const { normalizeOptions } = require('../options/options.js')
const { parseThreshold, parseThresholds } = require('../thresholds.js')
const { EXECUTORS, fieldReader } = require('./executors.js')
const { readScenariosFile, scenariosOf, CODE } = require('./file.js')
const { split } = require('../split.js')
const { k6Thresholds } = require('./k6-thresholds.js')

// k6's fields every executor has; gracefulStop is how long what is in flight
// at the scenario's end may finish (the engine's graceful-stop.js)
const COMMON = ['executor', 'startTime', 'gracefulStop', 'tags', 'thresholds']
// k6's JavaScript VUs: nothing here runs a function per iteration
const REFUSED = {
  exec: 'k6 runs that function in a JavaScript VU; benchrig sends the scenario\'s request (url, method, headers, body) or its `requests` sequence, with hooks in `requests` or --script',
  env: 'k6 sets these variables for its JavaScript VUs; benchrig runs no per-scenario JavaScript (put values in headers, body or a feed)',
  options: 'k6\'s browser options do not apply to an HTTP load engine'
}
// what a scenario may set of a request and its protocol (the engine's option names)
const REQUEST_FIELDS = ['url', 'method', 'headers', 'body', 'bodyFile', 'requests', 'feed', 'feedMode', 'feedSeed', 'feedEnd', 'feedFormat',
  'timeout', 'h2', 'maxStreams', 'h2Window', 'expectBody', 'wsBinary', 'wsId', 'wsMessage', 'proto', 'call', 'data', 'metadata',
  'ignoreCoordinatedOmission']
// run options an executor sets for each scenario: given for the whole run, they are refused
const SET_BY_EXECUTOR = {
  connections: '-c/--connections',
  duration: '-d/--duration',
  amount: '-a/--amount',
  overallRate: '-R/--overall-rate',
  connectionRate: '-r/--connection-rate',
  burst: '--burst',
  burstInterval: '--burst-interval',
  stages: '--stages',
  stagesConnections: '--stages-connections',
  stagesStart: '--stages-start',
  maxConnectionRequests: '-M/--max-connection-requests',
  maxOverallRequests: '-O/--max-overall-requests',
  reconnectRate: '-D/--reconnect-rate',
  connection: '--connection',
  connectionClose: '--connection close',
  warmup: '-W/--warmup',
  forever: '-f/--forever',
  reqlog: '--reqlog',
  thresholdAbort: '--threshold-abort',
  pipelining: '-p/--pipelining'
}
// files a scenario names: relative to the scenarios file (as k6 opens files relative to its script)
const PATH_FIELDS = ['feed', 'bodyFile', 'wsMessage', 'proto']
const NAME = /^[0-9A-Za-z_-]+$/

const given = (v) => v !== undefined && v !== null && v !== false
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * @typedef {object} ScenarioPlan
 * @property {string} name
 * @property {string} executor
 * @property {number} startTimeMs from the run's t0
 * @property {number} durationMs planned (iteration executors: maxDuration)
 * @property {Record<string, any>} params the executor's fields, normalized (durations in ms)
 * @property {Record<string, string>|undefined} tags kept in the result, nothing else
 * @property {any} opts the engine's normalized options of this scenario
 */

/**
 * @param {Record<string, any>} options load()'s options with `scenarios`: a
 *   file path, or the map of scenarios itself (k6's options.scenarios)
 * @returns {{where: string, scenarios: ScenarioPlan[], thresholds: import('../thresholds.js').Threshold[], startAt: number|undefined, sampleIntMs: number, durationMs: number}}
 */
function planScenarios (options) {
  const fromFile = typeof options.scenarios === 'string'
  const where = fromFile ? `--scenarios "${options.scenarios}"` : 'load({ scenarios })'
  const doc = fromFile ? readScenariosFile(options.scenarios) : { scenarios: options.scenarios }
  const { scenarios, thresholds: fileThresholds } = scenariosOf(doc, where)
  const base = runOptions(options)
  const shard = shardOf(options.shard)
  // k6's { metric: [...] } form: its {scenario:NAME} filters go to that scenario (k6-thresholds.js)
  const names = scenarios.map(([name]) => name)
  const k6 = isObject(fileThresholds) ? k6Thresholds(/** @type {Record<string, unknown>} */ (fileThresholds), `${where}: thresholds`, names) : null
  const thresholds = overallThresholds(k6 === null ? fileThresholds : k6.own, options.thresholds, where)
  const dir = fromFile ? path.dirname(path.resolve(options.scenarios)) : undefined
  const plans = scenarios.map(([name, spec]) => planOne(name, spec, base, dir, shard, { names, extra: k6?.byScenario.get(name) ?? [] }))
  // the run-wide values every scenario shares (merged by absolute time)
  const first = plans[0].opts
  return {
    where,
    scenarios: plans,
    thresholds,
    startAt: first.startAt,
    sampleIntMs: first.sampleIntMs,
    durationMs: Math.max(...plans.map((p) => p.startTimeMs + p.durationMs))
  }
}

/** The options of the whole run that each scenario starts from (refusing those an executor sets). */
function runOptions (options) {
  const base = {}
  for (const [k, v] of Object.entries(options)) {
    if (k === 'scenarios' || k === 'thresholds' || k === 'shard') continue
    const refused = SET_BY_EXECUTOR[k]
    const isDefault = k === 'pipelining' && Number(v) === 1
    if (refused !== undefined && given(v) && !isDefault) {
      throw new UsageError(`${refused} does not combine with --scenarios: each scenario's executor sets its connections, duration and requests (vus, rate, iterations, stages)`, CODE)
    }
    if (refused === undefined) base[k] = v
  }
  return base
}

/**
 * --shard I/N of a scenarios run ({index, count}, as lib/compare/shard-spec.js
 * parses it): this generator runs its part of every scenario.
 * @returns {{index: number, count: number}|undefined}
 */
function shardOf (value) {
  if (value === undefined || value === null) return undefined
  const ok = isObject(value) && Number.isInteger(value.count) && value.count >= 1 && Number.isInteger(value.index) && value.index >= 0 && value.index < value.count
  if (!ok) throw new UsageError(`invalid shard ${JSON.stringify(value)}: give { index, count } with 0 <= index < count (--shard I/N)`, CODE)
  return { index: value.index, count: value.count }
}

/** The file's top-level thresholds and those of the command line (--threshold), on the overall figures. */
function overallThresholds (fromFile, fromOptions, where) {
  const list = [...thresholdList(fromFile, `${where}: thresholds`), ...thresholdList(fromOptions, '--threshold')]
  return parseThresholds(list)
}

/** Threshold expressions as a list (a string is one); k6's { metric: [...] } form is refused with the syntax. */
function thresholdList (value, where) {
  if (value === undefined || value === null) return []
  const list = [].concat(value)
  if (list.some((x) => typeof x !== 'string')) {
    throw new UsageError(`${where}: give a list of expressions such as ["p99<50ms", "errors<1%", "rps>100"], or k6's { http_req_duration: ["p(95)<500"] }`, CODE)
  }
  try {
    return list.map((x) => parseThreshold(x).expr)
  } catch (err) {
    throw new UsageError(`${where}: ${err.message}`, CODE)
  }
}

/**
 * One scenario: its fields checked, its engine options built and normalized.
 * @param {string} name @param {any} spec @param {Record<string, any>} base the run's options
 * @param {string|undefined} dir the scenarios file's folder (undefined: from the API)
 * @param {{index: number, count: number}|undefined} shard this generator's part (--shard)
 * @param {{names: string[], extra: string[]}} file the file's scenario names, and the thresholds
 *   its top level gives this scenario (k6's {scenario:NAME} filter)
 * @returns {ScenarioPlan}
 */
function planOne (name, spec, base, dir, shard, file) {
  if (!NAME.test(name)) throw new UsageError(`--scenarios: scenario name "${name}": use letters, digits, _ and - (it names the scenario's results)`, CODE)
  if (!isObject(spec)) throw new UsageError(`--scenarios: scenario "${name}": give an object { executor, ... }`, CODE)
  const executor = EXECUTORS[spec.executor]
  if (executor === undefined) {
    throw new UsageError(`--scenarios: scenario "${name}": executor ${JSON.stringify(spec.executor) ?? '(none)'} is not one of ${Object.keys(EXECUTORS).join(', ')}`, CODE)
  }
  for (const key of Object.keys(spec)) {
    if (REFUSED[key] !== undefined) throw new UsageError(`--scenarios: scenario "${name}": ${key} is not supported: ${REFUSED[key]}`, CODE)
    if (!COMMON.includes(key) && !executor.fields.includes(key) && !REQUEST_FIELDS.includes(key)) {
      throw new UsageError(`--scenarios: scenario "${name}": unknown field "${key}" for ${spec.executor}: its fields are ${executor.fields.join(', ')}; ` +
        `every scenario has ${COMMON.join(', ')} and the request fields ${REQUEST_FIELDS.join(', ')}`, CODE)
    }
  }
  const f = fieldReader(name, spec)
  const params = executor.params(f)
  params.gracefulStop = f.duration('gracefulStop', 30000, true)
  const startTimeMs = f.duration('startTime', 0, true)
  const tags = spec.tags === undefined ? undefined : tagsOf(name, spec.tags)
  const at = `--scenarios: scenario "${name}": thresholds`
  const own = isObject(spec.thresholds) ? k6Thresholds(spec.thresholds, at, file.names, name).own : thresholdList(spec.thresholds, at)
  const thresholds = [...own, ...file.extra]
  // requests per iteration: a pass of the sequence
  const k = Array.isArray(spec.requests) && spec.requests.length > 0 ? spec.requests.length : 1
  /** @type {Record<string, any>} */
  const request = {}
  for (const key of REQUEST_FIELDS) if (spec[key] !== undefined) request[key] = spec[key]
  for (const key of PATH_FIELDS) {
    if (dir !== undefined && typeof request[key] === 'string' && !path.isAbsolute(request[key])) request[key] = path.join(dir, request[key])
  }
  /** @type {Record<string, any>} */
  const user = { ...base, ...request, ...executor.options(params, k, partOf(name, shard)), thresholds }
  if (user.url === undefined || (Array.isArray(user.url) && user.url.length === 0)) {
    throw new UsageError(`--scenarios: scenario "${name}" has no url: give "url" in the scenario, or a URL on the command line as the default`, CODE)
  }
  let opts
  try {
    opts = normalizeOptions(user)
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`--scenarios: scenario "${name}": ${err.message}`, CODE)
    throw err
  }
  engineExtras(opts, params, shard)
  if (shard !== undefined && opts.connectionStages !== null) {
    // ramping-vus: this generator holds its part of the peak and opens its part of the ramp at each step
    opts.connections = partOf(name, shard)(opts.connections, 'the peak of its stages')
    if (opts.workers > opts.connections) opts.workers = opts.connections
    opts.connectionShard = shard
  }
  return { name, executor: spec.executor, startTimeMs, durationMs: executor.durationMs(params), params, tags, opts }
}

/**
 * What a scenario gives the engine beside its normalized options: the
 * gracefulStop of its end and a ramping-vus scenario's gracefulRampDown
 * (runner.js, connection-stages.js), and an arrival-rate scenario's VU pool
 * (vu-pool.js): its connections are maxVUs (this generator's part), of which
 * it opens preAllocatedVUs (its part, at least one) at the start.
 * @param {Record<string, any>} opts @param {Record<string, any>} params
 * @param {{index: number, count: number}|undefined} shard
 */
function engineExtras (opts, params, shard) {
  opts.gracefulStopMs = params.gracefulStop
  if (params.gracefulRampDown !== undefined) opts.gracefulRampDownMs = params.gracefulRampDown
  if (params.preAllocatedVUs !== undefined) {
    const pre = shard === undefined ? params.preAllocatedVUs : split(params.preAllocatedVUs, shard.count)[shard.index]
    opts.vus = { pre: Math.min(opts.connections, Math.max(1, pre)) }
  }
}

/**
 * This generator's part of a whole count of a scenario (split.js: near-equal
 * whole parts, the first ones one larger); the count itself without --shard.
 * @returns {(n: number, field: string) => number}
 */
function partOf (name, shard) {
  if (shard === undefined) return (n) => n
  return (n, field) => {
    const mine = split(n, shard.count)[shard.index]
    if (mine < 1) throw new UsageError(`--scenarios: scenario "${name}": ${field} ${n} over ${shard.count} shards leaves shard ${shard.index} none: give ${field} ${shard.count} or more, or fewer shards`, CODE)
    return mine
  }
}

function tagsOf (name, tags) {
  if (!isObject(tags) || Object.values(tags).some((v) => typeof v !== 'string')) {
    throw new UsageError(`--scenarios: scenario "${name}": tags: give an object of strings, e.g. { "team": "api" }`, CODE)
  }
  return { ...tags }
}

module.exports = { planScenarios, REQUEST_FIELDS, SET_BY_EXECUTOR, COMMON }
