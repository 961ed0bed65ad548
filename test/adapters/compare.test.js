'use strict'
// compare.js gives the binary under test to the benchmark processes only:
// in a real compare run of node 18 against node 22 (or this node), every
// server runs on the binary under test and every generator is spawned on
// compare's own node (the argv0 bench.http used, recorded by the benchmark).
const { test } = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { needNode, nodeBinary } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, '..', '..')
const FIXTURE_ROOT = path.join(__dirname, '..', 'fixtures', 'adapters', 'compare-root')

test('compare.js: servers on the binaries under test, the generator on the driver\'s node', async (t) => {
  const node18 = needNode(t, 18)
  if (!node18) return
  const other = nodeBinary(22) || process.execPath
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-where-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const log = path.join(dir, 'where.ndjson')
  const { code, stdout, stderr } = await new Promise((resolve) => {
    // `env -u NODE_OPTIONS`: tap's loader, which it adds to every spawned
    // process, does not load on node 18.
    const child = spawn('env', ['-u', 'NODE_OPTIONS', process.execPath, path.join(ROOT, 'compare.js'),
      '--old', node18, '--new', other, '--runs', '1', '--seed', '1', '--no-progress', '--root', FIXTURE_ROOT, 'gen'],
    { env: { ...process.env, BENCHRIG_WHERE_LOG: log } })
    let out = ''
    let err = ''
    child.stdout.on('data', (c) => { out += c })
    child.stderr.on('data', (c) => { err += c })
    child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }))
  })
  t.equal(code, 0, `compare.js succeeded (${stderr.trim()})`)
  t.equal(stdout.trim().split('\n').length, 3, 'a CSV header and one row per binary')
  const lines = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  t.equal(lines.length, 2, 'one run on each binary')
  t.same(lines.map((l) => fs.realpathSync(l.server)).sort(), [node18, other].map((b) => fs.realpathSync(b)).sort(), 'the servers ran on the binaries under test')
  t.ok(lines.some((l) => l.serverVersion.startsWith('v18.')), 'one of them is node 18')
  for (const l of lines) {
    t.equal(l.generator, process.execPath, 'the generator was spawned on compare\'s node')
    t.not(fs.realpathSync(l.generator), fs.realpathSync(l.server), 'not on the binary under test')
    t.equal(l.script, 'autocannon.js')
  }
})
