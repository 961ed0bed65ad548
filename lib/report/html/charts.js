'use strict'
// The report's two kinds of chart, drawn as inline SVG on our side (no chart
// library, no script in the page): the percentile plot HdrHistogram's
// plotter draws (latency against 1/(1-p) on a log axis, so the tail gets as
// much room as the median), and lines over time. Tooltips are SVG <title>s.
const { el, text, niceTicks } = require('../svg.js')

const WIDTH = 760
const HEIGHT = 300
// legends sit in the top margin, above the plot area, never over a line
const M = { left: 64, right: 28, top: 30, bottom: 44 }
const PLOT_W = WIDTH - M.left - M.right
const PLOT_H = HEIGHT - M.top - M.bottom
const MAX_DECADES = 6 // 99.9999 %

/** Round steps (1, 2, 5 × 10^k) from 0 to at least `max`. */
function linearTicks (max, target = 5) {
  return max > 0 ? niceTicks(0, max, target) : [0, 1]
}

/** "90%", "99.9%": the percentile at 10^k on the 1/(1-p) axis. */
function decadeLabel (k) {
  return k === 0 ? '0%' : `${Number((100 - Math.pow(10, 2 - k)).toFixed(Math.max(0, k - 2)))}%`
}

function frame (yTicks, yScale, yLabel, xTicks, xLabel, body, cls) {
  const grid = yTicks.map((v) => el('line', { x1: M.left, x2: M.left + PLOT_W, y1: yScale(v), y2: yScale(v), stroke: '#e3e3e3' }))
  const yText = yTicks.map((v) => el('text', { x: M.left - 6, y: yScale(v) + 4, 'text-anchor': 'end', class: 'tick' }, text(v)))
  const xText = xTicks.map(([x, label]) => [
    el('line', { x1: x, x2: x, y1: M.top, y2: M.top + PLOT_H, stroke: '#eeeeee' }),
    el('text', { x, y: M.top + PLOT_H + 16, 'text-anchor': 'middle', class: 'tick' }, text(label))
  ].join(''))
  return el('svg', { xmlns: 'http://www.w3.org/2000/svg', class: cls, width: WIDTH, height: HEIGHT, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img' }, [
    ...grid, ...xText, ...yText,
    el('rect', { x: M.left, y: M.top, width: PLOT_W, height: PLOT_H, fill: 'none', stroke: '#999999', class: 'plot-area' }),
    el('text', { x: M.left + PLOT_W / 2, y: HEIGHT - 6, 'text-anchor': 'middle', class: 'axis-label' }, text(xLabel)),
    el('text', { x: 14, y: M.top + PLOT_H / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${M.top + PLOT_H / 2})`, class: 'axis-label' }, text(yLabel)),
    ...body
  ])
}

/**
 * Latency by percentile, x = log10(1/(1-p)).
 * @param {{points: number[][], count: number}} curve [fraction, ms] points
 * @param {{q: number, ms: number, path: string}[]} marks the result's percentile keys
 * @param {number} maxMs
 * @param {{points: number[][], count: number}} [uncorrected] rate mode: the curve from the actual sends
 */
function percentilePlot (curve, marks, maxMs, uncorrected) {
  const pts = curve.points
  const lastQ = pts.length ? pts[pts.length - 1][0] : 0.9
  const decades = Math.min(MAX_DECADES, Math.max(2, Math.ceil(Math.log10(1 / (1 - lastQ)) - 1e-9)))
  const xOf = (q) => M.left + (Math.min(decades, Math.log10(1 / (1 - q))) / decades) * PLOT_W
  const yTicks = linearTicks(maxMs)
  const top = yTicks[yTicks.length - 1]
  const yOf = (v) => M.top + PLOT_H - (v / top) * PLOT_H
  const xTicks = Array.from({ length: decades + 1 }, (_, k) => [M.left + (k / decades) * PLOT_W, decadeLabel(k)])
  const body = []
  if (pts.length === 0) {
    body.push(el('text', { x: M.left + PLOT_W / 2, y: M.top + PLOT_H / 2, 'text-anchor': 'middle', class: 'empty' }, 'no responses'))
  } else {
    // a step per reported level: the value holds until the next level
    const steps = (p) => {
      let d = `M${xOf(p[0][0]).toFixed(2)},${yOf(p[0][1]).toFixed(2)}`
      for (let i = 1; i < p.length; i++) d += `H${xOf(p[i][0]).toFixed(2)}V${yOf(p[i][1]).toFixed(2)}`
      return d + `H${(M.left + PLOT_W).toFixed(2)}`
    }
    if (uncorrected !== undefined && uncorrected.points.length > 0) {
      // drawn first, under the corrected curve: what a closed-loop tool would have reported
      body.push(el('path', { d: steps(uncorrected.points), fill: 'none', stroke: '#7f7f7f', 'stroke-width': 1.5, 'stroke-dasharray': '5 3', class: 'uncorrected' }))
      body.push(el('rect', { x: M.left, y: M.top - 14, width: 12, height: 4, fill: '#1f77b4' }))
      body.push(el('text', { x: M.left + 16, y: M.top - 8, class: 'legend' }, 'from the planned send times'))
      body.push(el('rect', { x: M.left + 200, y: M.top - 14, width: 12, height: 4, fill: '#7f7f7f' }))
      body.push(el('text', { x: M.left + 216, y: M.top - 8, class: 'legend' }, 'uncorrected (from the actual sends)'))
    }
    body.push(el('path', { d: steps(pts), fill: 'none', stroke: '#1f77b4', 'stroke-width': 2, class: 'curve' }))
    body.push(el('line', { x1: M.left, x2: M.left + PLOT_W, y1: yOf(maxMs), y2: yOf(maxMs), stroke: '#d62728', 'stroke-dasharray': '4 3', class: 'max' }))
    body.push(el('text', { x: M.left + PLOT_W - 4, y: yOf(maxMs) - 4, 'text-anchor': 'end', class: 'tick' }, text(`max ${maxMs} ms`)))
    for (const m of marks) {
      if (Math.log10(1 / (1 - m.q)) > decades) continue
      body.push(el('circle', { cx: xOf(m.q), cy: yOf(m.ms), r: 3.5, fill: '#ff7f0e', class: 'mark', 'data-percentile': m.q }, [
        el('title', {}, text(`${Number((m.q * 100).toFixed(3))}%: ${m.ms} ms`))
      ]))
    }
  }
  return frame(yTicks, yOf, 'latency (ms)', xTicks, 'percentile (log scale of 1/(1-p))', body, 'chart percentile-plot')
}

const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd']

/**
 * Lines over time.
 * @param {{name: string, points: number[][], colour?: string, dash?: string}[]} series [seconds, value] points;
 *   a series may bring its own colour and dash pattern
 * @param {string} yLabel
 * @param {string} cls
 * @param {{legend?: boolean}} [opts] legend: false when the page draws the legend (many or long names)
 */
function timeChart (series, yLabel, cls, opts = {}) {
  const tMax = Math.max(1e-3, ...series.flatMap((s) => s.points.map((p) => p[0])))
  const vMax = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p[1])))
  const yTicks = linearTicks(vMax)
  const top = yTicks[yTicks.length - 1]
  const xTicks = linearTicks(tMax, 8).filter((v) => v <= tMax * 1.0001)
  const xOf = (t) => M.left + (t / tMax) * PLOT_W
  const yOf = (v) => M.top + PLOT_H - (v / top) * PLOT_H
  const body = []
  series.forEach((s, i) => {
    const colour = s.colour ?? COLOURS[i % COLOURS.length]
    // with the legend in the page, each line names itself (a tooltip, and data-series for the tests)
    const named = opts.legend === false ? { 'data-series': s.name } : {}
    const title = opts.legend === false ? [el('title', {}, text(s.name))] : []
    if (s.points.length === 1) {
      body.push(el('circle', { cx: xOf(s.points[0][0]), cy: yOf(s.points[0][1]), r: 3, fill: colour, ...named }, title))
    } else if (s.points.length > 1) {
      body.push(el('polyline', { points: s.points.map(([t, v]) => `${xOf(t).toFixed(2)},${yOf(v).toFixed(2)}`).join(' '), fill: 'none', stroke: colour, 'stroke-width': 1.8, 'stroke-dasharray': s.dash, class: 'series', ...named }, title))
    }
    if (opts.legend === false) return
    const lx = M.left + i * 90
    body.push(el('rect', { x: lx, y: M.top - 14, width: 12, height: 4, fill: colour }))
    body.push(el('text', { x: lx + 16, y: M.top - 8, class: 'legend' }, text(s.name)))
  })
  return frame(yTicks, yOf, yLabel, xTicks.map((v) => [xOf(v), `${v}`]), 'seconds since the start', body, `chart ${cls}`)
}

module.exports = { percentilePlot, timeChart, linearTicks, decadeLabel }
