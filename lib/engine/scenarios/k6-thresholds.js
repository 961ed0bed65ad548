'use strict'
// k6's thresholds object, { metric: [expressions] }, read as --threshold
// expressions where the two mean the same figure, so a k6 file's thresholds
// work as they are; what has no exact counterpart is refused with the
// benchrig form to write instead (never guessed):
//   http_req_duration  p(N) avg med min max  (ms)  -> pN mean p50 min max  <X>ms
//   http_reqs          count, rate                 -> requests, rps
//   dropped_iterations count                       -> dropped_iterations
//   METRIC{scenario:NAME}                          -> that scenario's own thresholds
// k6's http_req_failed counts non-2xx/3xx responses with the errors, which no
// one figure of ours does (errors% and non2xx% are apart): refused with both.
const { UsageError } = require('../../errors.js')
const { CODE } = require('./file.js')

const EXPR = /^\s*([a-z]+(?:\(\s*\d+(?:\.\d+)?\s*\))?)\s*(<=|>=|===|==|!=|<|>)\s*(\d+(?:\.\d+)?|\.\d+)\s*$/
const DURATION = { avg: 'mean', med: 'p50', min: 'min', max: 'max' }
const KEY = /^([a-z_]+)(?:\{([^}]*)\})?$/

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * One k6 expression of `metric` as ours.
 * @param {string} metric @param {unknown} entry a string, or k6's { threshold, abortOnFail }
 * @param {string} where for the messages
 */
function expressionOf (metric, entry, where) {
  let text = entry
  if (isObject(entry)) {
    const e = /** @type {Record<string, any>} */ (entry)
    if (e.abortOnFail === true) throw new UsageError(`${where}: abortOnFail is not supported with --scenarios (a run stops on a threshold only with --threshold-abort, which a scenarios run refuses)`, CODE)
    text = e.threshold
  }
  const m = typeof text === 'string' ? EXPR.exec(text) : null
  if (m === null) throw new UsageError(`${where}: ${JSON.stringify(text)} is not a k6 threshold expression such as "p(95)<500" or "rate>10"`, CODE)
  const [, agg, k6op, value] = m
  const op = k6op === '===' ? '==' : k6op
  const p = /^p\(\s*(\d+(?:\.\d+)?)\s*\)$/.exec(agg)
  if (metric === 'http_req_duration') {
    if (p !== null) return `p${p[1]}${op}${value}ms`
    if (DURATION[agg] !== undefined) return `${DURATION[agg]}${op}${value}ms`
  } else if (metric === 'http_reqs') {
    if (agg === 'count') return `requests${op}${value}`
    if (agg === 'rate') return `rps${op}${value}`
  } else if (metric === 'dropped_iterations' && agg === 'count') {
    return `dropped_iterations${op}${value}`
  }
  const use = { http_req_duration: 'use p(N), avg, med, min or max', http_reqs: 'use count or rate' }[metric] ?? 'use count'
  throw new UsageError(`${where}: ${metric}'s ${agg} has no counterpart here: ${use}`, CODE)
}

/**
 * k6's thresholds object as --threshold expressions: those of the whole (or
 * of `own`, the scenario the object belongs to) and those a tag filter
 * `{scenario:NAME}` gives to a scenario.
 * @param {Record<string, unknown>} obj
 * @param {string} where for the messages
 * @param {string[]} names the file's scenarios
 * @param {string} [own] the scenario whose thresholds these are (undefined: the file's top level)
 * @returns {{own: string[], byScenario: Map<string, string[]>}}
 */
function k6Thresholds (obj, where, names, own) {
  const out = { own: [], byScenario: new Map() }
  for (const [key, list] of Object.entries(obj)) {
    const at = `${where} "${key}"`
    const k = KEY.exec(key.replace(/\s+/g, ''))
    if (k === null) throw new UsageError(`${at}: not a k6 metric name (with an optional {scenario:NAME})`, CODE)
    const [, metric, tags] = k
    if (metric === 'http_req_failed') {
      throw new UsageError(`${at}: k6 counts errors and non-2xx/3xx responses together; benchrig keeps them apart: write ["errors<1%", "non2xx<1%"] (or the one you mean)`, CODE)
    }
    if (metric !== 'http_req_duration' && metric !== 'http_reqs' && metric !== 'dropped_iterations') {
      throw new UsageError(`${at}: only http_req_duration, http_reqs and dropped_iterations have counterparts here; write benchrig's expressions instead, e.g. ["p99<50ms", "errors<1%", "rps>100"]`, CODE)
    }
    let target = own
    if (tags !== undefined && tags !== '') {
      const tag = /^scenario:(.+)$/.exec(tags)
      if (tag === null) throw new UsageError(`${at}: only a {scenario:NAME} filter has a counterpart here (each scenario's thresholds are on its own figures)`, CODE)
      if (!names.includes(tag[1])) throw new UsageError(`${at}: no scenario "${tag[1]}" in the file`, CODE)
      if (own !== undefined && tag[1] !== own) throw new UsageError(`${at}: a scenario's thresholds are on its own figures; move this one to scenario "${tag[1]}"`, CODE)
      target = tag[1]
    }
    const exprs = [].concat(list).map((e) => expressionOf(metric, e, at))
    if (target === own) out.own.push(...exprs)
    else out.byScenario.set(target, [...(out.byScenario.get(target) ?? []), ...exprs])
  }
  return out
}

module.exports = { k6Thresholds, expressionOf }
