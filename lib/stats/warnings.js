'use strict'
// Warnings about one configuration's data, as data with a hint (not thrown):
// too few runs, high variance, drift over run order, bimodality, runs too
// short to measure, and a fall-back to the unpaired test.
const { mean, sd, spearman, bimodalityCoefficient } = require('./descriptive.js')
const { tTail } = require('./distributions.js')

const FEW_RUNS = 10
const HIGH_CV = 0.10
const HIGH_RATIO_SD = 0.05
const DRIFT_P = 0.01
const BIMODAL_BC = 5 / 9

/**
 * @param {object} g
 * @param {string} g.filename
 * @param {string} g.configuration
 * @param {number[]} g.oldRates
 * @param {number[]} g.newRates
 * @param {number[]} [g.logRatios] per pair, in run order (paired data only)
 * @param {number} [g.droppedRows] rows left out because their pair was incomplete
 * @param {number} [g.medianTime] median measured time per run, in seconds
 * @param {number} [g.shortTime] below this median time, warn (seconds)
 * @param {string} [g.fallback] why rows with pairs were analysed unpaired
 * @param {string} [g.executor] the rows' executor: under duet the pinning advice is the crossover's, not --cpuset
 * @returns {{filename: string, configuration: string, kind: string, message: string}[]}
 */
function warningsFor (g) {
  const out = []
  const add = (kind, message) => out.push({ filename: g.filename, configuration: g.configuration, kind, message })
  const n = g.logRatios ? g.logRatios.length : Math.min(g.oldRates.length, g.newRates.length)
  const unit = g.logRatios ? 'pairs' : 'runs per binary'
  if (n < 6) {
    add('too-few-runs', `only ${n} ${unit}: a rank test cannot reach p < .05 below 6; run --runs 30 (the default) or more`)
  } else if (n < FEW_RUNS) {
    add('too-few-runs', `only ${n} ${unit}: confidence intervals are wide; run --runs 30 (the default) or more`)
  }
  // With pairs, what matters is the noise of the ratio (the machine's drift
  // cancels in it); without, the spread of each binary's rates.
  const pin = g.executor === 'duet' ? 'give --cpuset-old and --cpuset-new of idle CPUs (benchrig doctor shows them)' : 'pin with --cpuset'
  if (g.logRatios && g.logRatios.length >= 3) {
    const s = sd(g.logRatios)
    if (s > HIGH_RATIO_SD) {
      add('high-variance', `the new/old ratio varies by ${(s * 100).toFixed(1)}% between pairs (SD of log ratios): close other programs, ${pin}, raise the work per run (n=...), or run more pairs`)
    }
  }
  for (const [label, rates] of /** @type {[string, number[]][]} */ ([['old', g.oldRates], ['new', g.newRates]])) {
    if (rates.length < 3) continue
    const cv = sd(rates) / mean(rates)
    if (!g.logRatios && cv > HIGH_CV) {
      add('high-variance', `the ${label} rates vary by ${(cv * 100).toFixed(1)}% (coefficient of variation): close other programs, ${pin}, or raise the work per run (n=...)`)
    }
    if (rates.length >= 10) {
      const bc = bimodalityCoefficient(rates.map(Math.log))
      if (bc > BIMODAL_BC) {
        add('bimodal', `the ${label} rates look bimodal (bimodality coefficient ${bc.toFixed(2)} > 0.56): a fast and a slow mode, often CPU frequency, another process, or a JIT tier; the median and rank methods are robust to it, but check the cause`)
      }
    }
  }
  if (g.logRatios && g.logRatios.length >= 8) {
    const { rho, p } = spearman(g.logRatios.map((_, i) => i), g.logRatios, tTail)
    if (p < DRIFT_P) {
      add('drift', `the new/old ratio drifts over the run (rank correlation with pair order ${rho.toFixed(2)}, p=${p.toPrecision(2)}): the machine changed during the run (thermal, load); rerun on a quiet machine`)
    }
  }
  if (g.fallback) add('unpaired', g.fallback)
  if (g.medianTime !== undefined && g.shortTime !== undefined && g.medianTime < g.shortTime) {
    add('short-runs', `each run measures only ${(g.medianTime * 1000).toPrecision(2)} ms (median): at this length timer resolution, JIT tiers and scheduling make runs swing by large factors; raise the work per run (n=...) to ${g.shortTime * 1000 * 10} ms or more (calibrate-n.js finds such an n)`)
  }
  if (g.droppedRows > 0) {
    add('incomplete-pairs', `${g.droppedRows} rows had no partner run and were left out of the paired analysis (failed or interrupted runs); --resume completes them`)
  }
  return out
}

/** Above this ratio of the fastest CPU (set)'s median probe speed to the slowest's, the analysis says so. */
const CPU_SPEED_RATIO = 1.05

/**
 * The CPU speed the probe saw (compare's cpu_speed column, per CPU or CPU set
 * in cpuset), for the suite: each side's probe counted once per pair (a file's
 * configurations share it), the median per CPU; a warning when the slowest CPU's median is more
 * than a few per cent below the fastest's. The starved rule compares the CPU
 * time each side got, which a slower CPU does not show.
 * @param {{binary?: string, cpuset?: unknown, cpu_speed?: unknown, executor?: string, filename?: string, pair?: unknown, seed?: unknown}[]} rows
 * @returns {{filename: string, configuration: string, kind: string, message: string}[]}
 */
function cpuSpeedWarnings (rows) {
  const per = new Map()
  const seen = new Set()
  let executor
  for (const r of rows) {
    const v = Number(r.cpu_speed)
    if (r.cpu_speed === undefined || r.cpu_speed === null || r.cpu_speed === '' || !(v > 0)) continue
    if (r.cpuset === undefined || r.cpuset === null || r.cpuset === '') continue
    // one reading per (run, file, pair, side): a file's configurations share it
    const key = `${r.seed}\u0000${r.filename}\u0000${r.pair}\u0000${r.binary}`
    if (seen.has(key)) continue
    seen.add(key)
    executor = r.executor
    const set = String(r.cpuset)
    per.set(set, [...(per.get(set) ?? []), v])
  }
  const medians = [...per].filter(([, xs]) => xs.length >= 3).map(([set, xs]) => ({ set, n: xs.length, m: median(xs) })).sort((a, b) => a.m - b.m)
  if (medians.length < 2) return []
  const slow = medians[0]
  const fast = medians[medians.length - 1]
  if (fast.m / slow.m <= CPU_SPEED_RATIO) return []
  const pct = ((1 - slow.m / fast.m) * 100).toFixed(0)
  const what = executor === 'duet'
    ? 'the duet crossover removes a difference that lasts a block of two pairs (see cpu-effect)'
    : 'each pair ran on one CPU, so the difference is not in a pair\'s ratio'
  return [{ filename: '', configuration: '', kind: 'cpu-speed', message: `the CPU probe found CPU ${slow.set} ${pct}% slower than CPU ${fast.set} (medians of ${slow.n} and ${fast.n} probes): other work or the hypervisor took it; ${what}; "benchrig doctor" shows the machine` }]
}

function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

module.exports = { cpuSpeedWarnings, CPU_SPEED_RATIO, warningsFor }
