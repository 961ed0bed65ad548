'use strict'
// track(instance, opts): autocannon's progress and result printer for a run
// made through the API. It listens to the run's events and writes to
// opts.outputStream (stderr by default): a progress line each second when the
// stream is a TTY, then the result tables.
const { printResult } = require('./print-result.js')
const { progressLine } = require('../result/format.js')

/**
 * @param {import('node:events').EventEmitter & {opts?: object}} instance a run from load()
 * @param {{outputStream?: NodeJS.WritableStream, renderProgressBar?: boolean,
 *   renderResultsTable?: boolean, renderLatencyTable?: boolean, renderStatusCodes?: boolean}} [opts]
 */
function track (instance, opts = {}) {
  if (!instance || typeof instance.on !== 'function') {
    throw new TypeError('track(instance, opts): instance must be the run returned by load()')
  }
  const out = opts.outputStream ?? process.stderr
  const progress = opts.renderProgressBar !== false && out.isTTY === true
  const o = instance.opts ?? {}
  instance.once('start', () => {
    const url = Array.isArray(o.urls) && o.urls.length > 1 ? `${o.urls.length} URLs` : (o.urls?.[0] ?? '')
    const what = o.amount > 0 ? `${o.amount} requests` : `${o.duration}s test`
    out.write(`Running ${what} @ ${url}\n${o.connections} connections` +
      (o.pipelining > 1 ? ` with ${o.pipelining} pipelining factor` : '') + '\n\n')
  })
  if (progress) {
    instance.on('tick', (t) => {
      out.write(`\r${progressLine(t.second, Math.round(o.duration ?? 0), t.requests ?? t.counter)}\x1b[K`)
    })
  }
  instance.on('done', (result) => {
    if (progress) out.write('\r\x1b[K')
    out.write(printResult(result, opts) + '\n')
  })
  return instance
}

module.exports = { track }
