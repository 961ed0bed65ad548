'use strict'
// `--cluster N`: N worker processes (node:cluster) share one listening port;
// this process is the primary, which only starts, watches and stops them.
// With port 0 every worker gets the same free port (node:cluster shares one
// handle per address and port).
const cluster = require('node:cluster')
const path = require('node:path')
const { LISTENING, FAILED, CLOSE } = require('./worker.js')
const { UsageError, RunError } = require('../errors.js')

const WORKER_FILE = path.join(__dirname, 'worker.js')
/** How long a worker may take to stop before it is killed. */
const STOP_TIMEOUT_MS = 5000

function waitExit (worker) {
  if (worker.process.exitCode !== null || worker.process.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => worker.once('exit', resolve))
}

async function stopWorker (worker) {
  const exited = waitExit(worker)
  // a worker that failed to listen may be exiting while its channel still
  // looks connected: a failed send (EPIPE) comes to the callback, not as an
  // uncaught error, and the kill is the fallback; its exit is awaited either way
  if (worker.isConnected()) worker.send({ type: CLOSE }, (err) => { if (err) worker.process.kill() })
  else worker.process.kill()
  const timer = setTimeout(() => worker.process.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

function whenListening (worker) {
  return new Promise((resolve, reject) => {
    worker.on('message', (msg) => {
      if (!msg) return
      if (msg.type === LISTENING) resolve(msg.port)
      if (msg.type === FAILED) {
        const Cls = msg.code === 'BENCHRIG_ERR_INVALID_ARG' ? UsageError : RunError
        reject(new Cls(msg.message))
      }
    })
    worker.once('exit', (code, signal) => {
      reject(new RunError(`a --cluster worker (pid ${worker.process.pid}) exited (${signal || `code ${code}`}) before it listened`))
    })
  })
}

/**
 * Forks `options.cluster` workers and resolves once all listen.
 * @param {ReturnType<import('./options.js').normalizeOptions>} options
 * @param {{log?: (line: string) => void}} [hooks] log gets a line when a worker dies while serving
 * @returns {Promise<{port: number, pids: number[], close: () => Promise<void>}>}
 */
async function startCluster (options, { log = () => {} } = {}) {
  // our own worker file, without the caller's flags (test runners' loaders and such)
  cluster.setupPrimary({ exec: WORKER_FILE, args: [], execArgv: [], silent: false })
  const env = { BENCHRIG_SERVE_OPTIONS: JSON.stringify(options) }
  let stopping = false
  const workers = []
  const ready = []
  for (let i = 0; i < options.cluster; i++) {
    const worker = cluster.fork(env)
    workers.push(worker)
    ready.push(whenListening(worker))
    worker.once('exit', (code, signal) => {
      if (!stopping) log(`worker ${worker.process.pid} exited (${signal || `code ${code}`}); ${workers.filter((w) => !w.isDead()).length} left`)
    })
  }

  let closing
  function close () {
    if (!closing) {
      stopping = true
      closing = Promise.all(workers.map(stopWorker)).then(() => {})
    }
    return closing
  }

  let ports
  try {
    ports = await Promise.all(ready)
  } catch (err) {
    await close()
    throw err
  }
  return { port: ports[0], pids: workers.map((w) => w.process.pid), close }
}

module.exports = { startCluster }
