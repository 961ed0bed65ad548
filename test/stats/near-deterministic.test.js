'use strict'
// The analysis of near-deterministic measures (lib/stats/near-deterministic.js):
// the paired t-test on log ratios against R's t.test, the floor below which
// nothing is faster or slower, rows of two measures refused, and seeded
// simulations of its A/A rate and of its power with few pairs.
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { pairedLogT, measureOfRows, applyFloor } = require('../../lib/stats/near-deterministic.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { createRng } = require('../../lib/prng.js')
const { main: analyzeMain } = require('../../lib/cli/analyze.js')
const { runMain } = require('../../lib/cli/dispatch.js')
const { UsageError } = require('../../lib/errors.js')

/**
 * Rows of one compare run: `configs` configurations x `pairs` pairs; each
 * rate is base * exp(noise), the new one times (1 + effect).
 * noise: relative sd of one process; offset: a constant extra ratio of new
 * (identical binaries that differ by argv or env).
 */
function simulate (rng, { pairs, configs = 1, sd, effect = 0, offset = 0, measure = 'instructions' }) {
  const rows = []
  for (let c = 0; c < configs; c++) {
    const base = 1e6 * (1 + c)
    for (let p = 1; p <= pairs; p++) {
      const oldRate = base * Math.exp(sd * rng.normal())
      const newRate = base * (1 + effect) * (1 + offset) * Math.exp(sd * rng.normal())
      rows.push({ binary: 'old', filename: 'a/b.js', configuration: `c=${c}`, rate: oldRate, pair: p, measure })
      rows.push({ binary: 'new', filename: 'a/b.js', configuration: `c=${c}`, rate: newRate, pair: p, measure })
    }
  }
  return rows
}

test('pairedLogT matches R\'s t.test on log ratios', async (t) => {
  // R: d <- log(c(1.01, 1.02, 1.015, 1.012)); t.test(d)
  const r = pairedLogT([1.01, 1.02, 1.015, 1.012].map(Math.log))
  t.ok(Math.abs(r.ci[0] - 0.00732502219932102) < 1e-9, `ci low ${r.ci[0]}`)
  t.ok(Math.abs(r.ci[1] - 0.02096004855486508) < 1e-9, `ci high ${r.ci[1]}`)
  t.ok(Math.abs(r.p - 0.00707498857009413) < 1e-9, `p ${r.p}`)
  t.same(pairedLogT([0, 0, 0]), { estimate: 0, ci: [0, 0], p: 1, confLevel: 0.95 }, 'identical counts: no difference, p = 1')
  const same = pairedLogT([0.02, 0.02, 0.02])
  t.equal(same.p, 0, 'the same non-zero ratio in every pair: p = 0')
  t.same(same.ci, [0.02, 0.02])
  t.ok(Number.isNaN(pairedLogT([0.1]).p), 'one pair: no test')
})

test('the floor: a significant change below the resolution is "no change"', async (t) => {
  t.equal(applyFloor('slower', -0.0003, 0.01), 'no change')
  t.equal(applyFloor('faster', 0.02, 0.01), 'faster')
  t.equal(applyFloor('inconclusive', 0.001, 0.01), 'inconclusive')
  // Identical binaries: every pair 0.0003% apart (argv differs), spread 0.0002%.
  const rows = simulate(createRng(5), { pairs: 6, sd: 2e-6, offset: 3e-6 })
  const [r] = analyze(rows).results
  t.equal(r.method, 'paired-t-log')
  t.equal(r.conf_level, 0.95, 'the t interval states its level, as the rank tests do')
  t.ok(r.p < 0.05, `the offset is real and significant (p ${r.p})`)
  t.equal(r.verdict, 'no change', `${r.change.toFixed(5)}% is below the 0.01% resolution of instructions`)
  // A --threshold below the offset leaves the decision to the floor.
  t.equal(analyze(rows, { threshold: 1e-5 }).results[0].verdict, 'no change', 'the floor holds where the threshold does not')
  t.equal(analyze(rows, { threshold: 1e-5, minEffect: 0 }).results[0].verdict, 'faster', 'with --min-effect 0 the same rows are called faster')
  t.equal(analyze(rows).meta.measure, 'instructions')
  t.equal(analyze(rows).meta.minEffect, 0.01)
})

test('2% more work is called slower with 4 pairs under instructions; a rank test cannot with 4 pairs', async (t) => {
  const rows = simulate(createRng(11), { pairs: 4, sd: 5e-6, effect: -0.02 })
  const [r] = analyze(rows).results
  t.equal(r.verdict, 'slower', `change ${r.change}% [${r.ci}]`)
  t.ok(r.ci[0] > -2.01 && r.ci[1] < -1.99, 'the CI is as narrow as the counts')
  t.same(analyze(rows).warnings.filter((w) => w.kind === 'too-few-runs'), [], 'no warning about the rank test\'s floor')
  // time 0.01 = 10^7 instructions: a count, not 10 ms of a timer.
  const counted = rows.map((x) => ({ ...x, time: 0.01 }))
  t.same(analyze(counted).warnings.filter((w) => w.kind === 'short-runs'), [], 'no "short runs" warning for a count')
  t.ok(analyze(counted.map((x) => ({ ...x, measure: 'cpu' }))).warnings.some((w) => w.kind === 'short-runs'), 'cpu: 10 ms of CPU time is short')
  const wallA = analyze(rows.map((x) => ({ ...x, measure: 'wall' })))
  t.ok(wallA.warnings.some((w) => w.kind === 'too-few-runs'), 'wall: the rank test\'s floor is warned about')
  const wall = wallA.results[0]
  t.equal(wall.method, 'wilcoxon-signed-rank')
  t.not(wall.verdict, 'slower', `the signed-rank floor with 4 pairs: p >= 0.125 (p ${wall.p})`)
})

test('rows of different measures are refused; empty means wall', async (t) => {
  const rows = [
    { binary: 'old', filename: 'f', configuration: '', rate: 1, pair: 1, measure: '' },
    { binary: 'new', filename: 'f', configuration: '', rate: 1, pair: 1, measure: 'wall' }
  ]
  t.equal(measureOfRows(rows), 'wall')
  t.equal(measureOfRows([]), 'wall')
  const mixed = [...rows, { binary: 'new', filename: 'f', configuration: '', rate: 1, pair: 2, measure: 'instructions' }]
  t.throws(() => analyze(mixed), { constructor: UsageError, code: 'BENCHRIG_ERR_MEASURE', message: /more than one measure \(wall, instructions\)/ })
  t.throws(() => measureOfRows([{ measure: 'ticks' }]), { message: /unknown measure "ticks"/ })
})

test('benchrig analyze: labels the measure, analyses a mixed CSV per measure (json refuses it), checks --min-effect', async (t) => {
  const dir = t.testdir()
  const header = '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs","measure"\n'
  const line = (b, rate, pair, m) => `"${b}","a/b.js","n=1",${rate},${1 / rate},${pair},1,${pair},1,,1,"${m}"\n`
  const rowsOf = (m, slow) => [1, 2, 3, 4].map((p) => line('old', 1000 + p * 1e-4, p, m) + line('new', (1000 + p * 1e-4) * slow, p, m)).join('')
  fs.writeFileSync(path.join(dir, 'instr.csv'), header + rowsOf('instructions', 0.98))
  fs.writeFileSync(path.join(dir, 'mixed.csv'), header + rowsOf('instructions', 0.98) + line('old', 5, 9, 'wall') + line('new', 5, 9, 'wall'))
  const cli = async (argv) => {
    let out = ''
    let err = ''
    const orig = console.error
    console.error = (m) => { err += m + '\n' }
    try {
      const code = await runMain((a) => analyzeMain(a, { stdout: { write: (s) => { out += s } } }), argv, 'benchrig analyze')
      return { code, out, err }
    } finally {
      console.error = orig
    }
  }
  const ok = await cli([path.join(dir, 'instr.csv')])
  t.equal(ok.code, 0, ok.err)
  t.match(ok.out, /^measure: instructions \(rate = operations per 10\^9 instructions\)\n/)
  t.match(ok.out, /slower/)
  t.match(ok.out, /paired t-test on log rates/)
  t.match(ok.out.replace(/\s+/g, ' '), /a change under 0\.01% is never faster or slower/, 'the floor is said (prose wrapped to 100 columns)')
  const md = await cli(['--format', 'markdown', path.join(dir, 'instr.csv')])
  t.match(md.out, /^measure: instructions/)
  const json = JSON.parse((await cli(['--format', 'json', path.join(dir, 'instr.csv')])).out)
  t.equal(json.meta.measure, 'instructions')
  t.equal(json.results[0].method, 'paired-t-log')
  // a mixed CSV is analysed one measure after the other (each with its own
  // rules); the formats that hold one measure refuse it with exit 2
  const mixed = await cli([path.join(dir, 'mixed.csv')])
  t.equal(mixed.code, 0, mixed.err)
  t.match(mixed.out, /^# measure: instructions \(/m)
  t.match(mixed.out, /^# measure: wall \(/m)
  t.ok(mixed.out.indexOf('paired t-test on log rates') < mixed.out.indexOf('# measure: wall'), 'the t-test of near-deterministic counts serves the instructions section only')
  const mixedJson = await cli(['--format', 'json', path.join(dir, 'mixed.csv')])
  t.equal(mixedJson.code, 2)
  t.match(mixedJson.err, /2 measures \(instructions, wall\): --format json takes one measure/)
  const bad = await cli(['--min-effect=-1', path.join(dir, 'instr.csv')])
  t.equal(bad.code, 2)
  t.match(bad.err, /--min-effect -1: give a number >= 0/)
})

test('A/A simulation: the paired t-test with the floor calls identical binaries faster/slower in <= 5% of configurations', async (t) => {
  // 1000 compares of one configuration x 6 pairs per spread, seeded (one
  // configuration: no correction across configurations hides the test's own
  // level). The spread
  // runs from what the deterministic flags give (0.0005%) to what valgrind
  // gives without them (0.5%), and heavy tails (t with 3 df) are included.
  const rng = createRng(20240607)
  const heavy = () => rng.normal() / Math.sqrt((rng.normal() ** 2 + rng.normal() ** 2 + rng.normal() ** 2) / 3)
  for (const sd of [5e-6, 1e-4, 1e-3, 5e-3]) {
    for (const tails of ['normal', 't3']) {
      let called = 0
      let bare = 0
      let floored = 0
      let total = 0
      for (let k = 0; k < 1000; k++) {
        const rows = simulate(tails === 'normal' ? rng : { normal: heavy }, { pairs: 6, sd })
        const calls = (opts) => analyze(rows, opts).results.filter((r) => r.verdict === 'faster' || r.verdict === 'slower').length
        total += 1
        called += calls({})
        bare += calls({ threshold: 1e-5, minEffect: 0 })
        floored += calls({ threshold: 1e-5 })
      }
      const rate = called / total
      // 5% + 2.5 standard errors of 1000 draws (1.7%) of Monte Carlo margin.
      t.ok(rate <= 0.067, `sd ${sd * 100}% (${tails}), defaults: ${(rate * 100).toFixed(2)}% called faster/slower`)
      t.ok(bare / total <= 0.067, `sd ${sd * 100}% (${tails}), the test alone (--threshold 0.00001 --min-effect 0): ${(bare / total * 100).toFixed(2)}%`)
      // The spread the deterministic flags give: no mean of 6 log ratios reaches the floor.
      if (sd <= 5e-6) t.equal(floored, 0, `sd ${sd * 100}%: with the 0.01% floor and --threshold 0.00001 nothing is ever called`)
    }
  }
})

test('power: 2% more work, 4 pairs, spreads up to 0.05%: called slower every time', async (t) => {
  const rng = createRng(99)
  for (const sd of [5e-6, 1e-4, 5e-4]) {
    let slower = 0
    for (let k = 0; k < 200; k++) {
      if (analyze(simulate(rng, { pairs: 4, sd, effect: -0.02 })).results[0].verdict === 'slower') slower++
    }
    t.equal(slower, 200, `sd ${sd * 100}%: ${slower}/200 slower`)
  }
})
