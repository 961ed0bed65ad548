'use strict'
// --per-url: one row per endpoint (a URL, or a request of a sequence or HAR
// file) under the totals, in the table style of format.js, 100 columns wide
// at most like the rest of the text output: the name column takes what the
// numbers leave, and a longer name is shortened in the middle, where two
// URLs of one run differ least often (scheme and host in front, path at the end).
// counts and bytes as the totals' tables print them
const { table, count, bytes } = require('./table.js')

const WIDTH = 100
const MIN_NAME = 12

/** Shortens s to at most w characters, keeping its start and its end. */
function shortenMiddle (s, w) {
  if (s.length <= w) return s
  if (w <= 1) return s.slice(0, w)
  const tail = Math.floor((w - 1) / 2)
  return s.slice(0, w - 1 - tail) + '…' + s.slice(s.length - tail)
}

function ms (x) {
  return x >= 100 ? String(Math.round(x)) : x.toFixed(x >= 10 ? 1 : 2)
}

/**
 * @param {object} r a load result with `endpoints`
 * @param {number} [width] the widest a line may be
 * @returns {string} the table, or '' when the result has no endpoints
 */
function formatEndpoints (r, width = WIDTH) {
  const list = r.endpoints ?? []
  if (list.length === 0) return ''
  const header = ['Endpoint', 'Requests', 'p50 ms', 'p99 ms', 'Max ms', 'Non-2xx', 'Errors', 'Bytes']
  const rows = list.map((e) => [
    e.method !== undefined && e.method !== 'GET' && !e.name.startsWith(e.method + ' ') ? `${e.method} ${e.name}` : e.name,
    count(e.requests.total), ms(e.latency.p50), ms(e.latency.p99), ms(e.latency.max),
    count(e.non2xx), count(e.errors), bytes(e.throughput.total)
  ])
  // every column takes its width + 3 (padding and a border), plus the last border
  const others = header.slice(1).reduce((sum, h, i) => sum + Math.max(h.length, ...rows.map((row) => row[i + 1].length)) + 3, 0)
  const nameWidth = Math.max(MIN_NAME, width - others - 4)
  return table([header, ...rows.map((row) => [shortenMiddle(row[0], nameWidth), ...row.slice(1)])])
}

module.exports = { formatEndpoints, shortenMiddle }
