'use strict'
// A worker thread running one Runner. It says 'ready' once built and starts
// on the main thread's 'start' (with the shared t0), so every worker counts
// the same seconds; it posts a tick each second and its stats (typed
// arrays, transferred, not copied) at the end.
const { parentPort, workerData } = require('node:worker_threads')
const { Runner } = require('./runner.js')
const { totals } = require('./measure/live.js')

const runner = new Runner(workerData)
if (workerData.reportErrors) {
  require('./scripting/hooks.js').forwardErrors(runner, (kind, detail) => parentPort.postMessage({ type: 'reqError', kind, detail }))
}
runner.onTick = (t) => parentPort.postMessage({ type: 'tick', second: t.second, requests: t.requests, bytes: t.bytes, totals: totals(t.counters), latencyCounts: t.latencyCounts },
  t.latencyCounts === undefined ? [] : [t.latencyCounts.buffer])
runner.onInterval = (row) => parentPort.postMessage({ type: 'interval', row }, [row.histogram.counts.buffer])
if (workerData.reqlog) runner.onReqlog = (chunk, rows, offsetMs) => parentPort.postMessage({ type: 'reqlog', chunk, rows, offsetMs }, [chunk.buffer])
parentPort.on('message', (msg) => {
  if (msg.type === 'start') {
    runner.opts.t0 = msg.t0
    runner.start().then((stats) => {
      parentPort.postMessage({ type: 'done', stats }, [stats.counters.buffer, stats.statusCodes.buffer, stats.histogram.counts.buffer])
      parentPort.close()
    })
  } else if (msg.type === 'stop') {
    if (runner.startWall === undefined) runner.opts.durationMs = 1 // not started yet: end at once
    else runner.stop('stopped')
  }
})
parentPort.postMessage({ type: 'ready' })
