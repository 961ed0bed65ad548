'use strict'
// benchmark.js (https://benchmarkjs.com): the lines our reporter prints
// (benchmarkjs-reporter.js: one JSON object per benchmark with its hz, mean
// and samples), or the text every benchmark.js example prints on "cycle",
// String(event.target):
//   name x 1,234,567 ops/sec ±0.50% (92 runs sampled)
// With our reporter's samples (seconds per operation, one per timed cycle)
// the run's rate is 1 / their median; from the text lines, benchmark.js's hz
// (1 / the mean): a mean of cycles takes in every pause a loaded machine
// gives the process. Pure data in and out.
const { positive, numbers, uniqueNames } = require('./json-in.js')

const MARK = 'benchrig-benchmarkjs'
const LINE = /^(.+?) x ([\d,]+(?:\.\d+)?) ops\/sec (?:\u00b1|\+\/-)\s*([\d.]+)% \((\d+) runs? sampled\)\s*$/

/**
 * @param {string} text
 * @returns {import('./index.js').RunnerResult|undefined}
 */
function parse (text) {
  const tasks = []
  const errors = []
  const lines = text.split('\n')
  for (const line of lines) {
    if (!line.includes(MARK)) continue
    let rec
    try { rec = JSON.parse(line) } catch { continue }
    if (!rec || rec.type !== MARK || typeof rec.name !== 'string') continue
    if (rec.error) {
      errors.push({ name: rec.name, message: String(rec.error) })
      continue
    }
    const hz = positive(rec.hz)
    if (hz === undefined) {
      errors.push({ name: rec.name, message: 'no ops/sec (the benchmark did not run)' })
      continue
    }
    const samples = numbers(rec.sample)
    const median = samples ? medianOf(samples) : undefined
    tasks.push({ name: rec.name, rate: median > 0 ? 1 / median : hz, stat: median > 0 ? 'median' : 'mean', samples, sampleUnit: 's', count: samples?.length, perSampleNs: positive(rec.cycleTime) ? rec.cycleTime * 1e9 : undefined })
  }
  if (tasks.length === 0 && errors.length === 0) {
    for (const line of lines) {
      const m = LINE.exec(line.trim())
      if (m) tasks.push({ name: m[1], rate: Number(m[2].replace(/,/g, '')), stat: 'mean', count: Number(m[4]) })
    }
  }
  if (tasks.length === 0 && errors.length === 0) return undefined
  return { tasks: uniqueNames(tasks), errors }
}

/** @param {number[]} xs */
function medianOf (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

module.exports = { name: 'benchmarkjs', stat: 'median', parse, MARK }
