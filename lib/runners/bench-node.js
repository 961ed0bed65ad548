'use strict'
// bench-node (https://github.com/RafaelGSS/bench-node) with its JSON
// reporter (new Suite({ reporter: jsonReport })): an array of {name,
// opsSec, runsSampled, minNS, maxNS, ...}. bench-node's opsSec is the mean
// over its sampled runs: the run's rate. Pure data in and out.
const { jsonIn, positive, numbers, uniqueNames } = require('./json-in.js')

/**
 * @param {string} text
 * @returns {import('./index.js').RunnerResult|undefined}
 */
function parse (text) {
  const doc = /** @type {any} */ (jsonIn(text))
  const list = Array.isArray(doc) ? doc : (doc && typeof doc === 'object' && Array.isArray(doc.benchmarks) ? doc.benchmarks : undefined)
  if (!list || list.length === 0) return undefined
  if (!list.every((b) => b && typeof b.name === 'string' && ('opsSec' in b || 'runsSampled' in b))) return undefined
  const tasks = []
  const errors = []
  for (const b of list) {
    const rate = positive(b.opsSec)
    if (rate === undefined) {
      errors.push({ name: b.name, message: 'no opsSec (the benchmark did not run)' })
      continue
    }
    const samples = numbers(b.histogram?.sampleData ?? b.samples)
    tasks.push({ name: b.name, rate, stat: 'mean', samples, sampleUnit: 'ns', count: positive(b.runsSampled) ?? samples?.length, perSampleNs: positive(b.minNS) })
  }
  return { tasks: uniqueNames(tasks), errors }
}

module.exports = { name: 'bench-node', stat: 'mean', parse }
