'use strict'
// scripts/import-graph.js holds lib/ to its layers: the repo passes --check, and a small tree
// with a new circle, an upward import or a file outside any layer fails it, naming each.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'import-graph.js')
const run = (...args) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' })

function tree (t, files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-import-graph-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
  return dir
}

t.test('the repo itself: nothing beyond the known list', async (t) => {
  const r = run('--check')
  t.equal(r.status, 0, r.stderr)
  t.match(r.stdout, /^import graph of \d+ files: \d+ circles, \d+ upward imports/)
})

t.test('a clean tree passes; each kind of breach fails with its name', async (t) => {
  const clean = tree(t, {
    'lib/cli/main.js': "require('../compare/run.js')\n",
    'lib/compare/run.js': "require('../stats/sum.js'); require('../errors.js')\n",
    'lib/stats/sum.js': 'module.exports = 1\n',
    'lib/errors.js': 'module.exports = {}\n'
  })
  const ok = run('--check', '--root', clean)
  t.equal(ok.status, 0, ok.stderr)
  t.match(ok.stdout, /0 circles, 0 upward imports, 0 pairs of folders/)

  const bad = tree(t, {
    'lib/stats/a.js': "require('./b.js')\n",
    'lib/stats/b.js': "module.exports = () => require('./a.js')\n",
    'lib/harness/run.js': "require('../cli/flags.js')\n",
    'lib/cli/flags.js': "require('../harness/run.js')\n",
    'lib/newroom/x.js': 'module.exports = 1\n',
    'lib/stats/c.js': "exports.f = () => require('../report/gone.js')\n",
    'lib/stats/d.js': "// lazy: only the rare path needs it\nexports.f = () => require('./a.js')\n",
  })
  const r = run('--check', '--root', bad)
  t.equal(r.status, 1)
  t.match(r.stderr, /new circles: lib\/stats\/a\.js <-> lib\/stats\/b\.js/, 'a circle hidden behind a lazy require is found')
  t.match(r.stderr, /new upward: lib\/harness\/run\.js -> lib\/cli\/flags\.js \(engines imports entry\)/)
  t.match(r.stderr, /new folderPairs: lib\/cli <-> lib\/harness/)
  t.match(r.stderr, /file outside a layer: lib\/newroom\/x\.js/)
  t.match(r.stderr, /a path that names no file: lib\/stats\/c\.js:1 \.\.\/report\/gone\.js/)
  t.match(r.stderr, /new lazyWithoutWhy: lib\/stats\/b\.js \.\/a\.js/, 'a require inside a function without a "lazy:" why')
  t.notMatch(r.stderr, /lazyWithoutWhy: lib\/stats\/d\.js/, 'one with a why passes')
  const counts = JSON.parse(run('--json', '--root', bad).stdout)
  t.same(counts.lazy, ['lib/stats/b.js:1 ./a.js', 'lib/stats/c.js:1 ../report/gone.js', 'lib/stats/d.js:2 ./a.js'], 'the requires inside functions are listed')
  t.same(counts.lazyWithoutWhy, ['lib/stats/b.js ./a.js', 'lib/stats/c.js ../report/gone.js'])

  // an entry file at the root is the entry layer too: an engine that requires it imports upward
  const root = tree(t, { 'lib/adapters/e.js': "require('../../_http-benchmarkers.js')\n", '_http-benchmarkers.js': 'module.exports = {}\n' })
  t.match(run('--check', '--root', root).stderr, /new upward: lib\/adapters\/e\.js -> _http-benchmarkers\.js \(engines imports entry\)/)
})

t.test('a breach on the known list passes: the list only shrinks', async (t) => {
  const dir = tree(t, {
    'lib/harness/run.js': "require('../report/view.js')\n",
    'lib/report/view.js': 'module.exports = 1\n'
  })
  t.equal(run('--check', '--root', dir).status, 1)
  t.equal(run('--write-known', '--root', dir).status, 0)
  t.equal(run('--check', '--root', dir).status, 0)
})
