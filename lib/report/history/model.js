'use strict'
// The data of the history site, from the series and change points of the
// store (History#changes): one entry per series with the value plotted per
// label (the median of the label's values; the change-point detector reads
// every run), its spread, its changes and weak candidates; the pages
// (one per benchmark file) and the list of regressions. Pure: no clock, no
// file system.
const crypto = require('node:crypto')
const { median } = require('../../stats/descriptive.js')

/** A change point by the display names of its labels. */
const shown = (c) => ({ ...c, label: c.display ?? c.label, previous: c.previousDisplay ?? c.previous })

/**
 * @typedef {{label: string, previous: string, display?: string, previousDisplay?: string, index: number, size: number, ci: number[], p: number,
 *   before: number, after: number, nBefore: number, nAfter: number}} StoreChange
 * @typedef {{key: {file: string, configuration: string, measure: string, fingerprint: string, env: Record<string, string>},
 *   points: {label: string, display?: string, values: number[]}[], changes: StoreChange[], weak: StoreChange[]}} StoreSeries
 * @typedef {object} SiteSeries
 * @property {string} id stable: a hash of the series key
 * @property {string} file
 * @property {string} category the file's first folder
 * @property {string} configuration
 * @property {string} measure
 * @property {string} host
 * @property {string} fingerprint
 * @property {Record<string, string>} env
 * @property {{label: string, value: number, min: number, max: number, n: number}[]} points
 * @property {StoreChange[]} changes
 * @property {StoreChange[]} weak
 */

const categoryOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(top)')

/** A file name for a benchmark page: readable, and unique by a short hash. */
function pageOf (file) {
  const readable = file.replace(/\.[cm]?js$/, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60)
  const hash = crypto.createHash('sha256').update(file).digest('hex').slice(0, 8)
  return `bench/${readable || 'file'}-${hash}.html`
}

/**
 * @param {StoreSeries[]} store what History#changes returned
 * @returns {{series: SiteSeries[], pages: {file: string, category: string, page: string, series: SiteSeries[]}[],
 *   regressions: {series: SiteSeries, change: StoreChange, page: string}[],
 *   improvements: {series: SiteSeries, change: StoreChange, page: string}[],
 *   categories: string[], files: string[], hosts: string[]}}
 */
function siteModel (store) {
  const series = store.map((s) => {
    const k = s.key
    return {
      id: crypto.createHash('sha256').update(JSON.stringify([k.file, k.configuration, k.measure, k.fingerprint])).digest('hex').slice(0, 12),
      file: k.file,
      category: categoryOf(k.file),
      configuration: k.configuration,
      measure: k.measure,
      host: (k.env && k.env.host) || '(unknown host)',
      fingerprint: k.fingerprint,
      env: k.env ?? {},
      // labels by their display names (a tag, a describe, a version)
      points: s.points.map((p) => ({ label: p.display ?? p.label, value: median(p.values), min: Math.min(...p.values), max: Math.max(...p.values), n: p.values.length })),
      changes: (s.changes ?? []).map(shown),
      weak: (s.weak ?? []).map(shown)
    }
  }).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.configuration < b.configuration ? -1 : a.configuration > b.configuration ? 1 : a.host < b.host ? -1 : a.host > b.host ? 1 : 0))
  const byFile = new Map()
  for (const s of series) {
    if (!byFile.has(s.file)) byFile.set(s.file, { file: s.file, category: s.category, page: pageOf(s.file), series: [] })
    byFile.get(s.file).series.push(s)
  }
  const pages = [...byFile.values()]
  const pageFor = new Map(pages.map((p) => [p.file, p.page]))
  const all = series.flatMap((s) => s.changes.map((change) => ({ series: s, change, page: /** @type {string} */ (pageFor.get(s.file)) })))
  // the rates count operations per unit: a lower value after the step is slower
  const regressions = all.filter((x) => x.change.size < 0).sort((a, b) => a.change.size - b.change.size)
  const improvements = all.filter((x) => x.change.size > 0).sort((a, b) => b.change.size - a.change.size)
  const uniq = (f) => [...new Set(series.map(f))].sort()
  return { series, pages, regressions, improvements, categories: uniq((s) => s.category), files: uniq((s) => s.file), hosts: uniq((s) => s.host) }
}

module.exports = { siteModel, pageOf, categoryOf }
