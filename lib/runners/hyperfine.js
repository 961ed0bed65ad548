'use strict'
// hyperfine (https://github.com/sharkdp/hyperfine) --export-json FILE:
// results, one per command (its name with --command-name), each with the
// times of its runs, median and mean in seconds, and mean user and system
// CPU seconds. A task is the command. The run's rate is 1 / median (runs per
// second); with --measure cpu, 1 / (user + system). Pure data in and out.
const { jsonIn, positive, numbers, uniqueNames } = require('./json-in.js')

/**
 * @param {string} text
 * @returns {import('./index.js').RunnerResult|undefined}
 */
function parse (text) {
  const doc = /** @type {any} */ (jsonIn(text))
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.results) || doc.results.length === 0) return undefined
  if (!doc.results.every((r) => r && typeof r.command === 'string' && 'mean' in r)) return undefined
  const tasks = []
  const errors = []
  for (const r of doc.results) {
    const params = r.parameters && typeof r.parameters === 'object' ? Object.entries(r.parameters) : []
    const name = params.length > 0 && !params.every(([, v]) => r.command.includes(String(v))) ? `${r.command} ${params.map(([k, v]) => `${k}=${v}`).join(' ')}` : r.command
    const s = positive(r.median) ?? positive(r.mean)
    if (s === undefined) {
      errors.push({ name, message: 'no times' })
      continue
    }
    const cpu = positive((r.user ?? 0) + (r.system ?? 0))
    const samples = numbers(r.times)
    tasks.push({ name, rate: 1 / s, stat: positive(r.median) ? 'median' : 'mean', cpuRate: cpu ? 1 / cpu : undefined, samples, sampleUnit: 's', count: samples?.length, perSampleNs: s * 1e9 })
  }
  return { tasks: uniqueNames(tasks), errors }
}

module.exports = { name: 'hyperfine', stat: 'median', parse }
