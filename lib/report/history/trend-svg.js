'use strict'
// The trend of one series as inline SVG: one column per label (labels are
// ordered, not spaced in time), the median of each label's values as a dot on
// a line, the range of its values as a whisker, and each change point as a
// dashed rule between two labels with the level before and after it and the
// interval of the step drawn as a band over the segment after it. Every dot
// carries its label and value (data-label, data-value) and the chart its
// value axis (data-y0/y1 at pixel rows data-top/data-bottom), so the test
// reads the plotted numbers back from the rendered page (data- attributes are
// given as strings: svg.js rounds numbers to 0.01 px, the values must be exact).
const { el, text, niceTicks } = require('../svg.js')

const WIDTH = 760
const HEIGHT = 260
const M = { left: 72, right: 16, top: 28, bottom: 58 }
const PLOT_W = WIDTH - M.left - M.right
const PLOT_H = HEIGHT - M.top - M.bottom

/** A value as an axis or a tooltip shows it. */
function short (v) {
  const a = Math.abs(v)
  if (a >= 1e9) return `${Number((v / 1e9).toPrecision(4))}G`
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(4))}M`
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(4))}k`
  return String(Number(v.toPrecision(4)))
}

const pctText = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`

/**
 * @param {import('./model.js').SiteSeries} s
 * @returns {string} an <svg> element
 */
function trendSvg (s) {
  const pts = s.points
  const n = pts.length
  const xOf = (i) => M.left + ((i + 0.5) / Math.max(1, n)) * PLOT_W
  const bands = s.changes.map((c) => [c.before * (1 + c.ci[0]), c.before * (1 + c.ci[1])])
  const all = [...pts.flatMap((p) => [p.min, p.max]), ...bands.flat(), ...s.changes.flatMap((c) => [c.before, c.after])].filter(Number.isFinite)
  const ticks = niceTicks(Math.min(...all), Math.max(...all))
  const y0 = ticks[0]
  const y1 = ticks[ticks.length - 1]
  const yOf = (v) => M.top + PLOT_H - ((v - y0) / (y1 - y0)) * PLOT_H
  const body = []
  for (const v of ticks) {
    body.push(el('line', { x1: M.left, x2: M.left + PLOT_W, y1: yOf(v), y2: yOf(v), stroke: '#e6e6e6' }))
    body.push(el('text', { x: M.left - 6, y: yOf(v) + 4, 'text-anchor': 'end', class: 'tick' }, text(short(v))))
  }
  // at most ~14 label names under the axis, the first and last always
  const every = Math.max(1, Math.ceil(n / 14))
  pts.forEach((p, i) => {
    if (i % every !== 0 && i !== n - 1) return
    const x = xOf(i)
    // a long name (a describe: v1.4.0-12-g1a2b3c4) is cut to fit the margin; the point's title holds it whole
    const name = p.label.length > 16 ? `${p.label.slice(0, 15)}…` : p.label
    body.push(el('text', { x, y: M.top + PLOT_H + 12, 'text-anchor': 'end', transform: `rotate(-35 ${x.toFixed(2)} ${(M.top + PLOT_H + 12).toFixed(2)})`, class: 'tick' }, text(name)))
  })
  body.push(el('rect', { x: M.left, y: M.top, width: PLOT_W, height: PLOT_H, fill: 'none', stroke: '#999999' }))
  // change points first, under the data
  s.changes.forEach((c, k) => {
    const xc = (xOf(c.index - 1) + xOf(c.index)) / 2
    const a = xOf(c.index - c.nBefore) - PLOT_W / n / 2
    const b = xOf(c.index + c.nAfter - 1) + PLOT_W / n / 2
    const [lo, hi] = bands[k]
    const colour = c.size < 0 ? '#d62728' : '#2ca02c'
    body.push(el('rect', { x: xc, y: yOf(Math.max(lo, hi)), width: b - xc, height: Math.abs(yOf(lo) - yOf(hi)), fill: colour, 'fill-opacity': 0.15, class: 'step-band' }))
    body.push(el('line', { x1: a, x2: xc, y1: yOf(c.before), y2: yOf(c.before), stroke: colour, 'stroke-width': 1.5, 'stroke-dasharray': '2 2', class: 'level-before' }))
    body.push(el('line', { x1: xc, x2: b, y1: yOf(c.after), y2: yOf(c.after), stroke: colour, 'stroke-width': 1.5, class: 'level-after' }))
    body.push(el('line', { x1: xc, x2: xc, y1: M.top, y2: M.top + PLOT_H, stroke: colour, 'stroke-dasharray': '5 3', class: 'change', 'data-label': c.label, 'data-size': String(c.size), 'data-ci-lo': String(c.ci[0]), 'data-ci-hi': String(c.ci[1]) }, [
      el('title', {}, text(`change at ${c.label} (after ${c.previous}): ${pctText(c.size)} [${pctText(c.ci[0])}, ${pctText(c.ci[1])}], p=${c.p.toPrecision(2)}`))
    ]))
    body.push(el('text', { x: xc + 4, y: M.top - 8 - (k % 2) * 10, class: 'legend', fill: colour }, text(`${pctText(c.size)} [${pctText(c.ci[0])}, ${pctText(c.ci[1])}]`)))
  })
  for (const c of s.weak) {
    const xc = (xOf(c.index - 1) + xOf(c.index)) / 2
    body.push(el('line', { x1: xc, x2: xc, y1: M.top, y2: M.top + PLOT_H, stroke: '#888888', 'stroke-dasharray': '1 3', class: 'weak', 'data-label': c.label }, [
      el('title', {}, text(`weak candidate at ${c.label}: ${pctText(c.size)}, p=${c.p.toPrecision(2)}`))
    ]))
  }
  pts.forEach((p, i) => {
    if (p.n > 1 && p.max > p.min) body.push(el('line', { x1: xOf(i), x2: xOf(i), y1: yOf(p.min), y2: yOf(p.max), stroke: '#9ecae1', 'stroke-width': 2, class: 'spread' }))
  })
  if (n > 1) body.push(el('polyline', { points: pts.map((p, i) => `${xOf(i).toFixed(2)},${yOf(p.value).toFixed(2)}`).join(' '), fill: 'none', stroke: '#1f77b4', 'stroke-width': 1.5 }))
  pts.forEach((p, i) => {
    body.push(el('circle', { cx: xOf(i), cy: yOf(p.value), r: 3, fill: '#1f77b4', class: 'point', 'data-label': p.label, 'data-value': String(p.value) }, [
      el('title', {}, text(`${p.label}: ${short(p.value)} (median of ${p.n}${p.n > 1 ? `, ${short(p.min)} to ${short(p.max)}` : ''})`))
    ]))
  })
  return el('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    class: 'trend',
    width: WIDTH,
    height: HEIGHT,
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'data-series': s.id,
    // as strings: svg.js rounds numbers to 0.01, these must be exact
    'data-y0': String(y0),
    'data-y1': String(y1),
    'data-top': M.top,
    'data-bottom': M.top + PLOT_H
  }, [
    el('text', { x: 14, y: M.top + PLOT_H / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${M.top + PLOT_H / 2})`, class: 'axis-label' }, text(`${s.measure === 'wall' ? 'ops/s' : s.measure === 'cpu' ? 'ops per CPU-second' : s.measure === 'instructions' ? 'ops per 10^9 instructions' : s.measure}`)),
    ...body
  ])
}

module.exports = { trendSvg, niceTicks, short, pctText }
