'use strict'
// The compare progress: run i of n, which file, binary and pair, the
// configuration running, elapsed time and ETA from the average run so far, on
// the status line (a TTY: redrawn once a second; CI: a line per finished run;
// see lib/harness/status-line.js).
const { progressMode, createStatusLine, clock } = require('../harness/status-line.js')

/**
 * @param {{index: number, total: number, name: string, binary: string, pair: number, elapsedMs: number,
 *   done?: number, queue?: number, rule?: string, starved?: number}} s index: runs finished; done/queue: configurations of
 *   the current run; rule: the stopping rule's own state (--runs seq: how far each configuration is from its stop)
 */
function formatCompareProgress (s) {
  const eta = s.index > 0 ? clock(s.elapsedMs / s.index * (s.total - s.index)) : '?'
  const config = s.queue > 0 ? ` config ${Math.min(s.done + 1, s.queue)}/${s.queue}` : ''
  const rule = `${s.starved ? `  starved pairs ${s.starved}` : ''}${s.rule ? `  ${s.rule}` : ''}`
  return `[${s.index + 1}/${s.total}] ${s.name} ${s.binary} pair ${s.pair}${config}  elapsed ${clock(s.elapsedMs)}  ETA ${eta}${rule}`
}

/**
 * @param {{stream: NodeJS.WriteStream, enabled: boolean, now?: () => number, env?: NodeJS.ProcessEnv,
 *   timers?: {setInterval: typeof setInterval, clearInterval: typeof clearInterval}}} opts
 */
function createCompareProgress ({ stream, enabled, now = Date.now, env, timers }) {
  let state
  let rule
  let starved = 0
  let t0 = now()
  const render = () => formatCompareProgress({ ...state, rule, starved, elapsedMs: now() - t0 })
  const line = createStatusLine({ stream, mode: progressMode({ stream, enabled, env }), render, timers })
  return {
    /** @param {{phase: 'start'|'config'|'report'|'end'|'rule'|'duet', text?: string, starved?: number, run?: object, index?: number, total?: number, elapsedMs?: number, queueLength?: number}} e */
    update (e) {
      if (e.phase === 'duet') {
        starved = e.starved
        return
      }
      if (e.phase === 'rule') {
        rule = e.text
        if (state) line.milestone(`compare: ${rule}`)
        return
      }
      if (e.phase === 'start') {
        t0 = now() - e.elapsedMs // the schedule's clock, so a resumed or batched run keeps its ETA
        state = { index: e.index, total: e.total, name: e.run.name, binary: e.run.binary, pair: e.run.pair, done: 0, queue: 0 }
      } else if (!state) {
        return
      } else if (e.phase === 'config') {
        state.queue = e.queueLength
      } else if (e.phase === 'report') {
        state.done++
      } else if (e.phase === 'end') {
        state.index = e.index
        line.milestone(`compare: [${e.index}/${e.total}] ${state.name} ${state.binary} pair ${state.pair} done${starved ? ` (starved pairs ${starved})` : ''}  elapsed ${clock(e.elapsedMs)}  ETA ${clock(e.elapsedMs / e.index * (e.total - e.index))}`)
        return
      }
      line.draw()
    },
    clear: () => line.clear(),
    stop: () => line.stop()
  }
}

module.exports = { createCompareProgress, formatCompareProgress }
