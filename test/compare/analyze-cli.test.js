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
  t.same(Object.keys(a).filter((k) => ['schema', 'results', 'geomean', 'warnings', 'meta'].includes(k)).sort(), ['geomean', 'meta', 'results', 'schema', 'warnings'])
  t.equal(a.results.length, 5)
  for (const r of a.results) {
    for (const k of ['filename', 'configuration', 'n_old', 'n_new', 'change', 'ci', 'p', 'q', 'stars', 'verdict', 'welch']) t.ok(k in r, `result has ${k}`)
    t.equal(r.welch.accuracy.length, 3)
  }
  const slow = a.results.find((r) => r.configuration === 'type="slow"')
  t.equal(slow.verdict, 'slower')
  t.equal(slow.stars, '***')
  t.equal(a.results.find((r) => r.configuration === 'n=1 len=1024').verdict, 'faster')
  t.ok(a.geomean.ci[0] < a.geomean.change && a.geomean.change < a.geomean.ci[1])
})

t.test('text and markdown', async (t) => {
  const text = capture()
  await main([FIXTURE], { stdout: text.stream })
  t.match(text.text, /buffers\/b\.js type="slow"\s+30p\s+-10\.\d\d%/)
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
  t.match(out.text, /FAIL: 1 configuration\(s\) significantly slower than -5%/)
  t.equal(await main(['--max-regression', '20', FIXTURE], { stdout: capture().stream }), 0)
})

t.test('inconclusive results say how many more pairs they need', async (t) => {
  const out = capture()
  await main(['--format', 'json', '--threshold', '0.1', FIXTURE], { stdout: out.stream })
  const r = JSON.parse(out.text).results.find((x) => x.configuration === 'type="fast"')
  t.equal(r.verdict, 'inconclusive')
  t.ok(r.more_pairs > 0)
})

t.test('errors name the file or flag', async (t) => {
  await t.rejects(main([path.join(__dirname, 'nope.csv')], { stdout: capture().stream }), /nope\.csv: cannot read it \(ENOENT\)/)
  await t.rejects(main(['--format', 'xml', FIXTURE], { stdout: capture().stream }), /--format xml: use one of text, markdown, json/)
  await t.rejects(main(['--threshold', '0', FIXTURE], { stdout: capture().stream }), /--threshold 0: give a number > 0/)
  await t.rejects(main([], { stdout: capture().stream }), /give exactly one compare CSV/)
})
