'use strict'
// Report files named by a flag (--prometheus, --html): checked before a run
// starts, so a typo costs nothing, and written whole or not at all. A reader
// that polls the file (node_exporter's textfile collector, a browser tab
// being refreshed) must never see half of it: the text goes to a temporary
// file in the same folder, then rename() replaces the target in one step.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../errors.js')

/**
 * Throws a UsageError naming the flag when FILE cannot be written: its
 * folder is missing, it is a folder, or it lacks the expected extension.
 * @param {string} flag e.g. '--html'
 * @param {unknown} file
 * @param {string} [ext] e.g. '.html'
 * @returns {string} the file name
 */
function checkOutputFile (flag, file, ext) {
  if (typeof file !== 'string' || file === '') throw new UsageError(`${flag} needs a file name, e.g. ${flag} out${ext ?? ''}`)
  if (ext !== undefined && !file.endsWith(ext)) throw new UsageError(`${flag} ${file}: give a file name ending in ${ext}`)
  const dir = path.dirname(path.resolve(file))
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`${flag} ${file}: the folder ${dir} does not exist; create it or give another path`)
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new UsageError(`${flag} ${file}: it is a folder; give a file name`)
  return file
}

/**
 * Writes text to file atomically (temporary file + rename in the same folder).
 * @param {string} flag named in the error message
 * @param {string} file
 * @param {string} text
 */
function writeFileAtomic (flag, file, text) {
  const tmp = path.join(path.dirname(path.resolve(file)), `.${path.basename(file)}.${process.pid}.tmp`)
  try {
    fs.writeFileSync(tmp, text)
    fs.renameSync(tmp, file)
  } catch (err) {
    try { fs.unlinkSync(tmp) } catch {}
    throw new UsageError(`${flag} ${file}: cannot write it (${err.code ?? err.message})`)
  }
}

module.exports = { checkOutputFile, writeFileAtomic }
