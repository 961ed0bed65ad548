#!/usr/bin/env node
'use strict'
// The plain `ws` client loop that bench/ws-vs-ws-client.js compares the
// engine with: C connections, each sending a message, waiting for its reply
// and sending the next (the engine's closed loop), for D seconds; prints
// {"requests":{"total":N}} as benchrig load -j does.
//   node bench/ws-client-loop.js -c 50 -d 5 [-b hello] ws://127.0.0.1:PORT/
const { WebSocket } = require('ws')
const { parseClientArgs } = require('./lib/ws-client-args.js')

const o = parseClientArgs(process.argv.slice(2))
if (o === null) {
  console.error('usage: node bench/ws-client-loop.js -c N -d SECONDS [-b MESSAGE] ws://HOST:PORT/')
  process.exitCode = 2
} else {
  let total = 0
  let stopping = false
  const sockets = []
  let open = 0
  for (let i = 0; i < o.c; i++) {
    const s = new WebSocket(o.url, { perMessageDeflate: false })
    s.on('open', () => {
      s.send(o.b)
      if (++open === o.c) setTimeout(stop, o.d * 1000)
    })
    s.on('message', () => {
      total++
      if (!stopping) s.send(o.b)
    })
    s.on('error', (err) => { console.error(err.message); process.exitCode = 1 })
    sockets.push(s)
  }
  function stop () {
    stopping = true
    process.stdout.write(JSON.stringify({ requests: { total } }) + '\n')
    for (const s of sockets) s.terminate()
  }
}
