'use strict'
// The test processes' children start without tap's process tracker (see
// untracked-children.js): with it, each spawned node pays ~0.25 CPU-s more.
const t = require('tap')
const { spawnSync } = require('node:child_process')

const probe = 'process.stdout.write(JSON.stringify({ options: process.env.NODE_OPTIONS || "", argv: process.execArgv }))'

t.test('a spawned node process has no @tapjs/processinfo preload, with or without its own env', async (t) => {
  for (const env of [undefined, { ...process.env }, { PATH: process.env.PATH }]) {
    const r = spawnSync(process.execPath, ['-e', probe], { env, encoding: 'utf8' })
    t.equal(r.status, 0, r.stderr)
    const seen = JSON.parse(r.stdout)
    t.notMatch(seen.options, /processinfo/, `NODE_OPTIONS: ${seen.options}`)
    t.notMatch(seen.argv.join(' '), /processinfo/)
  }
})

t.test('coverage still reaches the children: NODE_V8_COVERAGE is passed on when set', async (t) => {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(process.env.NODE_V8_COVERAGE || "")'], {
    env: { ...process.env, NODE_V8_COVERAGE: '/tmp/benchrig-coverage-probe' }, encoding: 'utf8'
  })
  t.equal(r.stdout, '/tmp/benchrig-coverage-probe')
})
