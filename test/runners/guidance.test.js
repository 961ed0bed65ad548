'use strict'
// The notes where a runner hides noise, from one run's tasks (pure data):
// a value that summarises many samples, a task near an empty function,
// samples dominated by the timer's step.
const t = require('tap')
const { taskWarnings, resolutionShare } = require('../../lib/runners/guidance.js')
const mitata = require('../../lib/runners/mitata.js')
const tinybench = require('../../lib/runners/tinybench.js')

const keys = (ws) => ws.map((w) => w.key).sort()

t.test('a run\'s value over many samples: one note naming the runner, its statistic and the least count', async (t) => {
  const ws = taskWarnings(tinybench, { tasks: [{ name: 'a', rate: 1e4, stat: 'median', count: 900 }, { name: 'b', rate: 2e4, stat: 'median', count: 300 }], errors: [] })
  t.same(keys(ws), ['averaged'])
  t.match(ws[0].message, /^tinybench gives each run's median of 300 or more samples: one run is still one value .* the pairs count processes/)
  t.same(taskWarnings(tinybench, { tasks: [{ name: 'a', rate: 1e4, stat: 'median', count: 1 }], errors: [] }), [], 'one sample per run: nothing to say')
})

t.test('dead code: within a factor 2 of the runner\'s empty function, or faster than 1 ns an operation without one', async (t) => {
  const near = taskWarnings(mitata, { tasks: [{ name: 'empty', rate: 6e8, stat: 'median' }, { name: 'work', rate: 1e6, stat: 'median' }], errors: [], noopRate: 1e9 })
  t.same(keys(near), ['dead:empty'])
  t.match(near[0].message, /^empty: 600,000,000 ops\/s is within a factor 2 of mitata's empty function \(1,000,000,000 ops\/s\): the work may have been optimised away/)
  t.same(keys(taskWarnings(tinybench, { tasks: [{ name: 'x', rate: 2e9, stat: 'median' }], errors: [] })), ['dead:x'])
  t.same(taskWarnings(tinybench, { tasks: [{ name: 'x', rate: 5e8, stat: 'median' }], errors: [] }), [])
})

t.test('timer resolution: zeros, or a clock step over 1% of the median', async (t) => {
  const step = (n, tick, base) => Array.from({ length: n }, (_, i) => base + tick * (i % 3))
  t.same(resolutionShare(step(30, 0.001, 0.01)).step.toFixed(3), '0.091', 'a 1 us step of samples 10 to 12 us (median 11): 9.1%')
  t.same(keys(taskWarnings(tinybench, { tasks: [{ name: 'q', rate: 1e5, stat: 'median', samples: step(30, 0.001, 0.01), sampleUnit: 'ms' }], errors: [] })), ['timer:q'])
  const zeros = [...Array(10).fill(0), ...step(20, 0.000001, 0.05)]
  t.match(taskWarnings(tinybench, { tasks: [{ name: 'z', rate: 1e5, stat: 'median', samples: zeros, sampleUnit: 'ms' }], errors: [] })[0].message, /z: its samples are dominated by the timer's resolution \(33% are zero\)/)
  const fine = Array.from({ length: 30 }, (_, i) => 1 + i * 1e-5)
  t.same(taskWarnings(tinybench, { tasks: [{ name: 'f', rate: 1e3, stat: 'median', samples: fine, sampleUnit: 'ms' }], errors: [] }), [], 'a fine clock: nothing')
  const spread = [5.1, 4.2, 6.3, 5.05, 7.7, 4.9, 5.6, 6.1, 4.4, 5.3]
  t.same(taskWarnings(tinybench, { tasks: [{ name: 's', rate: 200, stat: 'median', samples: spread, sampleUnit: 'ms' }], errors: [] }), [], 'ten spread values without repeats: their smallest gap is chance, not a clock')
  t.same(resolutionShare([1, 2]), { step: 0, zeros: 0 }, 'too few samples to tell')
})

t.test('order effects: seeded simulation of the note\'s false-alarm rate and power', async (t) => {
  const { orderEffects } = require('../../lib/runners/guidance.js')
  const { createRng } = require('../../lib/prng.js')
  /** one comparison: per side, n runs in each order; log rates with noise sigma (10% of runs 5x wider), reverse shifted by `effect` */
  const simulate = (rng, { n, sigma, effect }) => {
    const noise = () => rng.normal() * sigma * (rng.uniform() < 0.1 ? 5 : 1)
    const sides = {}
    for (const side of ['old', 'new']) {
      const level = side === 'new' ? Math.log(0.7) : 0
      sides[side] = {
        forward: Array.from({ length: n }, () => Math.exp(10 + level + noise())),
        reverse: Array.from({ length: n }, () => Math.exp(10 + level + effect + noise()))
      }
    }
    return orderEffects(new Map([['task', sides]])).length
  }
  const rate = (seed, o, reps) => {
    const rng = createRng(seed)
    let notes = 0
    for (let i = 0; i < reps; i++) notes += simulate(rng, o)
    return notes / reps
  }
  // 2000 comparisons without an order effect, at 12 to 40 pairs (6 to 20 runs per order and side)
  for (const n of [6, 8, 12, 20]) {
    const fp = rate(20 + n, { n, sigma: 0.1, effect: 0 }, 2000)
    t.ok(fp < 0.01, `no order effect, ${n} runs per order and side: notes in ${(fp * 100).toFixed(2)}% of comparisons (< 1%)`)
  }
  const power = rate(7, { n: 6, sigma: 0.05, effect: Math.log(1.2) }, 500)
  t.ok(power > 0.8, `a 20% order effect, noise 5%, 6 runs per order and side: noted in ${(power * 100).toFixed(1)}% (> 80%)`)
  t.equal(rate(9, { n: 5, sigma: 0.05, effect: Math.log(1.5) }, 50), 0, 'fewer than 6 runs per order and side: no note')
  const small = rate(8, { n: 12, sigma: 0.005, effect: Math.log(1.03) }, 200)
  t.equal(small, 0, 'a 3% effect, however clear, is under the 5% the note asks for')
})
