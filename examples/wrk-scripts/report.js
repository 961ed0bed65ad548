'use strict'
// Port of wrk's report example: at the end, latency percentiles (µs) as
// "p%,value" lines. done() runs once, in the main thread; what it returns is
// printed after the result (and is `done` in the -j JSON).
//   benchrig load -c 4 -d 5 --script examples/wrk-scripts/report.js http://127.0.0.1:3000/
module.exports = {
  done (summary, latency) {
    const lines = ['------------------------------']
    for (const p of [50, 90, 99, 99.999]) lines.push(`${p}%,${Math.round(latency.percentile(p))}`)
    return lines.join('\n') + '\n'
  }
}
