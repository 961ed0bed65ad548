'use strict'
// node:bench (Node 26.9+, node --experimental-bench --bench
// --bench-reporter=json): NDJSON events; each bench:complete carries the
// benchmark's namePath, params, samples (operations, duration_ns, rate) and
// a summary. A task is the name path joined with " > ", then its params as
// key=value. The run's rate is summary.median (operations per second).
// Pure data in and out.
const { positive, uniqueNames } = require('./json-in.js')

/**
 * @param {string} text
 * @returns {import('./index.js').RunnerResult|undefined}
 */
function parse (text) {
  const tasks = []
  const errors = []
  let events = 0
  for (const line of text.split('\n')) {
    if (!line.startsWith('{"type":"bench:')) continue
    let rec
    try { rec = JSON.parse(line) } catch { continue }
    events++
    if (rec.type !== 'bench:complete' || !rec.data) continue
    const d = rec.data
    const params = d.params && typeof d.params === 'object' ? Object.entries(d.params) : []
    const name = [(Array.isArray(d.namePath) ? d.namePath : [d.name]).join(' > '), ...params.map(([k, v]) => `${k}=${v}`)].join(' ')
    const rate = positive(d.summary?.median) ?? positive(d.summary?.mean)
    if (d.error || rate === undefined) {
      errors.push({ name, message: String(d.error?.message ?? 'no summary') })
      continue
    }
    const samples = Array.isArray(d.samples) ? d.samples.map((s) => Number(s.rate)).filter(Number.isFinite) : undefined
    const first = Array.isArray(d.samples) ? d.samples[0] : undefined
    tasks.push({ name, rate, stat: positive(d.summary?.median) ? 'median' : 'mean', samples, sampleUnit: 'ops/s', count: samples?.length, perSampleNs: first ? Number(first.duration_ns) : undefined })
  }
  if (events === 0) return undefined
  return { tasks: uniqueNames(tasks), errors }
}

module.exports = { name: 'node-bench', stat: 'median', parse }
