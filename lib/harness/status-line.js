'use strict'
// The one mechanism behind the progress of run, compare and scatter: on a TTY
// a line redrawn in place on stderr and ticked once a second, so elapsed time
// and ETA move during a long configuration (a long HTTP configuration must not
// look like a hang); in CI logs (no TTY, CI set) one plain line per finished
// file; otherwise nothing. The drivers only say what the line holds.

/**
 * Where progress goes: 'tty' (a line redrawn in place), 'plain' (a line per
 * finished file) or 'none'. BENCHRIG_PROGRESS=tty|plain|none overrides the
 * choice; CI=true (set by GitHub Actions, GitLab CI and others) picks plain
 * when stderr is not a terminal.
 * @param {{stream?: {isTTY?: boolean}, enabled?: boolean, env?: NodeJS.ProcessEnv}} opts
 * @returns {'tty'|'plain'|'none'}
 */
function progressMode ({ stream, enabled = true, env = process.env }) {
  if (!enabled || !stream) return 'none'
  const want = env.BENCHRIG_PROGRESS
  if (want === 'none') return 'none'
  if (want === 'plain') return 'plain'
  if (stream.isTTY) return 'tty'
  if (want === 'tty') return 'none'
  const ci = env.CI
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0' ? 'plain' : 'none'
}

/**
 * @param {object} opts
 * @param {NodeJS.WritableStream & {columns?: number}} opts.stream stderr
 * @param {'tty'|'plain'|'none'} opts.mode
 * @param {() => string} opts.render the current line (tty mode)
 * @param {number} [opts.tickMs] redraw period on a TTY (default 1000)
 * @param {{setInterval: typeof setInterval, clearInterval: typeof clearInterval}} [opts.timers] for tests
 */
function createStatusLine ({ stream, mode, render, tickMs = 1000, timers = globalThis }) {
  let shown = false
  let ticker
  function draw () {
    if (mode !== 'tty') return
    stream.write(`\r${render().slice(0, (stream.columns || 100) - 1)}\x1b[K`)
    shown = true
    if (ticker === undefined) {
      ticker = timers.setInterval(draw, tickMs)
      ticker.unref?.()
    }
  }
  return {
    mode,
    draw,
    /** Erases the line before other output (results, failures), so they never mix. */
    clear () {
      if (mode === 'tty' && shown) { stream.write('\r\x1b[K'); shown = false }
    },
    /** A line of its own in plain mode (a finished file); nothing on a TTY. */
    milestone (text) {
      if (mode === 'plain') stream.write(`${text}\n`)
    },
    /** Stops the ticker and erases the line: at the end, on an error, on Ctrl-C. */
    stop () {
      if (ticker !== undefined) { timers.clearInterval(ticker); ticker = undefined }
      this.clear()
    }
  }
}

/** m:ss, or h:mm:ss from an hour on. */
function clock (ms) {
  const s = Math.max(0, Math.round(ms / 1000))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

/**
 * Clears the status line when Ctrl-C arrives, then lets the signal do what it
 * would have done without us (node's default ends the process), unless the
 * driver handles SIGINT itself (compare and scatter stop cleanly).
 * @returns {() => void} removes the handler
 */
function clearOnSigint (line, { passOn }) {
  const onSigint = () => {
    line.stop()
    if (passOn) {
      process.removeListener('SIGINT', onSigint)
      process.kill(process.pid, 'SIGINT')
    }
  }
  process.on('SIGINT', onSigint)
  return () => process.removeListener('SIGINT', onSigint)
}

module.exports = { progressMode, createStatusLine, clock, clearOnSigint }
