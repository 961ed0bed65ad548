'use strict'
// --scenarios FILE: reads the file (JSON, or a CommonJS module) and finds
// its scenarios, k6's shape: { scenarios: { NAME: {...} }, thresholds }, or
// the same under `options` (a k6 user's `export const options = {...}`
// becomes `exports.options = {...}`). A bare map of scenarios is refused with
// that hint rather than guessed at: a scenario could be named "scenarios".
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../../errors.js')

const CODE = 'BENCHRIG_ERR_SCENARIO'

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * The document of a scenarios file.
 * @param {string} file
 * @returns {object}
 */
function readScenariosFile (file) {
  const full = path.resolve(file)
  const ext = path.extname(full).toLowerCase()
  if (!fs.existsSync(full)) throw new UsageError(`--scenarios "${file}": no such file`, CODE)
  if (ext === '.json') {
    try {
      return JSON.parse(fs.readFileSync(full, 'utf8'))
    } catch (err) {
      throw new UsageError(`--scenarios "${file}": not valid JSON (${err.message})`, CODE)
    }
  }
  if (ext === '.js' || ext === '.cjs') {
    try {
      return require(full)
    } catch (err) {
      const esm = /export |import /.test(String(err.message)) || err.code === 'ERR_REQUIRE_ESM'
      throw new UsageError(`--scenarios "${file}": the module failed to load (${err.message})` +
        (esm ? '; it must be CommonJS: module.exports = { scenarios: {...} } (k6\'s `export const options` is an ES module)' : ''), CODE)
    }
  }
  throw new UsageError(`--scenarios "${file}": name the file .json (JSON) or .js/.cjs (module.exports = { scenarios: {...} })`, CODE)
}

/**
 * The scenarios and the run's thresholds of a document (a file's, or the
 * API's options object), in the document's order.
 * @param {unknown} doc
 * @param {string} where for the messages: the file, or load({ scenarios })
 * @returns {{scenarios: [string, object][], thresholds: unknown}}
 */
function scenariosOf (doc, where) {
  if (!isObject(doc)) throw new UsageError(`${where}: give an object { scenarios: { NAME: { executor, ... } } }`, CODE)
  const d = /** @type {Record<string, any>} */ (doc)
  const top = isObject(d.options) && d.scenarios === undefined ? d.options : d
  if (!isObject(top.scenarios)) {
    const bare = Object.values(d).some((v) => isObject(v) && typeof v.executor === 'string')
    throw new UsageError(`${where}: no "scenarios" object` +
      (bare ? ': wrap the map of scenarios as { scenarios: { NAME: {...} } } (k6\'s options.scenarios)' : ': give { scenarios: { NAME: { executor, ... } }, thresholds: [...] }'), CODE)
  }
  const extra = Object.keys(top).filter((k) => k !== 'scenarios' && k !== 'thresholds')
  if (extra.length > 0) {
    throw new UsageError(`${where}: unknown key "${extra[0]}" beside the scenarios: a scenarios file holds scenarios and thresholds (run-wide options such as -w, -t, -H are flags of benchrig load)`, CODE)
  }
  const scenarios = Object.entries(top.scenarios)
  if (scenarios.length === 0) throw new UsageError(`${where}: "scenarios" is empty: give at least one { NAME: { executor, ... } }`, CODE)
  return { scenarios, thresholds: top.thresholds }
}

module.exports = { readScenariosFile, scenariosOf, CODE }
