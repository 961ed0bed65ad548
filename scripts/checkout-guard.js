#!/usr/bin/env node
'use strict'
// npm test's guard: runs the test command, then fails when the command left
// anything new, changed or gone in the checkout. A test that writes into the
// repository instead of a temporary folder is found here, including what
// `git status` does not show: an empty folder (such as the default history
// store's .benchrig/) or a file that .gitignore hides.
//
// usage: node scripts/checkout-guard.js [--root DIR] COMMAND [ARGS...]
// Exit: the command's own status when it failed (the changes are listed
// either way); else 1 when it changed the checkout; 2 for a usage error.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

// the tools' own folders: dependencies, tap's fixtures and cache, coverage data
const SKIP = new Set(['.git', 'node_modules', '.tap', 'coverage', '.nyc_output', '.node-versions', '.tools'])

/**
 * Every path under root (tool folders left out), with what identifies its content.
 * @param {string} root
 * @returns {Map<string, string>} relative path -> "dir" | "link" | "file size mtime"
 */
function snapshot (root) {
  const seen = new Map()
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (rel === '' && SKIP.has(entry.name)) continue
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`
      if (entry.isDirectory()) {
        seen.set(`${name}/`, 'dir')
        walk(name)
      } else if (entry.isSymbolicLink()) {
        seen.set(name, 'link')
      } else {
        const st = fs.statSync(path.join(root, name))
        seen.set(name, `file ${st.size} ${st.mtimeMs}`)
      }
    }
  }
  walk('')
  return seen
}

/**
 * What differs between two snapshots, one line a path.
 * @param {Map<string, string>} before
 * @param {Map<string, string>} after
 */
function differences (before, after) {
  const lines = []
  for (const [name, what] of after) {
    if (!before.has(name)) lines.push(`  new: ${name}`)
    else if (before.get(name) !== what) lines.push(`  changed: ${name}`)
  }
  for (const name of before.keys()) if (!after.has(name)) lines.push(`  gone: ${name}`)
  return lines
}

function main (argv) {
  let root = path.join(__dirname, '..')
  if (argv[0] === '--root') {
    if (argv[1] === undefined) return usage('--root needs a folder')
    root = path.resolve(argv[1])
    argv = argv.slice(2)
  }
  if (argv.length === 0) return usage('give the command to run')
  const before = snapshot(root)
  const r = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' })
  if (r.error) {
    process.stderr.write(`checkout-guard: cannot run ${argv[0]} (${r.error.message})\n`)
    return 1
  }
  const status = r.status ?? 1
  const lines = differences(before, snapshot(root))
  if (lines.length > 0) process.stderr.write(`checkout-guard: the command left ${lines.length} change(s) in ${root}; a test wrote into the checkout instead of a temporary folder (t.testdir(), os.tmpdir()):\n${lines.join('\n')}\n`)
  return status !== 0 ? status : lines.length > 0 ? 1 : 0
}

function usage (message) {
  process.stderr.write(`checkout-guard: ${message}\nusage: node scripts/checkout-guard.js [--root DIR] COMMAND [ARGS...]\n`)
  return 2
}

process.exitCode = main(process.argv.slice(2))
