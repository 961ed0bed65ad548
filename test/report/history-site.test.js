'use strict'
// benchrig history report --html DIR: a real SQLite store with seeded series
// (known steps at known labels, two hosts, two categories), the site written
// from History#changes, and every page rendered in headless Chromium (one
// launch): no console error, no request outside the site's own files, the
// filters work, and the numbers plotted (each dot's value, and its height on
// the chart read back through the axis) equal the store's.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { openHistory } = require('../../lib/history/index.js')
const { writeSite } = require('../../lib/report/history/site.js')
const { siteModel, pageOf } = require('../../lib/report/history/model.js')
const { niceTicks, short } = require('../../lib/report/history/trend-svg.js')
const { median } = require('../../lib/stats/descriptive.js')
const { createRng } = require('../../lib/prng.js')
const { needTool } = require('../helpers/tools.js')
const { visitPages } = require('../helpers/chromium-page.js')

const LABELS = Array.from({ length: 24 }, (_, i) => `1.${i}.0`)

/** Records of a seeded store: 3 values per label, steps where `step` says. */
function records () {
  const rng = createRng(25)
  const out = []
  const series = [
    { file: 'buffers/a.js', configuration: 'n=1', host: 'host-a', step: { at: 12, by: -0.1 } },
    { file: 'buffers/a.js', configuration: 'n=2', host: 'host-a' },
    { file: 'buffers/a.js', configuration: 'n=1', host: 'host-b' },
    { file: 'http/b.js', configuration: 'c=50 path="/"', host: 'host-a', step: { at: 8, by: 0.08 } }
  ]
  for (const s of series) {
    LABELS.forEach((label, i) => {
      const level = 1000 * (s.step && i >= s.step.at ? 1 + s.step.by : 1)
      for (let k = 0; k < 3; k++) {
        out.push({ file: s.file, configuration: s.configuration, measure: 'wall', value: level * (1 + (rng.uniform() - 0.5) * 0.004), label, env: { cpu: 'Example CPU', kernel: '6.1.0', host: s.host } })
      }
    })
  }
  return out
}

t.test('the model: series, pages, regressions first by size', async (t) => {
  const store = [
    { key: { file: 'x/a.js', configuration: 'n=1', measure: 'wall', fingerprint: 'f1', env: { host: 'h' } }, points: [{ label: '1', values: [3, 1, 2] }, { label: '2', values: [5] }], changes: [{ label: '2', previous: '1', index: 1, size: 0.5, ci: [0.1, 0.9], p: 0.001, before: 2, after: 5, nBefore: 1, nAfter: 1 }], weak: [] },
    { key: { file: 'a.js', configuration: '', measure: 'cpu', fingerprint: 'f2', env: {} }, points: [{ label: '1', values: [1] }], changes: [{ label: '1', previous: '0', index: 1, size: -0.2, ci: [-0.3, -0.1], p: 0.01, before: 1, after: 0.8, nBefore: 1, nAfter: 1 }, { label: '2', previous: '1', index: 2, size: -0.4, ci: [-0.5, -0.3], p: 0.01, before: 1, after: 0.6, nBefore: 1, nAfter: 1 }] }
  ]
  const m = siteModel(/** @type {any} */ (store))
  t.same(m.series.map((s) => [s.file, s.category, s.host]), [['a.js', '(top)', '(unknown host)'], ['x/a.js', 'x', 'h']])
  t.same(m.series[1].points, [{ label: '1', value: 2, min: 1, max: 3, n: 3 }, { label: '2', value: 5, min: 5, max: 5, n: 1 }])
  t.same(m.regressions.map((r) => r.change.size), [-0.4, -0.2], 'the largest slowdown first')
  t.same(m.improvements.map((r) => r.change.size), [0.5])
  t.match(pageOf('buffers/buffer-tostring.js'), /^bench\/buffers-buffer-tostring-[0-9a-f]{8}\.html$/)
  t.not(pageOf('a/b.js'), pageOf('a-b.js'), 'names that read alike get different pages')
  t.same(niceTicks(903, 1099), [900, 950, 1000, 1050, 1100])
  t.same(niceTicks(903, 1101), [900, 950, 1000, 1050, 1100, 1150], 'the top tick covers the largest value')
  t.same(niceTicks(5, 5), [4.7, 4.8, 4.9, 5, 5.1, 5.2, 5.3], 'a flat series gets a band of ±5% around it')
  t.same([short(1234567), short(45678), short(999.25)], ['1.235M', '45.68k', '999.3'])
})

t.test('benchrig history report --html DIR', async (t) => {
  const { main } = require('../../lib/cli/history.js')
  const dir = t.testdir({ 'a-file': 'x' })
  const db = path.join(dir, 'history.sqlite')
  const h = await openHistory(db)
  await h.add(records(), { source: 'seeded series' })
  await h.close()
  let text = ''
  const out = { write: (s) => { text += s; return true } }
  const site = path.join(dir, 'new', 'site')
  t.equal(await main(['report', '--db', db, '--html', site, '--file', 'buffers'], { stdout: out }), 0)
  t.match(text, /^history: 3 pages, 3 series, 1 regressions, 0 improvements: open .*new\/site\/index\.html\n$/)
  t.same(fs.readdirSync(site).sort(), ['bench', 'index.html', 'regressions.html'])
  text = ''
  t.equal(await main(['report', '--db', db, '--html', site, '--json', '--file', 'nothing'], { stdout: out }), 0)
  t.same(JSON.parse(text), { dir: site, files: ['index.html', 'regressions.html'], series: 0, regressions: 0, improvements: 0 })
  await t.rejects(main(['report', '--db', db]), { exitCode: 2, message: /history report: give --html DIR/ })
  await t.rejects(main(['report', '--db', db, '--html', path.join(dir, 'a-file')]), { exitCode: 2, message: /--html .*a-file: cannot make that folder \(EEXIST\)/ })
  await t.rejects(main(['changes', '--db', db, '--html', site]), { exitCode: 2, message: /--html .* goes with history report/ })
})

t.test('the site of a real store, in Chromium', async (t) => {
  if (!needTool(t, 'chromium')) return
  const dir = t.testdir()
  const h = await openHistory(path.join(dir, 'history.sqlite'))
  t.teardown(() => h.close())
  await h.add(records(), { source: 'seeded series' })
  const store = await h.changes({})
  t.equal(store.length, 4)
  const site = path.join(dir, 'site')
  const { files, model } = writeSite(site, store)
  t.same(files.slice(0, 2), ['index.html', 'regressions.html'])
  t.equal(files.length, 4, 'one page per benchmark file')
  const stepped = store.find((s) => s.key.file === 'buffers/a.js' && s.key.env.host === 'host-a' && s.key.configuration === 'n=1')
  t.same(stepped.changes.map((c) => c.label), ['1.12.0'], 'the store finds the step (the data is right)')
  for (const f of files) {
    const html = fs.readFileSync(path.join(site, f), 'utf8')
    t.notMatch(html, /(src|href)="(https?:)?\/\//, `${f}: no external reference`)
    t.match(html, /default-src 'none'/, `${f}: a policy that forbids any request`)
  }

  const READ = `(() => {
    const charts = [...document.querySelectorAll('svg.trend')].map((svg) => {
      const box = svg.getBoundingClientRect()
      const scale = box.height / svg.viewBox.baseVal.height
      const y0 = Number(svg.dataset.y0), y1 = Number(svg.dataset.y1), top = Number(svg.dataset.top), bottom = Number(svg.dataset.bottom)
      return {
        id: svg.dataset.series,
        points: [...svg.querySelectorAll('circle.point')].map((c) => {
          const r = c.getBoundingClientRect()
          const cy = (r.top + r.height / 2 - box.top) / scale
          return { label: c.dataset.label, value: Number(c.dataset.value), read: y0 + (bottom - cy) / (bottom - top) * (y1 - y0), unit: (y1 - y0) / (bottom - top) }
        }),
        changes: [...svg.querySelectorAll('line.change')].map((l) => ({ label: l.dataset.label, size: Number(l.dataset.size), lo: Number(l.dataset.ciLo), hi: Number(l.dataset.ciHi) })),
        bands: svg.querySelectorAll('rect.step-band').length
      }
    })
    const visible = () => [...document.querySelectorAll('[data-category]')].filter((e) => !e.hidden).length
    const pick = (name, value) => { const s = document.querySelector('select[data-filter="' + name + '"]'); if (!s) return -1; s.value = value; s.dispatchEvent(new Event('change')); return visible() }
    const all = visible()
    const out = { charts, all, links: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')) }
    out.http = pick('category', 'http'); pick('category', '')
    out.hostB = pick('host', 'host-b'); pick('host', '')
    out.fileA = pick('file', 'buffers/a.js')
    out.shown = document.getElementById('shown') ? document.getElementById('shown').textContent : null
    return out
  })()`
  const visits = await visitPages(dir, files.map((f) => ({ file: path.join(site, f), width: 1000, height: 800, evaluate: READ })))
  const siteUrl = 'file://' + site + '/'
  visits.forEach((v, i) => {
    t.same(v.problems, [], `${files[i]}: no console error or warning`)
    t.same(v.requests.filter((u) => !u.startsWith(siteUrl)), [], `${files[i]}: no request outside the site`)
    for (const href of v.value.links) t.ok(fs.existsSync(path.join(site, path.dirname(files[i]), href.replace(/#.*$/, ''))), `${files[i]}: the link ${href} resolves`)
  })
  const [index, regressions, ...benches] = visits.map((v) => v.value)
  t.equal(index.all, 4, 'index: one row per series')
  t.equal(index.http, 1, 'index: filtered by category')
  t.equal(index.hostB, 1, 'index: filtered by host')
  t.equal(index.fileA, 3, 'index: filtered by file')
  t.equal(index.shown, '3', 'the counter follows the filter')
  t.equal(regressions.all, 2, 'regressions: the one slower and the one faster change')
  t.equal(regressions.http, 1)

  // the plotted numbers equal the store's
  const charts = benches.flatMap((b) => b.charts)
  t.equal(charts.length, 4, 'a chart per series')
  for (const s of model.series) {
    const chart = charts.find((c) => c.id === s.id)
    const stored = store.find((x) => x.key.file === s.file && x.key.configuration === s.configuration && x.key.fingerprint === s.fingerprint)
    t.same(chart.points.map((p) => p.label), stored.points.map((p) => p.label), `${s.file} ${s.configuration} ${s.host}: every label, in order`)
    chart.points.forEach((p, i) => {
      const value = median(stored.points[i].values)
      t.equal(p.value, value, 'the dot is the median of the label\'s values')
      t.ok(Math.abs(p.read - value) <= 0.75 * p.unit, `${p.label}: drawn at ${p.read.toFixed(2)}, stored ${value.toFixed(2)}`)
    })
    t.same(chart.changes, stored.changes.map((c) => ({ label: c.label, size: c.size, lo: c.ci[0], hi: c.ci[1] })), 'each change point with its step and interval')
    t.equal(chart.bands, stored.changes.length)
  }
  t.ok(benches.some((b) => b.hostB === 1), 'a benchmark page filters by host')
})

t.test('PostgreSQL gives the same site, byte for byte', async (t) => {
  const { needPostgres } = require('../helpers/postgres.js')
  const url = await needPostgres(t)
  if (!url) return
  const dir = t.testdir()
  const sites = {}
  for (const [name, spec] of [['sqlite', path.join(dir, 'history.sqlite')], ['postgres', url]]) {
    const h = await openHistory(spec)
    try {
      await h.add(records(), { source: 'seeded series' })
      sites[name] = writeSite(path.join(dir, name), await h.changes({}))
    } finally {
      await h.close()
    }
  }
  t.same(sites.postgres.files, sites.sqlite.files)
  t.equal(sites.sqlite.model.regressions.length, 1)
  for (const f of sites.sqlite.files) {
    t.equal(fs.readFileSync(path.join(dir, 'postgres', f), 'utf8'), fs.readFileSync(path.join(dir, 'sqlite', f), 'utf8'), `${f}: the same bytes from both engines`)
  }
})
