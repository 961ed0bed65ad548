'use strict'
// Every CSV benchrig writes (run.js --format csv, compare.js, scatter.js)
// read the way Node core reads it (test/r/node-contract.R: Node compare.R's
// exact read.csv call, colClasses recycled over our extra columns), with the
// same numbers as our compare.R; and benchrig analyze reads Node's own CSV
// (five columns, ", " after each comma).
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { needTool } = require('../helpers/tools.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { rowsFromCsvText } = require('../../lib/compare/load-csv.js')
const { createCsvSink, COLUMNS } = require('../../lib/compare/output.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { makeWrapper, runCompare } = require('../compare/fixtures/helpers.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const REPO = path.join(__dirname, '..', '..')
const CONTRACT = path.join(__dirname, 'node-contract.R')

function rscript (args, input) {
  const r = spawnSync('Rscript', args, { input, encoding: 'utf8', cwd: REPO })
  if (r.status !== 0) throw new Error(`Rscript ${args.join(' ')} failed: ${r.stderr}`)
  return parseCsvRecords(r.stdout).records
}

function node (args) {
  return spawnOutput(process.execPath, args, { cwd: REPO })
}

const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b))

t.test('compare.js CSV: Node\'s read.csv contract, the same numbers as our compare.R', async (t) => {
  if (!needTool(t, 'Rscript')) return
  const dir = t.testdir()
  const slow = makeWrapper(dir, 'node-slow', 'slow25.js')
  const out = path.join(dir, 'c.csv')
  const r = await runCompare(['--old', process.execPath, '--new', slow, '--runs', '3', '--seed', '3', '--set', 'n=200000', '--output', out, 'cpu'])
  t.equal(r.code, 0, r.stderr)
  const text = fs.readFileSync(out, 'utf8')
  const rows = rowsFromCsvText(text, out)
  t.equal(rows.length, 12, '3 pairs x 2 binaries x 2 configurations')
  const contract = rscript([CONTRACT, 'compare'], text)
  const ours = rscript([path.join(REPO, 'compare.R'), '--format', 'csv'], text)
  t.equal(contract.length, 2)
  for (const c of contract) {
    t.equal(Number(c.columns), COLUMNS.length, 'all columns read')
    t.equal(c.numeric, 'rate time seed start shard_index shard_count section_start section_end alloc_bytes max_rss_kb cpu_speed cpu_spread', 'the recycled numeric columns hold numbers (or nothing)')
    const o = ours.find((x) => x.name === c.name)
    t.ok(o, `${c.name}: in our compare.R too`)
    t.ok(close(Number(o.improvement), Number(c.improvement)), `${c.name}: improvement ${o.improvement} vs ${c.improvement}`)
    t.ok(close(Number(o['p.value']), Number(c['p.value'])), `${c.name}: p`)
  }
  t.same(contract.map((c) => c.name).sort(), ["cpu/spin.js kind='mix' n=200000", "cpu/spin.js kind='sqrt' n=200000"], 'Node\'s configuration strings')
  t.equal(analyze(rows).results[0].method, 'wilcoxon-signed-rank', 'our columns are there, so the rows pair')
  // The guide's filter, in Node's own quoting: sed '1p;/encoding='"'"'ascii'"'"'/!d'
  const sed = spawnSync('sed', ["1p;/kind='sqrt'/!d"], { input: text, encoding: 'utf8' })
  const filtered = rscript([CONTRACT, 'compare'], sed.stdout)
  t.same(filtered.map((c) => [c.name, c.rows]), [["cpu/spin.js kind='sqrt' n=200000", '6']], 'Node\'s sed filter selects the rows of one value')
})

t.test('every column filled, awkward strings: Node\'s reader still gets the numbers', async (t) => {
  if (!needTool(t, 'Rscript')) return
  const file = path.join(t.testdir(), 'full.csv')
  const sink = createCsvSink({ file })
  const confs = ["s='a \"quoted\", comma' n=1", "s=\"it's\" n=2"]
  for (let pair = 1; pair <= 3; pair++) {
    for (const [i, configuration] of confs.entries()) {
      for (const binary of ['old', 'new']) {
        sink.write({ binary, filename: 'x/y.js', configuration, rate: (binary === 'new' ? 110 : 100) * (1 + pair / 100) + i, time: 0.5, pair, order: binary === 'old' ? 1 : 2, run: pair, seed: 42, start: 1760000000000 + pair, configs: 2, measure: 'cpu', plan: 'ab,cd', shard_index: 0, shard_count: 2, host: 'h "1", x' })
      }
    }
  }
  t.throws(() => sink.write({ binary: 'old', start: '2026-01-01T00:00:00Z' }), { message: /column "start" takes numbers/ }, 'a text value never reaches a numeric column')
  sink.close()
  const text = fs.readFileSync(file, 'utf8')
  const contract = rscript([CONTRACT, 'compare'], text)
  const ours = rscript([path.join(REPO, 'compare.R'), '--format', 'csv'], text)
  t.same(contract.map((c) => c.name).sort(), confs.map((c) => `x/y.js ${c}`).sort())
  for (const c of contract) {
    t.equal(Number(c.rows), 6)
    const o = ours.find((x) => x.name === c.name)
    t.ok(close(Number(o.improvement), Number(c.improvement)), `${c.name}: improvement`)
  }
})

t.test('run.js --format csv (the guide\'s --set len=64 over buffers) and scatter.js: Node\'s readers', async (t) => {
  if (!needTool(t, 'Rscript')) return
  const run = await node(['run.js', '--set', 'len=64', '--set', 'n=2000', '--format', 'csv', '--filter', '/tostring|compare/', 'buffers'])
  t.equal(run.code, 0, run.stderr)
  const mine = parseCsvRecords(run.stdout).records
  t.equal(mine.length, 12, 'buffer-compare.js 8 + buffer-tostring.js 4 (small group, len=64)')
  const read = rscript([CONTRACT, 'run'], run.stdout)
  t.same(read.map((x) => x.name), mine.map((x) => `${x.filename} ${x.configuration}`))
  t.ok(read.every((x, i) => close(Number(x.rate), Number(mine[i].rate))), 'the same rates')
  t.ok(mine.some((x) => x.configuration === 'group="small" n=2000 len=64 encoding="utf8"'), 'Node\'s run.js configuration strings (JSON.stringify)')

  const sc = await node(['scatter.js', '--runs', '2', '--set', 'n=2000', '--set', 'len=16', '--set', 'diff=none', 'buffers/buffer-compare.js'])
  t.equal(sc.code, 0, sc.stderr)
  const rows = parseCsvRecords(sc.stdout)
  t.same(rows.header, ['filename', 'n', 'diff', 'len', 'method', 'rate', 'time'], 'variables in Node\'s order')
  const lines = sc.stdout.trim().split('\n')
  t.equal(lines.filter((l) => /^([^,]+, ){3}16, /.test(l)).length, 4, 'Node\'s layout (", "): the guide\'s sed filter selects len=16')
  const sread = rscript([CONTRACT, 'scatter'], sc.stdout)
  t.equal(sread.length, 4)
  t.ok(sread.every((x, i) => close(Number(x.rate), Number(rows.records[i].rate)) && x.columns === '7'))
})

t.test('benchrig analyze reads Node core\'s own CSV: five columns, ", " after each comma', async (t) => {
  let csv = '"binary", "filename", "configuration", "rate", "time"\n'
  for (let i = 0; i < 6; i++) {
    for (const b of ['old', 'new']) csv += `"${b}", "string_decoder/string-decoder.js", "n=2500000 encoding='ascii'", ${b === 'old' ? 100 + i : 90 + i}, 0.5\n`
  }
  const rows = rowsFromCsvText(csv, 'node.csv')
  t.same(rows[0], { binary: 'old', filename: 'string_decoder/string-decoder.js', configuration: "n=2500000 encoding='ascii'", rate: '100', time: '0.5' })
  const [res] = analyze(rows).results
  t.equal(res.method, 'mann-whitney', 'no pair column: unpaired')
  t.ok(res.change < 0)
  const cli = await node(['bin/benchrig.js', 'analyze', writeTemp(t, csv)])
  t.equal(cli.code, 0, cli.stderr)
  t.match(cli.stdout, "string_decoder/string-decoder.js n=2500000 encoding='ascii'")
})

function writeTemp (t, text) {
  const f = path.join(t.testdir(), 'node.csv')
  fs.writeFileSync(f, text)
  return f
}

t.test('scatter.R --xaxis n: a variable named n is not overwritten by the sample count', async (t) => {
  if (!needTool(t, 'Rscript')) return
  let csv = '"filename","n","len","rate","time"\n'
  for (const n of [10, 100, 1000]) for (const k of [1, 2]) csv += `"b/x.js",${n},4,${n * 3 + k},1\n`
  const plot = path.join(t.testdir(), 'n.png')
  const r = spawnSync('Rscript', [path.join(REPO, 'scatter.R'), '--xaxis', 'n', '--plot', plot], { input: csv, encoding: 'utf8', cwd: REPO })
  t.equal(r.status, 0, r.stderr)
  const table = r.stdout.split('\n').filter((l) => /^\s*\d/.test(l)).map((l) => l.trim().split(/\s+/).map(Number))
  t.same(table.map((row) => row.slice(0, 3)), [[10, 2, 31.5], [100, 2, 301.5], [1000, 2, 3001.5]], 'x = the variable n; the count is "runs"')
  t.match(r.stdout, /^\s*n\s+runs\s+mean/)
  t.ok(fs.statSync(plot).size > 0, 'the plot is drawn from the same table')
})
