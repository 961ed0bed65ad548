'use strict'
// The compare progress line on a TTY: run i of n, which file and binary,
// elapsed time and ETA from the average run so far.

function clock (ms) {
  const s = Math.max(0, Math.round(ms / 1000))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

/**
 * @param {{index: number, total: number, name: string, binary: string, pair: number, elapsedMs: number}} s
 */
function formatCompareProgress (s) {
  const eta = s.index > 0 ? clock(s.elapsedMs / s.index * (s.total - s.index)) : '?'
  return `[${s.index + 1}/${s.total}] ${s.name} ${s.binary} pair ${s.pair}  elapsed ${clock(s.elapsedMs)}  ETA ${eta}`
}

/**
 * @param {{stream: NodeJS.WriteStream, enabled: boolean}} opts
 */
function createCompareProgress ({ stream, enabled }) {
  const on = Boolean(enabled && stream && stream.isTTY)
  let shown = false
  return {
    update (e) {
      if (!on || e.phase !== 'start') return
      const line = formatCompareProgress({ index: e.index, total: e.total, name: e.run.name, binary: e.run.binary, pair: e.run.pair, elapsedMs: e.elapsedMs })
      stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}\x1b[K`)
      shown = true
    },
    clear () {
      if (on && shown) { stream.write('\r\x1b[K'); shown = false }
    }
  }
}

module.exports = { createCompareProgress, formatCompareProgress }
