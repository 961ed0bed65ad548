'use strict'
// compare --question FILE: the whole question of a comparison in one file
// (JSON, or YAML for .yaml/.yml): the categories, --filter, --exclude, the
// settings (--set, everywhere, per category or per benchmark file), the
// measure, the pairs (runs) and the stopping rule's parameters. The file
// becomes the flags it stands for, so everything that takes flags (resume,
// shards, history, the PR report) takes the file the same way; a flag given
// on the command line as well must agree with it. Every mistake is one usage
// error naming the file and the key, raised before any run.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { nearest } = require('../suggest.js')

/** The keys of a question file and of its "rule" object. */
const KEYS = ['categories', 'filter', 'exclude', 'set', 'measure', 'runs', 'rule']
const RULE_KEYS = ['alpha', 'threshold', 'max-runs', 'target', 'time-budget']

/**
 * @typedef {object} Question
 * @property {string} file the path as given
 * @property {string[]} categories
 * @property {Record<string, string|string[]|undefined>} values the compare flags the file stands for
 *   (filter, exclude and set are lists; set holds "key=value" and "SCOPE:key=value")
 * @property {Record<string, any>} content the file's question, normalised (recorded in the NDJSON meta)
 */

/**
 * Reads and checks a question file.
 * @param {string} file
 * @returns {Question}
 */
function readQuestion (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`--question ${file}: cannot read it (${err.code || err.message})`)
  }
  return parseQuestion(text, file)
}

/**
 * @param {string} text
 * @param {string} file its name: the extension chooses JSON or YAML; messages name it
 * @returns {Question}
 */
function parseQuestion (text, file) {
  const ext = path.extname(file).toLowerCase()
  let doc
  if (ext === '.yaml' || ext === '.yml') {
    const YAML = require('yaml') // lazy: only a .yaml question file needs the YAML parser
    try {
      doc = YAML.parse(text, { prettyErrors: false })
    } catch (err) {
      const line = err.linePos && err.linePos[0] ? `:${err.linePos[0].line}` : ''
      throw new UsageError(`--question ${file}${line}: not valid YAML (${String(err.message).split('\n')[0]})`)
    }
  } else if (ext === '.json') {
    try {
      doc = JSON.parse(text)
    } catch (err) {
      throw new UsageError(`--question ${file}: not valid JSON (${err.message})`)
    }
  } else {
    throw new UsageError(`--question ${file}: give a .json, .yaml or .yml file`)
  }
  const bad = (key, what) => new UsageError(`--question ${file}: "${key}" ${what}`)
  if (!isObject(doc)) throw new UsageError(`--question ${file}: the file must hold an object with keys such as ${KEYS.join(', ')}`)
  for (const k of Object.keys(doc)) {
    if (!KEYS.includes(k)) {
      const near = nearest(k, KEYS)
      throw bad(k, `is not a key of a question${near ? ` (did you mean "${near}"?)` : ''}; the keys are ${KEYS.join(', ')}`)
    }
  }
  const categories = stringList(doc.categories, 'categories', bad)
  if (doc.categories !== undefined && categories.length === 0) throw bad('categories', 'is empty: name at least one category, or "all"')
  /** @type {Record<string, any>} */
  const values = {
    filter: stringList(doc.filter, 'filter', bad),
    exclude: stringList(doc.exclude, 'exclude', bad),
    set: setList(doc.set, bad)
  }
  if (doc.measure !== undefined) {
    if (typeof doc.measure !== 'string') throw bad('measure', 'must be a string: wall, cpu, instructions, server-cpu or heap')
    values.measure = doc.measure
  }
  if (doc.runs !== undefined) {
    const r = doc.runs
    if (!(r === 'auto' || r === 'seq' || (Number.isInteger(r) && r >= 1) || (typeof r === 'string' && /^\d+$/.test(r) && Number(r) >= 1))) {
      throw bad('runs', `is ${JSON.stringify(r)}: give a whole number of pairs >= 1, "auto" or "seq"`)
    }
    values.runs = String(r)
  }
  if (doc.rule !== undefined) {
    if (!isObject(doc.rule)) throw bad('rule', `must be an object with keys among ${RULE_KEYS.join(', ')} (the pairs themselves go in "runs")`)
    for (const [k, v] of Object.entries(doc.rule)) {
      if (!RULE_KEYS.includes(k)) {
        const near = nearest(k, RULE_KEYS)
        throw bad(`rule.${k}`, `is not a parameter of a rule${near ? ` (did you mean "rule.${near}"?)` : ''}; they are ${RULE_KEYS.join(', ')}`)
      }
      if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) throw bad(`rule.${k}`, `is ${JSON.stringify(v)}: give a number > 0`)
      values[k] = String(v)
    }
  }
  const content = { ...doc, ...(categories.length ? { categories } : {}) }
  return { file, categories, values, content }
}

/** @param {unknown} v */
function isObject (v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** A string or a list of strings, as a list. */
function stringList (v, key, bad) {
  if (v === undefined) return []
  const list = Array.isArray(v) ? v : [v]
  for (const s of list) if (typeof s !== 'string' || s === '') throw bad(key, 'must be a string or a list of strings')
  return list
}

/** A setting's values: a string, number or boolean, or a list of them (as --set repeated). */
function values (v, key, bad) {
  const list = Array.isArray(v) ? v : [v]
  const ok = (x) => typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x))
  if (list.length === 0 || !list.every(ok)) throw bad(key, `is ${JSON.stringify(v)}: give a value (a string, number or boolean) or a list of them, as --set ${key.split('.').pop()}=VALUE does`)
  return list.map(String)
}

/**
 * "set": key: value (or a list of values) applies everywhere; SCOPE: {key: value} applies to a
 * category or a benchmark file (resolved against the files in
 * lib/compare/scoped-set.js); as --set arguments.
 */
function setList (v, bad) {
  if (v === undefined) return []
  if (!isObject(v)) throw bad('set', 'must be an object: key: value for every file, or CATEGORY or FILE: {key: value}')
  const out = []
  for (const [k, val] of Object.entries(v)) {
    if (k === '' || /[=\s]/.test(k)) throw bad(`set.${k}`, 'is not a key or a scope (no "=" or spaces)')
    if (isObject(val)) {
      if (k.includes(':')) throw bad(`set.${k}`, 'is not a scope: name a category or a benchmark file without ":"')
      for (const [key, x] of Object.entries(val)) {
        if (key === '' || /[=\s:]/.test(key) || isObject(x)) throw bad(`set.${k}.${key}`, 'is not a key=value setting (a scope holds key: value pairs, one level deep)')
        for (const one of values(x, `set.${k}.${key}`, bad)) out.push(`${k}:${key}=${one}`)
      }
    } else {
      if (k.includes(':')) throw bad(`set.${k}`, 'is not a key (no ":")')
      for (const one of values(val, `set.${k}`, bad)) out.push(`${k}=${one}`)
    }
  }
  return out
}

/**
 * The command line's values with the question's: lists are joined (the
 * file's first), a single value given in both places must be the same.
 * @param {Record<string, any>} v parsed flags (changed in place)
 * @param {string[]} positionals the categories on the command line
 * @param {Question} q
 * @returns {string[]} the categories
 */
function mergeQuestion (v, positionals, q) {
  if (q.categories.length > 0 && positionals.length > 0) {
    throw new UsageError(`--question ${q.file} names the categories (${q.categories.join(' ')}); leave them off the command line (${positionals.join(' ')})`)
  }
  for (const [k, qv] of Object.entries(q.values)) {
    if (Array.isArray(qv)) {
      if (qv.length > 0) v[k] = [...qv, ...(v[k] ?? [])]
      continue
    }
    if (v[k] !== undefined && String(v[k]) !== qv) {
      const key = RULE_KEYS.includes(k) ? `rule.${k}` : k
      throw new UsageError(`--${k} ${v[k]}: --question ${q.file} gives "${key}" as ${qv}; give it in one place`)
    }
    v[k] = qv
  }
  return q.categories.length > 0 ? q.categories : positionals
}

module.exports = { readQuestion, parseQuestion, mergeQuestion, KEYS, RULE_KEYS }
