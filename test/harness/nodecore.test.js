'use strict'
// Node core's own benchmark style runs unchanged: a folder with a common.js
// that re-exports ours, files that require('../common.js'), `n` configs,
// --expose-internals, a server on common.PORT loaded by bench.http.
const { test } = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { collect, collectLoad, plainNode } = require('./fixtures/helpers.js')
const { needNode } = require('../helpers/tools.js')
const { freePort } = require('../helpers/loopback.js')

const NODECORE = path.join(__dirname, '..', 'fixtures', 'nodecore')

test('a Node core style file with --expose-internals runs every configuration', async (t) => {
  const r = await collect(path.join(NODECORE, 'misc', 'internals.js'))
  t.same(r.errors, [])
  t.same(r.reports.map((x) => [x.name, x.conf]), [
    ['misc/internals.js', { type: 'codes', n: 1e4 }],
    ['misc/internals.js', { type: 'keys', n: 1e4 }]
  ])
  const byHand = spawnSync(process.execPath, [path.join(NODECORE, 'misc', 'internals.js'), 'n=10', 'type=keys'], { encoding: 'utf8' })
  t.equal(byHand.status, 0, byHand.stderr)
  t.match(byHand.stdout, /^misc\/internals\.js n=10 type="keys": [\d,]+(\.\d+)?\n$/, 'run by hand it prints Node\'s lines')
})

test('a Node core style HTTP file (common.PORT, bench.http) runs in --test mode', async (t) => {
  const env = { ...process.env, PORT: String(await freePort()) }
  const r = await collectLoad(t, path.join(NODECORE, 'misc', 'http-simple.js'), { args: ['--test'], env })
  t.same(r.errors, [])
  t.equal(r.reports.length, 1)
  const rep = r.reports[0]
  t.same(Object.keys(rep.conf), ['duration', 'c', 'len', 'benchmarker'], 'the benchmarker joins the configuration, as in Node core')
  t.equal(rep.conf.len, 1)
  t.ok(rep.rate > 0, 'requests were answered')
  const narrowed = await collectLoad(t, path.join(NODECORE, 'misc', 'http-simple.js'), { args: ['--test', 'len=1024', 'benchmarker=builtin'], env })
  t.same(narrowed.errors, [])
  t.same(narrowed.reports[0].conf, { len: 1024, c: 1, duration: 0.25, benchmarker: 'builtin' })
})

test('the same files run on a Node 18 binary', async (t) => {
  const node18 = needNode(t, 18)
  if (!node18) return
  const r = await collect(path.join(NODECORE, 'misc', 'internals.js'), { execPath: plainNode(t, node18), args: ['--test'] })
  t.same(r.errors, [])
  t.equal(r.reports.length, 1)
})
