'use strict'
// The recording chain: what happens to one finished response, in one fixed
// order, built once per runner (Runner#start) from the features the run uses:
//
//   filter     -x: a non-2xx response is counted but kept out of latency and bytes
//   counts     completed, status codes and classes, body mismatches
//   histograms latency (from the planned send in rate mode), and the
//              uncorrected one (from the actual send) in rate mode
//   timeline   --interval: the current interval's histogram
//   endpoints  several endpoints in this runner: their counts, histogram
//              and bytes (endpoints.js; one endpoint needs no stage)
//   request log  --reqlog: code, start (the planned send in rate mode), end, connection
//   hooks      the Client's 'response' event, the LoadRun's 'response' listener
//
// Every stage sees the filter's verdict, so the summary, the interval rows and
// the request log count the same responses whichever features are combined.
// Features do not wrap `runner.response`: they set fields on the runner
// (`excludeErrors`, `clientResponses`, `timeline`, `endpoints`, `reqlog`, `onResponse`)
// before start(), and this module is the only place that turns them into
// the function the connections call.
//
// A closed-loop run with none of them keeps Runner#response, the plain
// method, so the fastest path pays for no check of a feature it does not use.
const C = require('../counters.js')

/**
 * Whether the run needs the chain rather than the plain Runner#response.
 * @param {import('../runner.js').Runner} runner
 */
function needsChain (runner) {
  return runner.excludeErrors || runner.clientResponses || runner.timeline !== null ||
    runner.reqlog !== null || runner.lag !== null || runner.endpoints !== null
}

/**
 * The response function of the chain for this runner's features.
 * @param {import('../runner.js').Runner} runner
 * @returns {(status: number, latencyMs: number, mismatch: boolean, conn: any, uncorrectedMs?: number) => void}
 */
function chainFor (runner) {
  const excludeErrors = runner.excludeErrors
  const clientResponses = runner.clientResponses
  const timeline = runner.timeline
  const reqlog = runner.reqlog
  const endpoints = runner.endpoints
  const uncorrected = runner.uncorrected
  const paced = runner.lag !== null
  return function response (status, latencyMs, mismatch, conn, uncorrectedMs) {
    // filter
    const kept = !excludeErrors || (status >= 200 && status < 300)
    // counts
    const counters = runner.counters
    counters[C.COMPLETED]++
    runner.statusCodes[status]++
    counters[C.S1XX + ((status / 100) | 0) - 1]++
    if (mismatch) runner.mismatched()
    if (!kept) counters[C.BYTES] -= conn.scanner.resBytes
    // histograms and timeline
    if (kept) {
      runner.histogram.record(latencyMs * 1000)
      if (uncorrected !== null && uncorrectedMs !== undefined) uncorrected.record(uncorrectedMs * 1000)
      if (timeline !== null) timeline.histogram.record(latencyMs * 1000)
    }
    // endpoints
    if (endpoints !== null) endpoints.response(conn, status, latencyMs, kept, mismatch)
    // request log: every finished request; in rate mode from its planned send
    if (reqlog !== null) reqlog.add(status, paced ? conn.plannedAt : conn.readAt - latencyMs, conn.readAt, conn.id)
    // hooks
    if (clientResponses && conn.client.listenerCount('response') > 0) {
      conn.client.emit('response', status, conn.scanner.resBytes, latencyMs)
    }
    if (runner.onResponse !== null) runner.onResponse(status, latencyMs, conn.id)
    if (++runner.finished >= runner.amountLimit) runner.stop('amount')
  }
}

/**
 * A timed-out paced request enters the latency histograms (and the interval's)
 * with the time it had waited when given up, so that the slowest requests are
 * not the ones left out; it is an error, not a response, so -x does not apply.
 * @param {import('../runner.js').Runner} runner
 * @param {number} latencyMs from the planned send (or the actual one with -C)
 * @param {number|undefined} uncorrectedMs from the actual send (corrected runs)
 * @param {any} conn @param {number} id the request's index (its endpoint's histogram)
 */
function recordGivenUp (runner, latencyMs, uncorrectedMs, conn, id) {
  runner.histogram.record(latencyMs * 1000)
  if (runner.endpoints !== null) runner.endpoints.givenUp(conn, id, latencyMs)
  if (runner.uncorrected !== null && uncorrectedMs !== undefined) runner.uncorrected.record(uncorrectedMs * 1000)
  if (runner.timeline !== null) runner.timeline.histogram.record(latencyMs * 1000)
}

module.exports = { needsChain, chainFor, recordGivenUp }
