'use strict'
// `benchrig history report --html DIR`: a static site of the store that
// opens from disk. index.html lists every series, regressions.html every
// change point that made a series slower (then those that made one faster),
// bench/<file>.html the trend of each series of one benchmark file. Charts
// are our own inline SVG (trend-svg.js); the only script is a few lines of
// inline filtering by category, file and host. A Content-Security-Policy in
// every page forbids any request to anywhere (default-src 'none'), so a page
// that tried to fetch something would fail loudly in the browser rather
// than quietly depend on the network.
const fs = require('node:fs')
const path = require('node:path')
const { escapeXml } = require('../svg.js')
const { trendSvg, short, pctText } = require('./trend-svg.js')
const { siteModel } = require('./model.js')

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

const CSS = `
body { font: 14px/1.45 "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; margin: 24px auto; max-width: 980px; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 24px 0 6px; border-bottom: 1px solid #ddd; padding-bottom: 4px; word-break: break-all; }
nav a { margin-right: 14px; }
.sub, .note { color: #666; }
table { border-collapse: collapse; margin: 6px 0; width: 100%; }
td, th { border-bottom: 1px solid #eee; padding: 2px 10px 2px 0; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.slower { color: #b00020; }
.faster { color: #217a32; }
.filters { background: #f6f6f6; padding: 6px 8px; margin: 10px 0; }
.filters label { margin-right: 14px; }
svg.trend { display: block; max-width: 100%; height: auto; }
svg .tick, svg .legend { font-size: 11px; fill: #444; }
svg .axis-label { font-size: 12px; fill: #222; }
.series { margin-bottom: 18px; }
.env { font-size: 12px; color: #555; }
[hidden] { display: none !important; }
`

// Filters rows (or sections) by data-category / data-file / data-host; the
// counter says how many are shown. No request, no library.
const FILTER_SCRIPT = `
(function () {
  var selects = document.querySelectorAll('select[data-filter]');
  var items = document.querySelectorAll('[data-category]');
  var count = document.getElementById('shown');
  function apply () {
    var shown = 0;
    for (var i = 0; i < items.length; i++) {
      var ok = true;
      for (var j = 0; j < selects.length; j++) {
        var v = selects[j].value;
        if (v !== '' && items[i].getAttribute('data-' + selects[j].getAttribute('data-filter')) !== v) ok = false;
      }
      items[i].hidden = !ok;
      if (ok) shown++;
    }
    if (count) count.textContent = String(shown);
  }
  for (var j = 0; j < selects.length; j++) selects[j].addEventListener('change', apply);
  apply();
})();
`

const esc = escapeXml

/** The page around a body; `depth` is how many folders below the site's root the page is. */
function page (title, body, depth = 0) {
  const up = '../'.repeat(depth)
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body><nav><a href="${up}index.html">all series</a><a href="${up}regressions.html">regressions</a></nav>
${body}
<script>${FILTER_SCRIPT}</script>
</body></html>
`
}

function filters (m, { files = true } = {}) {
  const select = (name, values) => `<label>${name} <select data-filter="${name}"><option value="">all</option>${values.map((v) => `<option>${esc(v)}</option>`).join('')}</select></label>`
  return `<div class="filters">${select('category', m.categories)}${files ? select('file', m.files) : ''}${select('host', m.hosts)} <span class="note"><span id="shown"></span> shown</span></div>`
}

const attrs = (s) => `data-category="${esc(s.category)}" data-file="${esc(s.file)}" data-host="${esc(s.host)}"`
const changeText = (c) => `${pctText(c.size)} [${pctText(c.ci[0])}, ${pctText(c.ci[1])}]`

function indexPage (m, title) {
  const rows = m.series.map((s) => {
    const last = s.points[s.points.length - 1]
    const latest = s.changes[s.changes.length - 1]
    const page = m.pages.find((p) => p.file === s.file)?.page
    return `<tr ${attrs(s)}><td><a href="${esc(page)}#s-${s.id}">${esc(s.file)}</a></td><td>${esc(s.configuration)}</td><td>${esc(s.measure)}</td><td>${esc(s.host)}</td>` +
      `<td class="n">${s.points.length}</td><td class="n" data-value="${last.value}">${esc(short(last.value))}</td><td class="n">${s.changes.length}</td>` +
      `<td class="n ${latest ? (latest.size < 0 ? 'slower' : 'faster') : ''}">${latest ? `${esc(latest.label)}: ${esc(changeText(latest))}` : ''}</td></tr>`
  })
  return page(title, `<h1>${esc(title)}</h1>
<p class="sub">${m.series.length} series of ${m.files.length} benchmark files on ${m.hosts.length} host${m.hosts.length === 1 ? '' : 's'}; ${m.regressions.length} change point${m.regressions.length === 1 ? '' : 's'} made a series slower, ${m.improvements.length} faster (<a href="regressions.html">the list</a>).</p>
${filters(m)}
<table><thead><tr><th>benchmark</th><th>configuration</th><th>measure</th><th>host</th><th class="n">labels</th><th class="n">last</th><th class="n">changes</th><th class="n">latest change</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
<p class="note">A series is one benchmark file, configuration, measure and environment; the value of a label is the median of its measurements. Change points: E-Divisive means with a t-test step; the interval is the Hodges-Lehmann CI of the step (docs/history.md).</p>`)
}

function changesTable (list) {
  const rows = list.map(({ series: s, change: c, page }) => `<tr ${attrs(s)}><td><a href="${esc(page)}#s-${s.id}">${esc(s.file)}</a></td><td>${esc(s.configuration)}</td><td>${esc(s.host)}</td>` +
    `<td>${esc(c.previous)} → ${esc(c.label)}</td><td class="n ${c.size < 0 ? 'slower' : 'faster'}" data-size="${c.size}">${esc(changeText(c))}</td><td class="n">${c.p.toPrecision(2)}</td></tr>`)
  return `<table><thead><tr><th>benchmark</th><th>configuration</th><th>host</th><th>between</th><th class="n">step [CI]</th><th class="n">p</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}

function regressionsPage (m, title) {
  return page(`${title}: regressions`, `<h1>Regressions</h1>
<p class="sub">Every change point after which a series is slower, the largest first; then those after which it is faster.</p>
${filters(m)}
<h2>Slower (${m.regressions.length})</h2>
${m.regressions.length ? changesTable(m.regressions) : '<p class="note">No change point made a series slower.</p>'}
<h2>Faster (${m.improvements.length})</h2>
${m.improvements.length ? changesTable(m.improvements) : '<p class="note">No change point made a series faster.</p>'}`)
}

function benchPage (m, p, title) {
  const hosts = [...new Set(p.series.map((s) => s.host))].sort()
  const sections = p.series.map((s) => {
    const env = Object.entries(s.env).filter(([, v]) => v !== '' && v !== undefined).map(([k, v]) => `${esc(k)}: ${esc(v)}`).join(' · ')
    const list = s.changes.length ? `<ul>${s.changes.map((c) => `<li class="${c.size < 0 ? 'slower' : 'faster'}">${esc(c.previous)} → ${esc(c.label)}: ${esc(changeText(c))} (p=${c.p.toPrecision(2)}, ${c.nBefore} labels before, ${c.nAfter} after)</li>`).join('')}</ul>` : '<p class="note">No change point.</p>'
    return `<div class="series" id="s-${s.id}" ${attrs(s)}><h2>${esc(s.configuration || '(no configuration)')} <span class="note">${esc(s.measure)}</span></h2>
<div class="env">${env}</div>
${trendSvg(s)}
${list}</div>`
  })
  const hostFilter = hosts.length > 1 ? `<div class="filters"><label>host <select data-filter="host"><option value="">all</option>${hosts.map((h) => `<option>${esc(h)}</option>`).join('')}</select></label> <span class="note"><span id="shown"></span> shown</span></div>` : ''
  return page(`${title}: ${p.file}`, `<h1>${esc(p.file)}</h1><p class="sub">${p.series.length} series, category ${esc(p.category)}</p>${hostFilter}\n${sections.join('\n')}`, 1)
}

/**
 * Writes the site into `dir` (created; files of an earlier report are replaced).
 * @param {string} dir
 * @param {import('./model.js').StoreSeries[]} store what History#changes returned
 * @param {{title?: string}} [opts]
 * @returns {{files: string[], model: ReturnType<typeof siteModel>}} files relative to dir
 */
function writeSite (dir, store, opts = {}) {
  const title = opts.title ?? 'benchrig history'
  const m = siteModel(store)
  fs.mkdirSync(path.join(dir, 'bench'), { recursive: true })
  const files = []
  const put = (rel, html) => {
    fs.writeFileSync(path.join(dir, rel), html)
    files.push(rel)
  }
  put('index.html', indexPage(m, title))
  put('regressions.html', regressionsPage(m, title))
  for (const p of m.pages) put(p.page, benchPage(m, p, title))
  return { files, model: m }
}

module.exports = { writeSite, CSP }
