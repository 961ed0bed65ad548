'use strict'
// The public entry of the load engine: load(opts) returns a LoadRun, an
// EventEmitter that is also awaitable (then/catch/finally), emitting
//   'start'    ()                          once the connections are opening
//   'tick'     ({second, requests, bytes, total, errors, non2xx, latency?})
//              each second (summed over workers; measure/live.js)
//   'response' (status, latencyMs, connectionId)  main-thread runs only
//   'done'     (result)                    the autocannon-shaped result
// With workers <= 1 the run stays in this thread; otherwise connections and
// the amount are split over worker_threads, remainder spread, never dropped.
const { LoadRun, planRunners } = require('./load-run.js')
const { normalizeOptions } = require('./options/options.js')
const { split } = require('./split.js')

/**
 * Starts a load run. Options (see docs/load.md): url (string or array),
 * connections, pipelining, refill ('batch' (default) | 'half' | 'window'), duration
 * (seconds or "10s"), amount, workers, timeout, method, headers, body,
 * bodyFile, socketPath, bailout, expectBody, rejectUnauthorized.
 * Invalid options throw a UsageError synchronously; a target that cannot be
 * reached rejects the run (and emits 'error' when someone listens).
 * @param {object} options
 * @param {{endAtSample?: boolean}} [how] not an option a user gives: set by
 *   the autocannon-shaped API (autocannon/api.js). endAtSample: a paced run
 *   that ends by its amount ends at the end of its last sample, as
 *   autocannon's runs end (runner.js, holdToSample)
 * @returns {LoadRun}
 */
function load (options, how) {
  // several named workloads (--scenarios): their own run of LoadRuns, loaded only then
  // (a plain run loads none of scenarios/: test/engine/scenarios.test.js)
  // (a ScenariosRun has a LoadRun's surface: opts, stop(), then, the events)
  // lazy: only --scenarios runs scenarios
  if (options?.scenarios !== undefined && options?.scenarios !== null) return /** @type {LoadRun} */ (/** @type {unknown} */ (require('./scenarios/run.js').loadScenarios(options)))
  return new LoadRun(normalizeOptions(options, how))
}

module.exports = { load, LoadRun, split, planRunners }
