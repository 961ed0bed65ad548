'use strict'
// -F/--form: a multipart/form-data body built once from autocannon's form
// description, a JSON string, an object or a path to a JSON file:
//   { "name": { "type": "text", "value": "v" },
//     "file": { "type": "file", "path": "a.png", "options": { "filename": "b.png", "contentType": "image/png" } } }
// File parts are read when the run starts, not per request.
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { UsageError } = require('../../errors.js')

const FLAG = '-F/--form'

function parseForm (form) {
  if (form !== null && typeof form === 'object') return form
  const s = String(form).trim()
  if (s.startsWith('{')) {
    try {
      return JSON.parse(s)
    } catch (err) {
      throw new UsageError(`invalid ${FLAG}: not valid JSON (${err.message})`)
    }
  }
  let text
  try {
    text = fs.readFileSync(s, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read ${FLAG} file "${s}": ${err.code || err.message}; give a JSON string or a JSON file`)
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new UsageError(`invalid ${FLAG} file "${s}": not valid JSON (${err.message})`)
  }
}

function quote (s) {
  return String(s).replace(/["\r\n\\]/g, (c) => encodeURIComponent(c))
}

/**
 * @param {string|object} form see the file header
 * @returns {{body: Buffer, contentType: string}}
 */
function buildForm (form) {
  const fields = parseForm(form)
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new UsageError(`invalid ${FLAG}: give an object of fields, e.g. {"name": {"type": "text", "value": "x"}}`)
  }
  const boundary = `----benchrig${crypto.randomBytes(12).toString('hex')}`
  const parts = []
  for (const [name, field] of Object.entries(fields)) {
    const type = field?.type
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"`
    let data
    if (type === 'text') {
      if (field.value === undefined) throw new UsageError(`invalid ${FLAG} field "${name}": a text field needs a "value"`)
      data = Buffer.from(String(field.value))
      head += '\r\n\r\n'
    } else if (type === 'file') {
      if (typeof field.path !== 'string') throw new UsageError(`invalid ${FLAG} field "${name}": a file field needs a "path"`)
      try {
        data = fs.readFileSync(field.path)
      } catch (err) {
        throw new UsageError(`cannot read ${FLAG} file "${field.path}" (field "${name}"): ${err.code || err.message}`)
      }
      const o = field.options ?? {}
      const filename = o.filepath ?? o.filename ?? path.basename(field.path)
      head += `; filename="${quote(filename)}"\r\nContent-Type: ${o.contentType ?? 'application/octet-stream'}\r\n\r\n`
    } else {
      throw new UsageError(`invalid ${FLAG} field "${name}": "type" must be "text" or "file"`)
    }
    parts.push(Buffer.from(head), data, Buffer.from('\r\n'))
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

module.exports = { buildForm }
