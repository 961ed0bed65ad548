'use strict'
// scripts/checkout-guard.js, which npm test runs around the suite: a command
// that leaves something in the checkout (an empty folder too, which git
// status does not show) fails with the paths named; one that leaves it as it
// was passes; the command's own failure comes first.
const t = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const GUARD = path.join(__dirname, '..', '..', 'scripts', 'checkout-guard.js')

function guard (args) {
  return spawnSync(process.execPath, [GUARD, ...args], { encoding: 'utf8' })
}

const nodeRuns = (code) => [process.execPath, '-e', code]

t.test('new, changed and removed paths fail the run; a clean run passes', async (t) => {
  const dir = t.testdir({ 'kept.txt': 'a', 'edited.txt': 'b', 'removed.txt': 'c', node_modules: { 'x.js': '' } })
  const clean = guard(['--root', dir, ...nodeRuns('require("fs").readFileSync(process.argv[1] + "/kept.txt")'), dir])
  t.equal(clean.status, 0, clean.stderr)
  t.equal(clean.stderr, '')
  const js = `const fs = require('fs'); const p = (f) => require('path').join(${JSON.stringify(dir)}, f)
    fs.mkdirSync(p('.benchrig')); fs.writeFileSync(p('edited.txt'), 'bb'); fs.rmSync(p('removed.txt'))
    fs.writeFileSync(p('node_modules/y.js'), '')`
  const dirty = guard(['--root', dir, ...nodeRuns(js)])
  t.equal(dirty.status, 1)
  t.match(dirty.stderr, /left 3 change\(s\) in .*a test wrote into the checkout instead of a temporary folder/)
  t.match(dirty.stderr, '\n  new: .benchrig/\n  changed: edited.txt\n  gone: removed.txt\n')
  t.notMatch(dirty.stderr, /node_modules/, 'the tools\' folders are left out')
})

t.test('the command\'s failure is its exit status; usage errors exit 2', async (t) => {
  const dir = t.testdir({})
  t.equal(guard(['--root', dir, ...nodeRuns('process.exit(3)')]).status, 3)
  const none = guard([])
  t.equal(none.status, 2)
  t.match(none.stderr, /^checkout-guard: give the command to run\nusage: /)
  t.equal(guard(['--root']).status, 2)
  const missing = guard(['--root', dir, path.join(dir, 'no-such-command')])
  t.equal(missing.status, 1)
  t.match(missing.stderr, /cannot run .*no-such-command \(spawnSync .* ENOENT\)/)
})
