'use strict'
// A reporter for benchmark.js suites that benchrig's benchmarkjs reader
// reads: one JSON line per finished benchmark, with its samples.
//   const report = require('benchrig/benchmarkjs-reporter')
//   report(new Benchmark.Suite().add(...)).run()
// Runs inside the binary under test: Node 18 APIs only.
const MARK = 'benchrig-benchmarkjs'

/**
 * @param {any} suite a Benchmark.Suite (or anything that emits "cycle" with event.target a Benchmark)
 * @param {{write?: (line: string) => void}} [opts] where lines go (default stdout)
 * @returns {any} the suite
 */
function report (suite, opts = {}) {
  const write = opts.write ?? ((line) => process.stdout.write(line))
  suite.on('cycle', (event) => {
    const b = event.target
    const rec = { type: MARK, name: String(b.name ?? b.id) }
    if (b.error) rec.error = String(b.error && b.error.message ? b.error.message : b.error)
    else Object.assign(rec, { hz: b.hz, mean: b.stats.mean, rme: b.stats.rme, cycleTime: b.times && b.times.cycle, count: b.count, sample: b.stats.sample })
    write(JSON.stringify(rec) + '\n')
  })
  return suite
}

module.exports = report
module.exports.report = report
