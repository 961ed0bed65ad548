'use strict'
// Entry of one `--cluster` worker process (forked by cluster.js). It serves
// on the port shared through node:cluster and reports to the primary over
// IPC; the primary alone decides when to stop.
const cluster = require('node:cluster')
const { startServer } = require('./server.js')
const { normalizeOptions } = require('./options.js')

const LISTENING = 'benchrig-serve-listening'
const FAILED = 'benchrig-serve-error'
const CLOSE = 'benchrig-serve-close'

function runWorker () {
  // Ctrl+C reaches the whole process group: let the primary close us in order.
  process.on('SIGINT', () => {})
  let options
  try {
    options = normalizeOptions(JSON.parse(process.env.BENCHRIG_SERVE_OPTIONS || '{}'))
  } catch (err) {
    fail(err)
    return
  }
  startServer(options).then((target) => {
    process.on('message', (/** @type {{type?: string}|null} */ msg) => {
      if (msg && msg.type === CLOSE) target.close().then(() => cluster.worker.disconnect())
    })
    process.send({ type: LISTENING, port: target.port, pid: process.pid })
  }, fail)
}

function fail (err) {
  process.exitCode = 1
  process.send({ type: FAILED, message: err.message, code: err.code }, () => cluster.worker.disconnect())
}

// only as the file cluster.fork runs: cluster.js requires this file for the
// message names, possibly inside someone else's cluster worker
if (require.main === module && cluster.isWorker) runWorker()

module.exports = { LISTENING, FAILED, CLOSE }
