'use strict'
// `vitest bench --outputJson FILE` (vitest runs tinybench): files > groups >
// benchmarks, each with mean, median and hz in ms and operations per second.
// A task is "GROUP > NAME", the group's fullName naming its file relative
// to the project (the same on both sides). The run's rate is 1000 / the
// median in ms. Pure data in and out.
const { jsonIn, positive, numbers, uniqueNames } = require('./json-in.js')

/**
 * @param {string} text
 * @returns {import('./index.js').RunnerResult|undefined}
 */
function parse (text) {
  const doc = /** @type {any} */ (jsonIn(text))
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.files)) return undefined
  const tasks = []
  const errors = []
  for (const f of doc.files) {
    for (const g of f?.groups ?? []) {
      for (const b of g?.benchmarks ?? []) {
        if (!b || typeof b.name !== 'string') return undefined
        const name = g.fullName ? `${g.fullName} > ${b.name}` : b.name
        const ms = positive(b.median) ?? positive(b.mean)
        if (ms === undefined) {
          errors.push({ name, message: 'no median in its result (the task did not run)' })
          continue
        }
        const samples = numbers(b.samples)
        tasks.push({ name, rate: 1000 / ms, stat: positive(b.median) ? 'median' : 'mean', samples, sampleUnit: 'ms', count: b.sampleCount ?? samples?.length, perSampleNs: ms * 1e6 })
      }
    }
  }
  if (tasks.length === 0 && errors.length === 0) return undefined
  return { tasks: uniqueNames(tasks), errors }
}

module.exports = { name: 'vitest', stat: 'median', parse }
