'use strict'
// --interval MS: a timeline of the run. Each runner keeps a histogram of the
// current interval and closes it on absolute time (t0 + k * MS, the t0 every
// worker shares), so rows of different workers, and of different machines
// whose clocks agree, cover the same span and add up exactly. A row carries
// its histogram (HdrHistogram V2) so that merged rows are recomputed, never
// averaged.
const { Histogram } = require('./histogram.js')
const { encode } = require('./hdr-codec.js')
const C = require('../counters.js')

class Timeline {
  /**
   * @param {object} runner the runner whose counters it reads
   * @param {number} intervalMs
   * @param {(row: object) => void} onRow called with each closed interval
   */
  constructor (runner, intervalMs, onRow) {
    this.runner = runner
    this.intervalMs = intervalMs
    this.onRow = onRow
    this.histogram = new Histogram()
    this.k = 0
    this.timer = null
    this.lastErrors = 0
    this.lastSent = 0
    // --stages: each row also says how many requests the ramp planned in it,
    // so the rows show the ramp beside what was answered
    this.plans = runner.opts.rate?.mode === 'stages' ? [...new Set(runner.pacers)] : null
    this.lastPlanned = 0
    // --stages-connections: each row says how many connections were open at its end
    this.rampsConnections = runner.connectionRamp !== null && runner.connectionRamp !== undefined
  }

  /**
   * Requests the runner's plans held by epoch ms `at` (a row's end on the
   * plan's clock, not when its timer ran: a late timer does not move the row).
   */
  planned (at) {
    const runner = this.runner
    const now = at === undefined ? (runner.planEndedAt ?? runner.clock.now()) : runner.startMono + (at - runner.startWall)
    let n = 0
    for (const p of this.plans) n += p.due(now)
    return n
  }

  /** @param {number} t0 epoch ms of the run's start */
  start (t0) {
    this.t0 = t0
    this.schedule(1)
  }

  schedule (k) {
    this.k = k
    const due = this.t0 + k * this.intervalMs - Date.now()
    this.timer = setTimeout(closeInterval, Math.max(0, due), this)
  }

  /** Closes the current interval (at its end, or early when the run stops). */
  close (partialMs) {
    const runner = this.runner
    const errors = runner.errorCount()
    const sent = runner.counters[C.SENT]
    const h = this.histogram
    const row = {
      start: this.t0 + (this.k - 1) * this.intervalMs,
      ms: this.intervalMs,
      count: h.totalCount,
      errors: errors - this.lastErrors,
      sent: sent - this.lastSent,
      histogram: h.toTransfer()
    }
    if (partialMs !== undefined) row.elapsedMs = partialMs
    if (this.rampsConnections) row.open = runner.openNow
    if (this.plans !== null) {
      const planned = this.planned(partialMs === undefined ? this.t0 + this.k * this.intervalMs : undefined)
      row.planned = planned - this.lastPlanned
      this.lastPlanned = planned
    }
    this.lastErrors = errors
    this.lastSent = sent
    this.histogram = new Histogram()
    this.onRow(row)
  }

  stop () {
    clearTimeout(this.timer)
    const into = Date.now() - (this.t0 + (this.k - 1) * this.intervalMs)
    // the partial interval the run ended in (Date.now() is whole ms, so a run
    // can end 0 ms into an interval that already holds responses: they are
    // kept, or the rows would count fewer than the summary)
    if (into > 0 || this.histogram.totalCount > 0 || this.runner.counters[C.SENT] > this.lastSent) {
      this.close(Math.min(Math.max(into, 0), this.intervalMs))
    }
  }
}

function closeInterval (timeline) {
  timeline.close()
  timeline.schedule(timeline.k + 1)
}

/**
 * Adds rows of the same interval (from several runners) into one row with
 * its derived figures in ms.
 * @param {object[]} rows rows with `histogram` as a transfer object
 */
function combineRows (rows) {
  const h = new Histogram()
  const out = { start: rows[0].start, ms: rows[0].ms, count: 0, errors: 0, sent: 0 }
  for (const r of rows) {
    h.add(Histogram.fromTransfer(r.histogram))
    out.count += r.count
    out.errors += r.errors
    out.sent += r.sent
    if (r.elapsedMs !== undefined) out.elapsedMs = Math.max(out.elapsedMs ?? 0, r.elapsedMs)
    if (r.planned !== undefined) out.planned = (out.planned ?? 0) + r.planned
    if (r.open !== undefined) out.open = (out.open ?? 0) + r.open
  }
  const ms = (us) => Math.round(us) / 1000
  out.mean = h.totalCount ? ms(h.mean()) : 0
  for (const p of [50, 75, 90, 99]) out[`p${p}`] = h.totalCount ? ms(h.percentile(p)) : 0
  out.max = ms(h.maxValue)
  out.histogram = encode(h)
  return out
}

/** One text line of the timeline. */
function formatRow (row, t0) {
  const at = ((row.start - t0) / 1000).toFixed(row.ms % 1000 === 0 ? 0 : 1)
  const f = (x) => x.toFixed(2)
  const planned = (row.planned === undefined ? '' : ` (${row.planned} planned)`) + (row.open === undefined ? '' : ` on ${row.open} connections`)
  return `interval ${at}s +${row.elapsedMs ?? row.ms}ms: ${row.count} req${planned}, mean ${f(row.mean)} ms, ` +
    `p50 ${f(row.p50)}, p75 ${f(row.p75)}, p90 ${f(row.p90)}, p99 ${f(row.p99)} ms, ${row.errors} errors`
}

module.exports = { Timeline, combineRows, formatRow }
