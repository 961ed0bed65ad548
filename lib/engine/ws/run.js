'use strict'
// What the connections of one WebSocket runner share: the message template,
// the pool of masking keys, the handshake's request head and the stats.
// Built once per runner (in its thread), from options that crossed to the
// worker by structured clone (a Buffer arrives as a Uint8Array).
const { MessageTemplate } = require('./message.js')
const { MaskPool } = require('./frames.js')
const { requestPrefix } = require('./handshake.js')
const { WsStats } = require('./stats.js')

/**
 * @param {{payload: Uint8Array, binary: boolean, idField?: string, handshake: {path: string, host: string, headers: Record<string,string>}}} ws
 */
function wsRunOf (ws) {
  return {
    template: new MessageTemplate({ payload: Buffer.from(ws.payload), binary: ws.binary, idField: ws.idField }),
    pool: new MaskPool(),
    prefix: requestPrefix(ws.handshake),
    stats: new WsStats()
  }
}

module.exports = { wsRunOf }
