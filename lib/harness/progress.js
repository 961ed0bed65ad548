'use strict'
// The progress of run.js: file i of n, the configuration running, elapsed
// time and an estimate of what is left, on the status line (a TTY: redrawn
// once a second; CI: a line per finished file; see status-line.js).
const { progressMode, createStatusLine, clock } = require('./status-line.js')

/**
 * Formats the progress line (pure, for tests).
 * @param {{fileIndex: number, files: number, name: string, done: number, queue: number,
 *   elapsedMs: number, fraction: number}} s fraction: share of the whole run finished (0..1)
 */
function formatProgress (s) {
  const eta = s.fraction > 0 ? clock(s.elapsedMs / s.fraction - s.elapsedMs) : '?'
  const configs = s.queue > 0 ? ` config ${Math.min(s.done + 1, s.queue)}/${s.queue}` : ''
  return `[${s.fileIndex}/${s.files}] ${s.name}${configs}  elapsed ${clock(s.elapsedMs)}  ETA ${eta}`
}

/**
 * @param {{stream: NodeJS.WriteStream, units: number, now?: () => number, env?: NodeJS.ProcessEnv,
 *   timers?: {setInterval: typeof setInterval, clearInterval: typeof clearInterval}}} opts
 *   units: how many file runs there are in all (files x runs)
 */
function createProgress ({ stream, units, now = Date.now, env, timers }) {
  const t0 = now()
  let unitsDone = 0
  let state = { fileIndex: 0, files: units, name: '', done: 0, queue: 0 }
  const fraction = () => (unitsDone + (state.queue > 0 ? state.done / state.queue : 0)) / units
  const render = () => formatProgress({ ...state, elapsedMs: now() - t0, fraction: fraction() })
  const line = createStatusLine({ stream, mode: progressMode({ stream, env }), render, timers })
  return {
    enabled: line.mode !== 'none',
    startFile (fileIndex, name) { state = { ...state, fileIndex, name, done: 0, queue: 0 }; line.draw() },
    config (queueLength) { state.queue = queueLength; line.draw() },
    result () { state.done++; line.draw() },
    endFile () {
      unitsDone++
      state = { ...state, done: 0, queue: 0 } // counted in unitsDone now
      line.milestone(`[${state.fileIndex}/${state.files}] ${state.name} done  elapsed ${clock(now() - t0)}  ETA ${clock((now() - t0) / fraction() - (now() - t0))}`)
      line.draw()
    },
    clear: () => line.clear(),
    redraw: () => line.draw(),
    stop: () => line.stop(),
    line
  }
}

module.exports = { createProgress, formatProgress }
