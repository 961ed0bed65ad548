'use strict'
// The progress line of run.js: files, configurations, elapsed time and an
// estimate of what is left, redrawn in place on stderr. Only when stderr is
// a TTY: logs and pipes get nothing.

function clock (ms) {
  const s = Math.max(0, Math.round(ms / 1000))
  const m = Math.floor(s / 60)
  return `${m}:${String(s % 60).padStart(2, '0')}`
}

/**
 * Formats the progress line (pure, for tests).
 * @param {{fileIndex: number, files: number, name: string, done: number, queue: number,
 *   elapsedMs: number, fraction: number}} s fraction: share of the whole run finished (0..1)
 */
function formatProgress (s) {
  const eta = s.fraction > 0 ? clock(s.elapsedMs / s.fraction - s.elapsedMs) : '?'
  const configs = s.queue > 0 ? ` config ${s.done}/${s.queue}` : ''
  return `[${s.fileIndex}/${s.files}] ${s.name}${configs}  elapsed ${clock(s.elapsedMs)}  ETA ${eta}`
}

/**
 * @param {{stream: NodeJS.WriteStream, units: number, now?: () => number}} opts
 *   units: how many file runs there are in all (files x runs)
 */
function createProgress ({ stream, units, now = Date.now }) {
  const enabled = Boolean(stream && stream.isTTY)
  const t0 = now()
  let unitsDone = 0
  let state = { fileIndex: 0, files: units, name: '', done: 0, queue: 0 }
  let shown = false
  function render () {
    if (!enabled) return
    const fraction = (unitsDone + (state.queue > 0 ? state.done / state.queue : 0)) / units
    const line = formatProgress({ ...state, elapsedMs: now() - t0, fraction })
    stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}\x1b[K`)
    shown = true
  }
  return {
    enabled,
    startFile (fileIndex, name) { state = { ...state, fileIndex, name, done: 0, queue: 0 }; render() },
    config (queueLength) { state.queue = queueLength; render() },
    result () { state.done++; render() },
    endFile () { unitsDone++; render() },
    /** Erases the line before other output, so results never mix with it. */
    clear () { if (enabled && shown) { stream.write('\r\x1b[K'); shown = false } },
    redraw: render
  }
}

module.exports = { createProgress, formatProgress }
