'use strict'
// The flags of the two closed-loop WebSocket clients of
// bench/ws-vs-ws-client.js (ws-client-loop.js, ws-floor-client.js):
//   -c N -d SECONDS [-b MESSAGE] ws://HOST:PORT/
// null for anything else (the caller prints its usage and exits 2).

/** @param {string[]} argv @returns {{c: number, d: number, b: string, url: string}|null} */
function parseClientArgs (argv) {
  const o = { c: '10', d: '5', b: 'hello', url: undefined }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '-c' || a === '-d' || a === '-b') o[a[1]] = argv[++i]
    else if (!a.startsWith('-') && o.url === undefined) o.url = a
    else return null
  }
  const c = Number(o.c)
  const d = Number(o.d)
  return Number.isInteger(c) && c > 0 && d > 0 && /^ws:\/\//.test(o.url ?? '') && o.b !== undefined ? { c, d, b: o.b, url: o.url } : null
}

module.exports = { parseClientArgs }
