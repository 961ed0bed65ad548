'use strict'
// The live view of `benchrig load` on a TTY (pound's status line): one line
// on stderr, redrawn on each tick of the run, that holds the running totals
// (requests, errors, non-2xx) and the last second (req/s, p50, p99), with a
// bar for the share of the duration (or of -a) done. It fits the terminal,
// 80 columns at least: the fields first, the bar in what is left.
//
//   [=======     ] 12s/30s 1.23M req 45.2k req/s p50 1.23ms p99 12.3ms err 0 non2xx 0
const { formatCount } = require('../engine/result/format.js')

const MIN_BAR = 5 // narrower than this, a bar says nothing: left out

/**
 * A latency in at most 6 characters: 0.12ms, 9.99ms, 99.9ms, 999ms, then seconds.
 * @param {number} ms
 */
function shortMs (ms) {
  if (ms < 9.995) return `${ms.toFixed(2)}ms`
  if (ms < 99.95) return `${ms.toFixed(1)}ms`
  if (ms < 999.5) return `${Math.round(ms)}ms`
  const s = ms / 1000
  if (s < 9.995) return `${s.toFixed(2)}s`
  if (s < 99.95) return `${s.toFixed(1)}s`
  return `${Math.round(s)}s`
}

/**
 * The live line for one tick.
 * @param {{second: number, requests: number, total: number, errors: number, non2xx: number, latency?: {p50: number, p99: number}|null}} tick
 * @param {{duration: number, amount: number, columns?: number}} run seconds of a duration run; the amount of an -a run
 * @returns {string} at most columns - 1 characters (the cursor stays on the line)
 */
function liveLine (tick, run) {
  const columns = Math.max(20, run.columns || 80)
  const lat = tick.latency
  const fields = [
    run.duration > 0 ? `${tick.second}s/${Math.round(run.duration)}s` : `${tick.second}s`,
    `${formatCount(tick.total)} req`,
    `${formatCount(tick.requests)} req/s`,
    `p50 ${lat ? shortMs(lat.p50) : '-'}`,
    `p99 ${lat ? shortMs(lat.p99) : '-'}`,
    `err ${formatCount(tick.errors)}`,
    `non2xx ${formatCount(tick.non2xx)}`
  ].join(' ')
  const done = run.duration > 0 ? tick.second / run.duration : (run.amount > 0 ? tick.total / run.amount : -1)
  const room = columns - 1 - fields.length - 3 // "[", "] "
  if (done < 0 || room < MIN_BAR) return fields.slice(0, columns - 1)
  const width = Math.min(room, 30)
  const filled = Math.min(width, Math.round(Math.min(1, done) * width))
  return `[${'='.repeat(filled)}${' '.repeat(width - filled)}] ${fields}`
}

/**
 * Draws the live line on each tick of a run.
 * @param {import('node:events').EventEmitter & {opts: {duration: number, amount: number, sampleIntMs?: number}}} run
 * @param {NodeJS.WritableStream & {columns?: number}} stream a TTY (stderr)
 * @returns {{clear: () => void}} erases the line (before the result is printed)
 */
function attachLiveView (run, stream) {
  let shown = false
  // a tick closes a sample: one second, or -L/--sample-int milliseconds
  const perSecond = 1000 / (run.opts.sampleIntMs ?? 1000)
  run.on('tick', (tick) => {
    const shownTick = perSecond === 1 ? tick : { ...tick, second: Math.floor(tick.second / perSecond), requests: Math.round(tick.requests * perSecond) }
    // columns read at each tick: a resized terminal gets a line that fits it
    stream.write(`\r${liveLine(shownTick, { duration: run.opts.duration, amount: run.opts.amount, columns: stream.columns })}\x1b[K`)
    shown = true
  })
  return {
    clear () {
      if (shown) stream.write('\r\x1b[K')
      shown = false
    }
  }
}

module.exports = { liveLine, attachLiveView, shortMs }
