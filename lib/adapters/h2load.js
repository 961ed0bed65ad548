'use strict'
// h2load (nghttp2-client). Its summary is text in two generations: up to
// 1.68 the latency table has the columns "min max mean sd +/- sd" and rows
// "time for request", "time for connect", "time to 1st byte", "req/s"; from
// 1.69 the rows have short names and the table adds median/p95/p99 columns.
// The parser reads the column names from the header line and matches rows by
// keyword, so both work. For p50/p90/p99 in every version it also reads the
// per-request log (--log-file: start µs, status, duration µs per line).
const { spawnSync } = require('node:child_process')
const { toMs, finite, roundMs } = require('./units.js')

const LOG_FILE = 'h2load-requests.log'

const h2load = {
  name: 'h2load',
  install: 'install the Debian package "nghttp2-client" (scripts/install-tools.sh does it)',
  minDuration: 0.25,
  wholeSeconds: false,
  protocols: ['h2', 'http/1.1'],
  // Node core runs h2load for HTTP/2 only; HTTP/1.1 (--h1) when asked.
  defaultProtocol: 'h2',

  executable () { return 'h2load' },

  detect () {
    const r = spawnSync('h2load', ['--version'], { encoding: 'utf8' })
    if (r.error) return { present: false, version: undefined }
    const m = /nghttp2\/(\S+)/.exec(`${r.stdout}${r.stderr}`)
    return { present: true, version: m ? m[1] : 'unknown' }
  },

  files (opts) {
    const files = { [LOG_FILE]: '' }
    if (opts.body !== undefined) files['body.bin'] = opts.body
    return files
  },

  args (opts) {
    const clients = opts.clients || opts.connections
    const args = [
      '-c', String(clients),
      '-t', String(Math.max(1, Math.min(opts.threads || 1, clients))),
      '-m', String(opts.streams || opts.pipelining || 1)
    ]
    // `requests` (Node's -n) makes a run of that many requests. Node also
    // passes the duration as -T, but that is a per-connection activity
    // timeout: a -n 4e6 run with -T 300ms ran for 299 s, so it is left out.
    if (opts.requests !== undefined) args.push('-n', String(opts.requests))
    // h2load takes integer durations with a unit; ms keeps --test runs short.
    else args.push('-D', `${Math.max(1, Math.round(opts.duration * 1000))}ms`)
    if (opts.protocol === 'http/1.1') args.push('--h1')
    for (const [k, v] of Object.entries(opts.headers)) args.push('-H', `${k}: ${v}`)
    if (opts.method !== 'GET' && opts.method !== 'POST') args.push('-H', `:method: ${opts.method}`)
    if (opts.files && opts.files['body.bin']) args.push('-d', opts.files['body.bin'])
    if (opts.files && opts.files[LOG_FILE]) args.push(`--log-file=${opts.files[LOG_FILE]}`)
    args.push(opts.url)
    return args
  },

  /**
   * @param {string} stdout
   * @param {{[name: string]: string}} [outputs] files the run wrote (the request log)
   */
  parse (stdout, outputs = {}) {
    const r = parseText(stdout)
    if (!r) return undefined
    const fromLog = parseLog(outputs[LOG_FILE])
    if (fromLog) {
      r.latency.p50 = fromLog.p50
      r.latency.p90 = fromLog.p90
      r.latency.p99 = fromLog.p99
      if (r.latency.max === undefined) r.latency.max = fromLog.max
      r.source += '+log'
    }
    return r
  }
}

// Row keywords of the latency table, old and new names.
/** @type {[string, RegExp][]} */
const ROWS = [
  ['request', /^(time for request|request|req(uest)? ?time)$/i],
  ['connect', /^(time for connect|connect|conn(ect)? ?time)$/i],
  ['ttfb', /^(time to 1st byte|ttfb|1st byte|first byte)$/i],
  ['rps', /^(req\/s|rps)$/i]
]

/** The summary text of either generation, or undefined. */
function parseText (stdout) {
  const text = String(stdout)
  const fin = /^finished in ([\d.]+\w+), ([\d.]+) req\/s/m.exec(text)
  const req = /^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/m.exec(text)
  if (!fin || !req) return undefined
  const codes = /^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/m.exec(text)
  const table = parseTable(text)
  const reqRow = table.request || {}
  const done = Number(req[3])
  const errored = Number(req[6])
  return {
    // "done" includes errored requests; only the rest got a response.
    requests: done - errored,
    duration: toMs(fin[1]) / 1000,
    // h2load's req/s counts errored requests too; scale it to responses
    // (its own rate keeps the exact duration that "finished in" rounds).
    rate: done > 0 ? finite(fin[2]) * (done - errored) / done : 0,
    latency: {
      p50: reqRow.median,
      p90: reqRow.p90,
      p99: reqRow.p99,
      max: reqRow.max,
      mean: reqRow.mean
    },
    errors: errored,
    // From the requests line, which counts finished requests only (the status
    // line also counts streams still in flight when a timed run stops):
    // failed - errored are the 4xx/5xx; 3xx count as "succeeded" in h2load.
    non2xx: Number(req[5]) - errored + (codes ? Math.min(Number(codes[2]), Number(req[4])) : 0),
    source: table.generation
  }
}

/** The min/max/mean/... table: {request: {min, max, ...ms}, generation}. */
function parseTable (text) {
  const lines = text.split('\n')
  const h = lines.findIndex((l) => /^\s+min\s+max\s+mean\s+sd\b/.test(l))
  if (h < 0) return { generation: 'text' }
  const columns = lines[h].trim().replace('+/- sd', 'within_sd').split(/\s+/)
  const out = { generation: columns.includes('median') || columns.includes('p99') ? 'text-1.69' : 'text-1.52' }
  for (const line of lines.slice(h + 1)) {
    const colon = line.indexOf(':')
    if (colon < 0) break
    const label = line.slice(0, colon).trim()
    const row = ROWS.find(([, re]) => re.test(label))
    if (!row) continue
    const cells = line.slice(colon + 1).trim().split(/\s+/)
    const values = {}
    columns.forEach((c, i) => {
      const cell = cells[i]
      if (cell === undefined || c === 'within_sd') return
      values[c] = row[0] === 'rps' ? finite(cell) : roundMs(toMs(cell))
    })
    out[row[0]] = values
  }
  return out
}

/** Percentiles (ms) from h2load's --log-file, or undefined when empty. */
function parseLog (log) {
  if (!log) return undefined
  const durations = []
  for (const line of log.split('\n')) {
    const f = line.split('\t')
    if (f.length < 3 || Number(f[1]) < 0) continue
    const us = Number(f[2])
    if (Number.isFinite(us)) durations.push(us)
  }
  if (durations.length === 0) return undefined
  const sorted = Float64Array.from(durations).sort()
  const at = (p) => roundMs(sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)] / 1000)
  return { p50: at(50), p90: at(90), p99: at(99), max: roundMs(sorted[sorted.length - 1] / 1000) }
}

module.exports = h2load
module.exports.LOG_FILE = LOG_FILE
module.exports.parseLog = parseLog
