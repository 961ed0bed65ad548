'use strict'
// --on-port -- CMD ...: starts the command (an argv, never a shell string),
// waits until the target's port accepts connections, and stops the command
// after the run. The child gets PORT set to the URL's port, which most
// servers read. Without a port in the URL, the port is the one the command
// (or a process it started) listens on, read from Linux's /proc. The wait is
// bounded and says why it failed: the command exited, or it did not listen in time.
const fs = require('node:fs')
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
 * @param {{hostname: string, port: number|undefined, socketPath?: string}} where what must accept
 *   connections; port undefined: the port the command listens on
 * @param {{timeoutMs?: number, stdio?: import('node:child_process').StdioOptions}} [opts]
 * @returns {Promise<{child: import('node:child_process').ChildProcess, stop: () => Promise<void>, port: number|undefined}>}
 */
async function startOnPort (command, where, opts = {}) {
  if (!Array.isArray(command) || command.length === 0) {
    throw new UsageError('--on-port needs a command after --, e.g. benchrig load --on-port http://127.0.0.1:3000/ -- node server.js')
  }
  const detect = where.port === undefined && where.socketPath === undefined
  if (detect && !fs.existsSync('/proc/self/net/tcp')) {
    throw new UsageError('--on-port: give the port in the URL (finding the port the command listens on reads Linux\'s /proc)')
  }
  const timeoutMs = opts.timeoutMs ?? 10000
  const child = spawn(command[0], command.slice(1), {
    stdio: opts.stdio ?? ['ignore', 'ignore', 'inherit'],
    // a detected port: the command chooses it (PORT, if set here, passes through)
    env: detect ? process.env : { ...process.env, PORT: String(where.port) }
  })
  /** @type {{code?: number|null, signal?: string|null, error?: NodeJS.ErrnoException}|null} set by the child's exit or error */
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
  const shown = where.socketPath ?? (detect ? 'a port' : `${where.hostname}:${where.port}`)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (exited !== null) {
      const why = exited.error ? (exited.error.code ?? exited.error.message) : `exit code ${exited.code ?? exited.signal}`
      throw new RunError(`--on-port: "${command.join(' ')}" ended (${why}) before listening on ${shown}`, 'BENCHRIG_ERR_ON_PORT')
    }
    if (detect) {
      const port = listeningPort(child.pid)
      if (port !== null) return { child, stop, port }
    } else if (await canConnect(target)) {
      return { child, stop, port: where.port }
    }
    if (Date.now() >= deadline) {
      await stop()
      const hint = detect ? 'check that it starts a server' : `check the URL's port (the command gets PORT=${where.port})`
      throw new RunError(`--on-port: "${command.join(' ')}" did not listen on ${shown} within ${timeoutMs / 1000} s: ${hint}`, 'BENCHRIG_ERR_ON_PORT')
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/** The socket inodes of a process and of the processes it started (Linux /proc). */
function socketInodes (pid, out, depth = 0) {
  let fds = []
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`)
  } catch {
    return out // gone, or not ours
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (m !== null) out.add(m[1])
    } catch {}
  }
  if (depth > 8) return out
  let tasks = []
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`)
  } catch {}
  for (const tid of tasks) {
    let children = ''
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
    } catch {}
    for (const c of children.split(' ')) if (c.trim() !== '') socketInodes(c.trim(), out, depth + 1)
  }
  return out
}

/**
 * The TCP port a process (or a child of it) listens on, or null: its socket
 * inodes matched against the LISTEN rows (state 0A) of /proc/PID/net/tcp and tcp6.
 * @param {number} pid
 * @returns {number|null}
 */
function listeningPort (pid) {
  const inodes = socketInodes(pid, new Set())
  if (inodes.size === 0) return null
  for (const table of ['tcp', 'tcp6']) {
    let text = ''
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (cols[3] === '0A' && inodes.has(cols[9])) return parseInt(cols[1].split(':').pop(), 16)
    }
  }
  return null
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

module.exports = { startOnPort, splitCommand, listeningPort }
