'use strict'
// The --reqlog writer thread: formats chunks of rows (reqlog.js) as
// `code;start;end;connection` lines and appends them to the file.
const fs = require('node:fs')
const { parentPort, workerData } = require('node:worker_threads')

const FIELDS = 4
let total = 0

parentPort.on('message', (m) => {
  if (m.type === 'rows') {
    const r = m.chunk
    let text = ''
    for (let i = 0; i < m.rows; i++) {
      const at = i * FIELDS
      text += `${r[at]};${r[at + 1]};${r[at + 2]};${r[at + 3]}\n`
    }
    fs.writeSync(workerData.fd, text)
    total += m.rows
  } else if (m.type === 'end') {
    parentPort.postMessage({ type: 'done', rows: total })
    parentPort.close()
  }
})
