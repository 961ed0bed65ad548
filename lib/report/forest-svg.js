'use strict'
// Draws the forest model (forest.js) as a standalone SVG: per configuration
// a row with its label, the CI as a bar and the estimate as a dot on a
// log(new/old) axis labelled in %, coloured by the verdict; rows grouped
// under their file in declaration order; the "no change" band shaded. Rows
// have a fixed height, so 100+ configurations make a tall page that reads
// like a table rather than a squashed chart.
const { el, text, svgDocument } = require('./svg.js')
const { logTicks, logRange } = require('./forest.js')

const WIDTH = 1100
const ROW = 16
const GROUP = 20
const TOP = 96
const BOTTOM = 56
const RIGHT = 190
const FONT = 11
const MAX_LABEL = 64
const CHAR_W = 6.3 // average advance of an 11px sans-serif character

const signed = (p, d = 2) => `${p > 0 ? '+' : ''}${p.toFixed(d)}%`
const tickText = (p) => (p === 0 ? '0%' : `${p > 0 ? '+' : ''}${p}%`)

function shorten (s) {
  return s.length <= MAX_LABEL ? s : s.slice(0, MAX_LABEL - 1) + '…'
}

/**
 * @param {ReturnType<import('./forest.js').forestModel>} m
 * @returns {string} the SVG document
 */
function renderForestSvg (m) {
  const labelW = Math.min(MAX_LABEL * CHAR_W, Math.max(140, ...m.rows.map((r) => shorten(r.label).length * CHAR_W))) + 24
  const x0 = labelW
  const x1 = WIDTH - RIGHT
  const [lo, hi] = logRange(m.rows, m.threshold)
  const L = (p) => Math.log1p(p / 100)
  const xOf = (logv) => x0 + (Math.min(hi, Math.max(lo, logv)) - lo) / (hi - lo) * (x1 - x0)
  const bodyH = m.groups.length * GROUP + m.rows.length * ROW
  const height = TOP + bodyH + BOTTOM
  const plotBottom = TOP + bodyH
  const out = []

  out.push(el('rect', { x: 0, y: 0, width: WIDTH, height, fill: '#ffffff' }))
  out.push(el('text', { x: 12, y: 24, 'font-size': 16, 'font-weight': 'bold', class: 'title' }, text(m.title)))
  out.push(el('text', { x: 12, y: 44, 'font-size': 12, fill: '#333333', class: 'subtitle' }, text(m.subtitle)))
  // Legend: the verdicts present, with counts.
  let lx = 12
  for (const [verdict, colour] of Object.entries(m.colours)) {
    const n = m.counts[verdict] ?? 0
    out.push(el('g', { class: 'legend', 'data-verdict': verdict }, [
      el('rect', { x: lx, y: 56, width: 12, height: 12, fill: colour }),
      el('text', { x: lx + 16, y: 66, 'font-size': FONT }, text(`${verdict} (${n})`))
    ]))
    lx += 30 + (verdict.length + String(n).length + 3) * CHAR_W
  }
  out.push(el('text', { x: lx + 8, y: 66, 'font-size': FONT, fill: '#555555' }, text(`shaded: no-change band ±${m.threshold}%`)))

  // The plot area, drawn as nothing: it names where the bars go.
  out.push(el('rect', { x: x0, y: TOP, width: x1 - x0, height: bodyH, fill: 'none', class: 'plot-area' }))
  // Band, grid and ticks (top and bottom, so a long page keeps its axis in view).
  out.push(el('rect', { x: xOf(L(-m.threshold)), y: TOP, width: xOf(L(m.threshold)) - xOf(L(-m.threshold)), height: bodyH, fill: '#ececec', class: 'band' }))
  for (const p of logTicks(lo, hi)) {
    const x = xOf(L(p))
    out.push(el('line', { x1: x, x2: x, y1: TOP, y2: plotBottom, stroke: p === 0 ? '#333333' : '#d0d0d0', 'stroke-width': p === 0 ? 1 : 0.6 }))
    out.push(el('text', { x, y: TOP - 6, 'font-size': FONT - 1, 'text-anchor': 'middle', class: 'tick' }, text(tickText(p))))
    out.push(el('text', { x, y: plotBottom + 14, 'font-size': FONT - 1, 'text-anchor': 'middle', class: 'tick' }, text(tickText(p))))
  }
  out.push(el('text', { x: (x0 + x1) / 2, y: plotBottom + 36, 'font-size': FONT + 1, 'text-anchor': 'middle', class: 'axis-label' }, text(m.axisLabel)))
  out.push(el('text', { x: x1 + 10, y: TOP - 6, 'font-size': FONT - 1, fill: '#555555' }, text('change [CI]')))

  let y = TOP
  let stripe = 0
  for (const g of m.groups) {
    out.push(el('text', { x: 12, y: y + 14, 'font-size': FONT + 1, 'font-weight': 'bold', class: 'file' }, text(g.filename)))
    out.push(el('line', { x1: 12, x2: WIDTH - 12, y1: y + GROUP - 2, y2: y + GROUP - 2, stroke: '#bbbbbb', 'stroke-width': 0.6 }))
    y += GROUP
    for (const r of g.rows) {
      const cy = y + ROW / 2
      const parts = []
      if (stripe++ % 2 === 1) parts.push(el('rect', { x: 0, y, width: WIDTH, height: ROW, fill: '#000000', 'fill-opacity': 0.035 }))
      parts.push(el('text', { x: 24, y: cy + 4, 'font-size': FONT }, [
        el('title', {}, text(`${r.filename} ${r.configuration}`)),
        text(shorten(r.label))
      ]))
      const [a, b] = r.ci.map(L)
      if (Number.isFinite(a) && Number.isFinite(b)) {
        parts.push(el('line', { x1: xOf(a), x2: xOf(b), y1: cy, y2: cy, stroke: r.colour, 'stroke-width': 2.5, class: 'ci' }))
        // A bound outside the shown range: an arrowhead says the bar goes on.
        if (a < lo) parts.push(el('path', { d: `M${xOf(lo)} ${cy}l6 -4v8z`, fill: r.colour, class: 'cut' }))
        if (b > hi) parts.push(el('path', { d: `M${xOf(hi)} ${cy}l-6 -4v8z`, fill: r.colour, class: 'cut' }))
      }
      if (Number.isFinite(r.change)) {
        parts.push(el('circle', { cx: xOf(L(r.change)), cy, r: 3.6, fill: r.colour, stroke: '#ffffff', 'stroke-width': 0.8, class: 'estimate' }))
      }
      const value = Number.isFinite(r.change)
        ? `${signed(r.change)} [${Number.isFinite(r.ci[0]) ? signed(r.ci[0], 1) : '?'}, ${Number.isFinite(r.ci[1]) ? signed(r.ci[1], 1) : '?'}]`
        : 'no estimate'
      parts.push(el('text', { x: x1 + 10, y: cy + 4, 'font-size': FONT, fill: r.colour }, text(value)))
      out.push(el('g', {
        class: 'row',
        'data-file': r.filename,
        'data-configuration': r.configuration,
        'data-verdict': r.verdict,
        'data-level': r.level
      }, parts))
      y += ROW
    }
  }
  return svgDocument({ width: WIDTH, height, title: `${m.title}: ${m.subtitle}` }, out)
}

module.exports = { renderForestSvg }
