'use strict'
// `benchrig history report --html DIR`: the static site of the store
// (lib/report/history/site.js) for the series the filters select.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { writeSite } = require('../report/history/site.js')

/**
 * Checks --html before the store is read: a folder that exists or can be made.
 * @param {string|undefined} dir
 * @returns {string}
 */
function htmlDir (dir) {
  if (dir === undefined || dir === '') throw new UsageError('history report: give --html DIR, the folder to write the site into')
  const abs = path.resolve(dir)
  try {
    fs.mkdirSync(abs, { recursive: true })
  } catch (err) {
    throw new UsageError(`--html ${dir}: cannot make that folder (${err.code || err.message}); give a writable path`)
  }
  if (!fs.statSync(abs).isDirectory()) throw new UsageError(`--html ${dir}: not a folder`)
  return abs
}

/**
 * @param {{changes: Function, where: string, kind: string}} h an open store (the title names a SQLite file by its name, not its path)
 * @param {{html: string, filter: object, detect: object, json?: boolean}} opts
 * @param {{write: (s: string) => unknown}} out
 */
async function historyReport (h, opts, out) {
  const dir = htmlDir(opts.html)
  const store = await h.changes(opts.filter, opts.detect)
  const { files, model } = writeSite(dir, store, { title: `benchrig history: ${h.kind === 'sqlite' ? path.basename(h.where) : h.where}` })
  if (opts.json) {
    out.write(JSON.stringify({ dir, files, series: model.series.length, regressions: model.regressions.length, improvements: model.improvements.length }) + '\n')
    return 0
  }
  if (store.length === 0) out.write('history: no series matches; the site lists none\n')
  out.write(`history: ${files.length} pages, ${model.series.length} series, ${model.regressions.length} regressions, ${model.improvements.length} improvements: open ${path.join(dir, 'index.html')}\n`)
  return 0
}

module.exports = { historyReport, htmlDir }
