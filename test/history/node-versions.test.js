'use strict'
// A real history: two benchmark files of ours measured by the real node 18,
// 20, 22, 24 and 26 binaries (.node-versions/, each as the driver, so the
// NDJSON metadata names its version), added to a store without --label and
// read back as one series per configuration along the releases. The change
// points of such a history are real data, so only their shape is asserted.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { needNode } = require('../helpers/tools.js')
const { openHistory } = require('../../lib/history/index.js')

const ROOT = path.join(__dirname, '..', '..')
const MAJORS = [18, 20, 22, 24, 26]

function runOn (node, out) {
  return new Promise((resolve, reject) => {
    const fd = fs.openSync(out, 'w')
    const child = spawn(node, [path.join(ROOT, 'run.js'), '--format', 'ndjson', '--test', '--filter', 'buffer-concat', '--filter', 'buffer-compare.js', 'buffers'], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'], env: { ...process.env, BENCHRIG_PROGRESS: 'none' } })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.on('close', (code) => { fs.closeSync(fd); code === 0 ? resolve() : reject(new Error(`${node}: exit ${code}: ${stderr}`)) })
  })
}

t.test('node 18 to 26: one series per configuration, in release order', async (t) => {
  const nodes = []
  for (const major of MAJORS) {
    const bin = needNode(t, major)
    if (!bin) return
    nodes.push(bin)
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-history-nodes-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const files = MAJORS.map((m) => path.join(dir, `node${m}.ndjson`))
  // two at a time: the machine has two cores
  for (let i = 0; i < nodes.length; i += 2) await Promise.all(nodes.slice(i, i + 2).map((bin, j) => runOn(bin, files[i + j])))
  const h = await openHistory(path.join(dir, 'h.sqlite'))
  t.teardown(() => h.close())
  const added = await h.add(files)
  t.equal(added.sources.length, 5)
  const series = await h.series({ file: 'buffers' })
  t.same([...new Set(series.map((s) => s.key.file))].sort(), ['buffers/buffer-compare.js', 'buffers/buffer-concat.js'])
  for (const s of series) {
    t.same(s.points.map((p) => p.label.split('.')[0]), MAJORS.map((m) => `v${m}`), `${s.key.file} ${s.key.configuration}: the five releases in order`)
    t.equal(s.key.env.nodeVersion, '', 'the node version is the label, not part of the key')
  }
  t.equal(new Set(series.map((s) => s.key.fingerprint)).size, 1, 'one machine: one fingerprint')
  const changes = await h.changes({ file: 'buffers' })
  t.equal(changes.length, series.length)
  for (const c of changes) {
    for (const ch of [...c.changes, ...c.weak]) {
      const at = c.points.findIndex((p) => p.label === ch.label)
      t.ok(at > 0 && c.points[at - 1].label === ch.previous, `${c.key.configuration}: ${ch.label} after ${ch.previous}`)
      t.ok(ch.ci[0] <= ch.size && ch.size <= ch.ci[1], 'the size lies in its interval')
    }
  }
})
