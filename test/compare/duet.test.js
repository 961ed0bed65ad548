'use strict'
// compare --duet: the CPU sets (refusals before any run, the SMT warning),
// the children's barrier, the starved-side rule, and a real duet run whose
// rows carry each side's section, CPUs and CPU time, read by Node's exact
// read.csv call.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { duetCpuSets } = require('../../lib/compare/duet-cpus.js')
const { starvedSide, oldGetsFirst } = require('../../lib/compare/duet.js')
const { meetPeer, parseDuet } = require('../../lib/harness/duet-barrier.js')
const { main, parseCompareArgs } = require('../../lib/cli/compare.js')
const { readRows } = require('./fixtures/helpers.js')
const { needTool } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, 'fixtures', 'duet-bench')
const BIN = ['--old', process.execPath, '--new', process.execPath]
const env4 = { cpuCount: 4, siblings: (c) => [c], hasTaskset: () => true, platform: 'linux' }

t.test('CPU sets: an even split, given sets, refusals, SMT siblings', async (t) => {
  t.same(duetCpuSets({}, { ...env4, cpuCount: 2 }).sets, ['0', '1'])
  t.same(duetCpuSets({}, env4).sets, ['0-1', '2-3'])
  t.same(duetCpuSets({}, { ...env4, cpuCount: 5 }).sets, ['0-1', '2-3'], 'an odd CPU is left to the driver')
  t.same(duetCpuSets({ old: '3', new: '0,1' }, env4).sets, ['3', '0,1'])
  t.throws(() => duetCpuSets({}, { ...env4, cpuCount: 1 }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /this machine has 1 CPU: run without --duet/ })
  t.throws(() => duetCpuSets({ old: '0-2', new: '2-3' }, env4), { message: /share CPU 2: give the two sides disjoint CPU sets/ })
  t.throws(() => duetCpuSets({ old: '0' }, env4), { message: /go together/ })
  t.throws(() => duetCpuSets({ old: '0', new: '9' }, env4), { message: /CPU 9 does not exist/ })
  const smt = duetCpuSets({}, { ...env4, siblings: (c) => [c - (c % 2) === c ? c : c - 1, c % 2 === 0 ? c + 1 : c].filter((x, i, a) => a.indexOf(x) === i) })
  t.same(smt.warnings, [], 'siblings inside one set are fine')
  const cross = duetCpuSets({}, { ...env4, cpuCount: 2, siblings: () => [0, 1] })
  t.match(cross.warnings[0], /CPU 0 of 0 and CPUs of 1 are SMT siblings/)
  const usage = (args, re) => t.throws(() => parseCompareArgs([...BIN, ...args, 'sect'], { defaultRoot: ROOT, duetEnv: env4 }), { message: re }, args.join(' '))
  usage(['--duet', '--cpuset', '0'], /--cpuset does not go with --duet/)
  usage(['--cpuset-old', '0', '--cpuset-new', '1'], /go with --duet/)
  t.match(parseCompareArgs([...BIN, '--duet', 'sect'], { defaultRoot: ROOT, duetEnv: env4 }), { executor: 'duet', duet: { sets: ['0-1', '2-3'] } })
  t.throws(() => parseCompareArgs([...BIN, '--duet', 'sect'], { defaultRoot: ROOT, duetEnv: { ...env4, cpuCount: 1 } }), { message: /1 CPU/ })
})

t.test('the barrier: each side waits for the other; a missing peer releases it', async (t) => {
  const dir = t.testdir()
  t.same(parseDuet(JSON.stringify({ dir, side: 'old' })), { dir, side: 'old' })
  t.equal(parseDuet('{"dir": 1}'), undefined)
  t.equal(parseDuet('nope'), undefined)
  let clock = 0
  t.equal(meetPeer({ dir, side: 'old' }, { n: 1 }, { limitMs: 5, now: () => (clock += 2) }), false, 'no peer within the limit')
  t.equal(meetPeer({ dir, side: 'new' }, { n: 1 }), true, 'the peer\'s file is there: at once')
  t.equal(meetPeer({ dir: path.join(dir, 'gone'), side: 'new' }, { n: 1 }), false, 'a removed folder: nobody to wait for')
})

t.test('starved sides and the seeded assignment', async (t) => {
  const row = (ms, cpu) => ({ section_start: 1000, section_end: 1000 + ms, section_cpu: cpu })
  t.equal(starvedSide(row(200, 0.2), row(200, 0.19)), undefined)
  t.equal(starvedSide(row(200, 0.1), row(200, 0.2)), 'old')
  t.equal(starvedSide(row(400, 0.2), row(200, 0.2)), 'old', 'half the share over a longer section')
  t.equal(starvedSide(row(200, 0.2), row(200, 0.1)), 'new')
  t.equal(starvedSide(row(20, 0.001), row(20, 0.02)), undefined, 'too short a section to judge')
  const firsts = Array.from({ length: 400 }, (_, p) => oldGetsFirst(7, 'a/b.js', p + 1))
  const share = firsts.filter(Boolean).length / firsts.length
  t.ok(share > 0.4 && share < 0.6, `old gets the first set in ${share} of pairs`)
  t.equal(oldGetsFirst(7, 'a/b.js', 3), oldGetsFirst(7, 'a/b.js', 3), 'seeded')
})

t.test('crossover blocks: old once on each set per block, seeded, block order random', async (t) => {
  const { crossoverArm } = require('../../lib/compare/duet.js')
  let firstOnA = 0
  for (let block = 1; block <= 200; block++) {
    const a = crossoverArm(7, 'a/b.js', 2 * block - 1)
    const b = crossoverArm(7, 'a/b.js', 2 * block)
    t.equal(a.block, block)
    t.equal(b.block, block)
    if (a.oldOnFirst === b.oldOnFirst) t.fail(`block ${block}: both pairs put old on the same set`)
    if (a.oldOnFirst) firstOnA++
  }
  t.ok(firstOnA > 80 && firstOnA < 120, `the block's first pair puts old on set A in ${firstOnA} of 200 blocks`)
  t.same(crossoverArm(7, 'a/b.js', 5), crossoverArm(7, 'a/b.js', 5), 'seeded')
})

t.test('a real duet run: both sides meet, CPUs per side, Node\'s read.csv', async (t) => {
  const dir = t.testdir()
  const csv = path.join(dir, 'duet.csv')
  let err = ''
  const code = await main([...BIN, '--duet', '--runs', '4', '--seed', '4', '--root', ROOT, '--output', csv, '--no-progress', 'sect'], { stdout: { write: () => true }, stderr: { write: (s) => { err += s; return true } }, handleSigint: false })
  t.equal(code, 0, err)
  const rows = readRows(csv)
  t.equal(rows.length, 16, '4 pairs x 2 configurations x 2 sides')
  t.ok(rows.every((r) => r.executor === 'duet' && r.rule === 'fixed 4'))
  t.same([...new Set(rows.map((r) => `${r.pair}:${r.cpu_block}`))].sort(), ['1:1', '2:1', '3:2', '4:2'], 'pairs 1-2 and 3-4 form the crossover blocks')
  for (const block of ['1', '2']) {
    const oldSets = new Set(rows.filter((r) => r.cpu_block === block && r.binary === 'old').map((r) => r.cpuset))
    t.equal(oldSets.size, 2, `block ${block}: old ran once on each CPU set`)
  }
  const probed = rows.filter((r) => r.cpu_speed !== '')
  if (probed.length > 0) {
    t.equal(probed.length, rows.length, 'the probe measured both sets before every pair')
    t.ok(rows.every((r) => Number(r.cpu_speed) > 0 && Number(r.cpu_spread) >= 1))
  }
  const { analyze } = require('../../lib/stats/analyze.js')
  const a = analyze(rows)
  t.ok(a.results.every((r) => r.n_pairs === 2), 'the analysis takes each block as one pair')
  t.equal(a.warnings.filter((w) => w.kind === 'cpu-effect').length, 1, 'and reports the CPU effect')
  for (let pair = 1; pair <= 4; pair++) {
    for (const kind of ['sqrt', 'mix']) {
      const two = rows.filter((r) => Number(r.pair) === pair && r.configuration.includes(kind))
      t.equal(two.length, 2)
      const [a, b] = two
      t.not(a.cpuset, b.cpuset, 'the sides ran on different CPUs')
      // How much the sections overlap depends on the machine's load (a
      // section here is ~20 ms); that every barrier was met does not.
      t.not(a.starved, 'no-peer', `pair ${pair} ${kind}: both sides met at the barrier`)
      t.ok(Number(a.section_end) > Number(a.section_start) && Number(b.section_end) > Number(b.section_start), 'each side\'s section is recorded')
      t.ok(Number(a.section_cpu) > 0 && Number(b.section_cpu) > 0, 'each side\'s CPU time in its section')
      t.equal(a.starved, b.starved, 'both rows of a pair say the same')
    }
  }
  if (!needTool(t, 'Rscript')) return
  const r = spawnSync('Rscript', [path.join(__dirname, '..', 'r', 'node-contract.R'), 'compare'], { input: fs.readFileSync(csv), encoding: 'utf8' })
  t.equal(r.status, 0, r.stderr)
  t.match(r.stdout, /section_start section_end alloc_bytes max_rss_kb cpu_speed cpu_spread/, 'Node\'s read.csv reads the section and probe columns as numbers')
})

t.test('starved pairs: a warning of the analysis and a count on the progress line', async (t) => {
  const { analyze } = require('../../lib/stats/analyze.js')
  const { formatCompareProgress } = require('../../lib/compare/progress.js')
  const rows = []
  for (let pair = 1; pair <= 8; pair++) {
    for (const binary of ['old', 'new']) rows.push({ binary, filename: 'a/x.js', configuration: 'n=1', rate: 100 + pair + (binary === 'new' ? 1 : 0), time: 1, pair, seed: 1, starved: pair === 3 ? 'new' : '' })
  }
  const w = analyze(rows).warnings.filter((x) => x.kind === 'starved')
  t.equal(w.length, 1)
  t.match(w[0].message, /^1 duet pair\(s\) where one side got too little CPU/)
  t.match(formatCompareProgress({ index: 1, total: 4, name: 'a/x.js', binary: 'old', pair: 1, elapsedMs: 1000, starved: 2 }), /starved pairs 2$/)
})
