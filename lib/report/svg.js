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

module.exports = { el, text, escapeXml, svgDocument }
