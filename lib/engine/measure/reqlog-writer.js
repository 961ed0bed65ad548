'use strict'
// The --reqlog writer thread: turns chunks of rows (reqlog.js) into lines,
// times in ns since the run's start (the load thread's performance.now() +
// offsetMs), and appends them.
//
//   default   `code;start;end;connection`, streamed as the chunks come
//   gocannon  gocannon's request-log CSV: a `code;start;end;` header, each row
//             ending in `;`, sorted by end. The chunks of several workers
//             interleave, so this layout keeps the rows (4 doubles a request,
//             as gocannon keeps its log) and sorts and writes them at the end.
const fs = require('node:fs')
const { parentPort, workerData } = require('node:worker_threads')

const FIELDS = 4
const LINES_PER_WRITE = 16384
const gocannon = workerData.format === 'gocannon'
let total = 0
/** @type {{chunk: Float64Array, rows: number, offsetMs: number}[]} */
const kept = []

if (gocannon) fs.writeSync(workerData.fd, 'code;start;end;\n')

parentPort.on('message', (m) => {
  if (m.type === 'rows') {
    total += m.rows
    if (gocannon) {
      kept.push(m)
      return
    }
    const r = m.chunk
    const ns = (ms) => Math.round((ms + m.offsetMs) * 1e6)
    let text = ''
    for (let i = 0; i < m.rows; i++) {
      const at = i * FIELDS
      text += `${r[at]};${ns(r[at + 1])};${ns(r[at + 2])};${r[at + 3]}\n`
    }
    fs.writeSync(workerData.fd, text)
  } else if (m.type === 'end') {
    if (gocannon) writeSorted()
    parentPort.postMessage({ type: 'done', rows: total })
    parentPort.close()
  }
})

/** All kept rows as `code;start;end;`, by end time (ties by start). */
function writeSorted () {
  const code = new Float64Array(total)
  const start = new Float64Array(total)
  const end = new Float64Array(total)
  let n = 0
  for (const { chunk, rows, offsetMs } of kept) {
    for (let i = 0; i < rows; i++, n++) {
      const at = i * FIELDS
      code[n] = chunk[at]
      start[n] = Math.round((chunk[at + 1] + offsetMs) * 1e6)
      end[n] = Math.round((chunk[at + 2] + offsetMs) * 1e6)
    }
  }
  kept.length = 0
  const order = new Uint32Array(total)
  for (let i = 0; i < total; i++) order[i] = i
  order.sort((a, b) => end[a] - end[b] || start[a] - start[b])
  let text = ''
  for (let k = 0; k < total; k++) {
    const i = order[k]
    text += `${code[i]};${start[i]};${end[i]};\n`
    if ((k + 1) % LINES_PER_WRITE === 0) {
      fs.writeSync(workerData.fd, text)
      text = ''
    }
  }
  if (text !== '') fs.writeSync(workerData.fd, text)
}
