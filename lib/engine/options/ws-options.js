'use strict'
// Options of WebSocket runs (a ws:// or wss:// URL): the message (-b, -i or
// a default; --ws-binary), how replies are matched (--ws-id NAME), and the
// HTTP-only options a WebSocket run refuses, each with what to give instead.
// All checked before any connection opens.
const { UsageError } = require('../../errors.js')
const path = require('node:path')
const { ID_MARK } = require('../ws/message.js')

/** URL schemes of WebSocket targets (parseTarget maps them onto http: and https: for the transport). */
const WS_SCHEMES = { 'ws:': 'http:', 'wss:': 'https:' }

// [option, flag, what to do instead]
const REFUSED = [
  ['h2', '--h2', 'a WebSocket runs over HTTP/1.1\'s upgrade'],
  ['har', '--har', 'give the message with -b or -i'],
  ['form', '-F/--form', 'give the message with -b or -i'],
  ['requests', 'requests', 'give the message with -b or -i'],
  ['script', '--script', 'give the message with -b or -i'],
  ['idReplacement', '-I/--id-replacement', 'use --ws-id NAME to number the messages'],
  ['expectBody', '-E/--expect-body', 'replies are counted, not compared'],
  ['feed', '--feed', 'build the messages with --ws-message, which may read the file itself'],
  ['breakout', '--breakout', 'a reply is one frame or a few; the handshake latency is in the result'],
  ['connectionClose', '--connection close', 'use -D N for a new connection every N messages']
]

const given = (v) => v !== undefined && v !== null && v !== false

/**
 * @param {object} o the user's options
 * @param {{urls: string[], protocols: string[], pipelining: number, workers: number, method: string, body: Buffer|undefined, path: string, host: string, headers: Record<string,string>}} base
 * @returns {null | {payload: Buffer, binary: boolean, idField?: string, hook?: Function|string, handshake: {path: string, host: string, headers: Record<string,string>}}}
 */
function normalizeWs (o, base) {
  const ws = base.protocols.map((p) => p in WS_SCHEMES)
  if (!ws.some(Boolean)) {
    if (given(o.wsBinary)) throw new UsageError('--ws-binary applies to WebSocket runs: give a ws:// or wss:// URL')
    if (given(o.wsId)) throw new UsageError('--ws-id applies to WebSocket runs: give a ws:// or wss:// URL')
    if (given(o.wsMessage)) throw new UsageError('--ws-message applies to WebSocket runs: give a ws:// or wss:// URL')
    return null
  }
  if (base.urls.length > 1) throw new UsageError(`a WebSocket run loads one URL: give one ws:// or wss:// URL (got ${base.urls.length})`)
  if (base.pipelining > 1) {
    throw new UsageError('-p/--pipelining is HTTP/1.1 pipelining: a WebSocket connection sends its next message when the reply arrives, or on a plan with -R/--overall-rate or -r/--connection-rate (up to 256 in flight)')
  }
  if (base.method !== 'GET') throw new UsageError(`-m/--method ${base.method}: a WebSocket handshake is a GET; give the message with -b or -i`)
  for (const [key, flag, instead] of REFUSED) {
    const value = key === 'connectionClose' ? o.connectionClose === true || o.connection === 'close' : o[key]
    if (given(value)) throw new UsageError(`${flag} does not apply to a WebSocket run: ${instead}`)
  }
  const idField = given(o.wsId) ? String(o.wsId) : undefined
  if (idField !== undefined && (idField === '' || /["\\]/.test(idField) || [...idField].some((c) => c.charCodeAt(0) < 0x20))) throw new UsageError(`invalid --ws-id "${idField}": give the name of a JSON field, e.g. --ws-id id`)
  let payload = base.body ?? Buffer.from(idField === undefined ? 'hello' : '{}')
  // a hook writes the number itself (it gets it)
  if (idField !== undefined && payload.indexOf(ID_MARK) < 0 && !given(o.wsMessage)) {
    // a JSON object gets the field first; anything else must say where the number goes
    const text = payload.toString('utf8')
    const open = /^\s*\{/.exec(text)
    if (open === null) {
      throw new UsageError(`--ws-id ${idField}: the message must hold ${ID_MARK} where each message's number goes, or be a JSON object (the field is then added), e.g. -b '{"${idField}":${ID_MARK},"op":"echo"}'`)
    }
    const rest = text.slice(open[0].length)
    payload = Buffer.from(`${open[0]}${JSON.stringify(idField)}:${ID_MARK}${/^\s*\}/.test(rest) ? '' : ','}${rest}`)
  }
  return {
    payload,
    binary: given(o.wsBinary),
    idField,
    hook: hookOf(o, base),
    handshake: { path: base.path, host: base.host, headers: base.headers }
  }
}

/**
 * --ws-message: a function, or the path of a module exporting one, that
 * builds each message; loaded now so a bad file fails before any traffic.
 * @returns {Function|string|undefined}
 */
function hookOf (o, base) {
  if (!given(o.wsMessage)) return undefined
  if (base.body !== undefined) throw new UsageError('give the message either with -b/-i or with --ws-message, not both')
  if (typeof o.wsMessage === 'function') {
    if (base.workers > 1) throw new UsageError('with -w/--workers, give --ws-message as the path of a module that exports the function: functions cannot be sent to worker threads')
    return o.wsMessage
  }
  const file = path.resolve(String(o.wsMessage))
  require('./request-options.js').loadHook(file, '--ws-message') // lazy: only a --ws-message module is loaded as a hook
  return file
}

module.exports = { normalizeWs, WS_SCHEMES }
