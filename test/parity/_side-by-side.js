'use strict'
/* eslint-disable no-control-regex -- the terminal's colour sequences are what these checks read */
// The parity suite's common parts: the two sides (the real autocannon, our
// npm dependency, and benchrig's drop-in), a server on 127.0.0.1 that records
// every request it gets, and the masking that compares text output by shape.
// Each check runs the same code on both sides, each against a server of its
// own, at the same time; checks assert a property on each side's output
// (so either side can fail one), and equality where the outputs must match.
const http = require('node:http')
const path = require('node:path')
const { execFile } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const AUTOCANNON_DIR = path.dirname(require.resolve('autocannon/package.json'))

/** @type {[string, any][]} */
const SIDES = [
  ['autocannon', require('autocannon')],
  ['benchrig', require('../../index.js').load]
]

// autocannon ends an `amount` run at its next sample (1 s by default): short
// samples keep each of its runs near 50 ms instead of a second
const FAST = { sampleInt: 50 }

/**
 * A server that records {method, url, headers, rawHeaders, body} of each
 * request. /401 wants Basic foo:bar, /404 is 404, /cookies sets three cookies,
 * /never never answers; the others answer 'hello'.
 */
async function server (t, { tls } = {}) {
  const seen = []
  const sockets = new Set()
  const handler = (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      const sock = req.socket
      seen.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
        remotePort: sock.remotePort,
        // TLS: the SNI name and the client certificate's CN
        servername: sock.servername,
        peer: tls ? sock.getPeerCertificate()?.subject?.CN : undefined
      })
      if (req.url === '/never') return
      if (req.url === '/401' && req.headers.authorization !== `Basic ${Buffer.from('foo:bar').toString('base64')}`) res.statusCode = 401
      if (req.url === '/404') res.statusCode = 404
      if (req.url === '/cookies') res.setHeader('Set-Cookie', ['a=1', 'b=2', 'c=3'])
      res.setHeader('x-token', `tok-${seen.length}`)
      res.end(req.url.startsWith('/echo') ? `${req.method} ${req.url} ${body}` : 'hello')
    })
  }
  const s = tls
    ? require('node:https').createServer({ ...tls, requestCert: true, rejectUnauthorized: false }, handler)
    : http.createServer(handler)
  s.on(tls ? 'secureConnection' : 'connection', (c) => { sockets.add(c); c.on('close', () => sockets.delete(c)) })
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => { for (const c of sockets) c.destroy(); s.close(resolve) }))
  const port = /** @type {import('node:net').AddressInfo} */ (s.address()).port
  return { seen, port, url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, connections: () => sockets.size }
}

/**
 * Runs fn(lib, srv, name) on both sides at once, each with its own server.
 * @template T
 * @param {any} t
 * @param {(lib: any, srv: Awaited<ReturnType<typeof server>>, name: string) => Promise<T>} fn
 * @param {{tls?: {key: Buffer, cert: Buffer}}} [how] the servers' TLS key and certificate
 * @returns {Promise<Record<'autocannon'|'benchrig', {out: T, srv: Awaited<ReturnType<typeof server>>}>>}
 */
async function both (t, fn, how = {}) {
  const out = await Promise.all(SIDES.map(async ([name, lib]) => {
    const srv = await server(t, how)
    return [name, { out: await fn(lib, srv, name), srv }]
  }))
  return /** @type {any} */ (Object.fromEntries(out))
}

/** A Writable-like stream that keeps what is written; isTTY as asked. */
function sink (isTTY = false) {
  return { isTTY, text: '', write (s) { this.text += s; return true }, on () { return this }, once () { return this }, emit () { return false }, removeListener () { return this } }
}

/**
 * Text output by its shape: numbers, sizes and durations become '#', table
 * cell padding is dropped and a border line is named by its kind, so two
 * outputs with the same rows and lines compare equal whatever they measured.
 * @param {string} text
 */
function shape (text) {
  return text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((line) => {
    if (/^┌[─┬]+┐$/.test(line)) return '┌top┐'
    if (/^├[─┼]+┤$/.test(line)) return '├rule┤'
    if (/^└[─┴]+┘$/.test(line)) return '└bottom┘'
    const masked = line
      .replace(/127\.0\.0\.1/g, 'HOST')
      .replace(/\b\d[\d,]*(\.\d+)?(\s?(ms|s|kB|MB|GB|B|k|M)\b)?/g, '#')
    return masked.startsWith('│') ? masked.split('│').map((c) => c.trim()).join('│') : masked
  })
}

/**
 * Runs a command line tool; resolves with {code, stdout, stderr}.
 * @param {string[]} argv node script and arguments
 * @param {{env?: NodeJS.ProcessEnv}} [opts]
 */
function cli (argv, opts = {}) {
  return new Promise((resolve) => execFile(process.execPath, argv, { env: { ...process.env, ...opts.env }, timeout: 30000 },
    (err, stdout, stderr) => resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr })))
}

/** The command lines of the two CLIs, with the same arguments. */
const CLIS = {
  autocannon: (args) => [path.join(AUTOCANNON_DIR, 'autocannon.js'), ...args],
  benchrig: (args) => [path.join(ROOT, 'bin', 'benchrig.js'), 'load', ...args]
}

module.exports = { SIDES, FAST, server, both, sink, shape, cli, CLIS }
