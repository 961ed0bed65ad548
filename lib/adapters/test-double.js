'use strict'
// Node core's test double benchmarkers, by the same names: test-double-http,
// test-double-https and test-double-http2. A tiny client (test-double-client.js,
// on the driver's node) makes requests one at a time for the duration and
// prints {"throughput": N}; Node's test suite runs HTTP benchmarks with them
// (--set benchmarker=test-double-http) so that no external tool is needed.
// As in Node, the environment variable `duration`, when set, wins over the
// file's duration (Node's test-benchmark-http2 sets duration=0: one request).
const path = require('node:path')

const CLIENT = path.join(__dirname, 'test-double-client.js')

/**
 * @param {'http'|'https'|'http2'} type
 */
function createTestDouble (type) {
  return {
    name: `test-double-${type}`,
    install: 'the test double ships with benchrig (lib/adapters/test-double-client.js); reinstall benchrig',
    minDuration: 0,
    wholeSeconds: false,
    protocols: [type === 'http2' ? 'h2' : 'http/1.1'],
    defaultProtocol: type === 'http2' ? 'h2' : 'http/1.1',
    // Not offered when a file's protocol needs another tool.
    testDouble: true,

    executable (opts) { return opts.driverNode },

    detect () {
      // lazy: read only when a test double is detected
      // lazy: read only when a test double is detected
      return { present: require('node:fs').existsSync(CLIENT), version: require('../../package.json').version }
    },

    args (opts) {
      const env = process.env.duration
      const duration = env !== undefined && env !== '' && Number.isFinite(Number(env)) ? Number(env) : opts.duration
      const url = type === 'https' && opts.scheme === 'http' ? opts.url.replace(/^http:/, 'https:') : opts.url
      return [CLIENT, type, url, String(duration)]
    },

    /** The client's JSON line: rate per second over its own elapsed time. */
    parse (stdout) {
      const line = String(stdout).trim().split('\n').pop()
      let r
      try { r = JSON.parse(line) } catch { return undefined }
      if (!r || !Number.isFinite(r.throughput) || !Number.isFinite(r.duration)) return undefined
      const mean = r.throughput > 0 ? r.duration * 1000 / r.throughput : undefined
      return {
        requests: r.throughput,
        duration: r.duration,
        rate: r.duration > 0 ? r.throughput / r.duration : 0,
        latency: { p50: undefined, p90: undefined, p99: undefined, max: undefined, mean },
        errors: r.errors || 0,
        non2xx: r.non2xx || 0,
        source: 'json'
      }
    }
  }
}

module.exports = { createTestDouble, CLIENT }
