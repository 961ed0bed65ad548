'use strict'
// `benchrig serve` in tests: startServe(t, opts) starts the built-in target
// server in-process and closes it in teardown (for any test that needs a real
// HTTP/1.1 or h2c server), plus small real clients (node:http, node:http2)
// that return status, headers, body and elapsed ms, and runners for the
// `benchrig serve` CLI as a real process.
const http = require('node:http')
const http2 = require('node:http2')
const path = require('node:path')
const { spawn } = require('node:child_process')

const { serve } = require('../../lib/serve/index.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

/**
 * Starts serve(opts) in this process (or a --cluster) and closes it in teardown.
 * @param {import('tap').Test} t
 * @param {import('../../lib/serve/index.js').ServeOptions} [opts] e.g. {h2c: true, delay: '1-5'}
 * @returns {ReturnType<typeof serve>} {url, port, host, h2c, pids, close}
 */
async function startServe (t, opts = {}) {
  const target = await serve(opts)
  t.teardown(() => target.close())
  return target
}

/**
 * One HTTP/1.1 request with node:http.
 * @returns {Promise<{status: number, headers: object, body: Buffer, ms: number, socket: import('node:net').Socket}>}
 */
function request (url, { method = 'GET', headers, body, agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - start, socket: req.socket }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * One request on an open HTTP/2 session.
 * @returns {Promise<{status: number, headers: object, body: Buffer, ms: number}>}
 */
function h2request (session, urlPath, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const req = session.request({ ':path': urlPath, ':method': method, ...headers })
    let head
    const chunks = []
    req.on('response', (h) => { head = h })
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => resolve({ status: head[':status'], headers: head, body: Buffer.concat(chunks), ms: performance.now() - start }))
    req.on('error', reject)
    req.end(body)
  })
}

/** Opens an h2c session (prior knowledge) closed in teardown. */
function h2connect (t, url) {
  const session = http2.connect(url)
  session.on('error', () => {})
  t.teardown(() => session.destroy())
  return session
}

/**
 * Starts `benchrig serve ARGS` as a real process and waits for its URL line.
 * The process is killed in teardown if the test did not stop it.
 * @returns {Promise<{child: import('node:child_process').ChildProcess, url: string, stdout: () => string, stderr: () => string, exited: Promise<{code: number|null, signal: string|null}>}>}
 */
function startCli (t, args, { detached = false } = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (d) => { stderr += d })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(detached ? -child.pid : child.pid, 'SIGKILL')
      } catch {}
    }
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`benchrig serve printed no URL in 15 s; stderr: ${stderr}`)), 15000)
    child.stdout.on('data', (d) => {
      stdout += d
      const m = /^benchrig serve: listening on (http:\/\/\S+)$/m.exec(stdout)
      if (m) {
        clearTimeout(timer)
        resolve({ child, url: m[1], stdout: () => stdout, stderr: () => stderr, exited })
      }
    })
    exited.then(({ code, signal }) => {
      clearTimeout(timer)
      reject(new Error(`benchrig serve exited (${signal || code}) before listening; stderr: ${stderr}`))
    })
  })
}

/** Runs `benchrig serve ARGS` to its end (for flags that must fail). */
function runCli (args, { timeout = 15000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/** True while a process with this pid exists. */
function alive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

module.exports = { startServe, request, h2request, h2connect, startCli, runCli, alive, BIN }
