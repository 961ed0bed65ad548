'use strict'
// compare --runs seq through its entry point: the usage errors before any
// run, and a short run whose CSV, NDJSON and progress say which rule stopped
// each configuration, after how many pairs and why; analyze of the CSV later
// gives the rule's own intervals.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { main, parseCompareArgs } = require('../../lib/cli/compare.js')
const { BENCH, readRows } = require('./fixtures/helpers.js')
const { analyze } = require('../../lib/stats/analyze.js')

const BIN = ['--old', process.execPath, '--new', process.execPath]

function sink () {
  let text = ''
  return { isTTY: false, columns: 120, write: (s) => { text += s; return true }, get text () { return text } }
}

t.test('bad combinations are one usage error before any run', async (t) => {
  const usage = (args, re) => t.throws(() => parseCompareArgs([...BIN, ...args, 'cpu'], { defaultRoot: BENCH }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: re }, args.join(' '))
  usage(['--runs', 'seq', '--shard', '0/2', '--seed', '1'], /--runs seq does not go with --shard/)
  usage(['--runs', 'seq', '--target', '1'], /--target and --time-budget go with --runs auto/)
  usage(['--runs', 'often'], /--runs often: give a whole number of pairs, auto or seq/)
  usage(['--runs', 'seq', '--runs', '5'], /--runs is given more than once/)
  usage(['--runs', 'seq', '--max-runs', '1'], /--max-runs 1: give a whole number >= 2/)
  usage(['--runs', 'seq', '--alpha', '2'], /--alpha/)
  usage(['--max-runs', '5'], /go with --runs auto/)
  const opts = parseCompareArgs([...BIN, '--runs', 'seq', '--threshold', '2', 'cpu'], { defaultRoot: BENCH })
  t.same(opts.seq, { alpha: 0.05, threshold: 2, maxPairs: 100 })
})

t.test('a short seq run: the rule in every row, its stops in NDJSON and on stderr', async (t) => {
  const dir = t.testdir()
  const csv = path.join(dir, 'out.csv')
  const nd = path.join(dir, 'out.ndjson')
  const err = sink()
  const code = await main([...BIN, '--runs', 'seq', '--max-runs', '3', '--seed', '9', '--set', 'kind=mix', '--root', BENCH, '--output', csv, '--ndjson', nd, 'cpu'], { stdout: sink(), stderr: err, handleSigint: false, env: { CI: 'true' } })
  t.equal(code, 0, err.text)
  const rows = readRows(csv)
  t.equal(rows.length, 6, '3 pairs x 2 sides: every configuration reached --max-runs')
  t.ok(rows.every((r) => r.rule === 'seq v3 alpha=0.05 threshold=1 max=3' && r.executor === 'serial'), 'the rule and the executor travel with each row')
  t.match(err.text, /--runs seq: cpu\/spin\.js kind='mix' n=1000000: inconclusive after 3 pairs \(--max-runs reached/)
  t.match(err.text, /compare: seq 0\/1 stopped; open 1, nearest cpu\/spin\.js kind='mix' n=1000000 at \d pairs/, 'progress: how far the open configuration is')
  const records = fs.readFileSync(nd, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  t.match(records[0], { type: 'meta', rule: 'seq v3 alpha=0.05 threshold=1 max=3', executor: 'serial', runs: 'seq' })
  t.match(records.find((r) => r.type === 'stop'), { filename: 'cpu/spin.js', rule: 'seq v3 alpha=0.05 threshold=1 max=3', pairs: 3, verdict: 'inconclusive', reason: 'max-runs' })
  const a = analyze(rows)
  t.match(a.results[0], { verdict: 'inconclusive', stop: { rule: 'seq', pairs: 3, reason: 'max-runs' } })
  t.equal(a.results[0].ci[0], -100, 'three pairs cannot bound the median: the interval is unbounded')
  await t.rejects(main([...BIN, '--runs', '3', '--set', 'kind=mix', '--root', BENCH, '--resume', csv, 'cpu'], { stdout: sink(), stderr: sink(), handleSigint: false }), { message: /holds rows of the rule "seq v3 alpha=0.05 threshold=1 max=3": resume it with --runs seq/ }, 'a seq file resumes only under its rule')
  // a CSV of version 1 of the rule: analyze replays version 1, and no run resumes it
  const old = path.join(dir, 'v1.csv')
  fs.writeFileSync(old, fs.readFileSync(csv, 'utf8').replaceAll('seq v3 alpha=', 'seq alpha='))
  t.match(analyze(readRows(old)).results[0], { verdict: 'inconclusive', stop: { rule: 'seq', pairs: 3, reason: 'max-runs' }, conf_level: 0.95 })
  t.equal(analyze(readRows(old)).meta.rule, 'seq alpha=0.05 threshold=1 max=3')
  const { formatAnalysisText } = require('../../lib/report/analysis-text.js')
  t.match(formatAnalysisText(analyze(rows)), /stopping rule: --runs seq \(seq v3 [^)]*\): .*e-BH/s, 'the text says how version 2 decides')
  t.match(formatAnalysisText(analyze(readRows(old))), /stopping rule: --runs seq \(seq alpha=[^)]*\): .*1 - alpha\/configurations/s, 'and version 1 how it did')
  await t.rejects(main([...BIN, '--runs', 'seq', '--max-runs', '3', '--set', 'kind=mix', '--root', BENCH, '--resume', old, 'cpu'], { stdout: sink(), stderr: sink(), handleSigint: false }), { message: /holds rows of version 1 of --runs seq \("seq alpha=0.05 threshold=1 max=3"\): benchrig analyze still replays that rule on them, but a run cannot be resumed under it/ })
  // a CSV of version 2: analyze replays it with version 2's futility; no run resumes it
  const v2 = path.join(dir, 'v2.csv')
  fs.writeFileSync(v2, fs.readFileSync(csv, 'utf8').replaceAll('seq v3 alpha=', 'seq v2 alpha='))
  t.match(analyze(readRows(v2)).results[0], { verdict: 'inconclusive', stop: { rule: 'seq', pairs: 3, reason: 'max-runs' } })
  await t.rejects(main([...BIN, '--runs', 'seq', '--max-runs', '3', '--set', 'kind=mix', '--root', BENCH, '--resume', v2, 'cpu'], { stdout: sink(), stderr: sink(), handleSigint: false }), { message: /holds rows of version 2 of --runs seq \("seq v2 alpha=0.05 threshold=1 max=3"\)/ })
})

t.test('the summary lines and the progress text say why and how far', async (t) => {
  const { summary, describeOpen } = require('../../lib/compare/sequential.js')
  const base = { filename: 'f.js', configuration: 'a=1', rule: 'seq v2 alpha=0.05 threshold=1 max=100', ci: [1, 2], conf_level: 0.975 }
  const lines = summary([
    { ...base, pairs: 12, stop_at: 9, verdict: 'faster', reason: 'above 0', evalue: 68.5 },
    { ...base, pairs: 7, stop_at: 7, verdict: 'inconclusive', reason: 'futility', needed: null },
    { ...base, pairs: 8, stop_at: 8, verdict: 'inconclusive', reason: 'futility', needed: 280 },
    { ...base, pairs: 7, stop_at: 7, verdict: 'no change', reason: 'inside threshold' }
  ])
  t.match(lines[0], /faster stopped at pair 9 of 12 \(e-value 68\.5: CI 1\.00%\.\.2\.00% at 97\.50%\)/, 'where the rule called it, and the pairs its interval uses')
  t.match(lines[1], /futility: would need more than 100x --max-runs pairs;/)
  t.match(lines[2], /futility: would need ~280 pairs;/)
  t.match(lines[3], /no change after 7 pairs \(interval inside the threshold/)
  t.equal(lines[4], '--runs seq: 4 configuration(s): 1 faster, 0 slower, 1 no change, 2 inconclusive')
  const st = { filename: 'f.js', verdict: 'running', n: 5, lo: -1, hi: 1 }
  t.equal(describeOpen([{ ...st, configuration: 'a=1', evalue: 3.2, bar: 320 }, { ...st, configuration: 'a=2', evalue: 9.87, bar: 320 }], { threshold: 1 }),
    'seq 0/2 stopped; open 2, nearest f.js a=2 at 5 pairs, e-value 9.87 of the 320 a call needs')
  t.match(describeOpen([{ ...st, configuration: 'a=1' }], { threshold: 1 }), /at 5 pairs, ±171\.8% \(threshold ±1%\)/, 'version 1: its half-width')
})
