'use strict'
// benchrig bisect: the search with an injected oracle (every path, no
// process), the oracle's three answers on fixed analyses, and a real bisect
// over a row of wrapper scripts around this node whose slowdown starts at a
// known position (each wrapper sets the work per operation of the benchmark).
const t = require('tap')
// 480 s, not tap's 240 s a file: the real bisects run their pairs one process
// after another, and the file took 180 s at load 15 under a CPU hog; each
// process has the harness's own limit.
t.setTimeout(480e3)
const fs = require('node:fs')
const path = require('node:path')
const { bisect, probesNeeded } = require('../../lib/bisect/search.js')
const { classify, batchSizes } = require('../../lib/bisect/oracle.js')
const { main, parseBisectArgs } = require('../../lib/cli/bisect.js')
const { openHistory } = require('../../lib/history/index.js')

const BENCH = path.join(__dirname, 'fixtures', 'bench')

function capture () {
  let text = ''
  return { stream: { write: (s) => { text += s; return true } }, get text () { return text } }
}

/** A row of wrappers: wrapper i does 1 + extra(i) times the work (4x: a step that the noise of a loaded
 * 2-core machine, up to ±40% per run, does not hide in a few pairs). */
function wrappers (dir, extras) {
  return extras.map((extra, i) => {
    const file = path.join(dir, `node-${i}`)
    fs.writeFileSync(file, `#!/bin/sh\nBISECT_EXTRA=${extra} exec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
    return file
  })
}

t.test('search: finds the first bad with log2 probes, stops on unknown', async (t) => {
  for (const count of [2, 3, 5, 8, 17]) {
    for (let firstBad = 1; firstBad < count; firstBad++) {
      const asked = []
      const out = await bisect(count, async (i) => { asked.push(i); return { answer: i >= firstBad ? 'slower' : 'not slower' } })
      t.equal(out.status, 'found')
      t.equal(out.firstBad, firstBad)
      t.equal(out.lastGood, firstBad - 1)
      t.ok(asked.length <= probesNeeded(count), `${count} candidates, first bad ${firstBad}: ${asked.length} probes`)
      t.ok(asked.every((i) => i > 0 && i < count - 1), 'the ends are never probed')
    }
  }
  const seen = []
  const out = await bisect(9, async (i) => ({ answer: i === 4 ? 'not slower' : i === 6 ? 'unknown' : 'slower' }), { onProbe: (p, r) => seen.push([p.index, p.answer, r.lastGood, r.firstBad]) })
  t.same(out, { status: 'unresolved', lastGood: 4, firstBad: 8, unknown: 6, probes: [{ answer: 'not slower', index: 4 }, { answer: 'unknown', index: 6 }] })
  t.same(seen, [[4, 'not slower', 4, 8], [6, 'unknown', 4, 8]])
  await t.rejects(bisect(1, async () => ({ answer: 'slower' })), RangeError)
  t.same(batchSizes(10, 40), [10, 10, 20])
  t.same(batchSizes(8, 24), [8, 8, 8])
  t.same(batchSizes(6, 6), [6])
})

t.test('oracle: three answers against half the regression', async (t) => {
  const followed = [{ filename: 'a.js', configuration: 'n=1', change: -40, midpoint: Math.log(0.6) / 2 }]
  const res = (ci, level = 0.99) => [{ filename: 'a.js', configuration: 'n=1', change: (ci[0] + ci[1]) / 2, ci, conf_level: level, verdict: '' }]
  // the midpoint is exp(log(0.6)/2) - 1 = -22.5%
  t.equal(classify(res([-45, -30]), followed, 0.99).answer, 'slower')
  t.equal(classify(res([-10, 3]), followed, 0.99).answer, 'not slower')
  t.equal(classify(res([-30, -10]), followed, 0.99).answer, 'unknown', 'a CI that holds the midpoint')
  t.equal(classify(res([-45, -30], 0.97), followed, 0.99).answer, 'unknown', 'a CI below the level asked decides nothing')
  t.equal(classify([], followed, 0.99).answer, 'unknown', 'not measured')
  const two = [...followed, { filename: 'b.js', configuration: '', change: -20, midpoint: Math.log(0.8) / 2 }]
  const both = (a, b) => [...res(a), { filename: 'b.js', configuration: '', change: 0, ci: b, conf_level: 0.99, verdict: '' }]
  t.equal(classify(both([-5, 5], [-30, -20]), two, 0.99).answer, 'slower', 'one configuration with the regression makes the probe bad')
  t.equal(classify(both([-5, 5], [-15, 5]), two, 0.99).answer, 'unknown')
  t.equal(classify(both([-5, 5], [-5, 5]), two, 0.99).answer, 'not slower')
})

t.test('usage errors before any work', async (t) => {
  const dir = t.testdir()
  const [w] = wrappers(dir, [0])
  const bad = [
    [[], /give the candidates/],
    [['--binaries', w, '--node', '22.0.0..22.1.0', 'spin'], /give one kind of candidates/],
    [['--binaries', w, 'spin'], /give at least two/],
    [['--binaries', `${w},${dir}/missing`, 'spin'], /--binaries \(#2\) .*missing: no such file/],
    [['--binaries', `${w},${w}`], /give the benchmark categories/],
    [['--node', '22.0..22.1.0', 'spin'], /--node 22\.0\.\.22\.1\.0: give GOOD\.\.BAD as exact versions/],
    [['--node', '22.1.0..22.0.0', 'spin'], /the good version must come before the bad one/],
    [['--root', BENCH, '--refs', 'no-such-ref..v2', 'spin'], /--refs no-such-ref\.\.v2: no-such-ref is not a commit of/],
    [['--binaries', `${w},${w}`, '--runs', '1', 'spin'], /--runs 1: give a whole number >= 2/],
    [['--binaries', `${w},${w}`, '--runs', '20', '--max-runs', '10', 'spin'], /--max-runs 10: give at least --runs \(20\)/],
    [['--binaries', `${w},${w}`, '--confidence', '2', 'spin'], /--confidence 2/],
    [['--binaries', `${w},${w}`, '--threshold', '-1', 'spin'], /--threshold -1/],
    [['--binaries', `${w},${w}`, '--seed', 'x', 'spin'], /--seed x/]
  ]
  for (const [argv, message] of bad) await t.rejects(main(argv), { exitCode: 2, message }, argv.join(' '))
  await t.rejects(main(['--root', BENCH, '--binaries', `${w},${w}`, 'nothing']), { exitCode: 2 })
  const help = capture()
  t.equal(await main(['--help'], { stdout: help.stream, prog: 'benchrig bisect' }), 0)
  t.match(help.text, /^Usage: benchrig bisect/)
  t.equal(parseBisectArgs(['--binaries', `${w},${w}`, '--cache', dir, 'spin']).cache, dir)
})

t.test('a row of wrappers: the slowdown starts at the 4th', async (t) => {
  const dir = t.testdir()
  const row = wrappers(dir, [0, 0, 0, 3, 3, 3])
  const out = capture()
  const err = capture()
  const db = path.join(dir, 'history.sqlite')
  const code = await main(['--root', BENCH, '--binaries', row.join(','), '--runs', '6', '--max-runs', '24', '--confidence', '0.95', '--seed', '7', '--history', db, 'spin'], { stdout: out.stream, stderr: err.stream })
  t.equal(code, 0, out.text + err.text)
  t.match(out.text, /^bisect: 6 candidates, .*node-0 \(good\) \.\. .*node-5 \(bad\); at most 3 probes; seed 7\n/)
  t.match(out.text, /ends: .* following 1 configuration shown slower:\n {2}spin\/spin\.js n=5000000: -\d/)
  t.match(out.text, new RegExp(`probe ${row[2]}: not slower after \\d+ pairs`))
  t.match(out.text, new RegExp(`first bad: ${row[3]}\nlast good: ${row[2]}\n`))
  t.match(out.text, /\nconfidence: 3 decisions \(the ends and 2 probes\)/)
  // every comparison is in the store: the ends and both probes, under the candidates' labels
  const pairs = [...out.text.matchAll(/^(?:ends: [^\n]*?, |probe [^\n]*? after )(\d+) pairs/gm)].map((m) => Number(m[1]))
  t.equal((err.text.match(/recorded \d+ measurements/g) ?? []).length, 3, 'three comparisons recorded')
  const h = await openHistory(db)
  const [series, ...more] = await h.series({ order: 'added' })
  await h.close()
  t.same(more, [], 'one series: the label names the binary, the environment is the machine')
  t.same(series.points.map((p) => p.label), [row[0], row[5], row[2], row[3]], 'good, bad, then the probes in the order they ran')
  const total = pairs.reduce((a, b) => a + b, 0)
  t.equal(series.points[0].values.length, total, 'the good end: one value per pair of every comparison')
  t.equal(series.points.slice(1).reduce((a, p) => a + p.values.length, 0), total, 'each other candidate: the pairs of its comparison')
})

t.test('good not faster than bad: said before any probe', async (t) => {
  const dir = t.testdir()
  const row = wrappers(dir, [3, 0, 0])
  const out = capture()
  const code = await main(['--root', BENCH, '--binaries', row.join(','), '--runs', '6', '--max-runs', '6', '--confidence', '0.95', '--seed', '3', 'spin'], { stdout: out.stream, stderr: capture().stream })
  t.equal(code, 1)
  t.match(out.text, new RegExp(`good ${row[0]} is not shown faster than bad ${row[2]} after 6 pairs \\(95% CIs\\), so there is nothing to bisect:\\n {2}spin/spin\\.js n=5000000: \\+\\d`))
  t.notMatch(out.text, /probe /)
})
