'use strict'
// compare --history without --history-label: each side's rows go in under
// what changed between the sides (a git ref's commit, a package's version, a
// binary's node version), and sides that differ only in that share a series.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { compareHistorySink } = require('../../lib/history/sink.js')
const { openHistory } = require('../../lib/history/index.js')

const MACHINE = { cpu: { model: 'Test CPU', count: 2 }, os: { platform: 'linux', release: '6.1.0' }, governor: 'performance', hostname: 'box' }
const BINARY = { path: '/x/node', version: 'v24.1.0', sha256: 'b'.repeat(64) }

async function recorded (t, meta, rows) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-labels-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const db = path.join(dir, 'h.sqlite')
  const sink = await compareHistorySink(db, { meta })
  for (const row of rows) await sink.write(row)
  await sink.close()
  const h = await openHistory(db)
  try { return await h.series({ order: 'added' }) } finally { await h.close() }
}

const rows = [
  { binary: 'old', filename: 'lib/a.js', configuration: 'n=1', rate: 100, measure: 'wall' },
  { binary: 'new', filename: 'lib/a.js', configuration: 'n=1', rate: 80, measure: 'wall' }
]

t.test('git-ref sides: labelled by commit, one series over the shared binary', async (t) => {
  const side = (commit) => ({ ...BINARY, sha256: `${commit}-with-binary`, binary_sha256: BINARY.sha256, ref: commit.slice(0, 4), commit })
  const series = await recorded(t, { ...MACHINE, old: side('a'.repeat(40)), new: side('c'.repeat(40)) }, rows)
  t.equal(series.length, 1, 'one series, not one per commit')
  t.same(series[0].points.map((p) => [p.label, p.values]), [['a'.repeat(40), [100]], ['c'.repeat(40), [80]]])
  t.equal(series[0].key.env.nodeSha256, BINARY.sha256, 'the fingerprint names the binary')
})

t.test('package sides: labelled by the installed version', async (t) => {
  const side = (v) => ({ ...BINARY, sha256: `pkg-${v}`, binary_sha256: BINARY.sha256, package: 'escape-html', spec: `escape-html@${v}`, package_version: v })
  const series = await recorded(t, { ...MACHINE, old: side('1.0.2'), new: side('1.0.3') }, rows)
  t.equal(series.length, 1)
  t.same(series[0].points.map((p) => p.label), ['1.0.2', '1.0.3'])
})

t.test('binary sides: labelled by node version (a history across releases: one series)', async (t) => {
  const series = await recorded(t, { ...MACHINE, old: BINARY, new: { path: '/y/node', version: 'v26.0.0', sha256: 'd'.repeat(64) } }, rows)
  t.equal(series.length, 1)
  t.same(series[0].points.map((p) => [p.label, p.values]), [['v24.1.0', [100]], ['v26.0.0', [80]]])
})

t.test('the CPU probe\'s summary travels with the source, not with the fingerprint', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-probe-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const db = path.join(dir, 'h.sqlite')
  const cpuProbe = { speeds: { 0: 440, 1: 250 }, spread: 1.76 }
  for (const meta of [{ ...MACHINE, old: BINARY, new: BINARY, cpuProbe, placement: 'one-cpu' }, { ...MACHINE, old: BINARY, new: BINARY, cpuProbe: { speeds: { 0: 430, 1: 432 }, spread: 1 }, placement: 'one-cpu' }]) {
    const sink = await compareHistorySink(db, { meta, labels: { old: 'a', new: 'b' } })
    // a second run measures other rates (the same bytes would be the same source)
    for (const row of rows) await sink.write({ ...row, rate: row.rate + meta.cpuProbe.spread })
    await sink.close()
  }
  const h = await openHistory(db)
  try {
    const list = await h.list()
    t.same(list.sources.map((s) => s.meta), [{ cpuProbe, placement: 'one-cpu' }, { cpuProbe: { speeds: { 0: 430, 1: 432 }, spread: 1 }, placement: 'one-cpu' }])
    t.equal((await h.series({ order: 'added' })).length, 1, 'two probe readings, one series')
  } finally { await h.close() }
})
