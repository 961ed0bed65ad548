'use strict'
// The driver of --runs seq: it runs the pairs, round by round, while the rule of
// lib/stats/sequential.js (pure over rows; analyze replays it on a CSV) keeps a file open.
// The rule is e-BH over betting e-processes. One pair of every open file per round; after each
// round the rule is run over all rows (the function analyze runs on the CSV later),
// and a file stays open while one of its configurations is still running
// and it has run fewer than --max-runs pairs. A stopped configuration whose
// file goes on keeps being measured (its file's process runs them all) but
// its later pairs narrow its interval (seqAnalysis: the one analysis that
// the summary, the per-file lines and benchrig analyze all read).
const { seqLabel, seqStates, seqAnalysis } = require('../stats/sequential.js')
const { hasBlocks } = require('../stats/crossover.js')

/**
 * @param {import('../stats/sequential.js').SeqParams} params version 2 unless it says 1 (simulations)
 * @returns {import('./rules.js').Rule}
 */
function seqRule (params) {
  const label = seqLabel(params)
  return {
    name: 'seq',
    label,
    async run (ctx) {
      const rows = [...ctx.previous]
      const files = ctx.plan.files
      const ran = new Map(files.map((f) => [f.name, 0]))
      for (const r of rows) if (ran.has(r.filename)) ran.set(r.filename, Math.max(ran.get(r.filename), Number(r.pair) || 0))
      for (;;) {
        const states = seqStates(rows, params, { intervals: false })
        const blocks = hasBlocks(rows)
        const open = files.filter((f) => {
          const n = ran.get(f.name)
          if (n === 0) return true
          if (n >= params.maxPairs) return false
          // a duet crossover's file has its first state after its first block (two pairs)
          if (n < 2 && blocks && !states.some((s) => s.filename === f.name)) return true
          // a file none of whose configurations has a pair (every run failed) stops
          return states.some((s) => s.filename === f.name && s.verdict === 'running')
        })
        if (ctx.progress) ctx.progress({ phase: 'rule', text: describeOpen(states, params) })
        if (ctx.fileEnded) for (const f of files) if (ran.get(f.name) > 0 && !open.includes(f)) ctx.fileEnded(f.name)
        if (open.length === 0) {
          const stops = seqAnalysis(rows, params).map((s) => stopRecord(s, label))
          for (const line of summary(stops)) ctx.log(line)
          return { rows, stopped: false, stoppedBy: 'every configuration stopped', stops }
        }
        // files at the same pair number run as one interleaved batch
        const byNext = new Map()
        for (const f of open) {
          const next = ran.get(f.name) + 1
          byNext.set(next, [...(byNext.get(next) ?? []), f])
        }
        for (const [next, batch] of byNext) {
          const res = await ctx.runBatch(batch, 1, next)
          rows.push(...res.rows)
          for (const f of batch) ran.set(f.name, next)
          if (res.stopped) return { rows, stopped: true, stoppedBy: 'interrupted', stops: seqAnalysis(rows, params).map((s) => stopRecord(s, label)) }
        }
      }
    }
  }
}

/**
 * A configuration's stop, as the NDJSON "stop" record and the summary carry it.
 * @param {import('../stats/sequential.js').SeqVerdict} s
 * @param {string} rule
 */
function stopRecord (s, rule) {
  const pct = (/** @type {number} */ v) => (Math.exp(v) - 1) * 100
  return {
    filename: s.filename,
    configuration: s.configuration,
    rule,
    pairs: s.pairs,
    stop_at: s.stopAt,
    verdict: s.verdict,
    reason: s.reason,
    ci: [pct(s.lo), pct(s.hi)],
    conf_level: s.level,
    ...(s.evalue === undefined ? {} : { evalue: s.evalue }),
    ...(s.needed === undefined ? {} : { needed: Number.isFinite(s.needed) ? s.needed : null })
  }
}

/**
 * Why each configuration stopped, one line each, and the counts.
 * @param {ReturnType<typeof stopRecord>[]} stops
 */
function summary (stops) {
  const lines = stops.map((s) => `--runs seq: ${stopLine(s)}`)
  const count = (v) => stops.filter((s) => s.verdict === v).length
  lines.push(`--runs seq: ${stops.length} configuration(s): ${count('faster')} faster, ${count('slower')} slower, ${count('no change')} no change, ${count('inconclusive')} inconclusive`)
  return lines
}

/**
 * One configuration's verdict, where the rule stopped it and why, and its
 * interval over every pair measured.
 * @param {ReturnType<typeof stopRecord>} s
 */
function stopLine (s) {
  const at = s.pairs > s.stop_at ? `stopped at pair ${s.stop_at} of ${s.pairs}` : `after ${s.pairs} pairs`
  return `${s.filename} ${s.configuration}: ${s.verdict} ${at} (${why(s)})`
}

function why (s) {
  const ci = `CI ${s.ci[0].toFixed(2)}%..${s.ci[1].toFixed(2)}% at ${(s.conf_level * 100).toFixed(2)}%`
  const need = s.needed === undefined ? '' : `would need ${s.needed === null ? 'more than 100x --max-runs' : `~${s.needed}`} pairs; `
  if (s.reason === 'futility') return `futility: ${need}${ci}`
  if (s.reason === 'max-runs') return `--max-runs reached; ${need}${ci}`
  if (s.verdict === 'faster' || s.verdict === 'slower') return `e-value ${s.evalue === undefined ? 'NA' : s.evalue.toPrecision(3)}: ${ci}`
  if (s.reason === 'inside threshold') return `interval inside the threshold: ${ci}`
  return `still running: ${need}${ci}`
}

/**
 * The progress text: how many configurations stopped, and the open one
 * nearest a call: its pairs, its e-value and the bar the next call must reach
 * (version 2; version 1: its half-width).
 * @param {ReturnType<typeof seqStates>} states
 * @param {{threshold: number}} params
 */
function describeOpen (states, params) {
  const open = states.filter((s) => s.verdict === 'running')
  const head = `seq ${states.length - open.length}/${states.length} stopped`
  if (open.length === 0) return head
  const near = open.reduce((a, b) => ((b.evalue ?? 0) > (a.evalue ?? 0) ? b : a))
  const how = near.evalue === undefined
    ? `±${Number.isFinite(near.hi - near.lo) ? ((Math.exp((near.hi - near.lo) / 2) - 1) * 100).toFixed(1) : 'inf'}% (threshold ±${params.threshold}%)`
    : `e-value ${near.evalue.toPrecision(3)} of the ${Math.round(near.bar ?? Infinity)} a call needs`
  return `${head}; open ${open.length}, nearest ${near.filename} ${near.configuration} at ${near.n} pairs, ${how}`
}

module.exports = { seqRule, describeOpen, summary, stopRecord, stopLine }
