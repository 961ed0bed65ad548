'use strict'
// `benchrig load --format yaml` (gocannon's -f yaml): the JSON result, key for
// key, as a YAML document. A small emitter of our own for the one shape it
// meets (what JSON.stringify gives: objects, arrays, strings, finite numbers,
// booleans, null), so that no YAML library is a runtime dependency; the tests
// read its output back with the `yaml` package and with Python's PyYAML.
//
// Strings are plain only when no YAML 1.1 or 1.2 reader could take them for
// anything else (a number, a boolean, null, a date, a key/value); everything
// else is double-quoted with JSON's escapes, which YAML reads the same way.
// Arrays of scalars are written on one line ([1, 2, 3]) so the per-second
// samples stay readable.

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./-]*$/
// the words YAML 1.1 (PyYAML) reads as booleans or null, in any case
const RESERVED = /^(?:y|n|yes|no|on|off|true|false|null)$/i

/** @param {string} s */
function str (s) {
  return PLAIN.test(s) && !RESERVED.test(s) ? s : JSON.stringify(s)
}

/** @param {unknown} v a JSON value that is not an object or a non-empty array */
function scalar (v) {
  if (v === null) return 'null'
  if (typeof v === 'string') return str(v)
  if (Array.isArray(v)) return '[]' // only empty arrays come here
  if (typeof v === 'object') return '{}' // only empty objects come here
  if (typeof v === 'number') return number(v)
  return String(v) // booleans (JSON has no other scalars)
}

/** A finite number; an exponent form gets a ".0" (1.0e+21), which YAML 1.1 needs to read a float. */
function number (n) {
  const s = String(n)
  return /e/.test(s) && !s.includes('.') ? s.replace('e', '.0e') : s
}

const isBlock = (v) => v !== null && typeof v === 'object' &&
  (Array.isArray(v) ? v.some((x) => x !== null && typeof x === 'object') : Object.keys(v).length > 0)

/**
 * @param {unknown} v
 * @param {string} indent
 * @param {string[]} out lines
 */
function emit (v, indent, out) {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (isBlock(item) && !Array.isArray(item)) {
        // "- " then the object's first key on the same line, the rest under it
        const sub = []
        emit(item, indent + '  ', sub)
        out.push(indent + '- ' + sub[0].slice(indent.length + 2), ...sub.slice(1))
      } else if (isBlock(item)) {
        out.push(indent + '-')
        emit(item, indent + '  ', out)
      } else {
        out.push(indent + '- ' + inline(item))
      }
    }
    return
  }
  for (const [k, x] of Object.entries(/** @type {object} */ (v))) {
    if (isBlock(x)) {
      out.push(`${indent}${str(k)}:`)
      emit(x, indent + '  ', out)
    } else {
      out.push(`${indent}${str(k)}: ${inline(x)}`)
    }
  }
}

/** A scalar, or an array of scalars in flow style. */
function inline (v) {
  return Array.isArray(v) && v.length > 0 ? `[${v.map(scalar).join(', ')}]` : scalar(v)
}

/**
 * The YAML document of a result: exactly what `-j` prints, as YAML. It
 * starts with `---`, so the rounds of `-f` form one stream of documents.
 * @param {object} result
 * @returns {string}
 */
function toYaml (result) {
  const data = JSON.parse(JSON.stringify(result)) // the JSON form: dates as strings, no undefined
  if (!isBlock(data)) return `--- ${inline(data)}\n`
  const out = ['---']
  emit(data, '', out)
  return out.join('\n') + '\n'
}

module.exports = { toYaml }
