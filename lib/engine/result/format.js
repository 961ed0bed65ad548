'use strict'
// Text output of a load result, laid out like autocannon's tables so users
// who switch recognise it: latency, req/s and bytes/s, optionally every
// latency percentile (-l) and the status codes (--render-status-codes).
const { PERCENTILES, pkey } = require('./result.js')
const { table, ms, msNumber, count, bytesCell, bytes, CYAN, RED } = require('./table.js')

/**
 * The text report, laid out as autocannon's printResult: the latency table,
 * the Req/Sec and Bytes/Sec table (a rule between the rows), the status
 * codes, the sample line, the percentile table (-l), then the summary lines.
 * @param {object} r the result of load()
 * @param {{latency?: boolean, statusCodes?: boolean, color?: boolean, tables?: boolean}} [opts]
 *   tables: false leaves only the summary lines (autocannon's verbose: false)
 * @returns {string}
 */
function formatResult (r, opts = {}) {
  const out = []
  const how = { rules: true, color: opts.color === true }
  if (opts.tables !== false) {
    const L = r.latency
    const STATS = ['2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max']
    const values = (x) => [x.p2_5, x.p50, x.p97_5, x.p99, x.average, x.stddev, x.max]
    const breakout = r.breakout ? [['Connect', r.breakout.connect], ['First byte', r.breakout.firstByte], ['Last byte', r.breakout.lastByte]] : []
    if (r.uncorrectedLatency) {
      // Rate mode has two latencies (and more rows with --breakout): the unit
      // moves to the header and the labels get short, so the table fits 80
      // columns (the autocannon layout with "Latency (uncorrected)" took 95).
      const rows = [['corrected', L], ['uncorrected', r.uncorrectedLatency], ...breakout.map(([n, x]) => [n.toLowerCase(), x])]
      out.push(table([['Latency, ms', ...STATS], ...rows.map(([n, x]) => [n, ...values(x).map(msNumber)])], how))
    } else {
      const rows = [['Latency', L], ...breakout]
      out.push(table([['Stat', ...STATS], ...rows.map(([n, x]) => [n, ...values(x).map(ms)])], how))
    }
    const q = r.requests
    const t = r.throughput
    out.push(table([
      ['Stat', '1%', '2.5%', '50%', '97.5%', 'Avg', 'Stdev', 'Min'],
      ['Req/Sec', count(q.p1), count(q.p2_5), count(q.p50), count(q.p97_5), count(q.average), count(q.stddev), count(q.min)],
      ['Bytes/Sec', bytesCell(t.p1), bytesCell(t.p2_5), bytesCell(t.p50), bytesCell(t.p97_5), bytesCell(t.average), bytesCell(t.stddev), bytesCell(t.min)]
    ], how))
    if (opts.statusCodes) {
      const codes = Object.entries(r.statusCodeStats ?? {})
      const sgr = (c) => (Number(c) >= 400 ? RED : CYAN)
      out.push(table([['Code', 'Count'], ...(codes.length ? codes.map(([c, v]) => [{ text: c, sgr: sgr(c) }, v.count]) : [['-', 0]])], how))
    }
    out.push('')
    out.push(r.sampleInt === undefined || r.sampleInt === 1000 ? 'Req/Bytes counts sampled once per second.' : `Req/Bytes counts sampled every ${r.sampleInt / 1000} seconds.`)
    out.push(`# of samples: ${r.samples}`)
    out.push('')
    if (opts.latency) {
      out.push(table([
        ['Percentile', 'Latency (ms)'],
        ...PERCENTILES.map((p) => [String(p), Number(L[pkey(p)]).toFixed(3)])
      ], how))
      out.push('')
    }
  }
  if (r.non2xx) out.push(`${r['2xx']} 2xx responses, ${r.non2xx} non 2xx responses`)
  // requests sent, as autocannon counts them (answered ones are in the tables)
  out.push(`${count(r.requests.sent ?? r.requests.total)} requests in ${Number(r.duration).toFixed(2)}s, ${bytes(r.throughput.total)} read`)
  const kinds = Object.entries(r.errorsByKind ?? {}).filter(([k, v]) => k !== 'status' && v > 0)
  // several kinds with large counts: wrapped to 80 columns, the counts exact
  if (kinds.length) out.push(...wrap80(`${r.errors} errors (${kinds.map(([k, v]) => `${v} ${k}`).join(', ')})`))
  else if (r.errors) out.push(`${count(r.errors)} errors (${count(r.timeouts ?? 0)} timeouts)`)
  if (r.mismatches) out.push(`${count(r.mismatches)} requests with mismatched body`)
  if (r.resets) out.push(`request pipeline was reset ${count(r.resets)} ${r.resets === 1 ? 'time' : 'times'}`)
  if (r.reconnects) out.push(`${r.reconnects} reconnects, ${r.resent} requests re-sent`)
  if (r.goaways) out.push(`${r.goaways} GOAWAY frames received (HTTP/2)`)
  if (r.rate) {
    const k = r.rate
    out.push(`rate: target ${count(k.target)} req/s, achieved ${count(k.achieved)} req/s` +
      (k.unsent > 0 ? `; ${count(k.unsent)} planned requests not sent` : ''))
    if (k.lag) out.push(`sends behind the plan: p50 ${ms(k.lag.p50)}, p99 ${ms(k.lag.p99)}, max ${ms(k.lag.max)}`)
    if (!r.latencyCorrected) out.push('latency from the actual sends (-C): it hides the wait of requests the server held')
  }
  if (r.plannedReconnects) out.push(`${r.plannedReconnects} planned reconnects (--connection close, -D)`)
  // a result of ours knows the most connections open at once (autocannon's does not)
  if (r.openConnectionsMax !== undefined && r.openConnectionsMax !== r.connections) out.push(`at most ${r.openConnectionsMax} connections open at once`)
  // --scenarios: a line and a row per scenario under the overall figures
  // (loaded only then, so a plain run's text is what it always was)
  if (r.scenarios !== undefined && opts.tables !== false) {
    // lazy: only a --scenarios result has their tables
    const scenarios = require('./format-scenarios.js').formatScenarios(r, { color: how.color })
    if (scenarios !== '') out.push('', scenarios)
  }
  return out.join('\n')
}

/** Words of a line wrapped to 80 columns, continuation lines indented. */
function wrap80 (text) {
  const lines = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > 80) {
      lines.push(line)
      line = '  ' + word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  lines.push(line)
  return lines
}

/**
 * One progress line for a TTY.
 * @param {number} elapsed seconds
 * @param {number} total seconds (0 when running for an amount)
 * @param {number} rps requests in the last second
 */
function progressLine (elapsed, total, rps) {
  const width = 30
  if (total > 0) {
    const done = Math.min(width, Math.round((elapsed / total) * width))
    return `[${'='.repeat(done)}${' '.repeat(width - done)}] ${elapsed}s/${total}s  ${count(rps)} req/s`
  }
  return `${elapsed}s  ${count(rps)} req/s`
}

module.exports = { formatResult, progressLine, table, formatCount: count, formatBytes: bytes }
