'use strict'
// Every check before any work, as docs/history.md promises: a corrupt
// --history store stops compare --old-ref/--new-ref before a worktree is made
// or an --output started; `run` in a project that has not installed benchrig
// finds benchrig/common as compare's sides do; a folder that is never a
// category is named as such; history --help states the code's --max-p.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { makeRepo, extraWorktrees } = require('../sides/make-repo.js')
const { DEFAULTS } = require('../../lib/history/changepoint.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

function benchrig (args, cwd, env = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, BENCHRIG_PROGRESS: 'none', ...env }, timeout: 120e3 })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

t.test('compare: a corrupt --history store is one error before any worktree or output', async (t) => {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-checks-'))
  t.teardown(() => fs.rmSync(top, { recursive: true, force: true }))
  const repoDir = path.join(top, 'repo')
  const tmp = path.join(top, 'tmp')
  fs.mkdirSync(repoDir)
  fs.mkdirSync(tmp)
  const repo = makeRepo(repoDir)
  const store = path.join(top, 'corrupt.sqlite')
  fs.writeFileSync(store, 'this is not a database, it only has the name of one\n'.repeat(200))
  const output = path.join(top, 'out.csv')
  const r = benchrig(['compare', '--old-ref', repo.A, '--new-ref', repo.B, '--runs', '2', '--history', store, '--output', output, '--cache', path.join(top, 'cache'), 'calls'], repo.dir, { TMPDIR: tmp })
  t.equal(r.code, 2, r.stderr)
  t.match(r.stderr, /--history .*corrupt\.sqlite: not a SQLite database/)
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line')
  t.notMatch(r.stderr, /npm ci|worktree/, 'nothing was built')
  t.same(fs.readdirSync(tmp), [], 'no worktree folder was made')
  t.same(extraWorktrees(repo.dir), [], 'no worktree registered')
  t.notOk(fs.existsSync(output), 'no header-only --output left')
})

t.test('run finds benchrig/common in a project that has not installed benchrig', async (t) => {
  const dir = t.testdir({
    'package.json': JSON.stringify({ name: 'no-benchrig-here', private: true }),
    benchmark: {
      misc: {
        'loop.js': "'use strict'\nconst common = require('benchrig/common')\nconst bench = common.createBenchmark(main, { n: [1000] })\nfunction main ({ n }) {\n  bench.start()\n  let s = 0\n  for (let i = 0; i < n; i++) s += i\n  bench.end(n)\n  if (s < 0) console.log(s)\n}\n"
      },
      fixtures: { 'data.js': 'module.exports = 1\n' }
    }
  })
  const r = benchrig(['run', '--test', 'misc'], dir)
  t.equal(r.code, 0, r.stderr)
  t.match(r.stdout, /misc\/loop\.js n=1: /)
  t.notMatch(r.stderr, /Cannot find module/)
  const named = benchrig(['run', 'fixtures'], dir)
  t.equal(named.code, 2)
  t.match(named.stderr, /"fixtures" is a folder of .* that is never a category/, 'a helper folder is named as such, not "no such folder"')
  t.notMatch(named.stderr, /no such folder/)
})

t.test('history --help states the --max-p the code uses', async (t) => {
  const r = benchrig(['history', '--help'], os.tmpdir())
  t.equal(r.code, 0)
  t.match(r.stdout, new RegExp(`--max-p P .*\\(default ${DEFAULTS.maxP}\\)`))
})
