'use strict'
// The cells and boxes of the load engine's text tables (the result, scenarios and
// endpoints views share them): autocannon's box drawing, colours and number formats.

// SGR colours of autocannon's tables (chalk): cyan headings, bold row names;
// status codes of 4xx and 5xx in bright red
const CYAN = ['\x1b[36m', '\x1b[39m']
const BOLD = ['\x1b[1m', '\x1b[22m']
const RED = ['\x1b[91m', '\x1b[39m']
const paint = (sgr, text) => sgr === null ? text : sgr[0] + text + sgr[1]

/**
 * Renders rows (first row = header) as a box-drawn table. `rules` draws a
 * line between body rows too, as autocannon's tables (cli-table3) do;
 * `color` paints the header cells and the first cell of each row (a cell may
 * give its own colour as {text, sgr}).
 * @param {any[][]} rows
 * @param {{rules?: boolean, color?: boolean}} [how]
 */
function table (rows, how = {}) {
  const text = (c) => String(c !== null && typeof c === 'object' ? c.text : c)
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => text(r[i]).length)))
  const line = (l, m, r) => l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r
  const row = (cells, head) => '│' + cells.map((c, i) => {
    const sgr = !how.color ? null : (c !== null && typeof c === 'object' ? c.sgr : (head ? CYAN : (i === 0 ? BOLD : null)))
    return ` ${paint(sgr, text(c))}${' '.repeat(widths[i] - text(c).length)} `
  }).join('│') + '│'
  const body = rows.slice(1).map((r) => row(r, false))
  return [
    line('┌', '┬', '┐'),
    row(rows[0], true),
    line('├', '┼', '┤'),
    ...(how.rules ? body.flatMap((r, i) => (i === 0 ? [r] : [line('├', '┼', '┤'), r])) : body),
    line('└', '┴', '┘')
  ].join('\n')
}

function ms (x) {
  if (x >= 100) return `${Math.round(x)} ms`
  if (x >= 10) return `${x.toFixed(1)} ms`
  return `${x.toFixed(2)} ms`
}

/**
 * Milliseconds without the unit, for tables whose header names it: at most
 * 6 characters (a count with a unit from 10^6 ms on), so the rate-mode
 * table's seven columns fit 80 even at an hour-long latency.
 */
function msNumber (x) {
  return x >= 999999.5 ? count(x) : ms(x).slice(0, -3)
}

/** A count with three significant digits from 1000 on (7.52k, 42.0k, 1.25M), so a table's cells read one way. */
function count (x) {
  const abs = Math.abs(x)
  if (abs < 1000) return String(Math.round(x))
  for (const [unit, size] of /** @type {[string, number][]} */ ([['T', 1e12], ['G', 1e9], ['M', 1e6], ['k', 1e3]])) {
    if (abs >= size * 0.9995) return `${(x / size).toPrecision(3)}${unit}`
  }
  return String(Math.round(x))
}

/**
 * Bytes in a table cell: three significant digits and no space (126kB,
 * 12.3MB, 1.23GB), at most 6 characters, so the Req/Bytes table fits 80
 * columns at any throughput ("999.0 MB" made it 89).
 */
function bytesCell (x) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB']
  let i = 0
  while (x >= 999.5 && i < units.length - 1) {
    x /= 1000
    i++
  }
  return `${i === 0 ? Math.round(x) : x.toPrecision(3)}${units[i]}`
}

function bytes (x) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let i = 0
  while (x >= 1000 && i < units.length - 1) {
    x /= 1000
    i++
  }
  return `${i === 0 ? Math.round(x) : x.toFixed(i === 1 ? 0 : 1)} ${units[i]}`
}

module.exports = { table, ms, msNumber, count, bytesCell, bytes, CYAN, RED }
