'use strict'
// Endpoints and origins. Each URL, and each request of a sequence or HAR
// file, is an endpoint with results of its own (measure/endpoints.js). URLs
// on different origins (scheme, host, port) each get connections of their
// own: -c is split evenly over the origins (the first ones get one more when
// it does not divide), and each origin's runner sends its own URLs in turn.
const { UsageError } = require('../../errors.js')

/**
 * Groups parsed targets by origin, in the order each origin first appears.
 * @param {{protocol: string, hostname: string, port: number}[]} targets
 * @returns {{target: any, indexes: number[]}[]}
 */
function groupOrigins (targets) {
  const groups = new Map()
  targets.forEach((t, i) => {
    const key = `${t.protocol}//${t.hostname}:${t.port}`
    const g = groups.get(key)
    if (g === undefined) groups.set(key, { target: t, indexes: [i] })
    else g.indexes.push(i)
  })
  return [...groups.values()]
}

/**
 * Refuses what several origins cannot do, before any work.
 * @param {object} o the user's options
 * @param {{connections: number, workers: number, socketPath: string|undefined}} n
 * @param {number} count origins
 */
function checkOrigins (o, n, count) {
  if (count === 1) return
  if (n.socketPath !== undefined) throw new UsageError('--socket-path sends every request to one socket: give URLs of one origin (scheme, host, port)')
  for (const [key, flag] of [['har', '--har'], ['requests', 'requests'], ['script', '--script'], ['form', '-F/--form']]) {
    if (o[key] !== undefined) throw new UsageError(`${flag} sends to one origin: give URLs of one origin (scheme, host, port) with it`)
  }
  const shares = Math.max(1, n.workers)
  if (n.connections < count * shares) {
    throw new UsageError(`-c/--connections ${n.connections} is too few for ${count} origins${shares > 1 ? ` on ${shares} workers` : ''}: ` +
      `each origin needs a connection${shares > 1 ? ' in every worker' : ''}; give -c ${count * shares} or more`)
  }
}

function originOf (t) {
  const host = t.hostname.includes(':') ? `[${t.hostname}]` : t.hostname
  return `${t.protocol}//${host}:${t.port}`
}

/**
 * Adds `origins` (each with its target, requests and first endpoint index)
 * and `endpoints` ({name, method, url}) to the normalized options.
 * @param {object} out normalized options (after request-options.js)
 * @param {{target: any, indexes: number[]}[]} groups from groupOrigins
 * @param {string[]} urls as given
 */
function applyEndpoints (out, groups, urls) {
  if (groups.length === 1) {
    const origin = originOf(out.target)
    out.origins = [{ target: out.target, requests: out.requests, endpointBase: 0 }]
    // a URL is named by itself, a request of a sequence by its `name` or its method and path
    out.endpoints = out.requests.map((r) => ({
      name: r.name ?? `${r.method} ${r.path}`,
      method: r.method,
      url: origin + r.path
    }))
    return out
  }
  let base = 0
  out.origins = groups.map((g) => {
    const target = out.target.tls !== undefined && g.target.protocol === 'https:' ? { ...g.target, tls: out.target.tls } : g.target
    const requests = g.indexes.map((i) => out.requests[i])
    const o = { target: { protocol: target.protocol, hostname: target.hostname, port: target.port, socketPath: undefined, rejectUnauthorized: target.rejectUnauthorized, tls: target.tls }, requests, endpointBase: base }
    base += requests.length
    return o
  })
  out.endpoints = groups.flatMap((g) => g.indexes.map((i) => ({
    name: urls[i],
    method: out.requests[i].method,
    url: originOf(g.target) + out.requests[i].path
  })))
  return out
}

module.exports = { groupOrigins, checkOrigins, applyEndpoints }
