#!/usr/bin/env node
'use strict'
// The long form of the statistics acceptance: runs the experiments of
// experiments.js under the noise model of model.js and prints their figures
// as JSON (the ones quoted in docs/compare.md).
//
//   node bench/stats-sim/run.js [--sims N] [--seed S] [--noise realistic|loaded]
//                               [--only geomean,auto,hint,gate,power,welch] [--configs N] [--effect R]
//                               [--skip-former] [--files N] [--max-runs N] [--threshold PCT]
// --only seq: --runs seq (version 2; and version 1 beside it) beside fixed 30
//   and auto, A/A and true +2% and +5% changes (--effect is ignored), peeking
//   at every pair; then A/A with futility off (every configuration looked at
//   after each of --max-runs pairs), and one configuration alone
// --only seqone: only the last of those (one configuration, A/A, futility off)
// --only duet: the same on the duet model (shared interference, per-side
//   noise, CPU set B 3% faster, the sets drawn per pair), and fixed 30 with
//   the sets drawn per pair and with old always on set A
// --configs: configurations per file in the --runs auto experiment (default 2)
// --effect: their true ratio new/old (default 1, no change: the A/A rate;
//   e.g. 1.05: the share called at p < .05 and the pairs a changed file uses)
// --skip-former: leave out the rules --runs auto replaced (4x faster)
const { parseArgs } = require('node:util')
const e = require('./experiments.js')

const USAGE = 'usage: node bench/stats-sim/run.js [--sims N] [--seed S] [--noise realistic|loaded] [--only geomean,auto,hint,gate,power,welch,seq,seqone,duet] [--configs N] [--effect R] [--skip-former] [--files N] [--max-runs N] [--threshold PCT]\n'
const { values } = parseFlags({
  options: {
    sims: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    noise: { type: 'string', default: 'realistic' },
    only: { type: 'string', default: 'geomean,auto,hint,gate,power' },
    configs: { type: 'string', default: '2' },
    effect: { type: 'string', default: '1' },
    'skip-former': { type: 'boolean', default: false },
    files: { type: 'string', default: '3' },
    'max-runs': { type: 'string', default: '100' },
    threshold: { type: 'string', default: '1' }
  }
})
function parseFlags (config) {
  try {
    return parseArgs(config)
  } catch (err) {
    process.stderr.write(`run.js: ${err.message}\n${USAGE}`)
    process.exit(2)
  }
}
const sims = Number(values.sims)
const seed = Number(values.seed)
const effect = Number(values.effect)
if (!(sims >= 1) || !Number.isInteger(seed) || !(effect > 0) || !(Number(values.files) >= 1) || !(Number(values['max-runs']) >= 2) || !(Number(values.threshold) > 0)) {
  process.stderr.write('run.js: --sims N (>= 1), --seed S (an integer), --effect R (a ratio > 0), --files N (>= 1), --max-runs N (>= 2), --threshold PCT (> 0)\n')
  process.exitCode = 2
} else {
  main().catch((err) => { process.stderr.write(`${err.stack}\n`); process.exitCode = 1 })
}

async function main () {
  const opts = { sims, seed, noise: values.noise }
  const only = new Set(values.only.split(','))
  const out = { command: `node bench/stats-sim/run.js --sims ${sims} --seed ${seed} --noise ${values.noise} --only ${values.only} --configs ${values.configs} --effect ${values.effect}${values['skip-former'] ? ' --skip-former' : ''}` }
  const time = async (name, fn) => {
    const t0 = process.hrtime.bigint()
    out[name] = await fn()
    out[name].seconds = Number(process.hrtime.bigint() - t0) / 1e9
    process.stderr.write(`${name}: ${JSON.stringify(out[name])}\n`)
  }
  if (only.has('geomean')) await time('geomean', () => e.geomeanCoverage(opts))
  if (only.has('auto')) await time('auto', () => e.autoAA({ ...opts, configs: Number(values.configs), effect, former: !values['skip-former'] }))
  if (only.has('hint')) await time('hint', () => e.hintAA(opts))
  if (only.has('gate')) await time('gate', () => e.gateAtThreshold(opts))
  if (only.has('power')) await time('power', () => e.gatePower(opts))
  if (only.has('welch')) await time('welch', () => e.welchAA(opts))
  if (only.has('seq')) {
    const s = { ...opts, files: Number(values.files), configs: Number(values.configs), maxPairs: Number(values['max-runs']), threshold: Number(values.threshold) }
    await time('seqAA', () => e.seqDesigns({ ...s, effect: 1, v1: true }))
    await time('seqPlus2', () => e.seqDesigns({ ...s, effect: 1.02, v1: true }))
    await time('seqPlus5', () => e.seqDesigns({ ...s, effect: 1.05, v1: true }))
    await time('seqAANoFutility', () => e.seqDesigns({ ...s, effect: 1, futility: false, others: false }))
    await time('seqAAOneConfig', () => e.seqDesigns({ ...s, files: 1, configs: 1, effect: 1, futility: false, others: false }))
  }
  if (only.has('seqone')) {
    const s = { ...opts, maxPairs: Number(values['max-runs']), threshold: Number(values.threshold) }
    await time('seqAAOneConfig', () => e.seqDesigns({ ...s, files: 1, configs: 1, effect: 1, futility: false, others: false }))
  }
  if (only.has('duet')) {
    const s = { ...opts, files: Number(values.files), configs: Number(values.configs), maxPairs: Number(values['max-runs']), threshold: Number(values.threshold), machine: 'duet' }
    await time('duetSeqAA', () => e.seqDesigns({ ...s, effect: 1, v1: true }))
    await time('duetSeqPlus2', () => e.seqDesigns({ ...s, effect: 1.02, v1: true }))
    await time('duetSeqPlus5', () => e.seqDesigns({ ...s, effect: 1.05, v1: true }))
    await time('duetSeqAANoFutility', () => e.seqDesigns({ ...s, effect: 1, futility: false, others: false }))
    await time('duetAA', () => e.duetDesigns({ ...s, effect: 1 }))
  }
  process.stdout.write(JSON.stringify(out, null, 2) + '\n')
}
