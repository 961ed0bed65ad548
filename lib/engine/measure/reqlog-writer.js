'use strict'
// The --reqlog writer thread: turns chunks of rows (reqlog.js) into
// `code;start;end;connection` lines, times in ns since the run's start
// (the load thread's performance.now() + offsetMs), and appends them.
const fs = require('node:fs')
const { parentPort, workerData } = require('node:worker_threads')

const FIELDS = 4
let total = 0

parentPort.on('message', (m) => {
  if (m.type === 'rows') {
    const r = m.chunk
    const ns = (ms) => Math.round((ms + m.offsetMs) * 1e6)
    let text = ''
    for (let i = 0; i < m.rows; i++) {
      const at = i * FIELDS
      text += `${r[at]};${ns(r[at + 1])};${ns(r[at + 2])};${r[at + 3]}\n`
    }
    fs.writeSync(workerData.fd, text)
    total += m.rows
  } else if (m.type === 'end') {
    parentPort.postMessage({ type: 'done', rows: total })
    parentPort.close()
  }
})
