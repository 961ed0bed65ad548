'use strict'
// benchrig analyze on fixture CSVs: text, markdown and JSON shapes, the
// --max-regression exit code, and errors that name the file.
const t = require('tap')
const path = require('node:path')
const { main } = require('../../lib/cli/analyze.js')

const FIXTURE = path.join(__dirname, '..', 'r', 'fixtures', 'paired.csv')

function capture () {
  let text = ''
  return { stream: { write: (s) => { text += s; return true } }, get text () { return text } }
}

t.test('json has the documented shape', async (t) => {
  const out = capture()
  t.equal(await main(['--format', 'json', FIXTURE], { stdout: out.stream }), 0)
  const a = JSON.parse(out.text)
  // The shape, in its order, then the documented extras (docs/compare.md).
  t.same(Object.keys(a), ['schema', 'results', 'geomean', 'warnings', 'meta', 'regressions'])
  t.equal(a.schema, 'benchrig-analysis/1')
  t.equal(a.results.length, 5)
  const SHAPE = ['filename', 'configuration', 'n_old', 'n_new', 'change', 'ci', 'p', 'q', 'stars', 'verdict', 'welch']
  const EXTRAS = ['n_pairs', 'method', 'q_holm', 'more_pairs', 'blocker', 'conf_level', 'ci_log_width', 'p_regression', 'q_regression', 'old', 'new']
  const isNum = (x) => typeof x === 'number' && Number.isFinite(x)
  for (const r of a.results) {
    const keys = Object.keys(r)
    t.same(keys.slice(0, SHAPE.length), SHAPE, `${r.configuration}: the documented keys first, in order`)
    t.same(keys.slice(SHAPE.length).filter((k) => !EXTRAS.includes(k)), [], 'no undocumented key')
    t.type(r.filename, 'string')
    t.type(r.configuration, 'string')
    t.ok(Number.isInteger(r.n_old) && Number.isInteger(r.n_new), 'n_old, n_new are counts')
    t.ok(isNum(r.change) && isNum(r.p) && isNum(r.q), 'change, p, q are numbers')
    t.ok(Array.isArray(r.ci) && r.ci.length === 2 && r.ci.every(isNum) && r.ci[0] <= r.change && r.change <= r.ci[1], 'ci is [lo, hi] around the change')
    t.ok(['', '*', '**', '***'].includes(r.stars), 'stars')
    t.ok(['faster', 'slower', 'no change', 'inconclusive'].includes(r.verdict), 'verdict')
    t.same(Object.keys(r.welch), ['improvement', 'p', 'accuracy'])
    t.ok(isNum(r.welch.improvement) && isNum(r.welch.p), 'welch improvement and p')
    t.ok(r.welch.accuracy.length === 3 && r.welch.accuracy.every(isNum) && r.welch.accuracy[0] < r.welch.accuracy[1] && r.welch.accuracy[1] < r.welch.accuracy[2], 'accuracy [a95, a99, a999], widening')
  }
  t.same(Object.keys(a.geomean), ['configurations', 'change', 'ci', 'method', 'pairs', 'conf_level'])
  t.equal(a.geomean.method, 'per-pair', 'the geomean is computed per pair first')
  t.ok(a.results.every((r) => r.conf_level === 0.95), 'every CI has its level (30 pairs: the one asked)')
  t.ok(Array.isArray(a.warnings))
  for (const w of a.warnings) t.same(Object.keys(w).slice(0, 4), ['filename', 'configuration', 'kind', 'message'])
  const slow = a.results.find((r) => r.configuration === 'type="slow"')
  t.equal(slow.verdict, 'slower')
  t.equal(slow.stars, '***')
  t.equal(a.results.find((r) => r.configuration === 'n=1 len=1024').verdict, 'faster')
  t.ok(a.geomean.ci[0] < a.geomean.change && a.geomean.change < a.geomean.ci[1])
})

t.test('text and markdown', async (t) => {
  const text = capture()
  await main([FIXTURE], { stdout: text.stream })
  t.match(text.text, /buffers\/b\.js type="slow"\s+30\s+-10\.\d\d%/)
  t.match(text.text, /geomean of 5 configurations/)
  t.match(text.text, /confidence\s+improvement\s+accuracy \(\*\)\s+\(\*\*\)\s+\(\*\*\*\)/)
  const md = capture()
  await main(['--format', 'markdown', FIXTURE], { stdout: md.stream })
  t.match(md.text, /^\| benchmark \| configuration \| n \| change \|/)
  t.match(md.text, /\| buffers\/a\.js \| n=1 len="x,y" \| 30 pairs \|/)
  t.match(md.text, /\*\*slower\*\*/)
})

t.test('--max-regression: exit 1 on a significant slowdown beyond the limit', async (t) => {
  const out = capture()
  t.equal(await main(['--max-regression', '5', FIXTURE], { stdout: out.stream }), 1, 'type="slow" is ~-10%')
  t.match(out.text.replace(/\s+/g, ' '), /FAIL: 1 configuration\(s\) slower than -5% \(one-sided test against -5% at 0.025, Holm-adjusted over 5\)/, 'the gate line (wrapped to 100 columns)')
  t.equal(await main(['--max-regression', '20', FIXTURE], { stdout: capture().stream }), 0)
})

t.test('inconclusive results say how many more pairs they need', async (t) => {
  const out = capture()
  await main(['--format', 'json', '--threshold', '0.1', FIXTURE], { stdout: out.stream })
  const r = JSON.parse(out.text).results.find((x) => x.configuration === 'type="fast"')
  t.equal(r.verdict, 'inconclusive')
  t.ok(r.more_pairs > 0)
})

t.test('--max-regression on a CSV with only a header: a gate does not pass on no data', async (t) => {
  const dir = t.testdir({ 'empty.csv': '"binary","filename","configuration","rate","time","pair","order","run","seed","start","configs"\n' })
  const file = path.join(dir, 'empty.csv')
  await t.rejects(main(['--max-regression', '5', file], { stdout: capture().stream }), { code: 'BENCHRIG_ERR_NO_DATA', message: /empty\.csv: no measurements.*--max-regression/ })
  t.equal(await main([file], { stdout: capture().stream }), 0, 'without a gate an empty analysis is not an error')
})

t.test('errors name the file or flag', async (t) => {
  await t.rejects(main([path.join(__dirname, 'nope.csv')], { stdout: capture().stream }), /nope\.csv: cannot read it \(ENOENT\)/)
  await t.rejects(main(['--format', 'xml', FIXTURE], { stdout: capture().stream }), /--format xml: use one of text, markdown, json/)
  await t.rejects(main(['--threshold', '0', FIXTURE], { stdout: capture().stream }), /--threshold 0: give a number > 0/)
  await t.rejects(main([], { stdout: capture().stream }), /give a compare CSV or NDJSON file/)
})
