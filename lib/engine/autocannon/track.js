'use strict'
// track(instance, opts): autocannon's progress and result printer for a run
// made through the API. It listens to the run's events and writes to
// opts.outputStream (stderr by default): a progress line each second when the
// stream is a TTY, then the result tables.
const { printResult } = require('./print-result.js')
const { progressLine } = require('../result/format.js')

/**
 * @param {import('node:events').EventEmitter & {opts?: object}} instance a run from load()
 * @param {{outputStream?: NodeJS.WritableStream & {isTTY?: boolean}, renderProgressBar?: boolean, progressBarString?: string,
 *   renderResultsTable?: boolean, renderLatencyTable?: boolean, renderStatusCodes?: boolean}} [opts]
 */
function track (instance, opts = {}) {
  if (!instance || typeof instance.on !== 'function') {
    throw new TypeError('track(instance, opts): instance must be the run returned by load()')
  }
  const out = opts.outputStream ?? process.stderr
  const progress = opts.renderProgressBar !== false && out.isTTY === true
  const o = instance.opts ?? {}
  // autocannon writes the "Running" lines only with its progress bar on
  if (opts.renderProgressBar !== false) {
    instance.on('start', () => out.write(runningLines(instance.opts ?? o)))
  }
  if (opts.progressBarString !== undefined && typeof opts.progressBarString !== 'string') {
    throw new TypeError('track(instance, opts): progressBarString must be a string such as \'running [:bar] :percent\'')
  }
  if (progress) {
    let done = 0 // requests so far (the bar of an -a run)
    instance.on('tick', (t) => {
      done += t.requests ?? t.counter ?? 0
      const line = opts.progressBarString === undefined
        ? progressLine(t.second, Math.round(o.duration ?? 0), t.requests ?? t.counter)
        : progressBar(opts.progressBarString, o.amount > 0 ? { current: done, total: o.amount } : { current: t.second * (o.sampleIntMs ?? 1000) / 1000, total: o.duration ?? 0 }, t.second * (o.sampleIntMs ?? 1000) / 1000)
      out.write(`\r${line}\x1b[K`)
    })
  }
  instance.on('done', (result) => {
    if (progress) out.write('\r\x1b[K')
    if (opts.renderResultsTable === false) return
    out.write(printResult(result, { ...opts, outputStream: out }))
  })
  return instance
}

/**
 * autocannon's lines at the start of a run: what runs (an amount of
 * requests or seconds), the URL (several joined by commas, as its template
 * prints an array), the socket path, the connections, the pipelining factor
 * and the workers; then a blank line.
 * @param {{amount?: number, duration?: number, urls?: string[], target?: {socketPath?: string},
 *   connections?: number, pipelining?: number, workers?: number}} o normalized options
 * @param {string} [extra] benchrig's own words after the connections (origins, HTTP/2)
 */
function runningLines (o, extra = '') {
  const what = o.amount > 0 ? `${o.amount} requests` : `${o.duration}s`
  const socket = o.target?.socketPath === undefined ? '' : ` (${o.target.socketPath})`
  return `Running ${what} test @ ${(o.urls ?? []).join(',')}${socket}\n${o.connections} connections` +
    (o.pipelining > 1 ? ` with ${o.pipelining} pipelining factor` : '') + extra +
    (o.workers > 0 ? `\n${o.workers} workers` : '') + '\n\n'
}

const BAR_WIDTH = 20

/**
 * autocannon's progressBarString: the tokens of the `progress` package it
 * uses (:bar :current :total :percent :elapsed :eta), filled in from the
 * run's seconds (or, with an amount, its requests).
 * @param {string} template @param {{current: number, total: number}} at @param {number} elapsedS
 */
function progressBar (template, { current, total }, elapsedS) {
  const ratio = total > 0 ? Math.min(1, current / total) : 0
  const filled = Math.round(ratio * BAR_WIDTH)
  const eta = ratio > 0 ? elapsedS * (1 - ratio) / ratio : 0
  return template
    .replace(/:bar/g, '='.repeat(filled) + '-'.repeat(BAR_WIDTH - filled))
    .replace(/:current/g, String(Math.round(current)))
    .replace(/:total/g, String(total))
    .replace(/:percent/g, `${Math.floor(ratio * 100)}%`)
    .replace(/:elapsed/g, elapsedS.toFixed(1))
    .replace(/:eta/g, eta.toFixed(1))
}

module.exports = { track, progressBar, runningLines }
