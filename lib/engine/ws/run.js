'use strict'
// What the connections of one WebSocket runner share: the message template,
// the pool of masking keys, the handshake's request head and the stats.
// Built once per runner (in its thread), from options that crossed to the
// worker by structured clone (a Buffer arrives as a Uint8Array).
const { MessageTemplate, HookedMessage } = require('./message.js')
const { MaskPool } = require('./frames.js')
const { requestPrefix } = require('./handshake.js')
const { WsStats } = require('./stats.js')

/**
 * @param {{payload: Uint8Array, binary: boolean, idField?: string, hook?: Function|string, handshake: {path: string, host: string, headers: Record<string,string>}}} ws
 *   hook: --ws-message, a function (this thread) or the path of a module exporting one (a worker loads it)
 */
function wsRunOf (ws) {
  let failed = false
  return {
    template: ws.hook === undefined
      ? new MessageTemplate({ payload: Buffer.from(ws.payload), binary: ws.binary, idField: ws.idField })
      // lazy: only a --ws-message module is loaded as a hook
      : new HookedMessage(typeof ws.hook === 'function' ? ws.hook : require('../options/request-options.js').loadHook(ws.hook, '--ws-message'), ws),
    pool: new MaskPool(),
    prefix: requestPrefix(ws.handshake),
    stats: new WsStats(),
    /** A hook that throws stops the run with what it said (as the HTTP hooks do). */
    hookFailed (runner, err) {
      if (failed) return
      failed = true
      runner.errorDetails.hook = `--ws-message threw: ${err?.message ?? err}`
      setImmediate(() => runner.stop('hook')) // not inside a read or a write of a connection
    }
  }
}

module.exports = { wsRunOf }
