'use strict'
// A failing run is reported with file, configuration and binary, retried
// once, then recorded as failed while the rest goes on; exit 1 at the end.
const t = require('tap')
const path = require('node:path')
const { makeWrapper, runCompare, readRows } = require('./fixtures/helpers.js')

t.test('a configuration that fails once is retried; one that always fails is recorded', async (t) => {
  const dir = t.testdir()
  const newBin = makeWrapper(dir, 'node-new', 'mark-new.js')
  const out = path.join(dir, 'f.csv')
  const r = await runCompare(['--old', process.execPath, '--new', newBin, '--runs', '1', '--seed', '1', '--output', out, 'flaky'], {
    env: { FLAKY_DIR: dir }
  })
  t.equal(r.code, 1, 'exit 1 because a run failed after its retry')
  t.match(r.stderr, /FAILED flaky\/fail\.js step=3 with the new binary \(.*node-new\), pair 1: .*always fails with new on purpose/)
  t.notMatch(r.stderr, /FAILED flaky\/fail\.js step=2/, 'the first-time failure was retried successfully')
  const rows = readRows(out)
  const got = rows.map((x) => `${x.binary} ${x.configuration}`).sort()
  t.same(got, ['new step=1', 'new step=2', 'old step=1', 'old step=2', 'old step=3'], 'every configuration that worked has its row')
})
