'use strict'
// The `benchrig load` flags of WebSocket runs (a ws:// or wss:// URL). The
// message is -b or -i as an HTTP body is; these say how it is framed and how
// replies are matched (lib/engine/options/ws-options.js checks them).
const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

const WEBSOCKET = 'WebSocket'

/** @type {import('./help.js').OptionSpec[]} */
const WS_OPTIONS = [
  { name: 'ws-binary', type: 'boolean', group: WEBSOCKET, describe: 'with a ws:// or wss:// URL: send the message (-b or -i; default "hello") as binary frames, not text' },
  { name: 'ws-message', type: 'string', value: 'FILE', group: WEBSOCKET, describe: 'a JS module exporting function (seq, connection) that returns each message (string or Buffer), instead of -b/-i; with --ws-id it puts seq in the field' },
  { name: 'ws-id', type: 'string', value: 'NAME', group: WEBSOCKET, describe: 'match replies by the number in JSON field NAME (the message holds {{id}}, or is a JSON object the field is added to) instead of in order' }
]

/** Load options from the parsed flags. */
function wsOptions (args) {
  return {
    wsBinary: args.wsBinary === true,
    wsId: last(args.wsId),
    wsMessage: last(args.wsMessage)
  }
}

module.exports = { WS_OPTIONS, WS_GROUP: WEBSOCKET, wsOptions }
