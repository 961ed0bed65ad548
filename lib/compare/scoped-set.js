'use strict'
// Scoped settings: --set SCOPE:key=value (and a question file's per-category
// and per-file "set") narrow a key for some files of a comparison only, so
// that files that need different settings (each its own n) are one plan, one
// schedule and, under --runs seq, one e-BH over every configuration. SCOPE is
// a category ("buffers"), a benchmark file as the rows name it
// ("buffers/buffer-tostring.js"), that name without ".js", or a file's own
// name when only one file of the run has it ("buffer-tostring.js" or
// "buffer-tostring"). A file's settings: the unscoped ones, then its
// category's, then its own; the more specific wins for a key (all its
// values: a key repeated in one scope is a list, as with --set).
const path = require('node:path')
const { UsageError } = require('../errors.js')

/** SCOPE:key=value, with the first ":" before the first "=". */
const SCOPED = /^([^=:\s]+):([^=:\s]+)=(.*)$/s

/**
 * @typedef {{scope: string, key: string, value: string, raw: string}} ScopedSet
 */

/**
 * Splits --set values into the unscoped ones (key=value) and the scoped ones.
 * @param {string[]} set
 * @returns {{plain: string[], scoped: ScopedSet[]}}
 */
function splitScoped (set) {
  const plain = []
  const scoped = []
  for (const s of set) {
    const m = SCOPED.exec(s)
    if (!m) {
      plain.push(s)
      continue
    }
    if (m[2] === 'CPUSET') throw new UsageError(`--set ${s}: CPUSET applies to the whole run; give --set CPUSET=LIST or --cpuset LIST without a scope`)
    scoped.push({ scope: m[1], key: m[2], value: m[3], raw: s })
  }
  return { plain, scoped }
}

/**
 * The files a scope names, and how specific it is (1: a category, 2: a file).
 * @param {string} scope
 * @param {{category: string, name: string}[]} files
 * @returns {{names: Set<string>, rank: number}}
 */
function filesOfScope (scope, files) {
  const s = scope.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, '')
  const byName = files.filter((f) => f.name === s || f.name === `${s}.js`)
  if (byName.length > 0) return { names: new Set(byName.map((f) => f.name)), rank: 2 }
  if (files.some((f) => f.category === s)) return { names: new Set(files.filter((f) => f.category === s).map((f) => f.name)), rank: 1 }
  const base = files.filter((f) => path.posix.basename(f.name) === s || path.posix.basename(f.name) === `${s}.js`)
  if (base.length > 1) throw new UsageError(`--set ${s}:…: "${s}" names ${base.length} files (${base.map((f) => f.name).join(', ')}); give the file with its category, e.g. ${base[0].name}`)
  if (base.length === 1) return { names: new Set([base[0].name]), rank: 2 }
  return { names: new Set(), rank: 0 }
}

/**
 * Every file's own key=value arguments, when some --set is scoped.
 * @param {{category: string, name: string}[]} files the files of the run
 * @param {string[]} plain the unscoped key=value settings
 * @param {ScopedSet[]} scoped
 * @param {string} [source] where the scoped settings come from, for messages
 * @param {{category: string, name: string}[]} [known] the categories' files before --filter and
 *   --exclude: a scope must name one of them (a typo is an error), though it may be filtered out
 * @returns {Map<string, string[]>|undefined} by file name; undefined when nothing is scoped
 */
function fileArgsOf (files, plain, scoped, source = '--set', known = files) {
  if (scoped.length === 0) return undefined
  const keyOf = (s) => s.slice(0, s.indexOf('='))
  // per file, per key: its values (a key repeated is a list, as with --set) and the scope's rank
  const perFile = new Map(files.map((f) => {
    const m = new Map()
    for (const a of plain) m.set(keyOf(a), { args: [...(m.get(keyOf(a))?.args ?? []), a], rank: 0 })
    return [f.name, m]
  }))
  for (const s of scoped) {
    if (filesOfScope(s.scope, known).names.size === 0) {
      const cats = [...new Set(known.map((f) => f.category))]
      throw new UsageError(`${source} ${s.raw}: "${s.scope}" names no category or benchmark file of this run; its categories: ${cats.join(', ')}; its files: ${known.map((f) => f.name).join(', ')}`)
    }
    const { names, rank } = filesOfScope(s.scope, files)
    for (const name of names) {
      const m = perFile.get(name)
      const had = m.get(s.key)
      const arg = `${s.key}=${s.value}`
      // a more specific scope replaces the values; the same scope adds one (a list)
      if (had && had.rank > rank) continue
      m.set(s.key, { args: had && had.rank === rank ? [...had.args, arg] : [arg], rank })
    }
  }
  return new Map([...perFile].map(([name, m]) => [name, [...m.values()].flatMap((x) => x.args)]))
}

module.exports = { splitScoped, fileArgsOf, filesOfScope }
