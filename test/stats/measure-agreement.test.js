'use strict'
// analyze warns when two measures of the same files call a configuration
// faster in one and slower in the other. The fixtures are real compare runs,
// node 24 (old) vs node 26 (new), buffers/buffer-compare.js Buffer.compare
// diff=last on this shared 2-core machine, 2026-11-26:
//   wall.csv                --measure wall, n=600000, 8 pairs (seed 24)
//   instructions.csv        --measure instructions, n=200000, 3 pairs (seed 24)
//   instructions-600k.csv   --measure instructions, n=600000, len=16, 3 pairs (seed 26)
// (commands in test/fixtures/measure-agreement/README.md)
const t = require('tap')
const path = require('node:path')
const { PassThrough } = require('node:stream')
const { main } = require('../../lib/cli/analyze.js')
const { readCompareCsv } = require('../../lib/compare/load-csv.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { agreementKey, splitByMeasure, measureDisagreements, formatDisagreements } = require('../../lib/stats/measure-agreement.js')

const DIR = path.join(__dirname, '..', 'fixtures', 'measure-agreement')
const WALL = path.join(DIR, 'wall.csv')
const INSTR = path.join(DIR, 'instructions.csv')
const INSTR600 = path.join(DIR, 'instructions-600k.csv')
const LEN16 = "diff='last' len=16 method='Buffer.compare'"

function sink () {
  const s = new PassThrough()
  let text = ''
  s.on('data', (d) => { text += d })
  return { stream: s, text: () => text }
}

async function runAnalyze (argv) {
  const out = sink()
  const err = sink()
  const code = await main(argv, { stdout: out.stream, stderr: err.stream })
  return { code, stdout: out.text(), stderr: err.text() }
}

t.test('the key drops n (instruction runs cut it), nothing else', async (t) => {
  t.equal(agreementKey({ filename: 'a.js', configuration: "n=600000 diff='last' len=16" }), agreementKey({ filename: 'a.js', configuration: "n=200000 diff='last' len=16" }))
  t.not(agreementKey({ filename: 'a.js', configuration: 'n=1 len=16' }), agreementKey({ filename: 'a.js', configuration: 'n=1 len=4096' }))
  t.not(agreementKey({ filename: 'a.js', configuration: 'len=16' }), agreementKey({ filename: 'b.js', configuration: 'len=16' }))
})

t.test('rows of one stdin input split by measure; an empty measure is wall', async (t) => {
  const rows = [...readCompareCsv(WALL), ...readCompareCsv(INSTR)]
  const groups = splitByMeasure([{ file: '-', rows }, { file: 'x.csv', rows: [{ ...rows[0], measure: '' }] }])
  t.same(groups.map((g) => g.measure), ['wall', 'instructions'])
  t.same(groups[0].inputs.map((i) => [i.file, i.rows.length]), [['-', 32], ['x.csv', 1]])
  t.same(groups[1].inputs.map((i) => [i.file, i.rows.length]), [['-', 12]])
})

t.test('real runs: wall and instructions at n=600000 disagree on len=16', async (t) => {
  const wall = analyze(readCompareCsv(WALL))
  const instr = analyze(readCompareCsv(INSTR600))
  const byConf = (a) => Object.fromEntries(a.results.map((r) => [r.configuration.replace(/^n=\d+ /, ''), r.verdict]))
  t.equal(byConf(wall)[LEN16], 'slower', 'wall time: node 26 slower')
  t.equal(byConf(instr)[LEN16], 'faster', 'instructions (--predictable): node 26 faster')
  const ds = measureDisagreements([{ measure: 'wall', results: wall.results }, { measure: 'instructions', results: instr.results }])
  t.equal(ds.length, 1)
  t.same(ds[0].calls.map((c) => [c.measure, c.verdict]), [['wall', 'slower'], ['instructions', 'faster']])
  t.match(formatDisagreements(ds), /disagree on 1 configuration/)
  t.equal(formatDisagreements([]), '')
})

t.test('benchrig analyze WALL INSTR: each measure apart, then the warning on stderr', async (t) => {
  const r = await runAnalyze([WALL, INSTR600])
  t.equal(r.code, 0)
  t.match(r.stdout, /^# measure: wall \(.*wall\.csv\)\n/)
  t.match(r.stdout, /\n# measure: instructions \(.*instructions-600k\.csv\)\n/)
  t.match(r.stdout, /measure: instructions \(rate = operations per 10\^9 instructions\)/)
  t.match(r.stderr, /^analyze: warning: the measures disagree on 1 configuration\(s\)/)
  t.match(r.stderr, new RegExp(`buffers/buffer-compare\\.js n=600000 ${LEN16}: wall -\\d+\\.\\d% \\(slower\\), instructions \\+\\d+\\.\\d% \\(faster\\)`))
  t.match(r.stderr, /--predictable/)
  t.match(r.stderr, /docs\/compare\.md/)
})

t.test('measures that agree (instructions at n=200000 calls len=16 slower too): no warning', async (t) => {
  const r = await runAnalyze(['--format', 'markdown', WALL, INSTR])
  t.equal(r.code, 0)
  t.match(r.stdout, /# measure: instructions/)
  t.equal(r.stderr, '')
})

t.test('one measure: the output is as before, no section headers', async (t) => {
  const r = await runAnalyze([WALL])
  t.equal(r.code, 0)
  t.notMatch(r.stdout, /# measure:/)
  t.equal(r.stderr, '')
})

t.test('json, github and --plot take one measure: a usage error', async (t) => {
  for (const argv of [['--format', 'json'], ['--format', 'github'], ['--plot', path.join(DIR, 'x.svg')]]) {
    await t.rejects(runAnalyze([...argv, WALL, INSTR]), { code: 'BENCHRIG_ERR_MEASURE', message: /2 measures \(wall, instructions\)/ })
  }
})
