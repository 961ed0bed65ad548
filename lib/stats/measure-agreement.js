'use strict'
// Two measures of the same benchmark (say wall time and instruction counts)
// can call one configuration faster and the other slower: issue 24 found it
// on 5 of 12 Node core configurations, node 24 vs 26, and
// bench/measures-agree.js traced it to the V8 flags the instructions measure
// adds (--predictable: no concurrent compilation), which change what V8
// runs, not only what it costs to count (docs/compare.md, "When an
// instruction count answers the question"). analyze splits rows of several
// measures, analyses each apart, and warns with these pairs of verdicts.
// Pure functions over rows and analysis results.
const { measureName } = require('../record/measures.js')

/**
 * The key that matches one configuration across measures: the file and the
 * configuration without n. n is the amount of work, which instruction runs
 * cut (valgrind is ~20x slower), not what is compared.
 * @param {{filename: string, configuration: string}} r
 */
function agreementKey (r) {
  const conf = String(r.configuration).split(' ').filter((kv) => !/^n=/.test(kv)).join(' ')
  return `${r.filename}\u0000${conf}`
}

/**
 * Splits inputs (each {file, rows, ...}) by the rows' measure, keeping each
 * input's other fields; one group per measure, in order of first sight.
 * @typedef {{file: string, rows: Record<string, any>[], meta?: Record<string, any>}} Input
 * @param {Input[]} inputs
 * @returns {{measure: string, inputs: Input[]}[]}
 */
function splitByMeasure (inputs) {
  /** @type {Map<string, Input[]>} */
  const groups = new Map()
  for (const input of inputs) {
    /** @type {Map<string, Record<string, any>[]>} */
    const byMeasure = new Map()
    for (const row of input.rows) {
      const m = measureName(row.measure)
      if (!byMeasure.has(m)) byMeasure.set(m, [])
      byMeasure.get(m).push(row)
    }
    for (const [m, rows] of byMeasure) {
      if (!groups.has(m)) groups.set(m, [])
      groups.get(m).push({ ...input, rows })
    }
  }
  return [...groups].map(([measure, ins]) => ({ measure, inputs: ins }))
}

/**
 * Configurations that one measure calls faster and another slower.
 * @param {{measure: string, results: {filename: string, configuration: string, verdict: string, change: number}[]}[]} analyses
 * @returns {{filename: string, configuration: string, calls: {measure: string, verdict: string, change: number}[]}[]}
 */
function measureDisagreements (analyses) {
  /** @type {Map<string, {filename: string, configuration: string, calls: {measure: string, verdict: string, change: number}[]}>} */
  const byKey = new Map()
  for (const a of analyses) {
    for (const r of a.results) {
      if (r.verdict !== 'faster' && r.verdict !== 'slower') continue
      const key = agreementKey(r)
      if (!byKey.has(key)) byKey.set(key, { filename: r.filename, configuration: r.configuration, calls: [] })
      byKey.get(key).calls.push({ measure: a.measure, verdict: r.verdict, change: r.change })
    }
  }
  return [...byKey.values()].filter((d) => new Set(d.calls.map((c) => c.verdict)).size > 1)
}

const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`

/**
 * The warning analyze prints (stderr), one line per configuration.
 * @param {ReturnType<typeof measureDisagreements>} ds
 * @returns {string} '' when the measures agree
 */
function formatDisagreements (ds) {
  if (ds.length === 0) return ''
  const lines = ds.map((d) => `  ${d.filename} ${d.configuration}: ${d.calls.map((c) => `${c.measure} ${signed(c.change)} (${c.verdict})`).join(', ')}`)
  return `analyze: warning: the measures disagree on ${ds.length} configuration(s): one calls new faster, another slower:\n${lines.join('\n')}\n` +
    '  an instruction count runs V8 with --predictable (no concurrent compilation), which can change what V8 compiles and so the sign; ' +
    'it also cannot see cache, memory or branch-prediction costs. Trust the measure that matches the question (wall or cpu for "is it faster?"); ' +
    'see docs/compare.md, "When an instruction count answers the question", and bench/measures-agree.js\n'
}

module.exports = { agreementKey, splitByMeasure, measureDisagreements, formatDisagreements }
