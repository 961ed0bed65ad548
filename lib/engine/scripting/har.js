'use strict'
// --har FILE: replays the requests of a HAR archive (log.entries[].request)
// that go to the target's origin, in the archive's order; entries for other
// origins are skipped, as autocannon does. Headers the engine sets itself
// (Host, Content-Length) and HTTP/2 pseudo-headers are dropped.
const fs = require('node:fs')
const { UsageError } = require('../../errors.js')

const DROP = new Set(['host', 'content-length', 'connection', 'transfer-encoding'])

function readHar (har) {
  if (har !== null && typeof har === 'object') return har
  let text
  try {
    text = fs.readFileSync(String(har), 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read --har "${har}": ${err.code || err.message}`)
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new UsageError(`invalid --har "${har}": not valid JSON (${err.message})`)
  }
}

/**
 * @param {string|object} har a path or a parsed HAR
 * @param {string} origin e.g. "http://127.0.0.1:3000"
 * @returns {{method: string, path: string, headers: Record<string,string>, body: Buffer|undefined}[]}
 */
function harRequests (har, origin) {
  const doc = readHar(har)
  const entries = doc?.log?.entries
  if (!Array.isArray(entries)) throw new UsageError('invalid --har: no log.entries array (is this a HAR file?)')
  const out = []
  entries.forEach((e, i) => {
    const req = e?.request
    let url
    try {
      url = new URL(req?.url)
    } catch {
      throw new UsageError(`invalid --har: entry ${i} has no valid request.url`)
    }
    if (url.origin !== origin) return
    const headers = {}
    for (const h of req.headers ?? []) {
      const name = String(h.name)
      if (name.startsWith(':') || DROP.has(name.toLowerCase())) continue
      headers[name] = String(h.value)
    }
    const text = req.postData?.text
    if (text !== undefined && req.postData.mimeType && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = req.postData.mimeType
    }
    out.push({
      method: String(req.method ?? 'GET').toUpperCase(),
      path: url.pathname + url.search,
      headers,
      body: text === undefined ? undefined : Buffer.from(text)
    })
  })
  if (out.length === 0) {
    throw new UsageError(`--har: no entry goes to ${origin}: give the URL of the origin the archive recorded`)
  }
  return out
}

/**
 * One warning per origin of the archive that none of the target URLs has:
 * its entries are skipped (autocannon's CLI warns the same way).
 * @param {string|object} har a path or a parsed HAR
 * @param {string[]} urls the targets
 * @returns {string[]}
 */
function skippedOrigins (har, urls) {
  const allowed = urls.flatMap((u) => {
    try {
      return [new URL(u).origin]
    } catch {
      return [] // the options name a bad URL
    }
  })
  const seen = new Set()
  for (const e of readHar(har)?.log?.entries ?? []) {
    let origin
    try {
      origin = new URL(e?.request?.url).origin
    } catch {
      continue // harRequests names the bad entry
    }
    if (!allowed.includes(origin)) seen.add(origin)
  }
  return [...seen].map((o) => `Warning: skipping requests to '${o}' as the target is ${allowed.join(', ')}`)
}

module.exports = { harRequests, skippedOrigins, readHar }
