'use strict'
// compare --question FILE: the whole question of a comparison in one file
// (JSON, or YAML for .yaml/.yml): the categories, --filter, --exclude, the
// settings (--set, everywhere, per category or per benchmark file), the
// measure, the pairs (runs) and the stopping rule's parameters; or, instead
// of benchmark files, a runner's command (cmd, runner: compare --cmd). The
// file becomes the flags it stands for, so everything that takes flags (resume,
// shards, history, the PR report) takes the file the same way; a flag given
// on the command line as well must agree with it. Every mistake is one usage
// error naming the file and the key, raised before any run.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')
const { nearest } = require('../suggest.js')

/** The keys of a question file and of its "rule" object. */
const KEYS = ['categories', 'filter', 'exclude', 'set', 'measure', 'runs', 'rule', 'cmd', 'runner', 'format']
const RULE_KEYS = ['alpha', 'threshold', 'max-runs', 'target', 'time-budget']

/**
 * @typedef {object} Question
 * @property {string} file the path as given
 * @property {string[]} categories
 * @property {Record<string, string|string[]|undefined>} values the compare flags the file stands for
 *   (filter, exclude and set are lists; set holds "key=value" and "SCOPE:key=value"; runner: the
 *   runner's own name, whether the file says "runner" or "format")
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
  Object.assign(values, commandKeys(doc, bad))
  const content = { ...doc, ...(categories.length ? { categories } : {}) }
  return { file, categories, values, content }
}

/**
 * "cmd" (compare --cmd) and the runner that reads its output: "runner", or
 * "format" as --format R says the same on the command line (in a question,
 * "format" names a runner only: the analysis's format is not part of the
 * question). A command replaces the benchmark files, so the keys that choose
 * or narrow files are refused with the reason the flags get.
 * @param {Record<string, any>} doc
 * @param {(key: string, what: string) => Error} bad
 * @returns {{cmd?: string, runner?: string}}
 */
function commandKeys (doc, bad) {
  const out = {}
  if (doc.cmd !== undefined) {
    if (typeof doc.cmd !== 'string' || doc.cmd.trim() === '') throw bad('cmd', `is ${JSON.stringify(doc.cmd)}: give the benchmark command as a string, e.g. "node bench.mjs"`)
    out.cmd = doc.cmd
  }
  if (doc.runner !== undefined && doc.format !== undefined) throw bad('format', 'and "runner" both name the runner: give one of them')
  const key = doc.runner !== undefined ? 'runner' : doc.format !== undefined ? 'format' : undefined
  if (key === undefined && doc.cmd === undefined) return out
  // lazy: the runners' names and the reasons of a command load only with a question that has one
  const { runnerName, NOT_WITH_CMD } = require('../runners/command-options.js')
  if (key !== undefined) {
    const given = doc[key]
    const name = typeof given === 'string' ? runnerName(given) : undefined
    if (name === undefined) {
      const { RUNNER_NAMES } = require('../runners/index.js') // lazy: as above
      const near = typeof given === 'string' ? nearest(given, RUNNER_NAMES) : undefined
      const why = key === 'format' ? ' (in a question "format" names the runner of "cmd", as --format R does; the analysis format goes on the command line)' : ''
      throw bad(key, `is ${JSON.stringify(given)}: not a runner${near ? ` (did you mean "${near}"?)` : ''}${why}; use one of ${RUNNER_NAMES.join(', ')}`)
    }
    out.runner = name
  }
  if (doc.cmd !== undefined) {
    for (const k of ['categories', 'set', 'filter', 'exclude']) {
      if (doc[k] !== undefined) throw bad(k, `does not go with "cmd": ${NOT_WITH_CMD[k]}`)
    }
  }
  return out
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
    if (k === 'runner') {
      mergeRunner(v, q)
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

/**
 * The question's runner with the command line's --runner R or --format R (a
 * runner's name: the same runner under any of its names agrees; another
 * format is the analysis's and stays).
 * @param {Record<string, any>} v
 * @param {Question} q
 */
function mergeRunner (v, q) {
  // lazy: only a question that names a runner needs the runners' names
  const { runnerName } = require('../runners/command-options.js')
  const key = q.content.format !== undefined ? 'format' : 'runner'
  const qv = q.values.runner
  if (v.runner !== undefined && runnerName(v.runner) !== qv) {
    throw new UsageError(`--runner ${v.runner}: --question ${q.file} gives "${key}" as ${q.content[key]}; give it in one place`)
  }
  const formatRunner = v.format === undefined ? undefined : runnerName(v.format)
  if (formatRunner !== undefined) {
    if (formatRunner !== qv) throw new UsageError(`--format ${v.format}: --question ${q.file} gives "${key}" as ${q.content[key]}; give it in one place`)
    delete v.format
  }
  v.runner = qv
}

module.exports = { readQuestion, parseQuestion, mergeQuestion, KEYS, RULE_KEYS }
