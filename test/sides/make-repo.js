'use strict'
// A real git project in a temporary folder for the side builders' tests: a
// small library (lib/work.js: spin and sum), its benchmark folder
// (benchmark/calls/work.js, which requires 'benchrig' and the library
// relatively), a dependency from a tarball in the repo (vendor/tiny-V.tgz,
// file: in package.json, pinned by package-lock.json), and commits:
//   A  the library; tiny 1.0.0
//   B  spin() does twice the work (a step no loaded CI machine hides in 8 pairs); tiny 2.0.0 (the lockfile changes)
//   C  a dependency that does not exist (npm ci fails)
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { spawnSync } = require('node:child_process')

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' }

function run (cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.stdout}`)
  return r.stdout.trim()
}

const library = (factor) => `'use strict'
// spin: ${factor === 1 ? 'the original' : 'twice the work per call'}
exports.spin = function spin (n) {
  let s = 0
  const m = Math.round(n * ${factor})
  for (let i = 0; i < m; i++) s = (s + i * 7) % 1000003
  return s
}
exports.sum = function sum (n) {
  let s = 0
  for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003
  return s
}
`

const BENCH = `'use strict'
const fs = require('node:fs')
const common = require('benchrig')
const work = require('../../lib/work.js')
const tiny = require('tiny')
const bench = common.createBenchmark(main, { fn: ['spin', 'sum'], n: [1e7] })
function main ({ fn, n }) {
  if (process.env.SIDES_LOG) fs.appendFileSync(process.env.SIDES_LOG, process.cwd() + ' ' + tiny.version + '\\n')
  work[fn](n / 100)
  bench.start()
  const s = work[fn](n)
  bench.end(n)
  if (s < 0) console.log(s)
}
`

/** A tarball of the tiny package at a version, in vendor/ (as npm pack makes it: files under package/). */
function tinyTarball (dir, version) {
  const src = path.join(dir, '.tiny-src')
  fs.mkdirSync(path.join(src, 'package'), { recursive: true })
  fs.writeFileSync(path.join(src, 'package', 'package.json'), JSON.stringify({ name: 'tiny', version, main: 'index.js' }))
  fs.writeFileSync(path.join(src, 'package', 'index.js'), `exports.version = ${JSON.stringify(version)}\n`)
  fs.mkdirSync(path.join(dir, 'vendor'), { recursive: true })
  run('tar', ['czf', path.join(dir, 'vendor', `tiny-${version}.tgz`), '-C', src, 'package'], dir)
  fs.rmSync(src, { recursive: true, force: true })
  return `vendor/tiny-${version}.tgz`
}

/** package.json and the package-lock.json npm would write for it (lockfile v3). */
function setDependency (dir, tarball, version) {
  const spec = `file:${tarball}`
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'mylib', version: '1.0.0', private: true, dependencies: { tiny: spec } }, null, 2) + '\n')
  const file = path.join(dir, tarball)
  const integrity = fs.existsSync(file) ? 'sha512-' + crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64') : 'sha512-AAAA'
  const lock = {
    name: 'mylib',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'mylib', version: '1.0.0', dependencies: { tiny: spec } },
      'node_modules/tiny': { version, resolved: spec, integrity }
    }
  }
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2) + '\n')
}

/**
 * @param {string} dir an empty folder
 * @returns {{dir: string, A: string, B: string, C: string}} commits
 */
function makeRepo (dir) {
  run('git', ['init', '-q', '-b', 'main'], dir)
  fs.mkdirSync(path.join(dir, 'lib'))
  fs.mkdirSync(path.join(dir, 'benchmark', 'calls'), { recursive: true })
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n')
  fs.writeFileSync(path.join(dir, 'lib', 'work.js'), library(1))
  fs.writeFileSync(path.join(dir, 'benchmark', 'calls', 'work.js'), BENCH)
  setDependency(dir, tinyTarball(dir, '1.0.0'), '1.0.0')
  run('git', ['add', '-A'], dir)
  run('git', ['commit', '-q', '-m', 'A'], dir)
  const A = run('git', ['rev-parse', 'HEAD'], dir)
  fs.writeFileSync(path.join(dir, 'lib', 'work.js'), library(2))
  setDependency(dir, tinyTarball(dir, '2.0.0'), '2.0.0')
  run('git', ['add', '-A'], dir)
  run('git', ['commit', '-q', '-m', 'B'], dir)
  const B = run('git', ['rev-parse', 'HEAD'], dir)
  // C: a lockfile whose tarball is gone
  setDependency(dir, 'vendor/tiny-3.0.0.tgz', '3.0.0')
  run('git', ['add', '-A'], dir)
  run('git', ['commit', '-q', '-m', 'C'], dir)
  const C = run('git', ['rev-parse', 'HEAD'], dir)
  run('git', ['checkout', '-q', B], dir)
  return { dir, A, B, C }
}

/** The worktrees git knows of, besides the main one. */
function extraWorktrees (dir) {
  return run('git', ['worktree', 'list', '--porcelain'], dir).split('\n').filter((l) => l.startsWith('worktree ')).slice(1)
}

module.exports = { makeRepo, extraWorktrees, run }
