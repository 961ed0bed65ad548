'use strict'
// The configuration matrix of one benchmark file: validates the declared
// configs, applies argv narrowing and test-mode reduction, and expands the
// cross product in declaration order (first key varies slowest). Pure
// functions only: the root process and the tests call them alike.
// Runs inside benchmark processes, so Node 18 APIs only.
const { UsageError } = require('../errors.js')
const { coerceValue, isPassThroughKey, encodeConf } = require('./args.js')

const BENCH_ERR = 'BENCHRIG_ERR_BENCHMARK'
const UNKNOWN_KEY_ERR = 'BENCHRIG_ERR_UNKNOWN_KEY'
const DURATION_KEYS = new Set(['dur', 'duration', 'seconds', 'sec', 'time'])
// In --test-all these keys only size the work, so they shrink like in --test
// while every other key keeps all its values.
const WORK_KEYS = new Set(['n', 'iterations', 'iter', 'count', 'millions', 'thousands'])
const { TEST_DURATION } = require('./test-mode.js')

function typeName (v) {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v
}

/**
 * Turns declared configs into `{key: values[]}`, checking that each key has a
 * non-empty list of strings, numbers or booleans of one type.
 * @param {Record<string, unknown>} configs
 * @param {string} [where] prefix for messages, e.g. 'group "small": '
 * @returns {Record<string, (string|number|boolean)[]>}
 */
function normalizeConfigs (configs, where = '') {
  if (configs === null || typeof configs !== 'object' || Array.isArray(configs)) {
    throw new UsageError(`${where}createBenchmark(main, configs): configs must be an object of key -> values, got ${typeName(configs)}`, BENCH_ERR)
  }
  /** @type {Record<string, (string|number|boolean)[]>} */
  const out = {}
  for (const [key, raw] of Object.entries(configs)) {
    const values = Array.isArray(raw) ? raw : [raw]
    if (values.length === 0) {
      throw new UsageError(`${where}configuration "${key}" has no values: give at least one`, BENCH_ERR)
    }
    for (const v of values) {
      const t = typeName(v)
      if (t !== 'string' && t !== 'number' && t !== 'boolean') {
        throw new UsageError(`${where}configuration "${key}" has a value of type ${t}: use strings, numbers or booleans`, BENCH_ERR)
      }
      // Any number, as in Node core: Infinity is a real value (util/ has
      // maxObjectProperties: [0, 10, 100, Infinity]).
      const first = typeof values[0]
      if (t !== first) {
        throw new UsageError(`${where}configuration "${key}" mixes types (${first} and ${t}): one key takes one type, so that key=value arguments parse the same way every time`, BENCH_ERR)
      }
    }
    out[key] = values.slice()
  }
  return out
}

/** The --test value of a key that options.test does not name. */
function reduceValue (key, value) {
  if (typeof value !== 'number') return value
  if (DURATION_KEYS.has(key)) return Math.min(value, TEST_DURATION)
  return value > 1 ? 1 : value
}

/**
 * Applies test-mode reduction to normalized values.
 * @param {Record<string, any[]>} values normalized configs
 * @param {Record<string, unknown>|undefined} test options.test
 * @param {'test'|'test-all'} mode
 */
function reduceForTest (values, test, mode) {
  const out = {}
  for (const [key, vals] of Object.entries(values)) {
    if (test && Object.prototype.hasOwnProperty.call(test, key)) {
      const tv = Array.isArray(test[key]) ? test[key] : [test[key]]
      for (const v of tv) {
        if (typeof v !== typeof vals[0]) {
          throw new UsageError(`options.test.${key} is ${typeName(v)} but configuration "${key}" holds ${typeof vals[0]}s`, BENCH_ERR)
        }
      }
      out[key] = mode === 'test' ? tv.slice(0, 1) : tv.slice()
    } else if (mode === 'test') {
      out[key] = [reduceValue(key, vals[0])]
    } else if (typeof vals[0] === 'number' && (WORK_KEYS.has(key) || DURATION_KEYS.has(key))) {
      out[key] = [...new Set(vals.map((v) => reduceValue(key, v)))]
    } else {
      out[key] = vals.slice()
    }
  }
  return out
}

/**
 * Cross product in declaration order: the first key varies slowest, and each
 * combination lists its keys in declaration order.
 * @param {Record<string, any[]>} values
 * @param {(conf: object) => boolean} [filter]
 * @returns {object[]}
 */
function crossProduct (values, filter) {
  const keys = Object.keys(values)
  let combos = [{}]
  for (const key of keys) {
    const next = []
    for (const c of combos) {
      for (const v of values[key]) next.push({ ...c, [key]: v })
    }
    combos = next
  }
  if (!filter) return combos
  return combos.filter((c) => {
    const keep = filter({ ...c })
    if (typeof keep !== 'boolean') {
      throw new UsageError(`options.combinationFilter must return a boolean, returned ${typeName(keep)} for ${JSON.stringify(c)}`, BENCH_ERR)
    }
    return keep
  })
}

/**
 * Node core's key order for a combination: its depth-first walk adds each
 * key in front of the ones before it, so the last declared key comes first
 * (`n=2500000 chunkLen=16 inLen=128 encoding='ascii'` for a file declaring
 * encoding, inLen, chunkLen, n). The values still vary in declaration order
 * (the first key slowest); only the order in which a combination lists its
 * keys follows Node, so that configuration strings are byte-identical.
 * `group` (byGroups) stays first.
 * @param {object} conf
 */
function nodeKeyOrder (conf) {
  const keys = Object.keys(conf)
  const out = {}
  if ('group' in conf) out.group = conf.group
  for (let i = keys.length - 1; i >= 0; i--) if (keys[i] !== 'group') out[keys[i]] = conf[keys[i]]
  return out
}

function dedupe (combos) {
  const seen = new Set()
  return combos.filter((c) => {
    const k = encodeConf(c) // not JSON.stringify: Infinity and NaN would both be null
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/**
 * Declared groups as a list of `{name, values}`; without byGroups one unnamed group.
 * @returns {{name: string|undefined, values: Record<string, any[]>}[]}
 */
function declaredGroups (configs, options) {
  if (!options.byGroups) return [{ name: undefined, values: normalizeConfigs(configs) }]
  if (configs === null || typeof configs !== 'object' || Object.keys(configs).length === 0) {
    throw new UsageError('options.byGroups: configs must be an object of group name -> configs', BENCH_ERR)
  }
  return Object.entries(configs).map(([name, group]) => {
    const values = normalizeConfigs(group, `group "${name}": `)
    if (Object.prototype.hasOwnProperty.call(values, 'group')) {
      throw new UsageError(`group "${name}": "group" is the name of the group and cannot be a configuration key`, BENCH_ERR)
    }
    return { name, values }
  })
}

/**
 * NODE_RUN_BENCHMARK_GROUPS (comma-separated group names): only those groups
 * of a byGroups file run, in the file's order. A name the file lacks is an
 * error naming the groups it has; a file without groups ignores the variable.
 * @param {{name: string|undefined, values: object}[]} groups
 * @param {string[]|undefined} only
 */
function selectGroups (groups, only) {
  if (!only || only.length === 0 || groups[0].name === undefined) return groups
  const names = groups.map((g) => g.name)
  const missing = only.filter((n) => !names.includes(n))
  if (missing.length > 0) {
    throw new UsageError(`NODE_RUN_BENCHMARK_GROUPS names ${missing.map((n) => `"${n}"`).join(', ')}, which this file does not have; its groups: ${names.join(', ')}`, BENCH_ERR)
  }
  return groups.filter((g) => only.includes(g.name))
}

/**
 * Builds the queue of one benchmark file.
 * @param {{configs: object, options?: object, args?: {pairs: [string,string][], mode?: 'test'|'test-all'},
 *   strict?: boolean, groups?: string[]}} input
 *   `args` as parsed by args.js parseBenchArgs; `strict`: an undeclared key is an
 *   error; `groups`: run only these groups of a byGroups file (NODE_RUN_BENCHMARK_GROUPS)
 * @returns {{queue: object[], extra: Record<string,string>, keys: string[], unknown: string[]}}
 *   `extra` holds pass-through options that are not configuration keys,
 *   `unknown` the undeclared keys among them
 */
function buildQueue ({ configs, options = {}, args = { pairs: [] }, strict = false, groups: onlyGroups }) {
  const groups = selectGroups(declaredGroups(configs, options), onlyGroups)
  const filter = options.combinationFilter
  if (filter !== undefined && typeof filter !== 'function') {
    throw new UsageError('options.combinationFilter must be a function (conf) => boolean', BENCH_ERR)
  }
  const keys = [...new Set([...(options.byGroups ? ['group'] : []), ...groups.flatMap((g) => Object.keys(g.values))])]
  const types = {}
  for (const g of groups) for (const [k, v] of Object.entries(g.values)) types[k] ??= typeof v[0]
  if (options.byGroups) types.group = 'string'
  if (options.test !== undefined && (options.test === null || typeof options.test !== 'object')) {
    throw new UsageError('options.test must be an object of key -> value(s)', BENCH_ERR)
  }
  for (const k of Object.keys(options.test || {})) {
    if (!keys.includes(k)) throw new UsageError(`options.test names "${k}", which is not a configuration key (keys: ${keys.join(', ')})`, BENCH_ERR)
  }

  // Narrowing from argv: typed like the declared values, repeated keys make a list.
  // A key the file does not declare is passed through to the children as
  // Node core does (its `extra_options`), and listed in `unknown` so the
  // caller can warn; with `strict` (--strict) it is an error instead.
  const narrow = {}
  /** @type {Record<string, string>} */
  const extra = {}
  const unknown = []
  for (const [key, raw] of args.pairs) {
    if (!keys.includes(key)) {
      if (isPassThroughKey(key)) { extra[key] = raw; continue }
      if (strict) throw new UsageError(`unknown configuration key "${key}" in ${key}=${raw}; known keys: ${keys.join(', ') || '(none)'} (--strict)`, UNKNOWN_KEY_ERR)
      extra[key] = raw
      if (!unknown.includes(key)) unknown.push(key)
      continue
    }
    ;(narrow[key] ??= []).push(coerceValue(key, raw, types[key]))
  }
  // `benchmarker` becomes a conf key (as in Node core), so it is part of the configuration string.
  const benchmarker = extra.benchmarker
  delete extra.benchmarker

  const mode = args.mode
  let queue = []
  for (const g of groups) {
    if (narrow.group && !narrow.group.includes(g.name)) continue
    let values = mode ? reduceForTest(g.values, options.test, mode) : g.values
    if (g.name !== undefined) values = { group: [g.name], ...values }
    const narrowed = { ...values }
    for (const [k, v] of Object.entries(narrow)) if (k !== 'group' && k in narrowed) narrowed[k] = v
    let combos = crossProduct(narrowed, filter)
    if (mode === 'test' && combos.length === 0) {
      // The reduced combination is filtered out: take the first allowed one of --test-all.
      const all = mode ? reduceForTest(g.values, options.test, 'test-all') : g.values
      const wide = g.name !== undefined ? { group: [g.name], ...all } : { ...all }
      for (const [k, v] of Object.entries(narrow)) if (k !== 'group' && k in wide) wide[k] = v
      combos = crossProduct(wide, filter).slice(0, 1)
    }
    // --test: one configuration of every group, as Node core's test mode
    // reduces each group on its own (a file without groups is one group).
    queue.push(...(mode === 'test' ? combos.slice(0, 1) : combos))
  }
  queue = dedupe(queue).map(nodeKeyOrder)
  if (benchmarker !== undefined) queue = queue.map((c) => ({ ...c, benchmarker }))
  return { queue, extra, keys, unknown }
}

module.exports = { UNKNOWN_KEY_ERR, selectGroups, normalizeConfigs, reduceForTest, crossProduct, buildQueue, nodeKeyOrder, DURATION_KEYS, WORK_KEYS, TEST_DURATION }
