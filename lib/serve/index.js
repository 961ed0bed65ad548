'use strict'
// Programmatic API of `benchrig serve`: start the target server in this
// process (or a --cluster of worker processes) and get its URL back. Engine
// tests and bench scripts use it where they need a real HTTP server.
const { normalizeOptions } = require('./options.js')
const { startServer } = require('./server.js')
const { startCluster } = require('./cluster.js')

/**
 * @typedef {object} ServeOptions
 * @property {string} [host] default 127.0.0.1
 * @property {number} [port] default 0: a free port
 * @property {boolean} [h2c] HTTP/2 cleartext (prior knowledge), HTTP/1.1 on the same port
 * @property {number} [cluster] worker processes; 1 (default) serves in this process
 * @property {number|string} [size] body size of `/` in bytes (default: a small fixed body)
 * @property {number} [status] default status of every route (200)
 * @property {number|string|{min: number, max: number}} [delay] ms, or 'MIN-MAX' random
 * @property {boolean} [chunked] chunked bodies (HTTP/1.1) / no content-length (h2)
 * @property {number|string} [chunkSize] piece size of chunked bodies (16384)
 * @property {boolean} [close] Connection: close (HTTP/1.1) / GOAWAY after the response (h2)
 * @property {string|{ms: number, everyMs: number}} [freeze] 'S/T': block the event loop S ms every T s
 * @property {number} [maxStreams] h2c only: SETTINGS_MAX_CONCURRENT_STREAMS (default: node's, unlimited)
 */

/**
 * Starts the server. Throws UsageError for bad options or a port in use.
 * @param {ServeOptions} [opts]
 * @param {{log?: (line: string) => void}} [hooks] log receives notes such as a cluster worker dying
 * @returns {Promise<{url: string, port: number, host: string, h2c: boolean, pids: number[], close: () => Promise<void>}>}
 */
async function serve (opts = {}, hooks = {}) {
  const options = normalizeOptions(opts)
  let target
  let pids
  if (options.cluster > 1) {
    target = await startCluster(options, hooks)
    pids = target.pids
  } else {
    target = await startServer(options)
    pids = [process.pid]
  }
  return {
    url: formatUrl(options.host, target.port),
    port: target.port,
    host: options.host,
    h2c: options.h2c,
    pids,
    close: target.close
  }
}

/** http://HOST:PORT, with an IPv6 address in brackets. */
function formatUrl (host, port) {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}

module.exports = { serve, formatUrl }
