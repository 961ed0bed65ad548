'use strict'
// tinybench (https://github.com/tinylibs/tinybench): it has no output format
// of its own, so the benchmark prints its tasks' results as JSON:
//   console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))))
// Versions 3 and later keep latency statistics in result.latency (ms), with
// a median (p50); version 2 has result.mean, result.hz and result.samples
// (ms) but no median. The run's rate is 1000 / the median latency in ms
// where the result has one, else the mean's (hz). Pure data in and out.
const { jsonIn, positive, numbers, uniqueNames } = require('./json-in.js')

/**
 * @param {string} text
 * @returns {import('./index.js').RunnerResult|undefined}
 */
function parse (text) {
  const doc = /** @type {any} */ (jsonIn(text))
  const list = Array.isArray(doc) ? doc : (doc && typeof doc === 'object' && Array.isArray(doc.tasks) ? doc.tasks : undefined)
  if (!list || list.length === 0) return undefined
  if (!list.every((t) => t && typeof t.name === 'string' && t.result && typeof t.result === 'object')) return undefined
  const tasks = []
  const errors = []
  for (const t of list) {
    const r = t.result
    if (r.error) {
      errors.push({ name: t.name, message: String(r.error.message ?? r.error) })
      continue
    }
    const latency = r.latency && typeof r.latency === 'object' ? r.latency : undefined
    const median = positive(latency?.p50) ?? positive(r.p50) ?? positive(r.median)
    const mean = positive(latency?.mean) ?? positive(r.mean) ?? (positive(r.hz) ? 1000 / r.hz : undefined)
    const ms = median ?? mean
    if (ms === undefined) {
      errors.push({ name: t.name, message: 'its result holds no latency (the task did not run)' })
      continue
    }
    const samples = numbers(latency?.samples) ?? numbers(r.samples)
    const count = latency?.samplesCount ?? r.samplesCount ?? samples?.length
    tasks.push({ name: t.name, rate: 1000 / ms, stat: median === undefined ? 'mean' : 'median', samples, sampleUnit: 'ms', count: Number.isFinite(count) ? count : undefined, perSampleNs: ms * 1e6 })
  }
  return { tasks: uniqueNames(tasks), errors }
}

module.exports = { name: 'tinybench', stat: 'median', parse }
