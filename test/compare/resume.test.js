'use strict'
// Ctrl-C leaves every finished row on disk; --resume completes the run to the
// full row count, without duplicates, with the same seed and one header.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { runCompare, readRows } = require('./fixtures/helpers.js')
const { loadForResume } = require('../../lib/compare/resume.js')
const { buildSchedule } = require('../../lib/compare/schedule.js')
const { csvRow } = require('../../lib/record/csv.js')
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
  t.match(JSON.parse(fs.readFileSync(`${out}.sides.json`, 'utf8')), { seed: 99, old: { path: process.execPath }, new: { path: process.execPath } }, 'the sides are recorded before the first row')

  const second = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '3', '--set', 'kind=mix', '--resume', out, 'cpu'])
  t.equal(second.code, 0, second.stderr)
  t.match(second.stderr, /resuming .*rows kept/)
  t.notMatch(second.stderr, /not verified/, 'checked against the record')
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

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

t.test('--resume refuses another binary (node with one byte appended), --runs or --set, without --ndjson; the file is untouched', async (t) => {
  const dir = t.testdir()
  const out = path.join(dir, 'r.csv')
  const args = ['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--set', 'kind=mix']
  const first = await runCompare([...args, '--seed', '4', '--output', out, 'cpu'])
  t.equal(first.code, 0, first.stderr)
  const sides = JSON.parse(fs.readFileSync(`${out}.sides.json`, 'utf8'))
  const { describeBinary } = require('../../lib/compare/binaries.js')
  const node = describeBinary(process.execPath)
  t.match(sides, { schema: 'benchrig-sides/1', seed: 4, old: { path: process.execPath, sha256: node.sha256 }, new: { sha256: node.sha256 }, plan: { categories: ['cpu'], set: ['kind=mix'], batches: [{ files: ['cpu/spin.js'], runs: 1, firstPair: 1 }] } })
  t.equal(sides.plan.id, readRows(out)[0].plan, 'the plan id of the rows')

  // a copy of node with one byte appended runs the same, and is another binary
  const copy = path.join(dir, 'node-copy')
  fs.copyFileSync(process.execPath, copy)
  fs.appendFileSync(copy, Buffer.from([0]))
  fs.chmodSync(copy, 0o755)
  const before = fs.readFileSync(out, 'utf8')
  const beforeSides = fs.readFileSync(`${out}.sides.json`, 'utf8')
  const other = await runCompare(['--old', process.execPath, '--new', copy, '--runs', '1', '--set', 'kind=mix', '--resume', out, 'cpu'])
  t.equal(other.code, 2, other.stderr)
  t.match(other.stderr, new RegExp(`--resume ${esc(out)}: not the comparison its rows were measured in \\(recorded in ${esc(out)}\\.sides\\.json\\): the new binary is ${esc(copy)} \\(sha256 [0-9a-f]{12}\\), the file's ${esc(process.execPath)} \\(sha256 ${node.sha256.slice(0, 12)}\\); resume with the sides`))
  t.notMatch(other.stderr, /old binary|\n.*\n/, 'one line, naming the new side only')
  t.notMatch(other.stderr, /resuming/, 'nothing resumed')
  t.equal(fs.readFileSync(out, 'utf8'), before, 'the CSV is untouched')
  t.equal(fs.readFileSync(`${out}.sides.json`, 'utf8'), beforeSides, 'and its record')

  const runs = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '2', '--set', 'kind=mix', '--resume', out, 'cpu'])
  t.equal(runs.code, 2)
  t.match(runs.stderr, /: the pairs per file are 2, the file's 1 \(--runs, or the --plan round\)/)
  const set = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--resume', out, 'cpu'])
  t.equal(set.code, 2)
  t.match(set.stderr, /: --set is \(none\), the file's kind=mix/)
  t.equal(fs.readFileSync(out, 'utf8'), before, 'still untouched')

  const same = await runCompare([...args, '--resume', out, 'cpu'])
  t.equal(same.code, 0, same.stderr)
  t.match(same.stderr, /resuming .*: 2 rows kept\n/, 'the same sides resume')
  t.equal(readRows(out).length, 2, 'nothing left to run')
})

t.test('a file that records no sides: refused unless --resume-unverified; the run\'s --ndjson stands in for the record', async (t) => {
  const dir = t.testdir()
  const file = path.join(dir, 'r.csv')
  const nd = path.join(dir, 'r.ndjson')
  // a whole pair, so that resuming keeps it and has nothing left to run
  const row = (binary) => csvRow(COLUMNS.map((c) => ({ binary, filename: 'cpu/spin.js', configuration: 'n=1', rate: 1, time: 1, pair: 1, order: 1, run: 1, seed: 5, start: 's', configs: 1 })[c]))
  fs.writeFileSync(file, csvRow(COLUMNS) + row('old') + row('new'))
  const before = fs.readFileSync(file, 'utf8')
  const bare = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--resume', file, 'cpu'])
  t.equal(bare.code, 2)
  t.match(bare.stderr, /--resume .*r\.csv: nothing records which sides its rows were measured with \(no .*r\.csv\.sides\.json: .*\), so rows of two binaries could mix; give the run's --ndjson FILE too, or pass --resume-unverified if these are the sides it was started with/)
  t.equal(fs.readFileSync(file, 'utf8'), before, 'untouched')

  // the metadata record of the run's NDJSON holds both sides' sha256
  const other = path.join(dir, 'other-node')
  fs.writeFileSync(other, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
  const { describeBinary } = require('../../lib/compare/binaries.js')
  const meta = { schema: 'benchrig-compare/1', type: 'meta', seed: 5, old: describeBinary(process.execPath), new: describeBinary(process.execPath) }
  fs.writeFileSync(nd, JSON.stringify(meta) + '\n')
  const r = await runCompare(['--old', process.execPath, '--new', other, '--runs', '1', '--resume', file, '--ndjson', nd, 'cpu'])
  t.equal(r.code, 2)
  t.match(r.stderr, new RegExp(`\\(recorded in ${esc(nd)}\\): the new binary is ${esc(other)} \\(sha256 [0-9a-f]{12}\\), the file's ${esc(process.execPath)} \\(sha256 ${meta.new.sha256.slice(0, 12)}\\)`))
  t.equal(fs.readFileSync(file, 'utf8'), before, 'the CSV is untouched')
  const flagOnly = await runCompare(['--old', process.execPath, '--new', process.execPath, '--resume-unverified', 'cpu'])
  t.equal(flagOnly.code, 2)
  t.match(flagOnly.stderr, /--resume-unverified goes with --resume FILE/)

  const unverified = await runCompare(['--old', process.execPath, '--new', process.execPath, '--runs', '1', '--resume', file, '--resume-unverified', 'cpu'])
  t.equal(unverified.code, 0, unverified.stderr)
  t.match(unverified.stderr, /resuming .*: 2 rows kept \(sides not verified: --resume-unverified\)\n/)
  t.ok(fs.existsSync(`${file}.sides.json`), 'from now on the file records its sides')
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
