'use strict'
// The HTML report of a load run: one file that opens from disk with nothing
// fetched (inline CSS and SVG, no script, no font, no image), so it can be
// attached to a CI run or a pull request and still render in ten years.
// Every number printed from the JSON carries data-json="its.path", which is
// how the Chromium test checks the page against the JSON.
const { escapeXml } = require('../svg.js')
const { reportModel, isoTime } = require('./model.js')
const { percentilePlot, timeChart } = require('./charts.js')
const { scenariosModel, durationText } = require('./scenarios.js')
const { thresholdCell } = require('../../engine/result/format-scenarios.js')

const CSS = `
body { font: 14px/1.45 "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; margin: 24px auto; max-width: 800px; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 4px; word-break: break-all; }
h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.sub { color: #666; margin: 0 0 16px; }
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px; }
.card { border: 1px solid #ddd; border-radius: 4px; padding: 8px; }
.card .v { font-size: 18px; font-weight: bold; }
.card .l { color: #666; font-size: 12px; }
table { border-collapse: collapse; margin: 4px 0; }
td, th { border-bottom: 1px solid #eee; padding: 2px 12px 2px 0; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.warning { background: #fff4d6; border: 1px solid #e6c35c; padding: 6px 8px; }
.note { color: #666; }
.fail { color: #b00020; font-weight: bold; }
.pass { color: #217a32; }
.bar { display: inline-block; height: 10px; background: #1f77b4; vertical-align: middle; }
.swatch { display: inline-block; width: 12px; height: 4px; vertical-align: middle; margin: 0 4px 0 12px; }
.swatch.dashed { background: repeating-linear-gradient(90deg, #7f7f7f 0 5px, transparent 5px 8px) !important; }
h3 { font-size: 14px; margin: 16px 0 4px; }
table + table { margin-top: 12px; }
svg.chart { display: block; margin: 4px 0; max-width: 100%; height: auto; }
svg .tick, svg .legend { font-size: 11px; fill: #444; }
svg .axis-label { font-size: 12px; fill: #222; }
svg .empty { font-size: 14px; fill: #888; }
pre { white-space: pre-wrap; margin: 0; }
`

/** A number as the page prints it: en-US grouping, at most 3 decimals (the JSON's precision). */
function formatNumber (v) {
  return typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 3 }) : String(v)
}

/** A figure from the JSON: its printed value, tagged with its path. */
function figure (path, value, unit) {
  const shown = `<span data-json="${escapeXml(path)}">${escapeXml(formatNumber(value))}</span>`
  return unit ? `${shown} ${escapeXml(unit)}` : shown
}

function table (head, rows) {
  const th = head.map(([h, cls]) => `<th${cls ? ` class="${cls}"` : ''}>${escapeXml(h)}</th>`).join('')
  return `<table><thead><tr>${th}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`
}

const td = (html, cls) => `<td${cls ? ` class="${cls}"` : ''}>${html}</td>`

function overTime (tl) {
  if (tl.source === 'none') return '<p class="note">The result has no interval rows or per-second samples (the run was shorter than a second and had no --interval).</p>'
  const rps = timeChart([
    { name: 'req/s', points: tl.rows.map((r) => [r.t, r.rps]) },
    ...(tl.source === 'intervals' ? [{ name: 'errors/s', points: tl.rows.map((r) => [r.t, r.eps]) }] : [])
  ], 'requests per second', 'rps-over-time')
  if (tl.source === 'perSecond') {
    return rps + '<p class="note">Latency over time needs interval rows: run benchrig load with --interval MS (--html records 1 s rows by itself).</p>'
  }
  const latency = timeChart(['p50', 'p90', 'p99', 'max'].map((k) => ({ name: k, points: tl.rows.map((r) => [r.t, r[k]]) })), 'latency (ms)', 'latency-over-time')
  const rows = tl.rows.map((r) => [
    td(escapeXml(formatNumber(r.t)), 'n'),
    td(figure(`intervals.${r.path}.count`, r.count), 'n'),
    td(figure(`intervals.${r.path}.errors`, r.errors), 'n'),
    ...['mean', 'p50', 'p90', 'p99', 'max'].map((k) => td(figure(`intervals.${r.path}.${k}`, r[k]), 'n'))
  ])
  return latency + rps + `<details><summary>${tl.rows.length} interval rows</summary>` +
    table([['end (s)', 'n'], ['responses', 'n'], ['errors', 'n'], ['mean ms', 'n'], ['p50', 'n'], ['p90', 'n'], ['p99', 'n'], ['max', 'n']], rows) + '</details>'
}

// scenarios' lines: ten distinct colours (a scenario's colour is its place in the file);
// the run's own line (all scenarios together) grey and dashed under them
const SCENARIO_COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#bcbd22', '#17becf', '#393b79']
const ALL = { colour: '#7f7f7f', dash: '5 3' }

/** The lines of a chart by scenario, and their legend in the page (it wraps, however many and long the names). */
function scenarioChart (series, yLabel, cls) {
  const styled = series.map((s, i) => (i === 0 ? { ...s, ...ALL } : { ...s, colour: SCENARIO_COLOURS[(i - 1) % SCENARIO_COLOURS.length] }))
  const legend = styled.map((s, i) => `<span class="swatch${i === 0 ? ' dashed' : ''}" style="background:${s.colour}"></span>${escapeXml(s.name)}`).join(' ')
  return timeChart(styled, yLabel, cls, { legend: false }) + `<p class="legend">${legend}</p>`
}

/** The text table's verdict ("pass 2/2", "FAIL 1/3", "-"), coloured. */
function verdicts (list) {
  const cell = thresholdCell(list)
  return cell === '-' ? cell : `<span class="${cell.startsWith('pass') ? 'pass' : 'fail'}">${cell}</span>`
}

/** The Scenarios section: what ran, a row of results per scenario, req/s and p99 over time by scenario. */
function scenariosSection (sm) {
  if (sm === undefined) return ''
  const about = table([['scenario'], ['executor'], ['parameters'], ['start', 'n'], ['duration', 'n']], sm.rows.map((r) => [
    td(escapeXml(r.name)), td(escapeXml(r.executor)), td(escapeXml(r.params)),
    td(escapeXml(durationText(r.startTime)), 'n'), td(escapeXml(r.planned), 'n')
  ]))
  // interrupted, dropped iterations and the VUs used: '-' where a scenario has none of them
  const opt = (r, key) => (Number.isFinite(r.result[key]) ? figure(`${r.path}.${key}`, r.result[key]) : '-')
  const results = table([['scenario'], ['requests', 'n'], ['req/s', 'n'], ['p50 ms', 'n'], ['p90 ms', 'n'], ['p99 ms', 'n'], ['max ms', 'n'], ['errors', 'n'], ['non-2xx', 'n'],
    ['interrupted', 'n'], ['dropped iterations', 'n'], ['VUs', 'n'], ['thresholds']],
  sm.rows.map((r) => [
    td(escapeXml(r.name)),
    td(figure(`${r.path}.requests.total`, r.result.requests.total), 'n'),
    td(figure(`${r.path}.requests.mean`, r.result.requests.mean), 'n'),
    ...['p50', 'p90', 'p99', 'max'].map((k) => td(figure(`${r.path}.latency.${k}`, r.result.latency[k]), 'n')),
    td(figure(`${r.path}.errors`, r.result.errors), 'n'),
    td(figure(`${r.path}.non2xx`, r.result.non2xx), 'n'),
    td(opt(r, 'interrupted'), 'n'),
    td(opt(r, 'dropped_iterations'), 'n'),
    td(opt(r, 'vus_max'), 'n'),
    td(verdicts(r.thresholds))
  ]))
  const latency = sm.latencySource
    ? scenarioChart(sm.p99, 'p99 latency (ms)', 'scenario-latency-over-time')
    : '<p class="note">Latency over time by scenario needs interval rows: run benchrig load with --interval MS (--html records 1 s rows by itself).</p>'
  const rps = sm.rps.some((s) => s.points.length > 0)
    ? scenarioChart(sm.rps, 'requests per second', 'scenario-rps-over-time')
    : '<p class="note">The scenarios have no interval rows or per-second samples (each ran shorter than a second and had no --interval).</p>'
  return '<h2>Scenarios</h2>' + about + results +
    '<h3>Requests per second by scenario</h3>' + rps +
    '<h3>p99 latency by scenario</h3>' + latency
}

/**
 * @param {any} result a benchrig load JSON result (checked by model.checkResult)
 * @param {{version?: string}} [opts]
 * @returns {string} the whole HTML document
 */
function renderHtml (result, opts = {}) {
  const version = opts.version ?? require('../../../package.json').version // lazy: read only when no version is given
  const m = reportModel(result)
  const cards = m.summary.map((f) => `<div class="card"><div class="v">${figure(f.path, f.value, f.unit)}</div><div class="l">${escapeXml(f.label)}</div></div>`).join('')
  const total = m.statusCodes.reduce((a, s) => a + s.count, 0)
  const codes = m.statusCodes.length === 0
    ? '<p class="note">No responses.</p>'
    : table([['status'], ['responses', 'n'], ['share']], m.statusCodes.map((s) => [
      td(escapeXml(s.code)), td(figure(s.path, s.count), 'n'),
      td(`<span class="bar" style="width:${Math.max(1, Math.round(200 * s.count / total))}px"></span> ${(100 * s.count / total).toFixed(1)}%`)
    ]))
  const errors = table([['error kind'], ['count', 'n'], ['first message']], m.errors.map((e) => [
    td(escapeXml(e.kind)), td(figure(e.path, e.count), 'n'), td(e.detail === undefined ? '' : escapeXml(e.detail))
  ]))
  const sm = scenariosModel(result)
  // a scenarios run lists every threshold here, each with its scenario
  const checked = sm === undefined
    ? m.thresholds.map((th) => ({ th }))
    : [...m.thresholds.map((th) => ({ th, scenario: 'overall' })), ...sm.rows.flatMap((r) => r.thresholds.map((th) => ({ th, scenario: r.name })))]
  const thresholds = checked.length === 0
    ? ''
    : '<h2>Thresholds</h2>' + table([...(sm === undefined ? [] : [['scenario']]), ['threshold'], ['measured', 'n'], ['']], checked.map(({ th, scenario }) => [
      ...(sm === undefined ? [] : [td(escapeXml(scenario))]),
      td(escapeXml(th.expr)), td(figure(`${th.path}.value`, th.value), 'n'), td(th.ok ? '<span class="pass">passed</span>' : '<span class="fail">failed</span>')
    ]))
  const params = table([['parameter'], ['value']], m.params.map((p) => [
    td(escapeXml(p.label)),
    td(typeof p.value === 'number' ? figure(p.path, p.value, p.unit) : `<pre data-json="${escapeXml(p.path)}">${escapeXml(p.value)}</pre>`)
  ]))
  const latencyTable = table([['latency'], ['ms', 'n']], m.latency.map((f) => [td(escapeXml(f.label)), td(figure(f.path, f.value), 'n')]))
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="benchrig ${escapeXml(version)}">
<title>${escapeXml(m.title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeXml(m.title)}</h1>
<p class="sub">${escapeXml(isoTime(result.start))} · ${figure('duration', result.duration, 's')} · ${figure('connections', result.connections)} connections · benchrig ${escapeXml(version)}</p>
${m.warning ? `<p class="warning">${escapeXml(m.warning)}</p>` : ''}
<div class="cards">${cards}</div>
${thresholds}
${scenariosSection(sm)}
<h2>Latency by percentile</h2>
${percentilePlot(m.curve, m.marks, result.latency.max, m.uncorrected)}
${latencyTable}
<h2>Over time</h2>
${overTime(m.timeline)}
<h2>Status codes and errors</h2>
${codes}
${errors}
<h2>Parameters</h2>
${params}
</body>
</html>
`
}

module.exports = { renderHtml, formatNumber }
