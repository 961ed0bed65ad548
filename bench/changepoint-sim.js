#!/usr/bin/env node
'use strict'
// How well lib/history/changepoint.js finds steps: seeded synthetic series
// of one value per label (a label's median), log-normal noise of a given
// coefficient of variation, and either one step of a known size at a random
// label (recall) or no step at all (false alarms).
//   recall: a change point within --tolerance labels of the true step, with
//     the step's sign; "CI covers": the Hodges–Lehmann interval of a found
//     step holds the true size
//   false alarms: step-free series with at least one change point, and
//     change points per 100 labels
//
// Usage: node bench/changepoint-sim.js [--series N] [--length L] [--noise 0.005,0.01,0.02]
//          [--steps 0.02,0.05] [--tolerance K] [--seed S] [--json]
const { parseArgs } = require('node:util')
const { createRng } = require('../lib/stats/prng.js')
const { detectChanges } = require('../lib/history/changepoint.js')

const USAGE = 'usage: node bench/changepoint-sim.js [--series N] [--length L] [--noise 0.005,0.01,0.02] [--steps 0.02,0.05] [--tolerance K] [--seed S] [--json]'

/**
 * One series: `length` values around 1000 with noise `cv`, multiplied by
 * 1 + step from label `at` on (no step: step 0).
 */
function series (rng, length, cv, step, at) {
  const x = new Float64Array(length)
  for (let i = 0; i < length; i++) x[i] = 1000 * (i >= at ? 1 + step : 1) * Math.exp(cv * rng.normal())
  return x
}

/**
 * @param {{series: number, length: number, noise: number, step: number, tolerance: number, seed: number}} o
 */
function simulate (o) {
  const rng = createRng(o.seed)
  let hits = 0
  let covered = 0
  let alarmed = 0
  let changes = 0
  for (let s = 0; s < o.series; s++) {
    // the step somewhere in the middle 60% (a step at the very ends has few labels on one side)
    const at = o.step === 0 ? o.length : Math.floor(o.length * 0.2) + rng.int(Math.floor(o.length * 0.6))
    const r = detectChanges(series(rng, o.length, o.noise, o.step, at))
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
    ? { falseAlarmSeries: alarmed / o.series, changesPer100Labels: 100 * changes / (o.series * o.length) }
    : { recall: hits / o.series, ciCovers: hits ? covered / hits : NaN, changesPerSeries: changes / o.series }
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

function main (argv) {
  let v
  try {
    v = parseArgs({ args: argv, options: { series: { type: 'string' }, length: { type: 'string' }, noise: { type: 'string' }, steps: { type: 'string' }, tolerance: { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }).values
    if (v.help) { console.log(USAGE); return 0 }
    v = {
      series: whole(v.series ?? 500, '--series', 1),
      length: whole(v.length ?? 100, '--length', 10),
      noise: list(v.noise ?? '0.005,0.01,0.02', '--noise'),
      steps: list(v.steps ?? '0.02,0.05', '--steps'),
      tolerance: whole(v.tolerance ?? 2, '--tolerance', 0),
      seed: whole(v.seed ?? 1, '--seed', 0),
      json: Boolean(v.json)
    }
  } catch (err) {
    console.error(`${err.message}\n${USAGE}`)
    return 2
  }
  const rows = []
  for (const noise of v.noise) {
    const row = { noise, falseAlarms: simulate({ ...v, noise, step: 0 }) }
    for (const step of v.steps) row[`step${step}`] = simulate({ ...v, noise, step })
    rows.push(row)
  }
  if (v.json) { console.log(JSON.stringify({ series: v.series, length: v.length, tolerance: v.tolerance, seed: v.seed, rows })); return 0 }
  const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a')
  console.log(`${v.series} series of ${v.length} labels per cell, seed ${v.seed}; a hit is within ${v.tolerance} labels, right sign`)
  console.log(['noise CV', 'series with a false alarm', 'false alarms /100 labels', ...v.steps.flatMap((s) => [`recall ${pct(s)} step`, `CI covers ${pct(s)}`])].join(' | '))
  for (const r of rows) {
    console.log([pct(r.noise), pct(r.falseAlarms.falseAlarmSeries), r.falseAlarms.changesPer100Labels.toFixed(3), ...v.steps.flatMap((s) => [pct(r[`step${s}`].recall), pct(r[`step${s}`].ciCovers)])].join(' | '))
  }
  return 0
}

if (require.main === module) process.exitCode = main(process.argv.slice(2))

module.exports = { simulate }
