'use strict'
// --runs auto: the controller adds pairs only where the CI is too wide, stops
// at the cap or the time budget, and never looks at the direction or size of
// the change. runBatch here draws rows from a seeded noise model instead of
// running processes, so the rule itself is tested quickly and exactly.
const t = require('tap')
const { runAuto, filesNeedingPairs } = require('../../lib/compare/auto.js')
const { createRng } = require('../../lib/prng.js')
const { parseCompareArgs } = require('../../lib/cli/compare.js')

// Noise per file: a.js is quiet, b.js noisy. effect multiplies new's rate.
function simulatedBatches ({ seed, effect, noise = { 'cpu/a.js': 0.002, 'cpu/b.js': 0.03 } }) {
  const streams = new Map()
  const calls = []
  return {
    calls,
    runBatch: async (files, pairs, firstPair) => {
      calls.push({ files: files.map((f) => f.name), pairs, firstPair })
      const rows = []
      for (const f of files) {
        if (!streams.has(f.name)) streams.set(f.name, createRng(seed + f.name.length))
        const rng = streams.get(f.name)
        for (let p = firstPair; p < firstPair + pairs; p++) {
          const level = 1e6 * Math.exp(0.2 * rng.normal())
          rows.push({ binary: 'old', filename: f.name, configuration: 'x=1', rate: level * Math.exp(noise[f.name] * rng.normal()), pair: p })
          rows.push({ binary: 'new', filename: f.name, configuration: 'x=1', rate: effect * level * Math.exp(noise[f.name] * rng.normal()), pair: p })
        }
      }
      return { rows, stopped: false }
    }
  }
}

const FILES = [{ file: '/x/cpu/a.js', name: 'cpu/a.js' }, { file: '/x/cpu/b.js', name: 'cpu/b.js' }]

t.test('a pilot of 6 pairs, at least as many again, then more pairs only for the file whose CI is too wide', async (t) => {
  const sim = simulatedBatches({ seed: 1, effect: 1 })
  const res = await runAuto({ files: FILES, pilot: 6, target: 0.5, maxPairs: 60, runBatch: sim.runBatch })
  t.same(sim.calls[0], { files: ['cpu/a.js', 'cpu/b.js'], pairs: 6, firstPair: 1 }, 'the pilot runs every file')
  t.same(sim.calls[1], { files: ['cpu/a.js', 'cpu/b.js'], pairs: 6, firstPair: 7 }, 'every file gets twice the pilot')
  t.ok(sim.calls.slice(2).every((c) => c.files.length === 1 && c.files[0] === 'cpu/b.js'), 'later rounds run only the noisy file')
  t.ok(sim.calls.length > 2)
  t.ok(sim.calls.slice(1).every((c, i) => c.pairs <= c.firstPair - 1), 'no round more than doubles a file')
  t.equal(new Set(res.rows.filter((r) => r.filename === 'cpu/a.js').map((r) => r.pair)).size, 12, 'the quiet file stops at 12 pairs')
  const pairsB = new Set(res.rows.filter((r) => r.filename === 'cpu/b.js').map((r) => r.pair))
  t.ok(pairsB.size <= 60, 'the cap holds')
  t.ok(res.stoppedBy === 'target' || (pairsB.size === 60 && /^--max-runs/.test(res.stoppedBy)), res.stoppedBy)
  t.same(filesNeedingPairs(res.rows, { target: 0.5, maxPairs: 60 }).size, 0, 'nothing is left to do')
})

t.test('the stopping rule does not depend on the direction or size of the effect', async (t) => {
  const plans = []
  for (const effect of [0.9, 1, 1.1]) {
    const sim = simulatedBatches({ seed: 7, effect })
    const res = await runAuto({ files: FILES, pilot: 6, target: 0.5, maxPairs: 40, runBatch: sim.runBatch })
    plans.push({ calls: sim.calls, rows: res.rows.length })
  }
  t.same(plans[1], plans[0], 'slower by 10%: the same batches as no change')
  t.same(plans[2], plans[0], 'faster by 10%: the same batches as no change')
})

t.test('a cap that stops the rounds is named', async (t) => {
  const sim = simulatedBatches({ seed: 2, effect: 1 })
  const res = await runAuto({ files: FILES, pilot: 6, target: 0.01, maxPairs: 12, runBatch: sim.runBatch })
  t.match(res.stoppedBy, /^--max-runs \(2 configuration\(s\) still wider than the target\)/)
  t.ok(res.rows.every((r) => r.pair <= 12))
})

t.test('the time budget stops before a batch that would overrun it', async (t) => {
  let clock = 0
  const sim = simulatedBatches({ seed: 3, effect: 1 })
  const runBatch = async (files, pairs, firstPair) => {
    clock += pairs * files.length * 1000 // one second per pair and file
    return sim.runBatch(files, pairs, firstPair)
  }
  const res = await runAuto({ files: FILES, pilot: 6, target: 0.01, maxPairs: 1000, timeBudgetMs: 20000, runBatch, now: () => clock })
  t.equal(res.stoppedBy, 'time budget')
  t.ok(clock <= 20000, `used ${clock / 1000} s of 20`)
})

t.test('command line of --runs auto', (t) => {
  const o = parseCompareArgs(['--old', process.execPath, '--new', process.execPath, '--runs', 'auto', '--target', '1', '--time-budget', '60', 'cpu'])
  t.same(o.auto, { pilot: 6, target: 1, maxPairs: 60, timeBudgetMs: 60000 })
  t.throws(() => parseCompareArgs(['--old', process.execPath, '--new', process.execPath, '--target', '1', 'cpu']), /go with --runs auto/)
  t.throws(() => parseCompareArgs(['--old', process.execPath, '--new', process.execPath, '--runs', '0', 'cpu']), /--runs 0: give a whole number >= 1/)
  t.throws(() => parseCompareArgs(['--old', process.execPath, '--new', process.execPath, '--set', 'oops', 'cpu']), /--set oops: expected key=value/)
  t.equal(parseCompareArgs(['--old', process.execPath, '--new', process.execPath, 'cpu']).runs, 30, '30 pairs by default')
  t.end()
})
