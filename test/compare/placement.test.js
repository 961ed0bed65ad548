'use strict'
// Where compare's runs go and what it sees of the CPUs: the placement (one
// CPU per pair by default, --cpuset, duet, --float), the seeded CPU of a pair,
// the CPU probe and its run-time warning, the duet crossover's collapse of
// blocks and its CPU effect (seeded data), the analysis warnings, and a real
// serial compare whose rows carry each pair's CPU and the probe.
const t = require('tap')
const path = require('node:path')
const { placement, cpuForPair, servesHttp } = require('../../lib/compare/pin.js')
const { allowedCpus, speedOf, spreadOf, setSpeed, createSpeedWatch, createCpuProbe, canPin } = require('../../lib/harness/cpu-probe.js')
const { crossoverRows, cpuEffects, cpuEffectWarnings, blocksOf, perArmEstimate } = require('../../lib/stats/crossover.js')
const { seqStates, seqLabel } = require('../../lib/stats/sequential.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { cpuSpeedWarnings } = require('../../lib/stats/warnings.js')
const { crossoverArm } = require('../../lib/compare/duet.js')
const { createRng } = require('../../lib/prng.js')
const { main, parseCompareArgs } = require('../../lib/cli/compare.js')
const { readRows } = require('./fixtures/helpers.js')

const ROOT = path.join(__dirname, 'fixtures', 'duet-bench')
const BIN = ['--old', process.execPath, '--new', process.execPath]

t.test('placement: one CPU per pair unless told otherwise', async (t) => {
  const env = { allowed: [0, 1, 2, 3], canPin: () => true }
  t.same(placement({}, env), { mode: 'one-cpu', cpus: [0, 1, 2, 3], probe: [0, 1, 2, 3] })
  t.match(placement({ float: true }, env), { mode: 'float', cpus: [], probe: [0, 1, 2, 3] })
  t.match(placement({ cpuset: '2-3' }, env), { mode: 'cpuset', probe: [2, 3] })
  t.match(placement({ duet: { sets: ['0', '1'] } }, env), { mode: 'duet', probe: [0, 1] })
  t.match(placement({}, { allowed: [3], canPin: () => true }), { mode: 'float' }, 'one CPU allowed: nothing to draw')
  t.same(placement({}, { allowed: [0, 1], canPin: () => false }), { mode: 'float', cpus: [], probe: [] }, 'no taskset: float, no probe')
  t.equal(placement({}, { allowed: Array.from({ length: 64 }, (_, i) => i), canPin: () => true }).probe.length, 8, 'at most 8 CPUs probed')
  t.throws(() => parseCompareArgs([...BIN, '--float', '--cpuset', '0', 'sect'], { defaultRoot: ROOT }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--float .* does not go with --cpuset/ })
  t.throws(() => parseCompareArgs([...BIN, '--float', '--duet', 'sect'], { defaultRoot: ROOT, duetEnv: { cpuCount: 2, siblings: (c) => [c], hasTaskset: () => true, platform: 'linux' } }), { message: /does not go with --duet/ })
  t.equal(parseCompareArgs([...BIN, '--float', 'sect'], { defaultRoot: ROOT }).float, true)
})

t.test('the CPU of a pair: seeded, every CPU used, the same for both runs', async (t) => {
  const counts = [0, 0, 0]
  for (let p = 1; p <= 600; p++) counts[cpuForPair(5, 'a/x.js', p, [0, 2, 5]) === 0 ? 0 : cpuForPair(5, 'a/x.js', p, [0, 2, 5]) === 2 ? 1 : 2]++
  t.ok(counts.every((c) => c > 150 && c < 250), `each of 3 CPUs drawn about a third of the time: ${counts}`)
  t.equal(cpuForPair(5, 'a/x.js', 17, [0, 1]), cpuForPair(5, 'a/x.js', 17, [0, 1]), 'seeded')
  t.equal(servesHttp(path.join(ROOT, 'sect', 'loop.js')), false)
  t.equal(servesHttp(path.join(__dirname, '..', 'fixtures', 'measure-cost', 'http', 'work.js')), true, 'a bench.http() file floats')
})

t.test('the probe: readings, spread, the run-time warning', async (t) => {
  t.same(allowedCpus('Name:\tnode\nCpus_allowed_list:\t0-2,5\n'), [0, 1, 2, 5])
  t.equal(allowedCpus('Name: x\n'), undefined)
  t.equal(speedOf([1000000, 1000000], 200000), 200, '2 x 200000 iterations in 2 ms: 200 per µs')
  t.equal(spreadOf({ 0: 400, 1: 250 }), 1.6)
  t.equal(spreadOf({ 0: 400 }), 1)
  t.equal(setSpeed({ 0: 400, 1: 200, 2: 300 }, '0-1'), 300)
  const warned = []
  const watch = createSpeedWatch({ warn: (w) => warned.push(w), window: 3, quiet: 8 })
  for (let i = 0; i < 3; i++) watch({ 0: 400, 1: 398 })
  t.same(warned, [], 'CPUs within 5%: quiet')
  for (let i = 0; i < 3; i++) watch({ 0: 400, 1: 250 })
  t.same(warned, [{ slow: '1', fast: '0', ratio: 1.6 }], 'warned once when CPU 1 fell behind')
  for (let i = 0; i < 3; i++) watch({ 0: 400, 1: 260 })
  t.equal(warned.length, 1, 'not again while the same CPU is the slow one')
  for (let i = 0; i < 2; i++) watch({ 0: 200, 1: 420 })
  t.equal(warned.length, 1, 'the load moved, but too soon after the last warning')
  for (let i = 0; i < 3; i++) watch({ 0: 200, 1: 420 })
  t.match(warned[1], { slow: '0', fast: '1' }, 'again when the load moved to the other CPU, 8 probes on')
  if (!canPin()) return
  const probe = createCpuProbe()
  try {
    const speeds = await probe.measure([0])
    t.ok(speeds[0] > 0, 'a pinned probe of CPU 0 reads a speed')
  } finally {
    probe.close()
  }
})

// Crossover rows: per block, pair 1 with old on set "0", pair 2 with old on
// "1" (or the other way round, as crossoverArm draws); CPU set 1 runs a
// pinned process `slow` times slower; the true change is `change`.
function crossoverData ({ blocks, change, slow, noise = 0.01, seed = 3, configs = ['n=1'] }) {
  const rng = createRng(seed)
  const rows = []
  let run = 0
  for (let pair = 1; pair <= 2 * blocks; pair++) {
    const arm = crossoverArm(seed, 'a/x.js', pair)
    const setOf = { old: arm.oldOnFirst ? '0' : '1', new: arm.oldOnFirst ? '1' : '0' }
    for (const configuration of configs) {
      for (const binary of ['old', 'new']) {
        const speed = setOf[binary] === '1' ? 1 / slow : 1
        const rate = 1000 * speed * (binary === 'new' ? change : 1) * Math.exp(noise * rng.normal())
        rows.push({ binary, filename: 'a/x.js', configuration, rate, time: 1, pair, seed, run: ++run, executor: 'duet', cpuset: setOf[binary], cpu_block: String(arm.block) })
      }
    }
  }
  return rows
}

t.test('the crossover: blocks collapse to pairs with the CPU effect removed', async (t) => {
  const rows = crossoverData({ blocks: 12, change: 1.05, slow: 1.6 })
  const perPair = analyze(rows.map((r) => ({ ...r, cpu_block: '' })))
  const crossed = analyze(rows)
  t.equal(crossed.results[0].n_pairs, 12, 'one pair per block')
  t.ok(Math.abs(crossed.results[0].change - 5) < 1.5, `change with the effect removed: ${crossed.results[0].change.toFixed(2)}%`)
  t.ok(crossed.results[0].ci[0] > 0, 'and called: its interval is above 0')
  t.ok(perPair.results[0].ci[1] - perPair.results[0].ci[0] > 2 * (crossed.results[0].ci[1] - crossed.results[0].ci[0]), 'the same pairs taken one by one: an interval over twice as wide')
  const fx = cpuEffects(rows)
  t.equal(fx.length, 1)
  t.equal(fx[0].blocks, 12)
  t.same(fx[0].sets, ['0', '1'])
  t.ok(Math.abs(Math.exp(fx[0].effect) - 1 / 1.6) < 0.02, `set 1's speed over set 0's: ${Math.exp(fx[0].effect).toFixed(3)}`)
  const w = cpuEffectWarnings(rows)
  t.match(w[0], { kind: 'cpu-effect', message: /^duet crossover: CPU set 1 ran 3[78]% slower than CPU set 0; removed by the crossover/ })
  t.same(crossed.warnings.filter((x) => x.kind === 'cpu-effect').length, 1, 'analyze reports it')
  // collapsed rows: geometric means, idempotent
  const c = crossoverRows(rows)
  t.equal(c.length, 24)
  t.same(crossoverRows(c), c, 'collapsing twice changes nothing')
  const b = blocksOf(rows)[0]
  const old = c.find((r) => r.binary === 'old' && r.pair === 1)
  t.ok(Math.abs(old.rate - Math.sqrt(b.pairs[0].old.rate * b.pairs[1].old.rate)) < 1e-9)
  // an incomplete block (its second pair's new run failed) is left out
  const cut = rows.filter((r) => !(r.pair === 24 && r.binary === 'new'))
  t.equal(analyze(cut).results[0].n_pairs, 11)
  // per arm: the same change, for the simulation's comparison
  const pairs = blocksOf(rows).flatMap((x) => x.pairs.map((p) => ({ x: Math.log(p.new.rate / p.old.rate), arm: /** @type {0|1} */ (p.set === '0' ? 0 : 1) })))
  t.ok(Math.abs(Math.exp(perArmEstimate(pairs)) - 1.05) < 0.02)
})

t.test('the seq rule runs on the blocks', async (t) => {
  const label = seqLabel({ alpha: 0.05, threshold: 1, maxPairs: 40 })
  const rows = crossoverData({ blocks: 20, change: 1.1, slow: 1.5, configs: ['n=1', 'n=2'] }).map((r) => ({ ...r, rule: label }))
  const states = seqStates(rows, { alpha: 0.05, threshold: 1, maxPairs: 40 })
  t.equal(states.length, 2)
  t.ok(states.every((s) => s.verdict === 'faster' && s.n <= 20), `called faster within the 20 blocks: ${states.map((s) => s.n)}`)
  const a = analyze(rows)
  t.ok(a.results.every((r) => r.verdict === 'faster' && r.stop.pairs === states[0].n))
  const aa = crossoverData({ blocks: 20, change: 1, slow: 1.5, configs: ['n=1', 'n=2'], seed: 9 }).map((r) => ({ ...r, rule: label }))
  t.ok(analyze(aa).results.every((r) => r.verdict !== 'faster' && r.verdict !== 'slower'), 'A/A with a 1.5x CPU effect: no call')
})

t.test('warnings: the probe\'s CPU speeds, and no --cpuset advice under duet', async (t) => {
  const rows = []
  for (let pair = 1; pair <= 6; pair++) {
    for (const binary of ['old', 'new']) rows.push({ binary, filename: 'a/x.js', configuration: 'n=1', rate: 100 * (pair % 2 ? 1.3 : 0.7), time: 1, pair, seed: 1, cpuset: String(pair % 2), cpu_speed: pair % 2 ? 400 : 250, executor: 'serial' })
  }
  const w = cpuSpeedWarnings(rows)
  t.match(w, [{ kind: 'cpu-speed', message: /CPU 0 38% slower than CPU 1 \(medians of 6 and 6 probes\).*each pair ran on one CPU/ }])
  t.same(cpuSpeedWarnings(rows.map((r) => ({ ...r, cpu_speed: 400 }))), [], 'equal speeds: quiet')
  const noisy = []
  for (let pair = 1; pair <= 8; pair++) {
    for (const binary of ['old', 'new']) noisy.push({ binary, filename: 'a/x.js', configuration: 'n=1', rate: 100 * (binary === 'new' ? (pair % 2 ? 1.4 : 0.7) : 1), time: 1, pair, seed: 1, executor: 'duet' })
  }
  const hv = analyze(noisy).warnings.find((x) => x.kind === 'high-variance')
  t.ok(hv && !/--cpuset /.test(hv.message) && /--cpuset-old and --cpuset-new/.test(hv.message), hv && hv.message)
  const hs = analyze(noisy.map((r) => ({ ...r, executor: 'serial' }))).warnings.find((x) => x.kind === 'high-variance')
  t.match(hs.message, /pin with --cpuset/)
})

t.test('a real serial compare: each pair on one CPU, the probe in every row', async (t) => {
  const dir = t.testdir()
  const csv = path.join(dir, 's.csv')
  let err = ''
  const code = await main([...BIN, '--runs', '4', '--seed', '11', '--root', ROOT, '--output', csv, '--no-progress', 'sect'], { stdout: { write: () => true }, stderr: { write: (s) => { err += s; return true } }, handleSigint: false })
  t.equal(code, 0, err)
  const rows = readRows(csv)
  t.equal(rows.length, 16, '4 pairs x 2 sides x 2 configurations')
  t.ok(rows.every((r) => r.cpu_block === ''), 'no blocks outside duet')
  if (!canPin() || (allowedCpus() ?? []).length < 2) {
    t.ok(rows.every((r) => r.cpuset === ''), 'nothing pinned where nothing can be')
    return
  }
  for (let pair = 1; pair <= 4; pair++) {
    const mine = rows.filter((r) => Number(r.pair) === pair)
    const cpus = new Set(mine.map((r) => r.cpuset))
    t.equal(cpus.size, 1, `pair ${pair}: both runs on one CPU`)
    t.equal([...cpus][0], String(cpuForPair(11, 'sect/loop.js', pair, allowedCpus())), `pair ${pair}: the seeded CPU`)
    t.ok(mine.every((r) => Number(r.cpu_speed) > 0 && Number(r.cpu_spread) >= 1), `pair ${pair}: the probe's reading`)
  }
  const floated = path.join(dir, 'f.csv')
  const nd = path.join(dir, 'f.ndjson')
  t.equal(await main([...BIN, '--float', '--runs', '1', '--seed', '11', '--root', ROOT, '--output', floated, '--ndjson', nd, '--no-progress', 'sect'], { stdout: { write: () => true }, stderr: { write: () => true }, handleSigint: false }), 0)
  const f = readRows(floated)
  t.ok(f.every((r) => r.cpuset === '' && r.cpu_speed === '' && Number(r.cpu_spread) >= 1), '--float: no CPU, the spread of all CPUs')
  const meta = JSON.parse(require('node:fs').readFileSync(nd, 'utf8').split('\n')[0])
  t.equal(meta.placement, 'float')
  t.ok(Object.values(meta.cpuProbe.speeds).every((v) => v > 0) && meta.cpuProbe.spread >= 1, 'the metadata holds the first probe')
})
