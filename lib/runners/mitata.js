'use strict'
// mitata (https://github.com/evanwashere/mitata) with run({ format: 'json' }):
// benchmarks > runs, each run's stats in ns per operation (p50, avg, the
// samples of its batches). A task is the run's name (a parameterised
// benchmark's $arg already filled in), with its args when the name does not
// show them. The run's rate is 1e9 / p50. context.noop is mitata's empty
// function, kept for the dead-code warning. Pure data in and out.
const { jsonIn, positive, numbers, uniqueNames } = require('./json-in.js')

/**
 * @param {string} text
 * @returns {import('./index.js').RunnerResult|undefined}
 */
function parse (text) {
  const doc = /** @type {any} */ (jsonIn(text))
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.benchmarks) || !('layout' in doc || 'context' in doc)) return undefined
  const tasks = []
  const errors = []
  for (const b of doc.benchmarks) {
    for (const run of b?.runs ?? []) {
      let name = String(run.name ?? b.alias)
      const args = run.args && typeof run.args === 'object' ? Object.entries(run.args) : []
      if (args.length > 0 && name === b.alias) name += ' ' + args.map(([k, v]) => `${k}=${v}`).join(' ')
      const ns = positive(run.stats?.p50) ?? positive(run.stats?.avg)
      if (run.error || ns === undefined) {
        errors.push({ name, message: String(run.error?.message ?? run.error ?? 'no stats') })
        continue
      }
      const samples = numbers(run.stats.samples)
      tasks.push({ name, rate: 1e9 / ns, stat: positive(run.stats.p50) ? 'median' : 'mean', samples, sampleUnit: 'ns', count: samples?.length, perSampleNs: ns * (run.stats.ticks && samples ? run.stats.ticks / samples.length : 1) })
    }
  }
  const noopNs = positive(doc.context?.noop?.fn?.p50) ?? positive(doc.context?.noop?.fn?.avg)
  return { tasks: uniqueNames(tasks), errors, noopRate: noopNs ? 1e9 / noopNs : undefined }
}

module.exports = { name: 'mitata', stat: 'median', parse }
