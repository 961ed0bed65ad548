'use strict'
// A worker thread running one Runner; it posts a tick each second and its
// stats (typed arrays, transferred, not copied) at the end.
const { parentPort, workerData } = require('node:worker_threads')
const { Runner } = require('./runner.js')

const runner = new Runner(workerData)
runner.onTick = (t) => parentPort.postMessage({ type: 'tick', second: t.second, requests: t.requests, bytes: t.bytes })
parentPort.on('message', (msg) => {
  if (msg && msg.type === 'stop') runner.stop('stopped')
})
runner.start().then((stats) => {
  parentPort.postMessage({ type: 'done', stats }, [stats.counters.buffer, stats.statusCodes.buffer, stats.histogram.counts.buffer])
  parentPort.close()
})
