'use strict'
// bench/time-to-verdict.js --measures wall,cpu,instructions: the agreement of
// the measures on the held set (issue 24: instruction counts called 5 of 12
// Node core configurations the other way round from wall time). Each
// measure runs the held set as one serial comparison of fixed pairs with the
// same seed; instructions run at n cut tenfold (valgrind costs ~20x the CPU)
// in a copy of the held set, and fewer pairs (a near-deterministic count
// needs few). Prints per configuration each measure's change and verdict,
// then per two measures how often they agree (lib/stats/measure-agreement.js
// matches configurations across measures without n).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { agreementKey, measureDisagreements } = require('../lib/stats/measure-agreement.js')

const REPO = path.join(__dirname, '..')
const MEASURES = ['wall', 'cpu', 'instructions']

/**
 * A copy of a benchmark directory whose files declare n divided by `scale`
 * (at least 1); common.js points at the repository's.
 * @param {string} held
 * @param {number} scale
 */
function cutRoot (held, scale) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ttv-cut-n-'))
  fs.writeFileSync(path.join(dir, 'common.js'), `module.exports = require(${JSON.stringify(path.join(REPO, 'common.js'))})\n`)
  for (const cat of fs.readdirSync(held, { withFileTypes: true })) {
    if (!cat.isDirectory()) continue
    fs.mkdirSync(path.join(dir, cat.name))
    for (const f of fs.readdirSync(path.join(held, cat.name))) {
      const text = fs.readFileSync(path.join(held, cat.name, f), 'utf8')
      fs.writeFileSync(path.join(dir, cat.name, f), cutN(text, scale))
    }
  }
  return dir
}

/** `n: [2e5]` -> `n: [20000]`: each value of the n key divided by scale. */
function cutN (text, scale) {
  return text.replace(/\bn: \[([^\]]*)\]/, (_, list) => `n: [${list.split(',').map((v) => Math.max(1, Math.round(Number(v) / scale))).join(', ')}]`)
}

/**
 * @param {{old: string, new: string, held: string, out: string, measures: string[], pairs: number,
 *   instrPairs: number, instrScale: number, filter?: string, reuse?: boolean,
 *   run: (cmd: string, args: string[]) => Promise<number>, analyzeCsv: (csv: string) => {verdicts: object}}} o
 */
async function runMeasures (o) {
  const { rowsFromCsvText } = require('../lib/compare/load-csv.js')
  const { analyze } = require('../lib/stats/analyze.js')
  const result = { command: process.argv.slice(1).join(' '), old: o.old, new: o.new, cpus: os.cpus().length, loadavg: os.loadavg(), measures: {} }
  const analyses = []
  let cut
  try {
    for (const m of o.measures) {
      const instr = m === 'instructions'
      if (instr) cut ??= cutRoot(o.held, o.instrScale)
      const csv = path.join(o.out, `measure-${m}.csv`)
      const pairs = instr ? o.instrPairs : o.pairs
      const args = [path.join(REPO, 'compare.js'), '--old', o.old, '--new', o.new, '--root', instr ? cut : o.held, '--seed', '1', '--runs', String(pairs),
        '--measure', m, '--output', csv, '--no-progress', ...(o.filter ? ['--filter', o.filter] : []), 'all']
      // --reuse: a measure whose CSV the --out folder holds already is analysed, not run again
      const reused = o.reuse && fs.existsSync(csv)
      const t0 = process.hrtime.bigint()
      const code = reused ? 0 : await o.run(process.execPath, args)
      const seconds = reused ? NaN : Number(process.hrtime.bigint() - t0) / 1e9
      if (!fs.existsSync(csv)) throw new Error(`--measure ${m}: compare wrote no ${csv} (exit ${code}; its stderr is above)`)
      const rows = rowsFromCsvText(fs.readFileSync(csv, 'utf8'), csv)
      const a = analyze(rows)
      analyses.push({ measure: m, results: a.results })
      result.measures[m] = { seconds, exit: code, pairs: reused ? Math.max(...rows.map((r) => Number(r.pair))) : pairs, ...(reused ? { reused: true } : {}), ...(instr ? { nDividedBy: o.instrScale } : {}) }
      process.stderr.write(`--measure ${m}: ${reused ? `reused ${csv}` : `${seconds.toFixed(1)} s`}\n`)
    }
  } finally {
    if (cut) fs.rmSync(cut, { recursive: true, force: true })
  }
  Object.assign(result, agreement(analyses))
  process.stdout.write(formatMeasures(result, analyses) + '\n')
  fs.writeFileSync(path.join(o.out, 'measures.json'), JSON.stringify(result, null, 2) + '\n')
  return result
}

const sign = (x) => (x > 0 ? '+' : x < 0 ? '-' : '0')

/**
 * Per configuration (matched without n) each measure's change and verdict;
 * per two measures: configurations both have, same sign of the change,
 * both decided (faster/slower) and agreeing, and calling it the other way.
 * @param {{measure: string, results: {filename: string, configuration: string, verdict: string, change: number}[]}[]} analyses
 */
function agreement (analyses) {
  const byKey = new Map()
  for (const a of analyses) {
    for (const r of a.results) {
      const k = agreementKey(r)
      const e = byKey.get(k) ?? { filename: r.filename, configuration: r.configuration.split(' ').filter((kv) => !/^n=/.test(kv)).join(' '), by: {} }
      e.by[a.measure] = { change: r.change, verdict: r.verdict }
      byKey.set(k, e)
    }
  }
  const configurations = [...byKey.values()]
  const pairs = []
  for (let i = 0; i < analyses.length; i++) {
    for (let j = i + 1; j < analyses.length; j++) {
      const [a, b] = [analyses[i].measure, analyses[j].measure]
      const both = configurations.filter((c) => c.by[a] && c.by[b])
      const decided = (v) => v === 'faster' || v === 'slower'
      const bothDecided = both.filter((c) => decided(c.by[a].verdict) && decided(c.by[b].verdict))
      pairs.push({
        measures: [a, b],
        configurations: both.length,
        sameSign: both.filter((c) => sign(c.by[a].change) === sign(c.by[b].change)).length,
        bothDecided: bothDecided.length,
        agree: bothDecided.filter((c) => c.by[a].verdict === c.by[b].verdict).length,
        oneDecided: both.filter((c) => decided(c.by[a].verdict) !== decided(c.by[b].verdict)).length
      })
    }
  }
  return { configurations, pairs, opposite: measureDisagreements(analyses) }
}

const pct = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)}%` : 'n/a')

function formatMeasures (result, analyses) {
  const ms = analyses.map((a) => a.measure)
  const lines = [`| configuration | ${ms.map((m) => `${m}${result.measures[m].nDividedBy ? ` (n/${result.measures[m].nDividedBy})` : ''}, ${result.measures[m].pairs} pairs`).join(' | ')} |`, `|---|${ms.map(() => '---|').join('')}`]
  for (const c of result.configurations) {
    lines.push(`| ${c.filename} ${c.configuration} | ${ms.map((m) => (c.by[m] ? `${pct(c.by[m].change)} ${c.by[m].verdict}` : '—')).join(' | ')} |`)
  }
  lines.push('', '| measures | configurations | same sign | both decided | of those agree | one decided only |', '|---|---|---|---|---|---|')
  for (const p of result.pairs) lines.push(`| ${p.measures.join(' vs ')} | ${p.configurations} | ${p.sameSign} | ${p.bothDecided} | ${p.agree} | ${p.oneDecided} |`)
  lines.push('', `wall time per measure: ${ms.map((m) => `${m} ${Number.isNaN(result.measures[m].seconds) ? 'reused' : `${result.measures[m].seconds.toFixed(0)} s`}`).join(', ')}`)
  if (result.opposite.length) lines.push(`called faster by one measure and slower by another: ${result.opposite.map((d) => `${d.filename} ${d.configuration} (${d.calls.map((x) => `${x.measure} ${x.verdict}`).join(', ')})`).join('; ')}`)
  return lines.join('\n')
}

module.exports = { runMeasures, agreement, cutN, cutRoot, MEASURES }
