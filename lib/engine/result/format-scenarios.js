'use strict'
// The text of a scenarios run (`--scenarios FILE`) under the overall tables:
// what each scenario ran, one line each as k6 lists its scenarios (executor,
// its parameters, start and planned duration), then one table row per
// scenario with its results and its thresholds' verdict (the thresholds in
// full are lib/cli/load-scenarios.js's blocks). A result without `scenarios`
// prints none of it, so the autocannon layout of a plain run stays byte for
// byte what it was.
// Two parts rather than one row of thirteen columns: the executor names
// alone (constant-arrival-rate) would push one table past 140 columns.
const { table, count } = require('./table.js')
const { shortenMiddle } = require('./format-endpoints.js')

const WIDTH = 100
const MIN_NAME = 8

/**
 * The scenarios of a result in the order of its file, or [] for a plain run.
 * @param {any} r
 * @returns {[string, any][]}
 */
function scenarioEntries (r) {
  const s = r?.scenarios
  return s !== null && typeof s === 'object' && !Array.isArray(s) ? Object.entries(s) : []
}

/** ms as a Go-style duration, as k6 prints start times and durations: 0s, 1.5s, 2m30s, 1h0m5s. */
function durationText (ms) {
  if (!Number.isFinite(ms)) return '-'
  if (ms < 1000 && ms > 0) return `${Math.round(ms)}ms`
  const s = Math.round(ms / 100) / 10
  const h = Math.floor(s / 3600)
  const m = Math.floor((s - h * 3600) / 60)
  const rest = Math.round((s - h * 3600 - m * 60) * 10) / 10
  if (h > 0) return `${h}h${m}m${rest}s`
  if (m > 0) return `${m}m${rest}s`
  return `${rest}s`
}

/**
 * A scenario's planned duration: an iteration executor's is its maxDuration,
 * a bound it may end well before (as k6 and the run's header say, "at most").
 * @param {{executor?: string, duration?: number}} meta
 */
function plannedText (meta) {
  return `${durationText(meta.duration)}${String(meta.executor ?? '').endsWith('iterations') ? ' at most' : ''}`
}

/** A latency cell in ms, at most 6 characters (the header names the unit). */
function msCell (x) {
  if (!Number.isFinite(x)) return '-'
  if (x >= 999999.5) return count(x)
  return x >= 100 ? String(Math.round(x)) : x.toFixed(x >= 10 ? 1 : 2)
}

/**
 * An executor's parameters as words ("vus 10, duration 30s"): the scalar
 * fields as they are, a list by its length (stages: 3), nested objects left
 * out; fields named like a time in ms (…Ms, duration, timeUnit, gracefulStop)
 * as durations.
 * @param {Record<string, any>|undefined} params
 */
function paramsText (params) {
  if (params === null || typeof params !== 'object') return ''
  const parts = []
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) parts.push(`${k} ${v.length}`)
    else if (typeof v === 'number' && /(?:Ms|^duration|^timeUnit|^gracefulStop|^gracefulRampDown|^maxDuration)$/.test(k)) parts.push(`${k.replace(/Ms$/, '')} ${durationText(v)}`)
    else if (v !== null && typeof v !== 'object' && v !== undefined) parts.push(`${k} ${v}`)
  }
  return parts.join(', ')
}

/** A scenario's tags (k6's `tags`) as words: "team=api, flow=buy", or '' without. */
function tagsText (tags) {
  if (tags === null || typeof tags !== 'object') return ''
  return Object.entries(tags).map(([k, v]) => `${k}=${v}`).join(', ')
}

/** "pass 2/2", "FAIL 1/3" (failed of all), or "-" for a scenario without thresholds. */
function thresholdCell (list) {
  if (!Array.isArray(list) || list.length === 0) return '-'
  const failed = list.filter((th) => !th.ok).length
  return failed === 0 ? `pass ${list.length}/${list.length}` : `FAIL ${failed}/${list.length}`
}

/**
 * The lines and the table of a scenarios result, or '' for a plain one.
 * @param {any} r a load result
 * @param {{color?: boolean, width?: number}} [opts]
 * @returns {string}
 */
function formatScenarios (r, opts = {}) {
  const list = scenarioEntries(r)
  if (list.length === 0) return ''
  const width = opts.width ?? WIDTH
  const nameWidth = Math.max(...list.map(([name]) => name.length))
  const lines = [`Scenarios (${list.length}):`]
  for (const [name, s] of list) {
    const meta = s.scenario ?? {}
    const params = paramsText(meta.params)
    const tags = tagsText(meta.tags)
    lines.push(`  ${name.padEnd(nameWidth)}  ${meta.executor ?? '-'}${params ? ` (${params})` : ''}, from ${durationText(meta.startTime)} for ${plannedText(meta)}` +
      (tags ? `; tags ${tags}` : ''))
  }
  const header = ['Scenario', 'Requests', 'Req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'Max ms', 'Errors', 'Non-2xx', 'Thresholds']
  const rows = list.map(([name, s]) => {
    const L = s.latency ?? {}
    return [name, count(s.requests?.total ?? 0), count(s.requests?.mean ?? 0),
      msCell(L.p50), msCell(L.p90), msCell(L.p99), msCell(L.max),
      count(s.errors ?? 0), count(s.non2xx ?? 0), thresholdCell(s.thresholds)]
  })
  // every column takes its width + 3 (padding and a border), plus the last border
  const others = header.slice(1).reduce((sum, h, i) => sum + Math.max(h.length, ...rows.map((row) => row[i + 1].length)) + 3, 0)
  const fit = Math.max(MIN_NAME, width - others - 4)
  lines.push(table([header, ...rows.map((row) => [shortenMiddle(row[0], fit), ...row.slice(1)])], { color: opts.color === true }))
  lines.push(...endLines(list, nameWidth))
  return lines.join('\n')
}

/**
 * How each scenario ended and the VUs it used, a line each under the table
 * (its 100 columns are taken): the requests sent and how many of them were
 * interrupted (in flight after gracefulStop, or cut by a ramp down), and for
 * an arrival-rate scenario the iterations dropped and the VUs opened of its
 * maxVUs. None for results without these keys (before they existed).
 * @param {[string, any][]} list @param {number} nameWidth
 * @returns {string[]}
 */
function endLines (list, nameWidth) {
  const known = list.filter(([, s]) => Number.isFinite(s.interrupted))
  if (known.length === 0) return []
  return ['Sent and interrupted (in flight after gracefulStop or gracefulRampDown), dropped, VUs:',
    ...known.map(([name, s]) => {
      const parts = [`sent ${count(s.requests?.sent ?? 0)}`, `interrupted ${count(s.interrupted)}`]
      if (Number.isFinite(s.dropped_iterations)) parts.push(`dropped_iterations ${count(s.dropped_iterations)}`)
      if (Number.isFinite(s.vus_max)) {
        const p = s.scenario?.params ?? {}
        parts.push(`VUs ${s.vus_max}` + (Number.isFinite(p.maxVUs) ? ` of maxVUs ${p.maxVUs} (preAllocatedVUs ${p.preAllocatedVUs})` : ''))
      }
      return `  ${name.padEnd(nameWidth)}  ${parts.join(', ')}`
    })]
}

module.exports = { formatScenarios, scenarioEntries, durationText, plannedText, paramsText, tagsText, thresholdCell }
