'use strict'
// Label order (lib/history/label-order.js): semver precedence, the commit
// order of a real git repository, the order added, and the refusals.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { orderLabels, compareSemver } = require('../../lib/history/label-order.js')

const labels = (...names) => names.map((name, i) => ({ name, seq: i + 1 }))
const ordered = (r) => [...r.rank].sort((a, b) => a[1] - b[1]).map(([n]) => n)

t.test('semver precedence', async (t) => {
  const r = orderLabels(labels('v20.10.0', 'v20.2.0', '1.0.0-beta.2', '1.0.0-beta.10', '1.0.0-alpha', '1.0.0', '1.0.0-alpha.1', 'v20', '1.0.0+build.5'))
  t.equal(r.order, 'semver')
  t.same(ordered(r), ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-beta.2', '1.0.0-beta.10', '1.0.0', '1.0.0+build.5', 'v20', 'v20.2.0', 'v20.10.0'])
  t.ok(compareSemver('1.0.0-rc.1', '1.0.0-rc.1.1') < 0, 'a longer pre-release comes after its prefix')
  t.ok(compareSemver('1.0.0-1', '1.0.0-a') < 0, 'numeric identifiers before alphanumeric ones')
})

t.test('commit order from git, by full or short ids; --order added', async (t) => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-labels-'))
  t.teardown(() => fs.rmSync(repo, { recursive: true, force: true }))
  const git = (...args) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim()
  git('init', '-q')
  const ids = []
  for (let i = 0; i < 3; i++) {
    fs.writeFileSync(path.join(repo, 'f'), String(i))
    git('add', 'f')
    git('commit', '-qm', `c${i}`)
    ids.push(git('rev-parse', 'HEAD'))
  }
  const r = orderLabels(labels(ids[2].slice(0, 7), ids[0], ids[1].slice(0, 10)), { repo })
  t.equal(r.order, 'commit', 'auto: every label a commit id')
  t.same(ordered(r), [ids[0], ids[1].slice(0, 10), ids[2].slice(0, 7)])
  t.throws(() => orderLabels(labels('deadbeef'), { repo }), { code: 'BENCHRIG_ERR_LABEL_ORDER', message: /label "deadbeef" is not a commit of .*give --repo DIR/ })
  t.throws(() => orderLabels(labels('deadbeef'), { repo: path.join(repo, 'nope') }), { message: /--order commit: cannot read the commits of/ })
  t.same(ordered(orderLabels(labels('b', 'a', 'c'), { order: 'added' })), ['b', 'a', 'c'])
})

t.test('what cannot be ordered asks for --order', async (t) => {
  t.throws(() => orderLabels(labels('v1.0.0', 'abcdef1')), { code: 'BENCHRIG_ERR_LABEL_ORDER', message: /"v1\.0\.0", "abcdef1": versions mixed with other names\); give --order semver/ })
  t.throws(() => orderLabels(labels('main', 'pr-1')), { message: /neither versions nor commit ids/ })
  t.throws(() => orderLabels(labels('a'), { order: 'date' }), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--order date: use one of auto, semver, commit, added/ })
})
