'use strict'
// --on-port -- CMD ...: starts the command (an argv, never a shell string),
// waits until the target's port accepts connections, and stops the command
// after the run. The child gets PORT set to the URL's port, which most
// servers read. The wait is bounded and says why it failed: the command
// exited, or it did not listen in time.
const net = require('node:net')
const { spawn } = require('node:child_process')
const { UsageError, RunError } = require('../errors.js')

const POLL_MS = 50
const STOP_GRACE_MS = 2000

function canConnect (where) {
  return new Promise((resolve) => {
    const s = net.connect(where)
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', () => { s.destroy(); resolve(false) })
  })
}

/**
 * @param {string[]} command argv of the command
 * @param {{hostname: string, port: number, socketPath?: string}} where what must accept connections
 * @param {{timeoutMs?: number, stdio?: import('node:child_process').StdioOptions}} [opts]
 * @returns {Promise<{child: import('node:child_process').ChildProcess, stop: () => Promise<void>}>}
 */
async function startOnPort (command, where, opts = {}) {
  if (!Array.isArray(command) || command.length === 0) {
    throw new UsageError('--on-port needs a command after --, e.g. benchrig load --on-port http://127.0.0.1:3000/ -- node server.js')
  }
  const timeoutMs = opts.timeoutMs ?? 10000
  const child = spawn(command[0], command.slice(1), {
    stdio: opts.stdio ?? ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(where.port) }
  })
  let exited = null
  const exit = new Promise((resolve) => {
    child.once('exit', (code, signal) => { exited = { code, signal }; resolve() })
    child.once('error', (err) => { exited = { error: err }; resolve() })
  })
  const stop = async () => {
    if (exited !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => { if (exited === null) child.kill('SIGKILL') }, STOP_GRACE_MS)
    await exit
    clearTimeout(timer)
  }
  const target = where.socketPath !== undefined ? { path: where.socketPath } : { host: where.hostname, port: where.port }
  const shown = where.socketPath ?? `${where.hostname}:${where.port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (exited !== null) {
      const why = exited.error ? (exited.error.code ?? exited.error.message) : `exit code ${exited.code ?? exited.signal}`
      throw new RunError(`--on-port: "${command.join(' ')}" ended (${why}) before listening on ${shown}`, 'BENCHRIG_ERR_ON_PORT')
    }
    if (await canConnect(target)) return { child, stop }
    if (Date.now() >= deadline) {
      await stop()
      throw new RunError(`--on-port: "${command.join(' ')}" did not listen on ${shown} within ${timeoutMs / 1000} s: check the URL's port (the command gets PORT=${where.port})`, 'BENCHRIG_ERR_ON_PORT')
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/**
 * Splits argv at the first `--`: what follows is the --on-port command.
 * @param {string[]} argv
 * @returns {{argv: string[], command: string[]|undefined}}
 */
function splitCommand (argv) {
  const at = argv.indexOf('--')
  if (at < 0) return { argv, command: undefined }
  return { argv: argv.slice(0, at), command: argv.slice(at + 1) }
}

module.exports = { startOnPort, splitCommand }
