'use strict'
// A runner's test project in a temporary git repository with two commits:
// the first with "sum" looping LOOP times, the second with 1.5 x LOOP (the
// task ~33% slower), "join" the same in both. node_modules is a committed
// symlink to the runners' install (_packages.js), so each ref's worktree
// finds the runner without an install of its own.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { PROJECTS, WORK } = require('./_projects.js')

function git (cwd, ...args) {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
  return r.stdout.trim()
}

/**
 * @param {string} dir where the repository is made
 * @param {string} runner
 * @param {string} nodeModules
 * @param {{loop: number, slower?: number}} o slower: the second commit's factor (default 1.5)
 */
function makeRepo (dir, runner, nodeModules, { loop, slower = 1.5 }) {
  fs.mkdirSync(dir, { recursive: true })
  git(dir, 'init', '-q', '-b', 'main')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `project-${runner}`, version: '1.0.0', private: true }) + '\n')
  fs.symlinkSync(nodeModules, path.join(dir, 'node_modules'))
  for (const [f, text] of Object.entries(PROJECTS[runner].files)) fs.writeFileSync(path.join(dir, f), text)
  fs.writeFileSync(path.join(dir, 'work.js'), WORK(loop))
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'first')
  fs.writeFileSync(path.join(dir, 'work.js'), WORK(Math.round(loop * slower)))
  git(dir, 'commit', '-q', '-am', 'sum does 1.5x the work')
  return dir
}

module.exports = { makeRepo, git }
