'use strict'
// Finds benchmark files: which folders of a benchmark directory are categories,
// and which files in them pass --filter / --exclude. Shared by run, compare
// and scatter so that all three select the same files.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')

// Folders of a benchmark directory that are never categories. Anything else
// holding at least one benchmark file (*.js not starting with "_") is one.
const NOT_CATEGORIES = new Set([
  'bench', 'bin', 'coverage', 'doc_img', 'docs', 'fixtures', 'lib', 'node_modules',
  'scripts', 'test'
])

function isBenchmarkFile (name) {
  return name.endsWith('.js') && !name.startsWith('_') && !name.startsWith('.')
}

function isCategoryName (name) {
  return !NOT_CATEGORIES.has(name) && !name.startsWith('.') && !name.startsWith('_')
}

function isDirectory (dir) {
  try {
    return fs.statSync(dir).isDirectory()
  } catch {
    return false
  }
}

/**
 * Lists the categories of a benchmark directory, sorted.
 * @param {string} root
 * @returns {string[]}
 */
function listCategories (root) {
  let entries
  try {
    entries = fs.readdirSync(root, { withFileTypes: true })
  } catch (err) {
    throw new UsageError(`--root ${root}: cannot read the benchmark directory (${err.code || err.message})`)
  }
  return entries
    .filter((e) => e.isDirectory() && isCategoryName(e.name))
    .filter((e) => fs.readdirSync(path.join(root, e.name)).some(isBenchmarkFile))
    .map((e) => e.name)
    .sort()
}

/**
 * Turns a --filter/--exclude value into a predicate over a path inside a
 * category ("buffer-concat.js"): "/re/flags" is a regular expression, anything
 * else a plain substring.
 * @param {string} pattern
 * @param {string} flag the flag name, for the error message
 * @returns {(rel: string) => boolean}
 */
function compilePattern (pattern, flag) {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern)
  if (!m) return (rel) => rel.includes(pattern)
  let re
  try {
    re = new RegExp(m[1], m[2])
  } catch (err) {
    throw new UsageError(`${flag} ${pattern}: not a valid regular expression (${err.message})`)
  }
  return (rel) => re.test(rel)
}

/**
 * Resolves categories (or "all") to benchmark files.
 * @param {{root: string, categories: string[], filter?: string[], exclude?: string[]}} opts
 * @returns {{category: string, name: string, file: string}[]} name is "category/file.js"
 */
function findBenchmarks ({ root, categories, filter = [], exclude = [] }) {
  const known = listCategories(root)
  if (categories.length === 0) {
    throw new UsageError(`name at least one category or "all"; categories in ${root}: ${known.join(', ') || '(none)'}`)
  }
  const wanted = categories.includes('all') ? known : categories
  const keep = filter.map((p) => compilePattern(p, '--filter'))
  const drop = exclude.map((p) => compilePattern(p, '--exclude'))
  const out = []
  for (const category of wanted) {
    const dir = path.join(root, category)
    if (!known.includes(category)) {
      // An existing folder without benchmark files is a category with no
      // files, as in Node core (its run.js finds nothing there), not an error.
      if (isCategoryName(category) && isDirectory(dir)) continue
      if (NOT_CATEGORIES.has(category) && isDirectory(dir)) {
        throw new UsageError(`"${category}" is a folder of ${root} that is never a category (${[...NOT_CATEGORIES].join(', ')} hold helpers, not benchmarks); categories in ${root}: ${known.join(', ') || '(none)'}`)
      }
      throw new UsageError(`unknown category "${category}" (no such folder); categories in ${root}: ${known.join(', ') || '(none)'}`)
    }
    for (const name of fs.readdirSync(dir).filter(isBenchmarkFile).sort()) {
      if (keep.length > 0 && !keep.some((f) => f(name))) continue
      if (drop.some((f) => f(name))) continue
      out.push({ category, name: `${category}/${name}`, file: path.join(dir, name) })
    }
  }
  return out
}

module.exports = { listCategories, findBenchmarks, compilePattern, isBenchmarkFile, NOT_CATEGORIES }
