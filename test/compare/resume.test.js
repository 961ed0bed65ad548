'use strict'
// Ctrl-C leaves every finished row on disk; --resume completes the run to the
// full row count, without duplicates, with the same seed and one header.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { runCompare, readRows } = require('./fixtures/helpers.js')
const { loadForResume } = require('../../lib/compare/resume.js')
const { buildSchedule } = require('../../lib/compare/schedule.js')
const { csvRow } = require('../../lib/report/csv.js')
const { COLUMNS } = require('../../lib/compare/output.js')

t.test('an interrupted run resumes to the full row count without duplicates', async (t) => {
  const dir = t.testdir()
  const out = path.join(dir, 'run.csv')
  const args = ['--old', process.execPath, '--new', process.execPath, '--runs', '3', '--seed', '99', '--set', 'kind=mix', 'cpu']
  const first = await runCompare([...args, '--output', out], {
    onSpawn (child) {
      // Interrupt once two rows are on disk, as Ctrl-C would.
      const timer = setInterval(() => {
        if (fs.existsSync(out) && fs.readFileSync(out, 'utf8').split('\n').length > 3) {
          clearInterval(timer)
          child.kill('SIGINT')
        }
      }, 20)
      child.on('close', () => clearInterval(timer))
    }
  })
  t.equal(first.code, 130, 'exit code of an interrupted run')
  t.match(first.stderr, /interrupted; stopping after the current run/)
  const partial = readRows(out)
  t.ok(partial.length >= 2 && partial.length < 6, `${partial.length} rows on disk after the interrupt`)

  const second = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '3', '--set', 'kind=mix', '--resume', out, 'cpu'])
  t.equal(second.code, 0, second.stderr)
  t.match(second.stderr, /resuming .*rows kept/)
  const text = fs.readFileSync(out, 'utf8')
  t.equal(text.split('\n').filter((l) => l.startsWith('"binary"')).length, 1, 'one header')
  const rows = readRows(out)
  t.equal(rows.length, 6, '3 pairs x 2 binaries')
  const keys = new Set(rows.map((r) => `${r.binary}/${r.configuration}/${r.pair}`))
  t.equal(keys.size, 6, 'no duplicates')
  t.same([...new Set(rows.map((r) => r.seed))], ['99'], 'the same seed throughout')
  // The resumed run follows the original schedule.
  const planned = buildSchedule({ files: [{ file: 'x', name: 'cpu/spin.js' }], runs: 3, seed: 99 })
  for (const r of rows) {
    const p = planned.find((s) => s.pair === Number(r.pair) && s.binary === r.binary)
    t.equal(Number(r.order), p.order, `pair ${r.pair} ${r.binary} in its planned position`)
  }
})

t.test('loadForResume keeps whole pairs and drops unfinished runs and the pairs they cut', (t) => {
  const dir = t.testdir()
  const file = path.join(dir, 'r.csv')
  const row = (binary, conf, pair) => csvRow(COLUMNS.map((c) => ({ binary, filename: 'a/b.js', configuration: conf, rate: 10, time: 1, pair, order: 1, run: 1, seed: 5, start: 's', configs: 2 })[c]))
  const pair1 = row('old', 'x=1', 1) + row('old', 'x=2', 1) + row('new', 'x=2', 1) + row('new', 'x=1', 1)
  fs.writeFileSync(file, csvRow(COLUMNS) + pair1 + row('old', 'x=1', 2) + row('old', 'x=2', 2) + row('new', 'x=1', 2))
  const r = loadForResume(file)
  t.equal(r.seed, 5)
  t.equal(r.rows.length, 4, 'the whole pair 1 is kept')
  t.equal(r.dropped, 3, 'pair 2: the new run had 1 of 2 configurations, so the pair runs again whole')
  t.ok(r.done.has('a/b.js\u0000old\u00001') && r.done.has('a/b.js\u0000new\u00001'))
  t.notOk(r.done.has('a/b.js\u0000old\u00002'), 'the finished old run of a cut pair is not kept')
  t.notOk(r.done.has('a/b.js\u0000new\u00002'))
  t.equal(readRowsCount(file), 4, 'the file was rewritten without the cut pair')
  t.throws(() => loadForResume(path.join(dir, 'none.csv')), /--resume .*none\.csv: cannot read it/)
  fs.writeFileSync(path.join(dir, 'core.csv'), '"binary","filename","configuration","rate","time"\n"old","a","",1,1\n')
  t.throws(() => loadForResume(path.join(dir, 'core.csv')), /no "pair" column; only files written by compare --output/)
  t.end()
})

function readRowsCount (file) {
  return fs.readFileSync(file, 'utf8').trim().split('\n').length - 1
}

t.test('--resume refuses another seed', async (t) => {
  const dir = t.testdir()
  const file = path.join(dir, 'r.csv')
  fs.writeFileSync(file, csvRow(COLUMNS))
  fs.appendFileSync(file, csvRow(COLUMNS.map((c) => ({ binary: 'old', filename: 'cpu/spin.js', configuration: 'n=1', rate: 1, time: 1, pair: 1, order: 1, run: 1, seed: 5, start: 's', configs: 1 })[c])))
  const r = await runCompare(['--old', process.execPath, '--new', process.execPath, '--seed', '6', '--resume', file, 'cpu'])
  t.equal(r.code, 2)
  t.match(r.stderr, /--seed 6: .* was written with seed 5; leave --seed out to resume/)
})

t.test('--resume with another --new binary refuses, naming both (sha256 from the NDJSON)', async (t) => {
  const dir = t.testdir()
  const file = path.join(dir, 'r.csv')
  const nd = path.join(dir, 'r.ndjson')
  fs.writeFileSync(file, csvRow(COLUMNS))
  fs.appendFileSync(file, csvRow(COLUMNS.map((c) => ({ binary: 'old', filename: 'cpu/spin.js', configuration: 'n=1', rate: 1, time: 1, pair: 1, order: 1, run: 1, seed: 5, start: 's', configs: 1 })[c])))
  const other = path.join(dir, 'other-node')
  fs.writeFileSync(other, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
  const { describeBinary } = require('../../lib/compare/binaries.js')
  const meta = { schema: 'benchrig-compare/1', type: 'meta', seed: 5, old: describeBinary(process.execPath), new: describeBinary(process.execPath) }
  fs.writeFileSync(nd, JSON.stringify(meta) + '\n')
  const before = fs.readFileSync(file, 'utf8')
  const r = await runCompare(['--old', process.execPath, '--new', other, '--resume', file, '--ndjson', nd, 'cpu'])
  t.equal(r.code, 2)
  t.match(r.stderr, new RegExp(`--resume: the --new binary ${other.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(sha256 [0-9a-f]{12}\\) is not the one the run started with: ${process.execPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(sha256 ${meta.new.sha256.slice(0, 12)}`))
  t.equal(fs.readFileSync(file, 'utf8'), before, 'the CSV is untouched')
  const same = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--resume', file, '--ndjson', nd, 'cpu'])
  t.notMatch(same.stderr, /is not the one the run started with/, 'the same binaries resume')
})

t.test('trimNdjsonForResume keeps what the CSV kept, once; drops stop records; a missing file is fine, a broken one an error', (t) => {
  const { trimNdjsonForResume } = require('../../lib/compare/resume.js')
  const dir = t.testdir()
  const file = path.join(dir, 'r.ndjson')
  const m = (binary, pair, configuration) => JSON.stringify({ type: 'measurement', filename: 'a/b.js', binary, pair, configuration, rate: 1 })
  fs.writeFileSync(file, [JSON.stringify({ type: 'meta', seed: 5 }), m('old', 1, 'x=1'), m('new', 1, 'x=1'), m('new', 1, 'x=1'), m('old', 2, 'x=1'), JSON.stringify({ type: 'failure', pair: 2 }), JSON.stringify({ type: 'stop', pair: 2 })].join('\n') + '\n')
  const done = new Set(['a/b.js\u0000old\u00001', 'a/b.js\u0000new\u00001'])
  t.equal(trimNdjsonForResume(file, done), 2, 'a duplicate and a run not kept')
  t.same(fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).type), ['meta', 'measurement', 'measurement', 'failure'])
  t.equal(trimNdjsonForResume(path.join(dir, 'none.ndjson'), done), 0)
  fs.writeFileSync(file, '{"type":"meta"}\nnot json\n')
  t.throws(() => trimNdjsonForResume(file, done), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--ndjson .*r\.ndjson: a line is not JSON/ })
  t.end()
})
