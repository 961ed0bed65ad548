'use strict'
// k6's gracefulStop, for a run that ends by its duration (a --scenarios
// scenario's). At the duration's end the plan ends (runner.endPlan: nothing
// more is sent, what it held and sent is kept as of that instant) but the
// requests in flight get up to gracefulStopMs to finish; they are recorded as
// any response (latency, status, bytes), and the run stops once the last is
// answered or when the grace is over, when stop() counts what is still in
// flight as interrupted. Whether anything is left is looked at every POLL_MS
// while draining, so nothing is added to the per-request path; a run whose
// last response arrives at once still ends within a poll of it.
const POLL_MS = 5

/**
 * The duration is over: end the plan, and stop now if nothing is in flight,
 * else when it is all answered or at gracefulStopMs.
 * @param {import('./runner.js').Runner} runner
 */
function drain (runner) {
  if (runner.stopping || runner.plan !== null) return
  const clock = runner.clock
  runner.endPlan(Math.max(clock.now(), runner.startMono + runner.opts.durationMs))
  if (runner.inFlight() === 0) {
    runner.stop('duration')
    return
  }
  runner.graceTimers[0] = clock.setTimeout(graceOver, runner.gracefulStopMs, runner)
  runner.graceTimers[1] = clock.setTimeout(poll, POLL_MS, runner)
}

function graceOver (runner) { runner.stop('duration') }

function poll (runner) {
  runner.graceTimers[1] = null
  if (runner.stopping) return
  if (runner.inFlight() === 0) runner.stop('duration')
  else runner.graceTimers[1] = runner.clock.setTimeout(poll, POLL_MS, runner)
}

module.exports = { drain, POLL_MS }
