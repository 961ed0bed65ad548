'use strict'
// The JSON document in a runner's output: the whole text, or, when the
// benchmark also printed lines of its own, the last line that is a JSON
// object or array on its own. Pure: text in, value (or undefined) out.

/**
 * @param {string} text
 * @returns {unknown} the document, or undefined when there is none
 */
function jsonIn (text) {
  const whole = tryParse(text.trim())
  if (whole !== undefined) return whole
  // a document printed over several lines after other output: from the last
  // line that opens one to the end
  const lines = text.split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const head = lines[i].trimStart()
    if (head[0] !== '{' && head[0] !== '[') continue
    const doc = tryParse(lines.slice(i).join('\n').trim())
    if (doc !== undefined && typeof doc === 'object' && doc !== null) return doc
  }
  return undefined
}

function tryParse (s) {
  if (s[0] !== '{' && s[0] !== '[') return undefined
  try {
    return JSON.parse(s)
  } catch {
    return undefined
  }
}

/** A finite positive number, or undefined. */
const positive = (x) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : undefined)

/** Numbers of an array (the runner's own samples), or undefined when there are none. */
function numbers (a) {
  if (!Array.isArray(a) || a.length === 0) return undefined
  const out = a.map(Number).filter(Number.isFinite)
  return out.length > 0 ? out : undefined
}

/**
 * Task names made unique in output order ("a", "a #2"): a configuration is
 * one series, and two tasks of one name would be mixed.
 * @template {{name: string}} T
 * @param {T[]} tasks
 * @returns {T[]}
 */
function uniqueNames (tasks) {
  const seen = new Map()
  for (const t of tasks) {
    const n = (seen.get(t.name) ?? 0) + 1
    seen.set(t.name, n)
    if (n > 1) t.name = `${t.name} #${n}`
  }
  return tasks
}

module.exports = { jsonIn, positive, numbers, uniqueNames }
