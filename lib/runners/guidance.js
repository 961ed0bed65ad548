'use strict'
// Guidance where a runner hides noise, from one run's tasks (pure):
//  - a per-run value that already summarises many samples: the pairs count
//    processes, and the runner's own error bars do not carry across them;
//  - a task within a factor of an empty function (the runner's noop, or
//    under a nanosecond an operation): the JIT may have removed the work;
//  - samples dominated by the timer's resolution: the smallest step between
//    sample values is a sizeable share of the median, or samples are zero;
//  - a task whose rate depends on the order of the tasks in the process
//    (orderEffects: odd pairs run forward, even pairs with
//    BENCHRIG_TASK_ORDER=reverse, which a benchmark may honour).

const DEAD_FACTOR = 2
const TIMER_SHARE = 0.01

/**
 * The clock step seen in samples: the smallest positive difference between
 * distinct sorted values, as a share of the median; and the share of zeros.
 * Only samples that repeat values show a step (at most half of them
 * distinct): the smallest gap of a few continuous values is chance.
 * @param {number[]} samples
 */
function resolutionShare (samples) {
  const s = samples.filter((x) => x >= 0).sort((a, b) => a - b)
  if (s.length < 8) return { step: 0, zeros: 0 }
  if (new Set(s).size > s.length / 2) return { step: 0, zeros: s.filter((x) => x === 0).length / s.length }
  const median = s[Math.floor(s.length / 2)]
  let step = Infinity
  for (let i = 1; i < s.length; i++) {
    const d = s[i] - s[i - 1]
    if (d > 0 && d < step) step = d
  }
  const zeros = s.filter((x) => x === 0).length / s.length
  return { step: median > 0 && Number.isFinite(step) ? step / median : 0, zeros }
}

/**
 * @param {import('./index.js').Runner} runner
 * @param {import('./index.js').RunnerResult} result
 * @returns {{key: string, message: string}[]}
 */
function taskWarnings (runner, result) {
  const out = []
  const many = result.tasks.filter((t) => t.count > 1)
  if (many.length > 0) {
    const n = Math.min(...many.map((t) => t.count))
    out.push({
      key: 'averaged',
      message: `${runner.name} gives each run's ${runner.stat} of ${n} or more samples: one run is still one value (samples inside one process share its JIT, heap layout and CPU), so the pairs count processes. The runner's own ± does not carry across processes; a shorter runner setting with more pairs usually reaches a verdict sooner than longer runs`
    })
  }
  for (const t of result.tasks) {
    const tooFast = result.noopRate ? t.rate > result.noopRate / DEAD_FACTOR : t.rate > 1e9
    if (tooFast) {
      out.push({ key: `dead:${t.name}`, message: `${t.name}: ${fmt(t.rate)} ops/s is within a factor ${DEAD_FACTOR} of ${result.noopRate ? `${runner.name}'s empty function (${fmt(result.noopRate)} ops/s)` : 'one operation per nanosecond'}: the work may have been optimised away (use its result, e.g. return it)` })
    }
    if (t.samples && t.sampleUnit !== 'ops/s') {
      const r = resolutionShare(t.samples)
      if (r.zeros > 0.1 || r.step > TIMER_SHARE) {
        out.push({ key: `timer:${t.name}`, message: `${t.name}: its samples are dominated by the timer's resolution (${r.zeros > 0.1 ? `${Math.round(r.zeros * 100)}% are zero` : `the clock's step is ${(r.step * 100).toFixed(1)}% of the median`}): make one sample do more work (a loop inside the task, or the runner's batching)` })
      }
    }
  }
  return out
}

// Order effects: per side, the difference of the median log rates of the
// reverse and forward runs, over its standard error (the median's, 1.2533
// sigma / sqrt(n), sigma from the MAD); the sides' z combined (Stouffer). A
// note when |z| > Z_ORDER and the change is over ORDER_MIN: the false-note
// rate with no order effect is below 1% (test/runners/guidance.test.js
// simulates it).
const Z_ORDER = 3.29
const ORDER_MIN = 0.05
const MIN_RUNS = 6

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * @param {Map<string, Record<string, {forward: number[], reverse: number[]}>>} byTask
 *   per task and side, the rates of the runs in each order
 * @returns {{task: string, change: number, z: number, message: string}[]}
 */
function orderEffects (byTask) {
  const out = []
  for (const [task, sides] of byTask) {
    const zs = []
    const ds = []
    for (const g of Object.values(sides)) {
      if (g.forward.length < MIN_RUNS || g.reverse.length < MIN_RUNS) continue
      const f = g.forward.map(Math.log)
      const r = g.reverse.map(Math.log)
      const mf = median(f)
      const mr = median(r)
      // the MAD of a few runs underestimates sigma: widened by 1 + 3 / (the smaller count) (simulated)
      const sigma = 1.4826 * median([...f.map((x) => Math.abs(x - mf)), ...r.map((x) => Math.abs(x - mr))]) * (1 + 3 / Math.min(f.length, r.length))
      if (!(sigma > 0)) continue
      const se = 1.2533 * sigma * Math.sqrt(1 / f.length + 1 / r.length)
      zs.push((mr - mf) / se)
      ds.push(mr - mf)
    }
    if (zs.length === 0) continue
    const z = zs.reduce((a, b) => a + b, 0) / Math.sqrt(zs.length)
    const change = Math.exp(ds.reduce((a, b) => a + b, 0) / ds.length) - 1
    if (Math.abs(z) > Z_ORDER && Math.abs(change) > ORDER_MIN) {
      out.push({ task, change, z, message: `${task}: its rate changes by ${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}% when the tasks run in reverse order (BENCHRIG_TASK_ORDER=reverse in even pairs; z = ${z.toFixed(1)}): what runs before it in the process changes it (JIT state, GC, caches); the comparison holds for the order it ran in, and each order had the same pairs on both sides` })
    }
  }
  return out
}

const fmt = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(4))

module.exports = { taskWarnings, resolutionShare, orderEffects }
