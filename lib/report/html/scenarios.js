'use strict'
// The "Scenarios" part of the HTML report of a `--scenarios` run: what each
// scenario ran (executor, parameters, start, planned duration), its results
// (a row each, every figure tagged with its JSON path under
// scenarios.<name>), and its requests per second and p99 latency over time
// on one time axis: the run's start, so a scenario that starts later is
// drawn later. A scenario's points come from its interval rows (--interval,
// or the 1 s rows --html records), else requests from its per-second samples.
const { scenarioEntries, durationText, plannedText, paramsText, tagsText } = require('../../engine/result/format-scenarios.js')

/**
 * @typedef {{name: string, points: number[][]}} Series
 * @typedef {{name: string, path: string, executor: string, params: string, startTime: number|undefined, planned: string,
 *   thresholds: {expr: string, value: number, ok: boolean, path: string}[], result: any}} ScenarioRow
 */

/** The first instant of a result's timeline (epoch ms), or undefined. */
function timelineStart (r) {
  if (Array.isArray(r.intervals) && r.intervals.length > 0 && Number.isFinite(r.intervals[0].start)) return r.intervals[0].start
  if (Number.isFinite(r.perSecond?.start) && Array.isArray(r.perSecond.requests) && r.perSecond.requests.length > 0) return r.perSecond.start
  return undefined
}

/**
 * A result's points over time, seconds after t0: [t, req/s] and, from
 * interval rows only, [t, p99 ms]. A second in which the result was not
 * sampling (null, as merge writes it) is no point.
 * @param {any} r
 * @param {number} t0 epoch ms
 * @returns {{source: 'intervals'|'perSecond'|'none', rps: number[][], p99: number[][]}}
 */
function pointsOf (r, t0) {
  if (Array.isArray(r.intervals) && r.intervals.length > 0) {
    const rows = r.intervals.filter((row) => Number.isFinite(row.start))
    return {
      source: 'intervals',
      rps: rows.map((row) => {
        const ms = row.elapsedMs ?? row.ms
        return [(row.start - t0 + ms) / 1000, ms > 0 ? (row.count * 1000) / ms : 0]
      }),
      // a row without responses has no latency: no point rather than a 0 ms one
      p99: rows.filter((row) => row.count > 0 && Number.isFinite(row.p99)).map((row) => [(row.start - t0 + (row.elapsedMs ?? row.ms)) / 1000, row.p99])
    }
  }
  const ps = r.perSecond
  if (ps && Number.isFinite(ps.start) && Array.isArray(ps.requests) && ps.requests.length > 0) {
    const ms = ps.ms ?? 1000
    const rps = []
    ps.requests.forEach((count, i) => {
      if (count !== null) rps.push([(ps.start - t0 + (i + 1) * ms) / 1000, (count * 1000) / ms])
    })
    return { source: 'perSecond', rps, p99: [] }
  }
  return { source: 'none', rps: [], p99: [] }
}

/**
 * What the report shows of a scenarios result, or undefined for a plain one.
 * @param {any} result
 * @returns {{rows: ScenarioRow[], rps: Series[], p99: Series[], latencySource: boolean} | undefined}
 */
function scenariosModel (result) {
  const list = scenarioEntries(result)
  if (list.length === 0) return undefined
  const starts = [result, ...list.map(([, s]) => s)].map(timelineStart).filter((t) => t !== undefined)
  const t0 = starts.length ? Math.min(...starts) : 0
  /** @type {ScenarioRow[]} */
  const rows = list.map(([name, s]) => ({
    name,
    path: `scenarios.${name}`,
    executor: s.scenario?.executor ?? '-',
    params: [paramsText(s.scenario?.params), tagsText(s.scenario?.tags).replace(/^(?=.)/, 'tags ')].filter((x) => x !== '').join('; '),
    startTime: s.scenario?.startTime,
    planned: plannedText(s.scenario ?? {}),
    thresholds: (Array.isArray(s.thresholds) ? s.thresholds : []).map((th, i) => ({ ...th, path: `scenarios.${name}.thresholds.${i}` })),
    result: s
  }))
  const overall = pointsOf(result, t0)
  const each = list.map(([name, s]) => ({ name, ...pointsOf(s, t0) }))
  return {
    rows,
    // the run's own line first (all scenarios together), then one per scenario
    rps: [{ name: 'all scenarios', points: overall.rps }, ...each.map((e) => ({ name: e.name, points: e.rps }))],
    p99: [{ name: 'all scenarios', points: overall.p99 }, ...each.map((e) => ({ name: e.name, points: e.p99 }))],
    latencySource: each.some((e) => e.p99.length > 0)
  }
}

module.exports = { scenariosModel, pointsOf, timelineStart, durationText }
