'use strict'
// A worker thread running the Runners of one share (one per origin). It says
// 'ready' once built and starts on the main thread's 'start' (with the
// shared t0), so every worker counts the same seconds; each runner posts a
// tick each second, and the worker posts their stats (typed arrays,
// transferred, not copied) at the end, in the order of workerData.runners.
const { parentPort, workerData } = require('node:worker_threads')
const { Runner } = require('./runner.js')
const { totals } = require('./measure/live.js')

const runners = workerData.runners.map((ro) => {
  const runner = new Runner(ro)
  if (workerData.reportErrors) {
    // lazy: only a worker asked to report errors loads the hooks
    require('./scripting/hooks.js').forwardErrors(runner, (kind, detail) => parentPort.postMessage({ type: 'reqError', kind, detail }))
  }
  runner.onTick = (t) => parentPort.postMessage({ type: 'tick', second: t.second, requests: t.requests, bytes: t.bytes, totals: totals(t.counters), counters: t.counters, latencyCounts: t.latencyCounts },
    t.latencyCounts === undefined ? [] : [t.latencyCounts.buffer])
  runner.onInterval = (row) => parentPort.postMessage({ type: 'interval', row }, [row.histogram.counts.buffer])
  if (ro.reqlog) runner.onReqlog = (chunk, rows, offsetMs) => parentPort.postMessage({ type: 'reqlog', chunk, rows, offsetMs }, [chunk.buffer])
  return runner
})
parentPort.on('message', (msg) => {
  if (msg.type === 'start') {
    for (const runner of runners) runner.opts.t0 = msg.t0
    Promise.all(runners.map((runner) => runner.start())).then((stats) => {
      // what a script's thread.set() left, for done() in the main thread
      // (a script runs alone: it refuses several origins, so one runner)
      for (const [i, runner] of runners.entries()) {
        if (runner.scriptThread !== null) stats[i].scriptVars = runner.scriptThread.vars
      }
      const transfer = stats.flatMap((s) => [s.counters.buffer, s.statusCodes.buffer, s.histogram.counts.buffer])
      parentPort.postMessage({ type: 'done', stats }, transfer)
      parentPort.close()
    })
  } else if (msg.type === 'stop') {
    for (const runner of runners) {
      if (runner.startWall === undefined) runner.opts.durationMs = 1 // not started yet: end at once
      else runner.stop(msg.reason ?? 'stopped')
    }
  }
})
for (const runner of runners) runner.onScriptStop = () => parentPort.postMessage({ type: 'scriptStop' })
// a script's init() is awaited before this share says it is ready
Promise.all(runners.map((runner) => runner.prepared)).then(() => parentPort.postMessage({ type: 'ready' }))
