'use strict'
// A `bench:complete` record (Node's json reporter, or ours) as the report a
// createBenchmark file sends. The configuration is the benchmark's params,
// in Node's canonical (sorted) key order; when a file declares benchmarks
// under more than one name, the name joins it as the first key, `bench`, so
// that rows of different benchmarks with equal params stay apart.
// Runs inside the binary under test: Node 18 APIs only.

/**
 * @param {{name: string, namePath?: string[], params?: object}} data
 * @param {boolean} several the file declares more than one benchmark name
 */
function confOf (data, several) {
  const params = data.params || {}
  return several ? { bench: (data.namePath || [data.name]).join(' '), ...params } : { ...params }
}

/**
 * Does a configuration pass the key=value narrowings? A key that no
 * benchmark of the file has passes through, as undeclared keys do.
 * @param {object} conf
 * @param {[string, string][]} pairs
 */
function matches (conf, pairs) {
  return pairs.every(([k, v]) => !Object.prototype.hasOwnProperty.call(conf, k) || String(conf[k]) === v)
}

/**
 * @param {object} data the record's data
 * @param {{name: string, several: boolean, pairs: [string, string][]}} ctx
 * @returns {object|undefined} a report or error message, undefined for a skipped or filtered benchmark
 */
function recordToReport (data, { name, several, pairs }) {
  if (data.skip !== undefined) return undefined
  const conf = confOf(data, several)
  if (!matches(conf, pairs)) return undefined
  if (data.error) {
    const e = data.error
    // The code is the part both implementations share (ERR_INVALID_STATE...).
    return { type: 'error', name, conf, message: `${e.code ? `${e.code}: ` : ''}${e.message}`, code: e.code }
  }
  let operations = 0
  let seconds = 0
  for (const s of data.samples || []) {
    operations += Number(s.operations)
    seconds += Number(s.duration_ns) / 1e9
  }
  if (!(operations > 0 && seconds > 0)) {
    return { type: 'error', name, conf, message: 'the benchmark measured no sample' }
  }
  return { type: 'report', name, conf, rate: operations / seconds, time: seconds }
}

module.exports = { recordToReport, confOf, matches }
