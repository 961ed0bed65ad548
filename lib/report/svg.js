'use strict'
// A small SVG writer: elements as strings, every attribute and text escaped.
// The documents it makes stand alone (no scripts, no external references, no
// web fonts: generic font families the viewer already has), so a figure
// attached to a PR or opened from disk renders the same everywhere.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** @param {unknown} s */
function escapeXml (s) {
  return String(s).replace(/[&<>"']/g, (c) => ESCAPES[c])
}

// Coordinates to 0.01 px: exact enough for any screen, and short files.
function fmt (v) {
  return typeof v === 'number' ? String(Math.round(v * 100) / 100) : v
}

/**
 * One element. Attributes whose value is undefined are left out; children
 * are strings made by el() or text() (already escaped).
 * @param {string} name
 * @param {Record<string, string|number|undefined>} [attrs]
 * @param {string[]|string} [children]
 */
function el (name, attrs = {}, children = []) {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(fmt(v))}"`)
    .join('')
  const body = Array.isArray(children) ? children.join('') : children
  return body === '' ? `<${name}${a}/>` : `<${name}${a}>${body}</${name}>`
}

/** Text content, escaped. @param {unknown} s */
function text (s) {
  return escapeXml(s)
}

/**
 * A whole standalone document.
 * @param {{width: number, height: number, title?: string}} size
 * @param {string[]} children
 */
function svgDocument ({ width, height, title }, children) {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + el('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    width,
    height,
    viewBox: `0 0 ${fmt(width)} ${fmt(height)}`,
    'font-family': 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif'
  }, [title === undefined ? '' : el('title', {}, text(title)), ...children]) + '\n'
}

/** Round ticks (1, 2, 5 × 10^k) covering [lo, hi]. */
function niceTicks (lo, hi, target = 5) {
  if (!(hi > lo)) {
    const pad = Math.abs(lo) * 0.05 || 1
    return niceTicks(lo - pad, hi + pad, target)
  }
  const raw = (hi - lo) / target
  const mag = Math.pow(10, Math.floor(Math.log10(raw)))
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag
  const ticks = [Number((Math.floor(lo / step) * step).toPrecision(12))]
  while (ticks[ticks.length - 1] < hi - step * 1e-9) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)))
  return ticks
}

module.exports = { el, text, escapeXml, svgDocument, niceTicks }
