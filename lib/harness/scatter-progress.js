'use strict'
// The scatter progress: run i of n, the configuration running in it, elapsed
// time and ETA, on the status line (a TTY: redrawn once a second; CI: a line
// per finished run; see status-line.js).
const { progressMode, createStatusLine, clock } = require('./status-line.js')

/**
 * @param {{run: number, runs: number, done: number, queue: number, elapsedMs: number, fraction: number}} s
 */
function formatScatterProgress (s) {
  const eta = s.fraction > 0 ? clock(s.elapsedMs / s.fraction - s.elapsedMs) : '?'
  const config = s.queue > 0 ? ` config ${Math.min(s.done + 1, s.queue)}/${s.queue}` : ''
  return `scatter: run ${s.run}/${s.runs}${config}  elapsed ${clock(s.elapsedMs)}  ETA ${eta}`
}

/**
 * @param {{stream: NodeJS.WriteStream, enabled: boolean, runs: number, now?: () => number, env?: NodeJS.ProcessEnv,
 *   timers?: {setInterval: typeof setInterval, clearInterval: typeof clearInterval}}} opts
 */
function createScatterProgress ({ stream, enabled, runs, now = Date.now, env, timers }) {
  const t0 = now()
  const state = { run: 0, runs, done: 0, queue: 0 }
  const fraction = () => (state.run - 1 + (state.queue > 0 ? state.done / state.queue : 0)) / runs
  const render = () => formatScatterProgress({ ...state, elapsedMs: now() - t0, fraction: fraction() })
  const line = createStatusLine({ stream, mode: progressMode({ stream, enabled, env }), render, timers })
  return {
    startRun (run) { Object.assign(state, { run, done: 0, queue: 0 }); line.draw() },
    config (queueLength) { state.queue = queueLength; line.draw() },
    result () { state.done++; line.draw() },
    endRun () {
      const elapsed = now() - t0
      line.milestone(`scatter: run ${state.run}/${runs} done  elapsed ${clock(elapsed)}  ETA ${clock(elapsed / state.run * (runs - state.run))}`)
    },
    clear: () => line.clear(),
    stop: () => line.stop()
  }
}

module.exports = { createScatterProgress, formatScatterProgress }
