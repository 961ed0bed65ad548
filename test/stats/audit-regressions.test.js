'use strict'
// One regression test per finding of the statistics audit: shared processes
// in the geomean, a stopping rule blind to the ratios' sign and location,
// the hint from precision only, the CI's real level, the --max-runs cap,
// the one-sided --max-regression gate, pairs keyed by (seed, pair), Welch
// stars apart from the verdicts, and the estimate's name.
const t = require('tap')
const { analyze } = require('../../lib/stats/analyze.js')
const { filesNeedingPairs, runAuto } = require('../../lib/compare/auto.js')
const { formatAnalysisText } = require('../../lib/report/analysis-text.js')
const { formatAnalysisMarkdown } = require('../../lib/report/markdown.js')
const { createRng } = require('../../lib/prng.js')
const { signedRankTest } = require('../../lib/stats/wilcoxon.js')
const { precisionOf } = require('../../lib/stats/precision.js')

// Rows of one configuration from log ratios (old rate 1e6 * level).
function rowsFrom (logRatios, { filename = 'f.js', configuration = 'c=1', seed = 1, firstPair = 1, level = () => 1 } = {}) {
  const rows = []
  logRatios.forEach((d, i) => {
    const base = 1e6 * level(i)
    rows.push({ binary: 'old', filename, configuration, rate: base, pair: firstPair + i, seed })
    rows.push({ binary: 'new', filename, configuration, rate: base * Math.exp(d), pair: firstPair + i, seed })
  })
  return rows
}

t.test('1. geomean: configurations sharing a process per pair are averaged within the pair first', (t) => {
  const rng = createRng(1)
  const rows = []
  const shared = Array.from({ length: 12 }, () => 0.05 * rng.normal())
  for (let c = 0; c < 4; c++) rows.push(...rowsFrom(shared.map((s) => s + 0.002 * rng.normal()), { configuration: `c=${c}` }))
  const a = analyze(rows)
  t.equal(a.geomean.method, 'per-pair')
  t.equal(a.geomean.pairs, 12)
  // Four copies of one noisy series are one series: the geomean's CI must be
  // as wide as one configuration's, not half as wide (the independent rule).
  const one = a.results[0].ci[1] - a.results[0].ci[0]
  const geo = a.geomean.ci[1] - a.geomean.ci[0]
  t.ok(geo > 0.8 * one, `geomean CI width ${geo.toFixed(2)} vs one configuration's ${one.toFixed(2)}`)
  const unpaired = analyze(rows.map((r) => ({ ...r, pair: '' })))
  t.equal(unpaired.geomean.method, 'independent', 'without pairs the old rule, named')
  t.end()
})

t.test('2. --runs auto: the decision to add pairs does not change when the ratios are mirrored or shifted', (t) => {
  const rng = createRng(2)
  const mags = Array.from({ length: 8 }, () => Math.abs(0.02 * rng.normal()) + 0.001)
  const signs = mags.map((_, i) => (i % 2 ? 1 : -1))
  // Same magnitudes: all on one side (significant-looking) vs mixed signs.
  const oneSide = rowsFrom(mags)
  const mixed = rowsFrom(mags.map((m, i) => m * signs[i]))
  const mirrored = rowsFrom(mags.map((m, i) => -m * signs[i]))
  const shifted = rowsFrom(mags.map((m, i) => m * signs[i] + 0.1))
  const want = (rows) => [...filesNeedingPairs(rows, { target: 0.5, maxPairs: 60 })]
  t.same(want(mirrored), want(mixed), 'mirrored')
  t.same(want(shifted), want(mixed), 'shifted by +10.5%')
  // The former rule read the rank CI's width, which for these magnitudes is
  // much narrower when all ratios are on one side.
  const wOne = analyze(oneSide).results[0].ci_log_width
  const wMixed = analyze(mixed).results[0].ci_log_width
  t.ok(wOne < wMixed, `the rank CI is narrower on one side (${wOne.toFixed(4)} < ${wMixed.toFixed(4)}): why it is not the rule`)
  t.end()
})

t.test('2. --runs auto reads the spread once, on the pilot: later pairs never change a file\'s plan', (t) => {
  const pilot = [0.03, -0.05, 0.02, 0.06, -0.04, 0.01]
  const mags = [0.011, 0.032, 0.023, 0.014, 0.045, 0.026]
  // pairs 7-12 all one-sided and tight, or mixed and wide: the re-read
  // spread of the former rule differs, the plan must not
  const oneSide = rowsFrom([...pilot, ...mags.map((m) => 0.05 + m / 10)])
  const mixed = rowsFrom([...pilot, ...mags.map((m, i) => (i % 2 ? m : -m) * 3)])
  const plan = (rows) => filesNeedingPairs(rows, { target: 1, maxPairs: 60 })
  t.equal(plan(oneSide).planned.get('f.js'), 60, 'the pilot asks for the cap')
  t.equal(plan(oneSide).get('f.js'), 12, 'in rounds of at most doubling')
  t.same([...plan(oneSide)], [...plan(mixed)])
  t.same([...plan(oneSide).planned], [...plan(mixed).planned])
  t.end()
})

// The exact A/A rate of --runs auto given the magnitudes of the ratios:
// under no change, with old and new in random order, every sign pattern
// of the pairs is equally likely, so the share of the 4096 patterns of 12
// pairs that end with p < .05 is the rule's type I error for these
// magnitudes. The magnitudes and target are such that a spread read on the
// pilot calls it precise enough mostly when its 6 ratios share a sign.
t.test('2. --runs auto: exact A/A rate over every sign pattern of 12 pairs <= 5% (a stop at a narrow-looking pilot: 5.76%)', async (t) => {
  const mags = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.015, 0.025, 0.035, 0.045, 0.055, 0.065]
  const target = 3
  let significant = 0
  let formerSignificant = 0
  for (let bits = 0; bits < 4096; bits++) {
    const x = mags.map((m, i) => ((bits >> i) & 1 ? -m : m))
    const res = await runAuto({
      files: [{ file: 'f.js', name: 'f.js' }],
      pilot: 6,
      target,
      maxPairs: 12,
      runBatch: async (files, pairs, firstPair) => ({ rows: rowsFrom(x.slice(firstPair - 1, firstPair - 1 + pairs), { firstPair }), stopped: false })
    })
    const n = new Set(res.rows.map((r) => r.pair)).size
    if (signedRankTest(x.slice(0, n)).p < 0.05) significant++
    // A stop after the pilot when its predicted CI is narrow.
    const stopAtPilot = !(precisionOf({ logRatios: x.slice(0, 6) }).halfWidth > Math.log1p(target / 100))
    if (signedRankTest(stopAtPilot ? x.slice(0, 6) : x).p < 0.05) formerSignificant++
  }
  // (The rule of the previous release, which could also stop at 9 pairs,
  // gives 5.32% here.)
  t.ok(formerSignificant / 4096 > 0.05, `a stop at the pilot: p < .05 in ${(formerSignificant / 40.96).toFixed(2)}% of the patterns`)
  t.ok(significant / 4096 <= 0.05, `--runs auto: p < .05 in ${(significant / 40.96).toFixed(2)}% of the patterns`)
  t.equal(significant, 174, 'the rate of a fixed 12 pairs (174 of 4096 patterns, 4.25%): at least twice the pilot')
})

t.test('3. the hint: from precision only, too few pairs, multiplicity', (t) => {
  const rng = createRng(3)
  const noise = Array.from({ length: 10 }, () => 0.06 * rng.normal())
  const centred = noise.map((x) => x - noise.reduce((s, v) => s + v, 0) / noise.length)
  const hints = [0, 0.01, -0.01].map((shift) => analyze(rowsFrom(centred.map((x) => x + shift)), { threshold: 1 }).results[0])
  t.ok(hints.every((r) => r.verdict === 'inconclusive' && r.blocker === 'width'), hints.map((r) => r.verdict).join())
  t.same(hints.map((r) => r.more_pairs), [hints[0].more_pairs, hints[0].more_pairs, hints[0].more_pairs], 'the same spread gives the same hint whatever the change')
  const few = analyze(rowsFrom([0.1, 0.12, 0.09, 0.11, 0.1])).results[0]
  t.equal(few.blocker, 'too-few-pairs', '5 pairs, all faster: p = 1/16 cannot be < .05')
  t.ok(few.more_pairs >= 1)
  t.match(formatAnalysisText(analyze(rowsFrom([0.1, 0.12, 0.09, 0.11, 0.1])), { wide: true }), /inconclusive \(5 pairs: too few for the test to reach significance at all; needs ~\d+ more pairs\)/)
  t.match(formatAnalysisText(analyze(rowsFrom([0.1, 0.12, 0.09, 0.11, 0.1]))), /inconclusive \(too few pairs\)/, 'in short in the table, explained in the footer')
  // One clear effect among 20 configurations of pure noise: significant
  // alone, not after BH over 20.
  const rows = []
  const effect = Array.from({ length: 8 }, (_, i) => 0.05 + 0.001 * i)
  rows.push(...rowsFrom(effect, { configuration: 'c=changed' }))
  for (let c = 0; c < 19; c++) rows.push(...rowsFrom(Array.from({ length: 8 }, () => 0.05 * rng.normal()), { configuration: `c=${c}` }))
  const a = analyze(rows)
  const changed = a.results[0]
  t.ok(changed.p < 0.05 && changed.q >= 0.05, `p ${changed.p}, q ${changed.q}`)
  t.equal(changed.blocker, 'multiplicity')
  t.equal(changed.more_pairs, undefined, 'no pair count: width is not what blocks')
  t.match(formatAnalysisText(a, { wide: true }), /the CI excludes 0 but q=0\.\d+: the correction over 20 configurations, not the width, blocks the call/)
  t.match(formatAnalysisText(a), /inconclusive \(multiplicity\)/)
  t.end()
})

t.test('4. a CI that cannot have the level asked says its real level, in every format', (t) => {
  const a = analyze(rowsFrom([0.01, 0.03]))
  const r = a.results[0]
  t.equal(r.conf_level, 0.5, '2 pairs: the exact interval is the two ratios, a 50% CI')
  const text = formatAnalysisText(a)
  t.match(text, /\[\+1\.\d\d%, \+3\.\d\d%\] at 50%/)
  t.notMatch(text.split('\n').find((l) => l.startsWith('f.js')), /\] {2}/, 'the 2-pair row does not show a bare interval under "95% CI"')
  t.match(formatAnalysisMarkdown(a), /\| \[\+1\.\d\d%, \+3\.\d\d%\] at 50% \|/)
  t.equal(JSON.parse(JSON.stringify(a)).results[0].conf_level, 0.5)
  t.equal(analyze(rowsFrom(Array.from({ length: 20 }, (_, i) => 0.001 * (i - 9.5)))).results[0].conf_level, 0.95)
  t.end()
})

t.test('5. --runs auto never passes --max-runs', async (t) => {
  const rows = rowsFrom(Array.from({ length: 59 }, (_, i) => 0.05 * Math.sin(i)))
  const want = filesNeedingPairs(rows, { target: 0.01, maxPairs: 60 })
  t.equal(want.get('f.js'), 1, '59 pairs, cap 60: one more (it was 2)')
  for (const cap of [7, 13, 60]) {
    const rng = createRng(cap)
    let max = 0
    await runAuto({
      files: [{ file: 'f.js', name: 'f.js' }, { file: 'g.js', name: 'g.js' }],
      pilot: 6,
      target: 0.01,
      maxPairs: cap,
      runBatch: async (files, pairs, firstPair) => {
        max = Math.max(max, firstPair + pairs - 1)
        const out = []
        for (const f of files) out.push(...rowsFrom(Array.from({ length: pairs }, () => 0.05 * rng.normal()), { filename: f.name, firstPair }))
        return { rows: out, stopped: false }
      }
    })
    t.equal(max, cap, `cap ${cap}: the last pair is number ${cap}`)
  }
})

t.test('6. --max-regression is a one-sided test against -PCT', (t) => {
  const rng = createRng(6)
  const at = (pct) => rowsFrom(Array.from({ length: 30 }, () => Math.log1p(pct / 100) + 0.03 * rng.normal()))
  const clear = analyze(at(-10), { maxRegression: 5 })
  t.equal(clear.regressions.length, 1, 'a -10% change with 3% noise fails a 5% gate')
  t.ok(clear.results[0].q_regression < 0.025)
  const near = analyze(at(-5.5), { maxRegression: 5 })
  t.ok(near.results[0].change < -5, 'the point estimate is below -5%...')
  t.equal(near.regressions.length, 0, '...but not shown to be: the former rule fired here')
  t.ok(near.results[0].ci[1] > -5, 'the CI reaches above -5%')
  t.equal(analyze(at(-3), { maxRegression: 5 }).regressions.length, 0)
  t.end()
})

t.test('7. pairs keyed by (seed, pair): concatenated files stay paired; a fall-back says why', (t) => {
  const rng = createRng(7)
  const d = () => Array.from({ length: 10 }, () => 0.02 + 0.01 * rng.normal())
  const two = [...rowsFrom(d(), { seed: 11 }), ...rowsFrom(d(), { seed: 12 })]
  const a = analyze(two)
  t.equal(a.results[0].method, 'wilcoxon-signed-rank')
  t.equal(a.results[0].n_pairs, 20, 'pair 1 of seed 11 and pair 1 of seed 12 are two pairs')
  t.same(a.warnings.filter((w) => w.kind === 'unpaired'), [])
  const same = analyze([...rowsFrom(d(), { seed: 11 }), ...rowsFrom(d(), { seed: 11 })])
  t.equal(same.results[0].method, 'mann-whitney')
  const w = same.warnings.find((x) => x.kind === 'unpaired')
  t.match(w && w.message, /20 row\(s\) repeat a \(seed, pair, binary\).*own --seed/)
  const none = analyze(two.map((r) => ({ ...r, pair: '' })))
  t.match(none.warnings[0], { filename: '', kind: 'unpaired', message: /no pair numbers/ })
  t.same(analyze(two, { paired: false }).warnings.filter((x) => x.kind === 'unpaired'), [], 'no note when --unpaired asked for it')
  t.end()
})

t.test('8 and 9. Welch stars only in the compare.R section; the estimate named', (t) => {
  // The new binary is 3% faster with a drift that Welch sees and pairs cancel.
  const rows = rowsFrom(Array.from({ length: 12 }, (_, i) => 0.03 + 0.0001 * i), { level: (i) => 1 + 0.5 * i })
  const text = formatAnalysisText(analyze(rows))
  const [table, rest] = text.split('Node compare.R columns')
  t.ok(rest, 'a section named after compare.R')
  t.match(rest, /^ \(Welch t-test on the raw rates: unpaired and not adjusted/)
  const verdictRow = table.split('\n').find((l) => l.startsWith('f.js'))
  t.match(verdictRow, /\*\* {2}faster$/, 'the verdict row carries the stars of q')
  t.notMatch(table, /confidence/, 'no Welch column before the section')
  t.match(text, /Hodges-Lehmann estimate of new\/old \(the median of the pairwise averages/)
  t.notMatch(text, /median ratio/)
  const md = formatAnalysisMarkdown(analyze(rows))
  t.notMatch(md.split('<details>')[0], /Welch/, 'markdown: Welch only in its own details section')
  t.end()
})

t.test('10. runs of a few ms warn and point at calibration', (t) => {
  const rows = rowsFrom(Array.from({ length: 10 }, () => 0)).map((r) => ({ ...r, time: 0.004 }))
  const w = analyze(rows).warnings.find((x) => x.kind === 'short-runs')
  t.match(w && w.message, /only 4\.0 ms.*calibrate-n\.js/)
  t.same(analyze(rows.map((r) => ({ ...r, time: 0.8 }))).warnings.filter((x) => x.kind === 'short-runs'), [])
  t.end()
})
