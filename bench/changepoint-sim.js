#!/usr/bin/env node
'use strict'
// How well lib/history/changepoint.js finds steps: seeded synthetic series
// of labels that each hold --runs runs (replicates), log-normal run noise of
// a given coefficient of variation, optional label-to-label noise (a
// per-label offset: another day, another build), and either one step of a
// known size (recall) or no step at all (false alarms). The detector sees
// every run (detectGroupChanges: one run per label is the classic one value
// per label).
//   recall: a change point within --tolerance labels of the true step, with
//     the step's sign; "CI covers": the interval of a found step holds the
//     true size
//   false alarms: step-free series with at least one change point, and
//     change points per 100 labels
//   --at first puts the step after the first label (a release that regressed
//     at once); middle (default) anywhere in the middle 60%
//   --grid runs the matrix the docs quote: runs 1,5,30 x labels 6,12,50 x
//     steps 2%,5%,50% x the --noise list, step after the first label and in
//     the middle
//
// Usage: node bench/changepoint-sim.js [--series N] [--length L] [--runs R] [--noise 0.02,0.1,0.3]
//          [--label-noise CV] [--pool-p P] [--steps 0.02,0.05,0.5] [--at first|middle] [--tolerance K] [--seed S] [--grid] [--json]
const { parseArgs } = require('node:util')
const { createRng } = require('../lib/prng.js')
const { detectGroupChanges } = require('../lib/history/changepoint.js')

const USAGE = 'usage: node bench/changepoint-sim.js [--series N] [--length L] [--runs R] [--noise 0.02,0.1,0.3] [--label-noise CV] [--pool-p P] [--steps 0.02,0.05,0.5] [--at first|middle] [--tolerance K] [--seed S] [--grid] [--json]'

/**
 * One series: `length` labels of `runs` values around 1000 with run noise
 * `cv` and label noise `labelCv`, multiplied by 1 + step from label `at` on.
 */
function series (rng, o, step, at) {
  const groups = []
  for (let i = 0; i < o.length; i++) {
    const level = 1000 * (i >= at ? 1 + step : 1) * Math.exp((o.labelNoise ?? 0) * rng.normal())
    const g = []
    for (let j = 0; j < (o.runs ?? 1); j++) g.push(level * Math.exp(o.noise * rng.normal()))
    groups.push(g)
  }
  return groups
}

/**
 * @param {{series: number, length: number, runs: number, noise: number, labelNoise?: number, poolP?: number, step: number, at?: string, tolerance: number, seed: number}} o
 */
function simulate (o) {
  const rng = createRng(o.seed)
  let hits = 0
  let covered = 0
  let alarmed = 0
  let changes = 0
  let untestable = 0
  for (let s = 0; s < o.series; s++) {
    // first: after label 0; middle: somewhere in the middle 60% (a step at the very ends has few labels on one side)
    const at = o.step === 0 ? o.length : o.at === 'first' ? 1 : Math.max(1, Math.floor(o.length * 0.2) + rng.int(Math.max(1, Math.floor(o.length * 0.6))))
    const r = detectGroupChanges(series(rng, o, o.step, at), o.poolP === undefined ? {} : { poolP: o.poolP })
    if (r.untestable) untestable++
    changes += r.changes.length
    if (o.step === 0) {
      if (r.changes.length > 0) alarmed++
      continue
    }
    const hit = r.changes.find((c) => Math.abs(c.index - at) <= o.tolerance && Math.sign(c.size) === Math.sign(o.step))
    if (hit) {
      hits++
      if (hit.ci[0] <= o.step && o.step <= hit.ci[1]) covered++
    }
  }
  return o.step === 0
    ? { falseAlarmSeries: alarmed / o.series, changesPer100Labels: 100 * changes / (o.series * o.length), untestable: untestable / o.series }
    : { recall: hits / o.series, ciCovers: hits ? covered / hits : NaN, changesPerSeries: changes / o.series, untestable: untestable / o.series }
}

function list (v, flag) {
  const xs = String(v).split(',').map(Number)
  if (xs.some((x) => !(x >= 0 && x < 1))) throw new Error(`${flag} ${v}: give fractions, e.g. 0.01,0.02`)
  return xs
}

function whole (v, flag, min) {
  const n = Number(v)
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag} ${v}: give a whole number >= ${min}`)
  return n
}

const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a')

function main (argv) {
  let v
  try {
    v = parseArgs({ args: argv, options: { series: { type: 'string' }, length: { type: 'string' }, runs: { type: 'string' }, noise: { type: 'string' }, 'label-noise': { type: 'string' }, 'pool-p': { type: 'string' }, steps: { type: 'string' }, at: { type: 'string' }, tolerance: { type: 'string' }, seed: { type: 'string' }, grid: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }).values
    if (v.help) { console.log(USAGE); return 0 }
    if (v.at !== undefined && v.at !== 'first' && v.at !== 'middle') throw new Error(`--at ${v.at}: give first or middle`)
    v = {
      series: whole(v.series ?? 200, '--series', 1),
      length: whole(v.length ?? 100, '--length', 2),
      runs: whole(v.runs ?? 1, '--runs', 1),
      noise: list(v.noise ?? '0.02,0.1,0.3', '--noise'),
      labelNoise: list(v['label-noise'] ?? '0', '--label-noise')[0],
      poolP: v['pool-p'] === undefined ? undefined : list(v['pool-p'], '--pool-p')[0],
      steps: list(v.steps ?? '0.02,0.05,0.5', '--steps'),
      at: v.at ?? 'middle',
      tolerance: whole(v.tolerance ?? 1, '--tolerance', 0),
      seed: whole(v.seed ?? 1, '--seed', 0),
      grid: Boolean(v.grid),
      json: Boolean(v.json)
    }
  } catch (err) {
    console.error(`${err.message}\n${USAGE}`)
    return 2
  }
  const cells = v.grid
    ? [1, 5, 30].flatMap((runs) => [6, 12, 50].flatMap((length) => ['first', 'middle'].map((at) => ({ runs, length, at }))))
    : [{ runs: v.runs, length: v.length, at: v.at }]
  const rows = []
  for (const c of cells) {
    for (const noise of v.noise) {
      const o = { ...v, ...c, noise }
      const row = { runs: c.runs, labels: c.length, at: c.at, noise, labelNoise: v.labelNoise, falseAlarms: simulate({ ...o, step: 0 }) }
      for (const step of v.steps) row[`step${step}`] = simulate({ ...o, step })
      rows.push(row)
      if (!v.json) printRow(row, v.steps, rows.length === 1, v)
    }
  }
  if (v.json) console.log(JSON.stringify({ series: v.series, tolerance: v.tolerance, seed: v.seed, labelNoise: v.labelNoise, rows }))
  return 0
}

function printRow (r, steps, first, v) {
  if (first) {
    console.log(`${v.series} series per cell, seed ${v.seed}, label noise ${pct(v.labelNoise)}; a hit is within ${v.tolerance} label${v.tolerance === 1 ? '' : 's'}, right sign; "untestable": series the detector says are too small to test`)
    console.log(['runs', 'labels', 'step at', 'noise CV', 'false alarm series', 'untestable', ...steps.flatMap((s) => [`recall ${pct(s)}`, `CI covers ${pct(s)}`])].join(' | '))
  }
  console.log([r.runs, r.labels, r.at, pct(r.noise), pct(r.falseAlarms.falseAlarmSeries), pct(r.falseAlarms.untestable), ...steps.flatMap((s) => [pct(r[`step${s}`].recall), pct(r[`step${s}`].ciCovers)])].join(' | '))
}

if (require.main === module) process.exitCode = main(process.argv.slice(2))

module.exports = { simulate }
