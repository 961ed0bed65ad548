'use strict'
// gRPC unary calls over the built-in HTTP/2 client (--proto, --call, --data,
// --metadata: ghz's names). The .proto is read with protobufjs and the
// message encoded once, here: a unary call with fixed data is a fixed
// HTTP/2 request (POST /pkg.Service/Method, content-type application/grpc,
// te: trailers, grpc-timeout from -t, the metadata as headers, a body of
// one length-prefixed message, compression off), so the run takes the
// static --h2 path unchanged. Everything is checked before any connection.
const fs = require('node:fs')
const { UsageError } = require('../../errors.js')

const given = (v) => v !== undefined && v !== null && v !== false
const RESERVED = new Set(['content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding', 'user-agent', 'host', 'connection'])

/**
 * @param {object} o the user's options
 * @param {{urls: string[], timeoutMs: number, method: string|undefined, body: Buffer|undefined}} base
 * @returns {undefined | {call: string, path: string, body: Buffer, headers: Record<string,string>, messageBytes: number}}
 */
function normalizeGrpc (o, base) {
  if (!given(o.call) && !given(o.proto)) {
    for (const [k, flag] of [['data', '--data'], ['metadata', '--metadata']]) if (given(o[k])) throw new UsageError(`${flag} is the message of a gRPC call: add --proto FILE and --call pkg.Service/Method`)
    return undefined
  }
  if (!given(o.proto)) throw new UsageError('--call needs --proto FILE: the .proto that defines the service')
  if (!given(o.call)) throw new UsageError('--proto needs --call pkg.Service/Method: the method to call')
  if (base.urls.length > 1) throw new UsageError(`a gRPC run calls one server: give one URL (got ${base.urls.length})`)
  if (base.body !== undefined) throw new UsageError('-b/-i give an HTTP body: a gRPC call\'s message is --data JSON or --data @FILE')
  // GET is the CLI's default -m: a gRPC call is always sent as a POST
  if (given(o.method) && !['GET', 'POST'].includes(String(o.method).toUpperCase())) throw new UsageError('-m/--method: a gRPC call is a POST; drop -m')
  for (const [k, flag] of [['har', '--har'], ['form', '-F/--form'], ['requests', 'requests'], ['script', '--script'], ['feed', '--feed'], ['idReplacement', '-I/--id-replacement']]) {
    if (given(o[k])) throw new UsageError(`${flag} does not apply to a gRPC call: give its message with --data`)
  }
  const file = String(o.proto)
  const protobuf = require('protobufjs') // lazy: an optional dependency: only gRPC runs need it
  let root
  try {
    root = protobuf.loadSync(file)
    root.resolveAll()
  } catch (err) {
    throw new UsageError(`--proto "${file}" does not load: ${err.code === 'ENOENT' ? 'no such file' : err.message}`)
  }
  const m = /^([A-Za-z_][\w.]*)\.([A-Za-z_]\w*)\/([A-Za-z_]\w*)$/.exec(String(o.call)) ?? /^([A-Za-z_][\w.]*)\.([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(String(o.call))
  if (m === null) throw new UsageError(`invalid --call "${o.call}": give package.Service/Method, e.g. --call helloworld.Greeter/SayHello`)
  const serviceName = `${m[1]}.${m[2]}`
  const service = root.lookup(serviceName)
  if (!(service instanceof protobuf.Service)) throw new UsageError(`--call "${o.call}": --proto "${file}" defines no service ${serviceName}${servicesOf(root, protobuf)}`)
  const method = service.methods[m[3]]
  if (method === undefined) throw new UsageError(`--call "${o.call}": service ${serviceName} has no method ${m[3]} (its methods: ${Object.keys(service.methods).join(', ')})`)
  if (method.requestStream || method.responseStream) throw new UsageError(`--call "${o.call}" is a streaming method: only unary calls are load-tested`)
  const type = method.resolvedRequestType
  const data = dataOf(o.data)
  const problem = type.verify(data)
  if (problem !== null) throw new UsageError(`--data does not fit ${type.fullName.replace(/^\./, '')}: ${problem}`)
  const message = Buffer.from(type.encode(type.fromObject(data)).finish())
  const body = Buffer.alloc(5 + message.length)
  body.writeUInt32BE(message.length, 1) // byte 0: not compressed
  message.copy(body, 5)
  const headers = {
    'content-type': 'application/grpc',
    te: 'trailers',
    // the deadline of each call: -t, in milliseconds (ghz's --timeout)
    'grpc-timeout': `${Math.max(1, base.timeoutMs)}m`,
    ...metadataOf(o.metadata)
  }
  return { call: `${serviceName}/${m[3]}`, path: `/${serviceName}/${m[3]}`, body, headers, messageBytes: message.length }
}

function servicesOf (root, protobuf) {
  const names = []
  const walk = (ns) => {
    for (const x of ns.nestedArray ?? []) {
      if (x instanceof protobuf.Service) names.push(x.fullName.replace(/^\./, ''))
      else walk(x)
    }
  }
  walk(root)
  return names.length > 0 ? ` (it defines: ${names.join(', ')})` : ' (it defines none)'
}

/** --data JSON, or @FILE of JSON; none: an empty message. */
function dataOf (value) {
  if (!given(value)) return {}
  const text = String(value)
  let json = text
  if (text.startsWith('@')) {
    try {
      json = fs.readFileSync(text.slice(1), 'utf8')
    } catch (err) {
      throw new UsageError(`cannot read --data "${text}": ${err.code || err.message}`)
    }
  }
  let data
  try {
    data = JSON.parse(json)
  } catch (err) {
    throw new UsageError(`--data is not JSON: ${err.message}`)
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError('--data: give a JSON object, the fields of the request message')
  return data
}

/** --metadata JSON object of string values: request headers (lower case, as HTTP/2 sends them). */
function metadataOf (value) {
  if (!given(value)) return {}
  let md
  try {
    md = typeof value === 'object' ? value : JSON.parse(String(value))
  } catch (err) {
    throw new UsageError(`--metadata is not JSON: ${err.message}; give an object, e.g. --metadata '{"authorization":"Bearer x"}'`)
  }
  if (md === null || typeof md !== 'object' || Array.isArray(md)) throw new UsageError('--metadata: give a JSON object of name: value')
  const out = {}
  for (const [k, v] of Object.entries(md)) {
    const name = k.toLowerCase()
    if (!/^[a-z0-9._-]+$/.test(name) || name.startsWith('grpc-') || RESERVED.has(name)) throw new UsageError(`--metadata "${k}": not a name a call may set (lower-case letters, digits, . _ -, not grpc-* or ${[...RESERVED].join(', ')})`)
    if (typeof v !== 'string' || /[\r\n\0]/.test(v)) throw new UsageError(`--metadata "${k}": give a string without CR, LF or NUL`)
    out[name] = v
  }
  return out
}

module.exports = { normalizeGrpc }
